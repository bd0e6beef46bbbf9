/* The one glob engine (base/util.h: hg_glob, hg_glob_match). With HG_GLOB_PERIOD it is held to
 * fnmatch(FNM_PATHNAME | FNM_PERIOD), which the surfaces' file names were matched with before, on
 * every pair of a set of patterns and names built from the characters that matter; without it, a
 * leading '.' is an ordinary character (the config's globs, as they always were). */
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"

static const char *const PATTERNS[] = {
    "*",        "*.yml",   ".*",       "?",          "?a",         "a?",         "[ab]*",       "[!.]*",
    "*[.]yml",  "a*b",     "*a*a*b",   ".github/workflows/*.yml",  "*/*.yml",    "*/.x",        "*/*",
    "compose.*.yaml",      "docker-compose*.yml",     "Makefile",   "*.mk",       "a/b",         "[.]x",
    "x/?",      "x/*",     "x/[a-c]",  "",           "\\*",        "[",          "a[",
};
static const char *const NAMES[] = {
    "a",         "ab",         "aab",        ".a",        "a.yml",      ".yml",       "x.yml",       "a/b",
    ".github/workflows/ci.yml",  ".github/workflows/.ci.yml", "w/ci.yml",   "w/.x",       "x/.a",        "x/a",
    "compose.prod.yaml",         "docker-compose.yml",        "docker-compose.override.yml", "Makefile",
    "rules.mk",  ".rules.mk",  "",           "*",          "[",          "a[",         "x/b",         "aaab",
};

static void test_glob__period_is_fnmatch_pathname_period(void **state) {
  (void)state;
  size_t checked = 0, matched = 0;
  for (size_t p = 0; p < sizeof(PATTERNS) / sizeof(*PATTERNS); p++)
    for (size_t n = 0; n < sizeof(NAMES) / sizeof(*NAMES); n++) {
      if (strchr(PATTERNS[p], '\\')) continue;  // fnmatch escapes; hg_glob takes '\\' as itself
      bool want = fnmatch(PATTERNS[p], NAMES[n], FNM_PATHNAME | FNM_PERIOD) == 0;
      bool got = hg_glob(PATTERNS[p], NAMES[n], HG_GLOB_PERIOD);
      if (got != want) print_error("'%s' on '%s': %d, fnmatch says %d\n", PATTERNS[p], NAMES[n], got, want);
      assert_int_equal(got, want);
      checked++;
      matched += want;
    }
  // The set exercises both answers, often.
  assert_true(checked > 600);
  assert_true(matched > 40 && matched < checked - 40);
}

static void test_glob__without_period_a_dot_is_a_character(void **state) {
  (void)state;
  assert_true(hg_glob("*", ".a", 0));
  assert_false(hg_glob("*", ".a", HG_GLOB_PERIOD));
  assert_true(hg_glob("*/*", "x/.a", 0));
  assert_false(hg_glob("*/*", "x/.a", HG_GLOB_PERIOD));
  assert_true(hg_glob("\\*", "\\a", 0));  // no escapes: a backslash stands for itself
}

static void test_glob__double_star(void **state) {
  (void)state;
  assert_true(hg_glob("**/x.py", "x.py", 0));
  assert_true(hg_glob("**/x.py", "a/b/x.py", 0));
  assert_false(hg_glob("**/x.py", "a/bx.py", 0));
  assert_true(hg_glob("tests/**", "tests/a/b.py", 0));
  assert_true(hg_glob("a**", "a/b/c", 0));
  assert_true(hg_glob("**/x", "a/.h/x", 0));
  assert_false(hg_glob("**/x", "a/.h/x", HG_GLOB_PERIOD));
  assert_false(hg_glob("a**", "a/.b", HG_GLOB_PERIOD));
  assert_true(hg_glob("a**", "a/b.c", HG_GLOB_PERIOD));
  // A pattern made to backtrack is still answered (in pattern × path time).
  char path[4001];
  memset(path, 'a', sizeof(path) - 1);
  path[sizeof(path) - 1] = '\0';
  assert_false(hg_glob("*a*a*a*a*a*a*a*a*a*a*b", path, 0));
}

static void test_glob__config_globs_match_basenames(void **state) {
  (void)state;
  assert_true(hg_glob_match("*.py", "a/b/c.py"));
  assert_false(hg_glob_match("b/*.py", "a/b/c.py"));
  assert_true(hg_glob_match("a/b/*.py", "a/b/c.py"));
  assert_true(hg_glob_match("*", "a/.hidden"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_glob__period_is_fnmatch_pathname_period),
      cmocka_unit_test(test_glob__without_period_a_dot_is_a_character),
      cmocka_unit_test(test_glob__double_star),
      cmocka_unit_test(test_glob__config_globs_match_basenames),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
