#include "rules/config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/glob.h"
#include "base/path.h"
#include "base/yamldoc.h"

hg_config *hg_config_empty(const char *root) {
  hg_config *c = hg_xcalloc(1, sizeof(hg_config));
  c->root = hg_xstrdup(root);
  return c;
}

void hg_config_free(hg_config *self) {
  if (!self) return;
  for (size_t i = 0; i < self->n_builders; i++) {
    free(self->builders[i].module);
    hg_strv_free(self->builders[i].callables, self->builders[i].n_callables);
  }
  free(self->builders);
  hg_strv_free(self->exclude, self->n_exclude);
  free(self->exclude_lines);
  for (size_t i = 0; i < self->n_allow; i++) {
    hg_strv_free(self->allow[i].paths, self->allow[i].n_paths);
    hg_strv_free(self->allow[i].requirements, self->allow[i].n_requirements);
    free(self->allow[i].reason);
  }
  free(self->allow);
  free(self->path);
  free(self->root);
  free(self);
}

static bool valid_dotted(const char *s, bool allow_class_method) {
  size_t dots = 0;
  for (const char *p = s; *p; p++) dots += *p == '.';
  return hg_dotted_name(s, strlen(s)) && (!allow_class_method || dots <= 1);
}

// A Go package's path below the module (internal/hardening): elements of letters, digits, `_`,
// `-` and `.`, joined by `/`.
static bool valid_package_path(const char *s) {
  if (!strchr(s, '/'))
    return false;
  for (const char *p = s; *p; p++) {
    bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("_-./", *p);
    if (!ok || (*p == '/' && (p == s || p[1] == '/' || !p[1])))
      return false;
  }
  return true;
}

// `true` or `false`.
static int yaml_bool(hg_yaml *y, yaml_node_t *node, const char *what, bool *out, hg_error *err) {
  const char *t;
  if (hg_yaml_scalar(y, node, what, &t, err) != 0) return -1;
  if (strcmp(t, "true") && strcmp(t, "false"))
    return hg_yaml_error(y, node, err, "%s: expected true or false, got '%s'", what, t);
  *out = !strcmp(t, "true");
  return 0;
}

static int load_builders(hg_config *c, hg_yaml *y, yaml_node_t *node, hg_error *err) {
  static const char *const keys[] = {"module", "callables", "trust", NULL};
  if (node->type != YAML_SEQUENCE_NODE)
    return hg_yaml_error(y, node, err, "builders: expected a list of {module, callables}");
  size_t n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
  c->builders = hg_xcalloc(n, sizeof(hg_builder));
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *b = hg_yaml_node(y, node->data.sequence.items.start[i]);
    if (hg_yaml_mapping(y, b, keys, "builder", err) != 0) return -1;
    yaml_node_t *module = hg_yaml_get(y, b, "module"), *callables = hg_yaml_get(y, b, "callables");
    if (!module || !callables) return hg_yaml_error(y, b, err, "builder: needs 'module' and 'callables'");
    const char *m;
    if (hg_yaml_scalar(y, module, "builder.module", &m, err) != 0) return -1;
    if (!valid_dotted(m, false) && !valid_package_path(m))
      return hg_yaml_error(y, module, err,
                           "builder.module: expected a dotted module path (Python) or a package path (Go: "
                           "internal/hardening), got '%s'", m);
    hg_builder *hb = &c->builders[c->n_builders++];
    hb->module = hg_xstrdup(m);
    hb->line = (uint32_t)b->start_mark.line + 1;
    if (hg_yaml_strings(y, callables, "builder.callables", &hb->callables, &hb->n_callables, err) != 0)
      return -1;
    if (hb->n_callables == 0) return hg_yaml_error(y, callables, err, "builder.callables: empty list");
    yaml_node_t *trust = hg_yaml_get(y, b, "trust");
    if (trust && yaml_bool(y, trust, "builder.trust", &hb->trust, err) != 0) return -1;
    for (size_t j = 0; j < hb->n_callables; j++)
      if (!valid_dotted(hb->callables[j], true))
        return hg_yaml_error(y, callables, err,
                             "builder.callables: expected a function or Class.method name, got '%s'",
                             hb->callables[j]);
  }
  return 0;
}

