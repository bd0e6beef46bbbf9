#include "policy.h"

#include <stdlib.h>
#include <string.h>

#include "yamldoc.h"

static void matcher_clear(hg_matcher *m) {
  hg_strv_free(m->names, m->n_names);
  pcre2_code_free(m->value);
  pcre2_code_free(m->unlimited);
  free(m->value_src);
}

static int compile_regex(hg_yaml *y, yaml_node_t *node, const char *what, pcre2_code **out, char **src_out,
                         hg_error *err) {
  const char *src;
  if (hg_yaml_scalar(y, node, what, &src, err) != 0)
    return -1;
  int code;
  PCRE2_SIZE off;
  *out = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &code, &off, NULL);
  if (!*out) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code, msg, sizeof(msg));
    return hg_yaml_error(y, node, err, "%s: invalid regex at offset %zu: %s", what, (size_t)off, msg);
  }
  if (src_out)
    *src_out = hg_xstrdup(src);
  return 0;
}

static int load_matcher(hg_yaml *y, yaml_node_t *node, const char *what, hg_matcher *m, hg_error *err) {
  static const char *const keys[] = {"name", "value", "unlimited", NULL};
  if (hg_yaml_mapping(y, node, keys, what, err) != 0)
    return -1;
  yaml_node_t *name = hg_yaml_get(y, node, "name"), *value = hg_yaml_get(y, node, "value"),
              *unlimited = hg_yaml_get(y, node, "unlimited");
  if (!name)
    return hg_yaml_error(y, node, err, "%s: missing 'name'", what);
  if (hg_yaml_strings(y, name, what, &m->names, &m->n_names, err) != 0)
    return -1;
  if (value && compile_regex(y, value, what, &m->value, &m->value_src, err) != 0)
    return -1;
  if (unlimited && compile_regex(y, unlimited, what, &m->unlimited, NULL, err) != 0)
    return -1;
  return 0;
}

// `kwarg:` / `flag:` is one matcher mapping or a list of them.
static int load_matchers(hg_yaml *y, yaml_node_t *node, const char *what, hg_matcher **out, size_t *n, hg_error *err) {
  if (node->type == YAML_MAPPING_NODE) {
    *out = hg_xcalloc(1, sizeof(hg_matcher));
    *n = 1;
    return load_matcher(y, node, what, *out, err);
  }
  if (node->type != YAML_SEQUENCE_NODE)
    return hg_yaml_error(y, node, err, "%s: expected a mapping {name, value} or a list of them", what);
  size_t count = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
  *out = hg_xcalloc(count, sizeof(hg_matcher));
  *n = count;
  for (size_t i = 0; i < count; i++)
    if (load_matcher(y, hg_yaml_node(y, node->data.sequence.items.start[i]), what, &(*out)[i], err) != 0)
      return -1;
  return 0;
}

static int load_requirement(hg_yaml *y, yaml_node_t *key, yaml_node_t *node, hg_requirement *r, hg_error *err) {
  static const char *const keys[] = {"summary", "kwarg", "flag", "fix", "compose", NULL};
  static const char *const fix_keys[] = {"kwarg", "flag", "compose", NULL};
  r->id = hg_xstrdup((const char *)key->data.scalar.value);
  char what[160];
  snprintf(what, sizeof(what), "requirement '%s'", r->id);
  if (hg_yaml_mapping(y, node, keys, what, err) != 0)
    return -1;
  const char *s;
  yaml_node_t *summary = hg_yaml_get(y, node, "summary"), *kwarg = hg_yaml_get(y, node, "kwarg"),
              *flag = hg_yaml_get(y, node, "flag"), *fix = hg_yaml_get(y, node, "fix"),
              *compose = hg_yaml_get(y, node, "compose");
  if (!summary || !kwarg || !flag || !fix)
    return hg_yaml_error(y, node, err, "%s: needs 'summary', 'kwarg', 'flag' and 'fix'", what);
  if (hg_yaml_scalar(y, summary, what, &s, err) != 0)
    return -1;
  r->summary = hg_xstrdup(s);
  if (load_matchers(y, kwarg, what, &r->kwargs, &r->n_kwargs, err) != 0)
    return -1;
  if (load_matchers(y, flag, what, &r->flags, &r->n_flags, err) != 0)
    return -1;
  if (compose && load_matchers(y, compose, what, &r->compose, &r->n_compose, err) != 0)
    return -1;
  if (hg_yaml_mapping(y, fix, fix_keys, what, err) != 0)
    return -1;
  yaml_node_t *fk = hg_yaml_get(y, fix, "kwarg"), *ff = hg_yaml_get(y, fix, "flag"),
              *fc = hg_yaml_get(y, fix, "compose");
  if (!fk || !ff)
    return hg_yaml_error(y, fix, err, "%s: 'fix' needs 'kwarg' and 'flag'", what);
  // A compose spelling without its fix text would leave a compose finding without a hint, and a
  // fix text without a spelling would suggest what can never satisfy the requirement.
  if (!compose != !fc)
    return hg_yaml_error(y, compose ? fix : fc, err, "%s: 'compose' and 'fix.compose' go together", what);
  if (hg_yaml_scalar(y, fk, what, &s, err) != 0)
    return -1;
  r->fix_kwarg = hg_xstrdup(s);
  if (hg_yaml_scalar(y, ff, what, &s, err) != 0)
    return -1;
  r->fix_flag = hg_xstrdup(s);
  if (fc) {
    if (hg_yaml_scalar(y, fc, what, &s, err) != 0)
      return -1;
    r->fix_compose = hg_xstrdup(s);
  }
  return 0;
}

