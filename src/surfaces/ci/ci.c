// CI files: each scalar the CI rules select is a shell script, parsed with tree-sitter-bash and
// read by the shell surface's rules; what they find is moved to the file's own lines and columns.
#include "surfaces/ci/ci.h"

#include <stdlib.h>
#include <string.h>

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

// GitHub Actions fills in `${{ expression }}` before the shell runs: each becomes a variable the
// shell reading reports as unknown, its bytes mapped to the expression.
static const char *const EXPRESSION[] = {"github_expression"};
static const hg_sh_env EXPRESSIONS = {EXPRESSION, NULL, 1,
                                      "a GitHub Actions expression `${{ ... }}`, filled in by the runner"};

static hg_embed without_expressions(const hg_embed *e, hg_arena *arena) {
  if (!strstr(e->text, "${{"))
    return *e;
  hg_embed_builder b = {0};
  for (uint32_t i = 0; i < e->len;) {
    const char *end = e->text[i] == '$' && !strncmp(e->text + i, "${{", 3) ? strstr(e->text + i + 3, "}}") : NULL;
    if (end) {
      hg_embed_put(&b, "${github_expression}", 20, e->at[i], false);
      i = (uint32_t)(end + 2 - e->text);
    } else {
      hg_embed_put(&b, e->text + i, 1, e->at[i], false);
      i++;
    }
  }
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
  // A step run by PowerShell, cmd or python is not shell code (docs/limits.md).
  if (!posix_shell(step_shell(doc, above, n)))
    return;
  e = without_expressions(&e, c->arena);
  hg_shell_embedded(c->ex, c->rules, c->src, &doc->lines, &e, &EXPRESSIONS, c->arena, c->sites, c->markers);
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
  } else {
    // Nothing in the file was judged: a trigger word in it may be a site (fail closed).
    hg_site s;
    hg_ydoc_failed_region(&doc, &failed, &s);
    if (hg_ruleset_may_contain_site(rules, HG_SURFACE_SHELL, source->data, source->len, NULL))
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