// surfaces: {shell: false, make: true}: which surfaces are read (all are, unless turned off).
static int load_surfaces(hg_config *c, hg_yaml *y, yaml_node_t *node, hg_error *err) {
  if (node->type != YAML_MAPPING_NODE)
    return hg_yaml_error(y, node, err, "surfaces: expected a mapping of surface: true|false");
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hg_yaml_node(y, p->key), *v = hg_yaml_node(y, p->value);
    const char *name, *on;
    if (hg_yaml_scalar(y, k, "surfaces", &name, err) != 0 || hg_yaml_scalar(y, v, "surfaces", &on, err) != 0)
      return -1;
    int s = hg_surface_by_id(name);
    if (s < 0) {
      hg_buf known = {0};
      hg_surface_list(&known);
      int rc = hg_yaml_error(y, k, err, "surfaces: unknown surface '%s' (known: %s)", name, known.data);
      hg_buf_free(&known);
      return rc;
    }
    if (strcmp(on, "true") && strcmp(on, "false"))
      return hg_yaml_error(y, v, err, "surfaces: %s: expected true or false, found '%s'", name, on);
    c->surface_off[s] = !strcmp(on, "false");
    c->surface_line[s] = (uint32_t)k->start_mark.line + 1;
  }
  return 0;
}

// exclude: a glob or a list of globs, each remembered with its line.
static int load_exclude(hg_config *c, hg_yaml *y, yaml_node_t *node, hg_error *err) {
  if (hg_yaml_strings(y, node, "exclude", &c->exclude, &c->n_exclude, err) != 0) return -1;
  c->exclude_lines = hg_xcalloc(c->n_exclude ? c->n_exclude : 1, sizeof(uint32_t));
  for (size_t i = 0; i < c->n_exclude; i++) {
    const yaml_node_t *item = node->type == YAML_SEQUENCE_NODE
                                  ? hg_yaml_node(y, node->data.sequence.items.start[i])
                                  : node;
    c->exclude_lines[i] = (uint32_t)item->start_mark.line + 1;
  }
  return 0;
}

// allow: [{paths: [...], requirements: [...], reason: ...}]
static int load_allow(hg_config *c, hg_yaml *y, yaml_node_t *node, hg_error *err) {
  static const char *const keys[] = {"paths", "requirements", "reason", NULL};
  if (node->type != YAML_SEQUENCE_NODE)
    return hg_yaml_error(y, node, err, "allow: expected a list of {paths, requirements, reason}");
  size_t n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
  c->allow = hg_xcalloc(n ? n : 1, sizeof(hg_allowance));
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *e = hg_yaml_node(y, node->data.sequence.items.start[i]);
    hg_allowance *a = &c->allow[i];
    c->n_allow = i + 1;
    if (hg_yaml_mapping(y, e, keys, "allow", err) != 0)
      return -1;
    a->line = (uint32_t)e->start_mark.line + 1;
    yaml_node_t *paths = hg_yaml_get(y, e, "paths"), *reqs = hg_yaml_get(y, e, "requirements"),
                *reason = hg_yaml_get(y, e, "reason");
    const char *why = NULL;
    if (!paths || !reqs || !reason)
      return hg_yaml_error(y, e, err, "allow: each entry needs paths, requirements and a reason");
    if (hg_yaml_strings(y, paths, "allow.paths", &a->paths, &a->n_paths, err) != 0 ||
        hg_yaml_strings(y, reqs, "allow.requirements", &a->requirements, &a->n_requirements, err) != 0 ||
        hg_yaml_scalar(y, reason, "allow.reason", &why, err) != 0)
      return -1;
    size_t k = strspn(why, " \t");
    if (!why[k])
      return hg_yaml_error(y, reason, err, "allow: the reason is empty: say why these paths need the exception");
    a->reason = hg_xstrdup(why);
  }
  return 0;
}