static int load_forbidden(hg_yaml *y, yaml_node_t *key, yaml_node_t *node, hg_forbidden *f, hg_error *err) {
  static const char *const keys[] = {"message", "kwarg", "flag", "compose", NULL};
  f->id = hg_xstrdup((const char *)key->data.scalar.value);
  char what[160];
  snprintf(what, sizeof(what), "forbidden option '%s'", f->id);
  if (hg_yaml_mapping(y, node, keys, what, err) != 0)
    return -1;
  yaml_node_t *message = hg_yaml_get(y, node, "message"), *kwarg = hg_yaml_get(y, node, "kwarg"),
              *flag = hg_yaml_get(y, node, "flag"), *compose = hg_yaml_get(y, node, "compose");
  if (!message || (!kwarg && !flag && !compose))
    return hg_yaml_error(y, node, err, "%s: needs 'message' and a 'kwarg', 'flag' or 'compose'", what);
  const char *s;
  if (hg_yaml_scalar(y, message, what, &s, err) != 0)
    return -1;
  f->message = hg_xstrdup(s);
  if (kwarg && load_matchers(y, kwarg, what, &f->kwargs, &f->n_kwargs, err) != 0)
    return -1;
  if (flag && load_matchers(y, flag, what, &f->flags, &f->n_flags, err) != 0)
    return -1;
  if (compose && load_matchers(y, compose, what, &f->compose, &f->n_compose, err) != 0)
    return -1;
  return 0;
}

// Optional lists of strings under `parent`, each into its own field.
typedef struct {
  const char *key;
  char ***list;
  size_t *n;
} string_list;

static int load_lists(hg_yaml *y, yaml_node_t *parent, const char *where, string_list *lists, size_t n,
                      hg_error *err) {
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *l = hg_yaml_get(y, parent, lists[i].key);
    char what[64];
    snprintf(what, sizeof(what), "%s.%s", where, lists[i].key);
    if (l && hg_yaml_strings(y, l, what, lists[i].list, lists[i].n, err) != 0)
      return -1;
  }
  return 0;
}

