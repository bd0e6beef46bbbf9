// CI files: each scalar the CI rules select is a shell script, parsed with tree-sitter-bash and
// read by the shell surface's rules; what they find is moved to the file's own lines and columns.
#include "surfaces/ci/ci.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/table.h"
#include "surfaces/ci/container.h"
#include "surfaces/shell/sh.h"
#include "surfaces/shell/shell.h"
#include "surfaces/ydoc.h"
#include "surfaces/registry.h"

typedef struct {
  hg_extractor *ex;
  const hg_ruleset *rules;
  hg_arena *arena;
  const hg_source *src;
  hg_site_vec *sites;
  hg_marker_vec *markers;
  HG_VEC(uint32_t) from, to; // the byte ranges of the scripts
} ci_ctx;

typedef HG_VEC(yaml_node_t *) node_vec;

// The scalars of a list, nested lists (from anchors) flattened, in order.
static void scalars(hg_ydoc *doc, yaml_node_t *node, int depth, node_vec *out) {
  if (depth > 8)
    return;
  if (node->type == YAML_SCALAR_NODE) {
    HG_VEC_PUSH(out, node);
    return;
  }
  if (node->type != YAML_SEQUENCE_NODE)
    return;
  for (yaml_node_item_t *i = node->data.sequence.items.start; i < node->data.sequence.items.top; i++) {
    yaml_node_t *item = yaml_document_get_node(&doc->yaml.doc, *i);
    if (item)
      scalars(doc, item, depth + 1, out);
  }
}

// A list of script lines (GitLab's `script: [...]`) is one script, run by one shell: the lines
// joined with newlines, each newline standing at the end of its line's item.
static void embed_lines(hg_ydoc *doc, yaml_node_t *list, hg_arena *arena, hg_embed *out) {
  node_vec items = {0};
  scalars(doc, list, 0, &items);
  hg_embed *parts = hg_arena_alloc(arena, (items.len ? items.len : 1) * sizeof(hg_embed));
  uint32_t len = 0;
  for (size_t i = 0; i < items.len; i++) {
    hg_ydoc_embed(doc, items.items[i], arena, &parts[i]);
    len += parts[i].len + (i + 1 < items.len);
  }
  char *text = hg_arena_alloc(arena, len + 1 + HG_SOURCE_PAD);
  uint32_t *at = hg_arena_alloc(arena, (len + 1) * sizeof(uint32_t)), k = 0;
  for (size_t i = 0; i < items.len; i++) {
    memcpy(text + k, parts[i].text, parts[i].len);
    memcpy(at + k, parts[i].at, parts[i].len * sizeof(uint32_t));
    k += parts[i].len;
    if (i + 1 < items.len) {
      text[k] = '\n';
      at[k++] = parts[i].at[parts[i].len];
    }
  }
  memset(text + len, 0, 1 + HG_SOURCE_PAD);
  at[len] = items.len ? parts[items.len - 1].at[parts[items.len - 1].len] : hg_ydoc_byte(doc, list->start_mark);
  free(items.items);
  *out = (hg_embed){text, len, at};
}

// The shell a step runs its script with, as GitHub Actions decides: the step's `shell:`, else
// `defaults.run.shell` of its job, then of the workflow, else PowerShell on a Windows runner and
// bash elsewhere (NULL). GitLab scripts have no such key.
static const char *step_shell(hg_ydoc *doc, yaml_node_t *const *above, size_t n) {
  for (size_t i = n; i-- > 0;) {
    yaml_node_t *shell = hg_yaml_get(&doc->yaml, above[i], "shell");
    if (!shell)
      shell = hg_yaml_get(&doc->yaml, hg_yaml_get(&doc->yaml, hg_yaml_get(&doc->yaml, above[i], "defaults"), "run"), "shell");
    if (shell && shell->type == YAML_SCALAR_NODE)
      return (const char *)shell->data.scalar.value;
  }
  for (size_t i = n; i-- > 0;) {
    yaml_node_t *runs_on = hg_yaml_get(&doc->yaml, above[i], "runs-on");
    if (runs_on && runs_on->type == YAML_SCALAR_NODE && strstr((const char *)runs_on->data.scalar.value, "windows"))
      return "pwsh";
  }
  return NULL;
}