int hg_config_parse(hg_config **out, const char *path, const char *bytes, size_t len, hg_error *err) {
  static const char *const top[] = {"builders", "exclude", "surfaces", "allow", "strict", NULL};
  *out = NULL;
  hg_yaml y;
  hg_config *c = hg_config_empty("");
  free(c->root);
  c->root = hg_path_dir(path);
  c->path = hg_xstrdup(path);
  int rc = hg_yaml_load(&y, path, bytes, len, err);
  if (rc == 0) {
    yaml_node_t *root = hg_yaml_root(&y);
    rc = hg_yaml_mapping(&y, root, top, "config", err);
    yaml_node_t *builders = rc == 0 ? hg_yaml_get(&y, root, "builders") : NULL;
    yaml_node_t *exclude = rc == 0 ? hg_yaml_get(&y, root, "exclude") : NULL;
    if (rc == 0 && builders) rc = load_builders(c, &y, builders, err);
    if (rc == 0 && exclude) rc = load_exclude(c, &y, exclude, err);
    yaml_node_t *surfaces = rc == 0 ? hg_yaml_get(&y, root, "surfaces") : NULL;
    yaml_node_t *allow = rc == 0 ? hg_yaml_get(&y, root, "allow") : NULL;
    if (rc == 0 && surfaces) rc = load_surfaces(c, &y, surfaces, err);
    if (rc == 0 && allow) rc = load_allow(c, &y, allow, err);
    yaml_node_t *strict = rc == 0 ? hg_yaml_get(&y, root, "strict") : NULL;
    if (rc == 0 && strict && (rc = yaml_bool(&y, strict, "strict", &c->strict, err)) == 0)
      c->strict_line = (uint32_t)strict->start_mark.line + 1;
  }
  hg_yaml_free(&y);
  if (rc != 0) {
    hg_config_free(c);
    return -1;
  }
  *out = c;
  return 0;
}

int hg_config_load(hg_config **out, const char *path, hg_error *err) {
  *out = NULL;
  char *bytes;
  size_t len;
  if (hg_read_file(&bytes, &len, path, err) != 0) return -1;
  int rc = hg_config_parse(out, path, bytes, len, err);
  free(bytes);
  return rc;
}

// `dir` followed by `ups` "/.." and then `tail` (may be "").
static char *up_from(const char *dir, size_t ups, const char *tail) {
  hg_buf b = {0};
  hg_buf_puts(&b, dir);
  for (size_t i = 0; i < ups; i++) hg_buf_puts(&b, "/..");
  hg_buf_puts(&b, tail);
  return hg_buf_detach(&b);
}

// The empty config of a run without a config file: rooted at the directory named, or for a file
// (a pre-commit hook's staged `pkg/lib.py`) at the git work tree holding it, whose other files call
// it and whose packages name it, spelled from `dir` as the user reached it ("pkg/.."); outside
// one, at the file's directory.
static hg_config *empty_config(const char *dir, bool file) {
  char *top = file ? hg_path_git_top(dir) : NULL, real[PATH_MAX];
  if (!top || !realpath(dir, real)) {
    free(top);
    return hg_config_empty(dir);
  }
  size_t ups = 0;
  for (const char *p = real + strlen(top); *p; p++) ups += *p == '/';
  free(top);
  char *root = up_from(dir, ups, "");
  hg_config *c = hg_config_empty(root);
  free(root);
  return c;
}