static int load(hg_policy *p, hg_yaml *y, hg_error *err) {
  static const char *const top[] = {"require", "forbid", "cli", "classes", NULL};
  static const char *const class_keys[] = {"field_decorators", "field_bases", "field_calls", "property_decorators",
                                           NULL};
  static const char *const cli_keys[] = {"subcommands",  "boolean_flags", "repeatable_flags", "process_calls",
                                         "programs",     "verbs",         "wrappers",         "global_value_flags",
                                         NULL};
  yaml_node_t *root = hg_yaml_root(y);
  if (hg_yaml_mapping(y, root, top, "policy", err) != 0)
    return -1;
  yaml_node_t *req = hg_yaml_get(y, root, "require"), *cli = hg_yaml_get(y, root, "cli");
  if (!req || req->type != YAML_MAPPING_NODE || req->data.mapping.pairs.top == req->data.mapping.pairs.start)
    return hg_yaml_error(y, req ? req : root, err, "policy: 'require' must be a non-empty mapping");
  size_t n = (size_t)(req->data.mapping.pairs.top - req->data.mapping.pairs.start);
  if (n > HG_POLICY_MAX_REQ)
    return hg_yaml_error(y, req, err, "policy: at most %d requirements", HG_POLICY_MAX_REQ);
  p->req = hg_xcalloc(n, sizeof(hg_requirement));
  for (size_t i = 0; i < n; i++) {
    yaml_node_pair_t *pair = &req->data.mapping.pairs.start[i];
    yaml_node_t *key = hg_yaml_node(y, pair->key);
    p->n_req = i + 1;
    if (key->type != YAML_SCALAR_NODE)
      return hg_yaml_error(y, key, err, "policy: requirement ids are strings");
    if (load_requirement(y, key, hg_yaml_node(y, pair->value), &p->req[i], err) != 0)
      return -1;
  }
  yaml_node_t *forbid = hg_yaml_get(y, root, "forbid");
  if (forbid) {
    if (forbid->type != YAML_MAPPING_NODE)
      return hg_yaml_error(y, forbid, err, "policy: 'forbid' must be a mapping");
    size_t nf = (size_t)(forbid->data.mapping.pairs.top - forbid->data.mapping.pairs.start);
    p->forbid = hg_xcalloc(nf ? nf : 1, sizeof(hg_forbidden));
    for (size_t i = 0; i < nf; i++) {
      yaml_node_pair_t *pair = &forbid->data.mapping.pairs.start[i];
      yaml_node_t *key = hg_yaml_node(y, pair->key);
      p->n_forbid = i + 1;
      if (key->type != YAML_SCALAR_NODE)
        return hg_yaml_error(y, key, err, "policy: forbidden option ids are strings");
      if (load_forbidden(y, key, hg_yaml_node(y, pair->value), &p->forbid[i], err) != 0)
        return -1;
    }
  }
  yaml_node_t *classes = hg_yaml_get(y, root, "classes");
  if (classes) {
    if (hg_yaml_mapping(y, classes, class_keys, "classes", err) != 0)
      return -1;
    string_list lists[] = {{"field_decorators", &p->field_decorators, &p->n_field_decorators},
                           {"field_bases", &p->field_bases, &p->n_field_bases},
                           {"field_calls", &p->field_calls, &p->n_field_calls},
                           {"property_decorators", &p->property_decorators, &p->n_property_decorators}};
    if (load_lists(y, classes, "classes", lists, sizeof(lists) / sizeof(lists[0]), err) != 0)
      return -1;
  }
  if (!cli)
    return hg_yaml_error(y, root, err, "policy: missing 'cli'");
  if (hg_yaml_mapping(y, cli, cli_keys, "cli", err) != 0)
    return -1;
  yaml_node_t *sub = hg_yaml_get(y, cli, "subcommands"), *bools = hg_yaml_get(y, cli, "boolean_flags"),
              *rep = hg_yaml_get(y, cli, "repeatable_flags"), *proc = hg_yaml_get(y, cli, "process_calls");
  if (!sub || !bools)
    return hg_yaml_error(y, cli, err, "cli: needs 'subcommands' and 'boolean_flags'");
  if (hg_yaml_strings(y, sub, "cli.subcommands", &p->subcommands, &p->n_subcommands, err) != 0)
    return -1;
  if (rep && hg_yaml_strings(y, rep, "cli.repeatable_flags", &p->repeatable_flags, &p->n_repeatable_flags, err) != 0)
    return -1;
  if (proc && hg_yaml_strings(y, proc, "cli.process_calls", &p->process_calls, &p->n_process_calls, err) != 0)
    return -1;
  string_list more[] = {{"programs", &p->programs, &p->n_programs},
                        {"verbs", &p->verbs, &p->n_verbs},
                        {"wrappers", &p->wrappers, &p->n_wrappers},
                        {"global_value_flags", &p->global_value_flags, &p->n_global_value_flags}};
  if (load_lists(y, cli, "cli", more, sizeof(more) / sizeof(more[0]), err) != 0)
    return -1;
  return hg_yaml_strings(y, bools, "cli.boolean_flags", &p->boolean_flags, &p->n_boolean_flags, err);
}

int hg_policy_load(hg_policy **out, const char *path, const char *bytes, size_t len, hg_error *err) {
  *out = NULL;
  hg_yaml y;
  if (hg_yaml_load(&y, path, bytes, len, err) != 0) {
    hg_yaml_free(&y);
    return -1;
  }
  hg_policy *p = hg_xcalloc(1, sizeof(hg_policy));
  p->path = hg_xstrdup(path);
  int rc = load(p, &y, err);
  hg_yaml_free(&y);
  if (rc != 0) {
    hg_policy_free(p);
    return -1;
  }
  *out = p;
  return 0;
}

