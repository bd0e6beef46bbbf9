/* base/path.c: the one lexical normaliser and the one "below that directory?" check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/path.h"

static void test_path__normalise(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"a/./b/../c/", "a/c"}, {"a/..", "."},        {".", "."},          {"", "."},
      {"./", "."},            {"../a", "../a"},     {"a/../../b", "../b"}, {"../../x/..", "../.."},
      {"a//b///c", "a/b/c"},  {"/", "/"},           {"/a/..", "/"},      {"/..", "/"},
      {"/../a/./b", "/a/b"},  {"//a//", "/a"},      {"a/b/..", "a"},     {"..", ".."},
      {"a/.../b", "a/.../b"}, {".hidden/x", ".hidden/x"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
    char *got = hg_path_normalise(cases[i][0]);
    if (strcmp(got, cases[i][1])) print_error("'%s': '%s', expected '%s'\n", cases[i][0], got, cases[i][1]);
    assert_string_equal(got, cases[i][1]);
    free(got);
  }
}

static void test_path__below(void **state) {
  (void)state;
  assert_string_equal(hg_path_below("src/a.py", "src", 3), "a.py");
  assert_string_equal(hg_path_below("src/a/b.py", "src/", 3), "a/b.py");  // the first n bytes
  assert_null(hg_path_below("srcs/a.py", "src", 3));
  assert_null(hg_path_below("src", "src", 3));
  assert_null(hg_path_below("sr", "src", 3));
  assert_string_equal(hg_path_below("/x/y", "/x", 2), "y");
  assert_null(hg_path_below("/x", "/", 1));  // what "/" holds, a caller says
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_path__normalise),
      cmocka_unit_test(test_path__below),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