int hg_config_discover(hg_config **out, const char *start, hg_error *err) {
  struct stat st;
  bool file = !(stat(start, &st) == 0 && S_ISDIR(st.st_mode));
  char *dir = file ? hg_path_dir(start) : hg_xstrdup(start);
  // Walk up through the real path so that "." and relative paths reach the repository root,
  // but report the config under the name the user reached it by.
  char real[PATH_MAX];
  if (!realpath(dir, real)) {
    *out = hg_config_empty(dir);
    free(dir);
    return 0;
  }
  size_t ups = 0;
  for (;;) {
    char *candidate = hg_xasprintf("%s/.hardguard.yml", real);
    bool found = access(candidate, F_OK) == 0;
    free(candidate);
    if (found) break;
    char *slash = strrchr(real, '/');
    if (!slash || slash == real) {
      *out = empty_config(dir, file);
      free(dir);
      return 0;
    }
    *slash = '\0';
    ups++;
  }
  char *path = up_from(dir, ups, "/.hardguard.yml");
  free(dir);
  int rc = hg_config_load(out, path, err);
  free(path);
  return rc;
}

// `path` relative to `root`, both as the user spelled them; NULL when path is not under root.
static const char *relative_to(const char *root, const char *path) {
  if (strcmp(root, ".") == 0) {
    while (path[0] == '.' && path[1] == '/') path += 2;
    return path;
  }
  size_t n = strlen(root);
  while (n > 1 && root[n - 1] == '/') n--;
  return hg_path_below(path, root, n);
}

// Does one of `globs` match `path`, relative to the root?
static bool matches(const hg_config *self, char *const *globs, size_t n, const char *path) {
  const char *rel = relative_to(self->root, path);
  if (!rel) {
    // Spelled differently (e.g. "../x" vs "."): compare real paths.
    char rroot[PATH_MAX], rpath[PATH_MAX];
    if (!realpath(self->root, rroot) || !realpath(path, rpath)) return false;
    size_t k = strlen(rroot);
    const char *below = hg_path_below(rpath, rroot, k);
    if (!below) return false;
    for (size_t i = 0; i < n; i++)
      if (hg_glob_match(globs[i], below)) return true;
    return false;
  }
  for (size_t i = 0; i < n; i++)
    if (hg_glob_match(globs[i], rel)) return true;
  return false;
}

int hg_config_check(const hg_config *self, const hg_policy *policy, hg_error *err) {
  for (size_t i = 0; i < self->n_allow; i++)
    for (size_t k = 0; k < self->allow[i].n_requirements; k++) {
      const char *id = self->allow[i].requirements[k];
      bool known = false;
      for (size_t r = 0; r < policy->n_req && !known; r++) known = !strcmp(policy->req[r].id, id);
      if (known) continue;
      bool forbidden = false;
      for (size_t f = 0; f < policy->n_forbid && !forbidden; f++) forbidden = !strcmp(policy->forbid[f].id, id);
      return hg_error_set(err, "%s:%u: allow: '%s' %s", self->path, self->allow[i].line, id,
                          forbidden ? "is a forbidden option, which no exception relaxes"
                                    : "is not a requirement of the policy (hardguard --list-rules lists them)");
    }
  return 0;
}

uint64_t hg_config_allowed(const hg_config *self, const hg_policy *policy, const char *path,
                           const char *reasons[HG_POLICY_MAX_REQ]) {
  uint64_t bits = 0;
  for (size_t i = 0; i < self->n_allow; i++) {
    const hg_allowance *a = &self->allow[i];
    if (!matches(self, a->paths, a->n_paths, path)) continue;
    for (size_t k = 0; k < a->n_requirements; k++)
      for (size_t r = 0; r < policy->n_req; r++)
        if (!strcmp(policy->req[r].id, a->requirements[k]) && !(bits & (UINT64_C(1) << r))) {
          bits |= UINT64_C(1) << r;
          reasons[r] = a->reason;
        }
  }
  return bits;
}

bool hg_config_excludes(const hg_config *self, const char *path) {
  return self->n_exclude && matches(self, self->exclude, self->n_exclude, path);
}