// Is it one of the shell surface's interpreters (`bash`, `sh -e {0}`, `/usr/bin/bash --noprofile {0}`)?
static bool posix_shell(const char *shell) {
  return !shell || hg_surface_by_command(shell, strlen(shell)) == HG_SURFACE_SHELL;
}

// Is it PowerShell (`pwsh`, `powershell`, `pwsh -command ". '{0}'"`, `C:\...\pwsh.exe`)?
static bool powershell(const char *shell) {
  if (!shell)
    return false;
  size_t n = strcspn(shell, " \t");
  const char *base = shell;
  for (size_t i = 0; i < n; i++)
    if (shell[i] == '/' || shell[i] == '\\')
      base = shell + i + 1;
  size_t len = (size_t)(shell + n - base);
  if (len > 4 && !strncasecmp(base + len - 4, ".exe", 4))
    len -= 4;
  return (len == 4 && !strncasecmp(base, "pwsh", 4)) || (len == 10 && !strncasecmp(base, "powershell", 10));
}

// A PowerShell script as the shell reader reads it: a backtick ending a line continues the command
// on the next, as a backslash does in a POSIX shell, and is replaced by one (same length, so every
// byte keeps its place in the file). Native commands (`docker run ...`, `& docker run ...`) with
// literal words, '...' and "..." strings and `$variables` (unknown unless the script assigns them
// as a POSIX shell would) read as they would run; PowerShell's own syntax around them either reads
// as shell or is a region that may hide a site (docs/sites.md).
static hg_embed powershell_as_shell(const hg_embed *e, hg_arena *arena) {
  char *text = hg_arena_alloc(arena, e->len + 1 + HG_SOURCE_PAD);
  memcpy(text, e->text, e->len);
  memset(text + e->len, 0, 1 + HG_SOURCE_PAD);
  for (uint32_t i = 0; i + 1 < e->len; i++)
    if (text[i] == '`' && (text[i + 1] == '\n' || (text[i + 1] == '\r' && i + 2 < e->len && text[i + 2] == '\n')))
      text[i] = '\\';
  return (hg_embed){text, e->len, e->at};
}

// GitHub Actions fills in `${{ expression }}` before the shell runs: each becomes a variable the
// shell reading reports as unknown, its bytes mapped to the expression.
static const char *const EXPRESSION[] = {"github_expression"};
static const hg_sh_env EXPRESSIONS = {EXPRESSION, NULL, 1,
                                      "a GitHub Actions expression `${{ ... }}`, filled in by the runner"};

