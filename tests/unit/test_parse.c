// Unit tests for parse.c: the runs of comment lines found before parsing (blank lines inside a run,
// code ending it, the line it starts at, the limit's edge) and a parse that gives up when past its
// budget (a block opened by comment lines, on which tree-sitter-python takes time quadratic in
// them), leaving the parser ready for the next file.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "surfaces/parse.h"

const TSLanguage *tree_sitter_python(void);

static uint32_t run_of(const char *s, uint32_t limit) { return hg_comment_run(s, strlen(s), limit); }

static void test_comment_runs(void **state) {
  (void)state;
  assert_int_equal(run_of("", 0), 0);
  assert_int_equal(run_of("# a\n", 0), 1);
  assert_int_equal(run_of("# a\n", 1), 0);
  assert_int_equal(run_of("x = 1\n# a\n# b\n", 1), 2);     // starts at line 2
  assert_int_equal(run_of("x = 1\n# a\n# b\n", 2), 0);     // two lines: not more than two
  assert_int_equal(run_of("# a\n\n   \n\t# b\n  # c", 2), 1);  // blank lines stay in the run; no final newline
  assert_int_equal(run_of("# a\n# b\nx\n# c\n# d\n", 2), 0);  // code ends a run
  assert_int_equal(run_of("# a\n# b\nx\n# c\n# d\n# e\n", 2), 4);
  assert_int_equal(run_of("x = 1  # a\nx = 2  # b\n", 0), 0);  // a comment after code is not a comment line
  assert_int_equal(run_of("s = '''\n# a\n# b\n'''\n", 1), 2);  // read as text: a string's lines count too
  assert_int_equal(run_of("#\r\n#\r\n", 1), 1);                // CRLF
  // The limit the checker uses, at its edge.
  hg_buf b = {0};
  hg_buf_puts(&b, "f(\n");
  for (int i = 0; i < HG_COMMENT_RUN_MAX; i++) hg_buf_puts(&b, "# c\n");
  assert_int_equal(hg_comment_run(b.data, b.len, HG_COMMENT_RUN_MAX), 0);
  hg_buf_puts(&b, "\n# c\n");
  assert_int_equal(hg_comment_run(b.data, b.len, HG_COMMENT_RUN_MAX), 2);
  hg_buf_free(&b);
}

static void test_parse_gives_up_past_its_budget(void **state) {
  (void)state;
  TSParser *p = ts_parser_new();
  assert_true(ts_parser_set_language(p, tree_sitter_python()));
  // 10,000 comment lines opening a block take the parser seconds; 20 ms is not enough.
  hg_buf slow = {0};
  hg_buf_puts(&slow, "def g():\n");
  for (int i = 0; i < 10000; i++) hg_buf_puts(&slow, "    # c\n");
  hg_buf_puts(&slow, "    pass\n");
  assert_null(hg_parse(p, slow.data, slow.len, 20000));
  // The parser starts the next file anew (a parse given up is not resumed on other bytes).
  const char *ok = "import docker\ndocker.from_env().containers.run('x')\n";
  TSTree *t = hg_parse(p, ok, strlen(ok), 0);
  assert_non_null(t);
  assert_false(ts_node_has_error(ts_tree_root_node(t)));
  assert_string_equal(ts_node_type(ts_node_named_child(ts_tree_root_node(t), 0)), "import_statement");
  ts_tree_delete(t);
  // The default budget: 2 s and 5 s per MB.
  assert_int_equal(hg_parse_budget_us(0), 2000000);
  assert_int_equal(hg_parse_budget_us(1000000), 7000000);
  hg_buf_free(&slow);
  ts_parser_delete(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_comment_runs),
      cmocka_unit_test(test_parse_gives_up_past_its_budget),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
