/* libFuzzer harness: shapes and their predicates. The input is a rule text in the rules' syntax, a
 * NUL byte, and a Python snippet. The text is compiled by hardguard's shape compiler (shape.h)
 * against tree-sitter-python and its predicates with hg_predicates_compile; the snippet is parsed,
 * walked (walk.h) and every match is evaluated twice, as extract.c
 * does: first with the imports alone (matches of patterns that `#set! hardguard.fact "import"`
 * record imports, as the facts rules do), then with a resolver that also follows local names. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/config.h"
#include "rules/predicate.h"
#include "rules/shape.h"
#include "rules/walk.h"
#include "surfaces/python/eval.h"
#include "surfaces/python/names.h"
#include "surfaces/python/row.h"
#include "rules/ruleset.h"
#include "surfaces/node.h"

static hg_ruleset *rules;  // for its policy (the resolver's process calls)
static hg_config *config;

static const char CONFIG[] =
    "builders:\n"
    "  - module: hardening\n"
    "    callables: [hardening_kwargs, hardening_argv]\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  hg_error err;
  if (hg_ruleset_load(&rules, NULL, &err) != 0 ||
      hg_config_parse(&config, "./.hardguard.yml", CONFIG, sizeof(CONFIG) - 1, &err) != 0)
    abort();
  return 0;
}

static bool capture(const TSQueryMatch *m, uint32_t id, TSNode *out) {
  for (uint16_t i = 0; id != UINT32_MAX && i < m->capture_count; i++)
    if (m->captures[i].index == id) {
      *out = m->captures[i].node;
      return true;
    }
  return false;
}

static const char *text(hg_arena *a, const char *src, TSNode n) {
  return hg_arena_strndup(a, src + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

static void no_literal(void *ctx, unsigned group, const char *lit, bool whole) {
  (void)ctx, (void)group, (void)whole;
  if (!*lit) abort();  // hg_predicates_literals never reports an empty literal
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *nul = memchr(data, '\0', size);
  if (!nul) return 0;
  uint32_t qlen = (uint32_t)(nul - (const char *)data);
  // The snippet gets its own NUL-terminated allocation, as a loaded source has.
  size_t slen = size - qlen - 1;
  char *src = malloc(slen + 1);
  memcpy(src, nul + 1, slen);
  src[slen] = '\0';

  uint32_t err_offset;
  char msg[192];
  hg_shapes *q = hg_shapes_compile(tree_sitter_python(), (const char *)data, qlen, &err_offset, msg, sizeof(msg));
  if (!q) {
    if (err_offset > qlen || !*msg) abort();  // an error names a place in the text, and what is wrong
    free(src);
    return 0;
  }
  uint32_t n_patterns = hg_shapes_count(q);
  hg_predicates **preds = calloc(n_patterns ? n_patterns : 1, sizeof(hg_predicates *));
  bool ok = true;
  for (uint32_t i = 0; i < n_patterns && ok; i++) {
    hg_error err;
    ok = hg_predicates_compile(&preds[i], q, i, NULL, &err) == 0;
    if (ok) {
      // What the rule loader asks of every compiled pattern.
      (void)hg_predicates_property(preds[i], "hardguard.reads");
      hg_predicates_literals(preds[i], no_literal, NULL);
    }
  }
  if (ok) {
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)slen);
    hg_dispatch *dispatch = hg_dispatch_new(q);
    hg_walker *walker = hg_walker_new();
    pcre2_match_data *md = pcre2_match_data_create(32, NULL);
    hg_arena *arena = hg_arena_new();
    hg_buf scratch = {0};
    hg_imports *imports = hg_imports_new(arena, "pkg");
    hg_python_model model = {.src = src, .imports = imports};
    hg_predctx ctx = {.src = src, .md = md, .names = &hg_python_names, .model = &model, .scratch = &scratch};
    uint32_t module = hg_shapes_capture_id(q, "import.module"), alias = hg_shapes_capture_id(q, "import.alias"),
             from = hg_shapes_capture_id(q, "import.from"), name = hg_shapes_capture_id(q, "import.name");
    TSQueryMatch m;
    hg_walker_exec(walker, dispatch, NULL, NULL, ts_tree_root_node(tree), NULL);
    while (hg_walker_next_match(walker, &m)) {
      const hg_predicates *p = preds[m.pattern_index];
      if (!hg_predicates_eval(p, &m, &ctx)) continue;
      const char *fact = hg_predicates_property(p, "hardguard.fact");
      if (!fact || strcmp(fact, "import") != 0) continue;
      TSNode a, b, c;
      const char *alias_text = capture(&m, alias, &a) ? text(arena, src, a) : NULL;
      if (capture(&m, from, &b) && capture(&m, name, &c))
        hg_imports_add_from(imports, text(arena, src, b), text(arena, src, c), alias_text);
      else if (capture(&m, module, &b))
        hg_imports_add_import(imports, text(arena, src, b), alias_text);
    }
    hg_resolver r = {.engine = &hg_python_engine,
                     .src = src,
                     .imports = imports,
                     .config = config,
                     .policy = hg_ruleset_policy(rules),
                     .arena = arena};
    r.memo = hg_name_memo_new(arena);
    model.resolver = &r;
    hg_walker_exec(walker, dispatch, NULL, NULL, ts_tree_root_node(tree), NULL);
    while (hg_walker_next_match(walker, &m)) (void)hg_predicates_eval(preds[m.pattern_index], &m, &ctx);
    hg_buf_free(&scratch);
    hg_arena_free(arena);
    pcre2_match_data_free(md);
    hg_walker_free(walker);
    hg_dispatch_free(dispatch);
    hg_tree_delete(tree);
    ts_parser_delete(parser);
  }
  for (uint32_t i = 0; i < n_patterns; i++) hg_predicates_free(preds[i]);
  free(preds);
  hg_shapes_free(q);
  free(src);
  return 0;
}