static bool name_char(char c) {
  return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// `${{ env.NAME }}` from `s` to `end` (the `}}`): NAME (*name, *len), when it is that.
static bool env_expression(const char *s, const char *end, const char **name, size_t *len) {
  const char *p = s + 3;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (end - p < 4 || strncmp(p, "env.", 4))
    return false;
  *name = p += 4;
  while (p < end && name_char(*p))
    p++;
  *len = (size_t)(p - *name);
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return *len && p == end;
}

// The names the script reads (`$X`, `${X...`, `${{ env.X }}`), so that only those of a workflow's
// `env:` are given to it (a mapping may hold 100,000 keys).
static void names_read(const hg_embed *e, hg_table *out) {
  for (uint32_t i = 0; i + 1 < e->len; i++) {
    if (e->text[i] != '$')
      continue;
    uint32_t a = i + 1 + (e->text[i + 1] == '{');
    if (e->text[a] == '{') { // ${{ env.X }}
      const char *end = strstr(e->text + i + 3, "}}"), *name;
      size_t len;
      if (end && env_expression(e->text + i, end, &name, &len))
        hg_table_put(out, name, len, NULL);
      continue;
    }
    uint32_t b = a;
    while (b < e->len && name_char(e->text[b]))
      b++;
    if (b > a)
      hg_table_put(out, e->text + a, b - a, NULL);
  }
}

// The variables a GitHub step's script sees from its workflow: the `env:` mappings of the
// workflow, its job and the step, a later level overriding an earlier one, as the runner sets
// them. Each one the script reads and whose value is known (no expression in it) is written before
// the script as an assignment, mapped to its key in the file, so that the shell reading follows it
// like the script's own (`docker run $SANDBOX_FLAGS ...` reads the flags); for `${{ env.X }}`,
// which the runner writes into the script, the same under a name of its own, github_env_X.
typedef struct {
  HG_VEC(const char *) names; // the env: names the script reads whose values are expressions
  HG_VEC(const char *) origins;
} unknown_env;

static void workflow_env(hg_ydoc *doc, yaml_node_t *const *above, size_t n, const hg_embed *e, hg_arena *arena,
                         hg_embed_builder *b, hg_table *known, unknown_env *unknown) {
  hg_table read, seen;
  hg_table_init(&read, NULL, 0);
  names_read(e, &read);
  hg_table_init(&seen, NULL, 0);
  HG_VEC(yaml_node_pair_t *) chosen = {0};
  for (size_t i = n; i-- > 0;) { // the step first: the first level naming a key wins
    yaml_node_t *m = hg_yaml_get(&doc->yaml, above[i], "env");
    if (!m || m->type != YAML_MAPPING_NODE)
      continue;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.top; p-- > m->data.mapping.pairs.start;) {
      yaml_node_t *k = yaml_document_get_node(&doc->yaml.doc, p->key);
      if (!k || k->type != YAML_SCALAR_NODE || !hg_table_get(&read, (const char *)k->data.scalar.value,
                                                              k->data.scalar.length))
        continue;
      bool added;
      hg_table_put(&seen, (const char *)k->data.scalar.value, k->data.scalar.length, &added);
      if (added)
        HG_VEC_PUSH(&chosen, p);
    }
  }
  for (size_t i = 0; i < chosen.len; i++) {
    yaml_node_t *k = yaml_document_get_node(&doc->yaml.doc, chosen.items[i]->key),
                *v = yaml_document_get_node(&doc->yaml.doc, chosen.items[i]->value);
    const char *name = (const char *)k->data.scalar.value;
    bool shell_name = k->data.scalar.length && !(name[0] >= '0' && name[0] <= '9');
    for (size_t c = 0; c < k->data.scalar.length && shell_name; c++)
      shell_name = name_char(name[c]);
    if (!shell_name)
      continue;
    if (!v || v->type != YAML_SCALAR_NODE || strstr((const char *)v->data.scalar.value, "${{")) {
      HG_VEC_PUSH(&unknown->names, name); // not known: named as what it is
      HG_VEC_PUSH(&unknown->origins,
                  hg_arena_printf(arena, "$%s is set by a GitHub Actions expression in an env: (line %zu)", name,
                                  (size_t)k->start_mark.line + 1));
      continue;
    }
    hg_buf q = {0};
    for (const char *c = (const char *)v->data.scalar.value; *c; c++)
      hg_buf_puts(&q, *c == '\'' ? "'\\''" : (char[]){*c, 0});
    uint32_t at = hg_ydoc_byte(doc, k->start_mark);
    for (int twice = 0; twice < 2; twice++) {
      char *line = hg_xasprintf("%s%s='%s'\n", twice ? "github_env_" : "", name, q.data ? q.data : "");
      hg_embed_put(b, line, strlen(line), at, false);
      free(line);
    }
    hg_buf_free(&q);
    hg_table_put(known, name, k->data.scalar.length, NULL);
  }
  free(chosen.items);
  hg_table_free(&read);
  hg_table_free(&seen);
}

