// Unit tests for the JavaScript surface's evaluator (surfaces/javascript/names.c): made from the
// nodes the walk of the rules keeps for it (js_eval_of, what a scan does) it knows what one made
// from a walk of its own (js_eval_new) knows: the modules imported or required and the methods the
// module defines (a class's, a function's, an object literal's).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/source.h"
#include "rules/shape.h"
#include "rules/walk.h"
#include "surfaces/extract.h"
#include "surfaces/javascript/names.h"
#include "surfaces/node.h"

const TSLanguage *tree_sitter_tsx(void);

static void test_js_eval__the_kept_nodes_are_what_it_reads(void **state) {
  (void)state;
  static const char src[] =
      "import Docker from 'dockerode';\n"
      "const cp = require('child_process');\n"
      "class Pool { createContainer(spec) { return spec; } }\n"
      "function refill(pool) { pool.items.push(1); return pool; }\n"
      "const sandbox = { start: async (o) => o, stop: function (o) { return o; }, size: 3 };\n"
      "let n = 0; n += 1; n++; delete sandbox.size;\n"
      "Object.assign(sandbox, { more: true });\n";
  TSParser *parser = ts_parser_new();
  assert_true(ts_parser_set_language(parser, tree_sitter_tsx()));
  TSTree *tree = ts_parser_parse_string(parser, NULL, src, sizeof(src) - 1);
  TSNode root = ts_tree_root_node(tree);
  hg_source source;
  hg_source_from_bytes(&source, "x.js", src, sizeof(src) - 1);
  // A walk of any shapes, keeping the evaluator's node types.
  uint32_t off;
  char msg[128];
  static const char shape[] = "((call_expression) @c)";
  hg_shapes *s = hg_shapes_compile(tree_sitter_tsx(), shape, sizeof(shape) - 1, &off, msg, sizeof(msg));
  assert_non_null(s);
  hg_dispatch *d = hg_dispatch_new(s);
  hg_walker *w = hg_walker_new();
  hg_arena *arena = hg_arena_new();
  hg_extractor *ex = hg_extractor_new();
  // The kept types are worked out once for the files asking the same, again for other types.
  static const char *const calls_only[] = {"call_expression", NULL};
  const uint8_t *only = hg_extract__types(ex, tree_sitter_tsx(), calls_only);
  TSSymbol call = ts_language_symbol_for_name(tree_sitter_tsx(), "call_expression", 15, true);
  TSSymbol method = ts_language_symbol_for_name(tree_sitter_tsx(), "method_definition", 17, true);
  assert_true(only[call] && !only[method]);
  assert_ptr_equal(hg_extract__types(ex, tree_sitter_tsx(), calls_only), only);
  const uint8_t *collected = hg_extract__types(ex, tree_sitter_tsx(), js_collected_types);
  assert_true(collected[call] && collected[method]);
  hg_walker_exec(w, d, NULL, NULL, root, hg_extract__types(ex, tree_sitter_tsx(), js_collected_types));
  size_t n;
  const TSNode *kept = hg_walker_kept(w, &n);
  assert_true(n >= 12);
  js_eval *own = js_eval_new(&source, root, arena), *of = js_eval_of(&source, root, arena, kept, n);
  const char *const *a = js_modules(own), *const *b = js_modules(of);
  size_t k = 0;
  for (; a[k] && b[k]; k++) assert_string_equal(a[k], b[k]);
  assert_null(a[k]);
  assert_null(b[k]);
  assert_int_equal(k, 2);  // dockerode, child_process
  static const char *const methods[] = {"createContainer", "refill", "start", "stop", "size", "push", "more"};
  static const bool defined[] = {true, true, true, true, false, false, false};
  for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
    assert_int_equal(js_defines_method(own, methods[i]), defined[i]);
    assert_int_equal(js_defines_method(of, methods[i]), defined[i]);
  }
  // Nothing kept (the reference engine found the matches): it walks the tree itself.
  js_eval *none = js_eval_of(&source, root, arena, NULL, 0);
  assert_true(js_defines_method(none, "stop"));
  hg_arena_free(arena);
  hg_source_free(&source);
  hg_walker_free(w);
  hg_extractor_free(ex);
  hg_dispatch_free(d);
  hg_shapes_free(s);
  hg_tree_delete(tree);
  ts_parser_delete(parser);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_js_eval__the_kept_nodes_are_what_it_reads),
  };
  return cmocka_run_group_tests_name("js_eval", tests, NULL, NULL);
}