void hg_policy_free(hg_policy *self) {
  if (!self)
    return;
  for (size_t i = 0; i < self->n_req; i++) {
    hg_requirement *r = &self->req[i];
    free(r->id);
    free(r->summary);
    for (size_t j = 0; j < r->n_kwargs; j++)
      matcher_clear(&r->kwargs[j]);
    for (size_t j = 0; j < r->n_flags; j++)
      matcher_clear(&r->flags[j]);
    for (size_t j = 0; j < r->n_compose; j++)
      matcher_clear(&r->compose[j]);
    free(r->kwargs);
    free(r->flags);
    free(r->compose);
    free(r->fix_kwarg);
    free(r->fix_flag);
    free(r->fix_compose);
  }
  free(self->req);
  for (size_t i = 0; i < self->n_forbid; i++) {
    hg_forbidden *f = &self->forbid[i];
    free(f->id);
    free(f->message);
    for (size_t j = 0; j < f->n_kwargs; j++)
      matcher_clear(&f->kwargs[j]);
    for (size_t j = 0; j < f->n_flags; j++)
      matcher_clear(&f->flags[j]);
    for (size_t j = 0; j < f->n_compose; j++)
      matcher_clear(&f->compose[j]);
    free(f->kwargs);
    free(f->flags);
    free(f->compose);
  }
  free(self->forbid);
  hg_strv_free(self->boolean_flags, self->n_boolean_flags);
  hg_strv_free(self->subcommands, self->n_subcommands);
  hg_strv_free(self->programs, self->n_programs);
  hg_strv_free(self->verbs, self->n_verbs);
  hg_strv_free(self->wrappers, self->n_wrappers);
  hg_strv_free(self->global_value_flags, self->n_global_value_flags);
  hg_strv_free(self->repeatable_flags, self->n_repeatable_flags);
  hg_strv_free(self->process_calls, self->n_process_calls);
  hg_strv_free(self->field_decorators, self->n_field_decorators);
  hg_strv_free(self->field_bases, self->n_field_bases);
  hg_strv_free(self->field_calls, self->n_field_calls);
  hg_strv_free(self->property_decorators, self->n_property_decorators);
  free(self->path);
  free(self);
}

bool hg_matcher_unlimited(const hg_matcher *self, const char *text, pcre2_match_data *md) {
  return self->unlimited && pcre2_match(self->unlimited, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL) >= 0;
}

bool hg_matcher_value_ok(const hg_matcher *self, const char *text, pcre2_match_data *md) {
  if (!self->value)
    return true;
  return pcre2_match(self->value, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL) >= 0;
}

const hg_requirement *hg_policy_requirement(const hg_policy *self, const char *id, size_t *index) {
  for (size_t i = 0; i < self->n_req; i++)
    if (strcmp(self->req[i].id, id) == 0) {
      if (index)
        *index = i;
      return &self->req[i];
    }
  return NULL;
}

static bool in(char *const *v, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(v[i], s) == 0)
      return true;
  return false;
}

bool hg_matcher_has_name(const hg_matcher *self, const char *name) { return in(self->names, self->n_names, name); }

bool hg_policy_is_boolean_flag(const hg_policy *self, const char *flag) {
  return in(self->boolean_flags, self->n_boolean_flags, flag);
}

bool hg_policy_is_repeatable_flag(const hg_policy *self, const char *flag) {
  return in(self->repeatable_flags, self->n_repeatable_flags, flag);
}

bool hg_policy_list_has(char *const *list, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(list[i]) == len && !memcmp(list[i], name, len))
      return true;
  return false;
}

bool hg_policy_is_process_call(const hg_policy *self, const char *qualified) {
  return in(self->process_calls, self->n_process_calls, qualified);
}

bool hg_policy_is_program(const hg_policy *self, const char *word) {
  return in(self->programs, self->n_programs, word);
}
bool hg_policy_is_verb(const hg_policy *self, const char *word) { return in(self->verbs, self->n_verbs, word); }
bool hg_policy_is_wrapper(const hg_policy *self, const char *word) {
  return in(self->wrappers, self->n_wrappers, word);
}
bool hg_policy_is_global_value_flag(const hg_policy *self, const char *word) {
  return in(self->global_value_flags, self->n_global_value_flags, word);
}

bool hg_policy_is_subcommand(const hg_policy *self, const char *word) {
  return in(self->subcommands, self->n_subcommands, word);
}