static hg_embed without_expressions(hg_ydoc *doc, yaml_node_t *const *above, size_t n, const hg_embed *e,
                                    hg_arena *arena, unknown_env *unknown) {
  hg_embed_builder b = {0};
  hg_table known; // the names of env: whose values are written before the script
  hg_table_init(&known, NULL, 0);
  workflow_env(doc, above, n, e, arena, &b, &known, unknown);
  if (!b.text.len && !strstr(e->text, "${{")) {
    hg_table_free(&known);
    return *e;
  }
  for (uint32_t i = 0; i < e->len;) {
    const char *end = e->text[i] == '$' && !strncmp(e->text + i, "${{", 3) ? strstr(e->text + i + 3, "}}") : NULL;
    const char *name;
    size_t len;
    if (end && env_expression(e->text + i, end, &name, &len) && hg_table_get(&known, name, len)) {
      // `${{ env.X }}` with X known: the runner writes X's value into the script, split as an
      // unquoted ${github_env_X} would be.
      const char *var = hg_arena_printf(arena, "${github_env_%.*s}", (int)len, name);
      hg_embed_put(&b, var, strlen(var), e->at[i], false);
      i = (uint32_t)(end + 2 - e->text);
    } else if (end) {
      hg_embed_put(&b, "${github_expression}", 20, e->at[i], false);
      i = (uint32_t)(end + 2 - e->text);
    } else {
      hg_embed_put(&b, e->text + i, 1, e->at[i], false);
      i++;
    }
  }
  hg_table_free(&known);
  return hg_embed_finish(&b, arena, e->at[e->len]);
}

static void script(hg_ydoc *doc, yaml_node_t *const *above, size_t n, yaml_node_t *key, yaml_node_t *node, void *vctx) {
  (void)key;
  ci_ctx *c = vctx;
  hg_embed e;
  if (node->type == YAML_SEQUENCE_NODE)
    embed_lines(doc, node, c->arena, &e);
  else if (node->type == YAML_SCALAR_NODE)
    hg_ydoc_embed(doc, node, c->arena, &e);
  else
    return;
  HG_VEC_PUSH(&c->from, e.len ? e.at[0] : e.at[e.len]);
  HG_VEC_PUSH(&c->to, e.at[e.len]);
  // A step run by cmd or python is not shell code (docs/limits.md); PowerShell's native command
  // lines are read as a POSIX shell's.
  const char *shell = step_shell(doc, above, n);
  if (powershell(shell))
    e = powershell_as_shell(&e, c->arena);
  else if (!posix_shell(shell))
    return;
  unknown_env unknown = {0};
  HG_VEC_PUSH(&unknown.names, EXPRESSION[0]);
  HG_VEC_PUSH(&unknown.origins, NULL);
  e = without_expressions(doc, above, n, &e, c->arena, &unknown);
  hg_sh_env env = {.names = unknown.names.items, .origins = unknown.origins.items, .n = unknown.names.len,
                   .origin = EXPRESSIONS.origin};
  hg_shell_embedded(c->ex, c->rules, c->src, &doc->lines, &e, &env, c->arena, c->sites, c->markers);
  free(unknown.names.items);
  free(unknown.origins.items);
}

static void container(hg_ydoc *doc, yaml_node_t *const *above, size_t n, yaml_node_t *key, yaml_node_t *node,
                      void *vctx) {
  (void)above;
  (void)n;
  ci_ctx *c = vctx;
  hg_ci_container(doc, key, node, c->src, c->arena, c->sites);
}

void hg_ci_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                   const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  (void)config;
  (void)project;
  (void)tree;
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  ci_ctx c = {.ex = self, .rules = rules, .arena = arena, .src = source, .sites = &sites, .markers = &markers};
  hg_ydoc doc;
  hg_sites failed = {0};
  if (hg_ydoc_load(&doc, source, arena, &failed)) {
    hg_ydoc_select_rules(&doc, rules, HG_SURFACE_CI, "script", script, &c);
    hg_ydoc_select_rules(&doc, rules, HG_SURFACE_CI, "command", container, &c);
  } else {
    // Nothing in the file was judged: a trigger word in it may be a site (fail closed).
    hg_site s;
    hg_ydoc_failed_region(&doc, &failed, &s);
    if (hg_ruleset_may_contain_site(rules, HG_SURFACE_SHELL, source->data, source->len, NULL) ||
        hg_ruleset_may_contain_site(rules, HG_SURFACE_CI, source->data, source->len, NULL))
      HG_VEC_PUSH(&sites, s);
  }
  hg_ydoc_markers(&doc, arena, c.from.items, c.to.items, c.from.len, &markers);
  hg_ydoc_free(&doc);
  free(c.from.items);
  free(c.to.items);
  hg_extract__finish(out, arena, &sites, &markers);
  out->syntax_error = failed.syntax_error;
  out->syntax_at = failed.syntax_at;
}
