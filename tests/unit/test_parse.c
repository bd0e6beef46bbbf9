// Unit tests for parse.c: the runs of comment lines found before parsing (blank lines inside a run,
// code ending it, the line it starts at, the limit's edge).
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_comment_runs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
