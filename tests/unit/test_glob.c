/* The one glob engine (base/glob.h), in its two dialects. With HG_GLOB_FNMATCH it is held to
 * fnmatch(FNM_PATHNAME | FNM_PERIOD), which the surfaces' file names and the rule files' `files:`
 * globs were matched with before: on every well-formed pattern of up to 3 characters from those
 * that mean something to fnmatch, against every name of up to 4, and on a set of realistic ones.
 * Without it, the config's dialect: `**` spans directories, '\\' and a leading '.' are characters. */
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/glob.h"

static const char *const PATTERNS[] = {
    "*",
    "*.yml",
    ".*",
    "?",
    "?a",
    "a?",
    "[ab]*",
    "[!.]*",
    "*[.]yml",
    "a*b",
    "*a*a*b",
    ".github/workflows/*.yml",
    "*/*.yml",
    "*/.x",
    "*/*",
    "compose.*.yaml",
    "docker-compose*.yml",
    "Makefile",
    "*.mk",
    "a/b",
    "[.]x",
    "x/?",
    "x/*",
    "x/[a-c]",
    "",
    "\\*",
    "a\\?",
    "**",
    "**/*.yml",
    "**/.x",
    "a**",
    "x/**",
    "[]]",
    "[!]]*",
    "[\\]]",
    "[[:alpha:]]*",
    "\\",
};
static const char *const NAMES[] = {
    "a",
    "ab",
    "aab",
    ".a",
    "a.yml",
    ".yml",
    "x.yml",
    "a/b",
    ".github/workflows/ci.yml",
    ".github/workflows/.ci.yml",
    "w/ci.yml",
    "w/.x",
    "x/.a",
    "x/a",
    "compose.prod.yaml",
    "docker-compose.yml",
    "docker-compose.override.yml",
    "Makefile",
    "rules.mk",
    ".rules.mk",
    "",
    "*",
    "[",
    "a[",
    "x/b",
    "aaab",
    "]",
    "]a",
    "\\",
    "a?",
    "x/a/b",
    ".x",
    "\\a",
};

// Is `p` well formed for fnmatch: every '[' closed, no '/' escaped? On others (a '[' left open,
// `\/`) glibc has quirks of its own that the engine does not copy (see glob.h).
static bool well_formed(const char *p) {
  if (strstr(p, "\\/"))
    return false;
  for (; *p; p++) {
    if (*p == '\\') {
      if (!*++p)
        return true;
      continue;
    }
    if (*p != '[')
      continue;
    const char *q = p + 1;
    if (*q == '!' || *q == '^')
      q++;
    if (*q == ']')
      q++;
    for (; *q && *q != ']'; q++) {
      if (*q == '\\') {
        if (!*++q)
          return false;
      } else if (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
        const char *e = strstr(q + 2, q[1] == ':' ? ":]" : q[1] == '.' ? ".]" : "=]");
        if (!e)
          return false;
        q = e + 1;
      }
    }
    if (!*q)
      return false;
    p = q;
  }
  return true;
}

static size_t checked, matched;

static void same_as_fnmatch(const char *pattern, const char *name) {
  bool want = fnmatch(pattern, name, FNM_PATHNAME | FNM_PERIOD) == 0;
  bool got = hg_glob(pattern, name, HG_GLOB_FNMATCH);
  if (got != want)
    print_error("'%s' on '%s': %d, fnmatch says %d\n", pattern, name, got, want);
  assert_int_equal(got, want);
  checked++;
  matched += want;
}

static void test_glob__fnmatch_dialect_on_realistic_patterns(void **state) {
  (void)state;
  checked = matched = 0;
  for (size_t p = 0; p < sizeof(PATTERNS) / sizeof(*PATTERNS); p++)
    for (size_t n = 0; n < sizeof(NAMES) / sizeof(*NAMES); n++)
      same_as_fnmatch(PATTERNS[p], NAMES[n]);
  // The set exercises both answers, often.
  assert_true(checked > 1000);
  assert_true(matched > 60 && matched < checked - 60);
}

// Every string of up to `max` characters from `alphabet` (the empty one too), one after another.
static bool next_string(char *s, size_t max, const char *alphabet) {
  size_t len = strlen(s), n = strlen(alphabet);
  if (len < max) { // depth first: longer before the next character
    s[len] = alphabet[0];
    s[len + 1] = '\0';
    return true;
  }
  while (len > 0) {
    const char *at = strchr(alphabet, s[len - 1]);
    if ((size_t)(at - alphabet) + 1 < n) {
      s[len - 1] = at[1];
      return true;
    }
    s[--len] = '\0';
  }
  return false;
}

static void test_glob__fnmatch_dialect_on_every_short_pattern(void **state) {
  (void)state;
  checked = matched = 0;
  char pattern[8] = "", name[8];
  do {
    if (!well_formed(pattern))
      continue;
    name[0] = '\0';
    do
      same_as_fnmatch(pattern, name);
    while (next_string(name, 4, "a.]/\\[-"));
  } while (next_string(pattern, 3, "a.*?[]!\\/-:"));
  assert_true(checked > 1000000);
}

static void test_glob__dialects_differ(void **state) {
  (void)state;
  static const struct {
    const char *pattern, *s;
    bool config, fnmatch;
  } cases[] = {
      {"*", ".a", true, false}, // a leading '.' is hidden from wildcards in fnmatch's
      {"*/*", "x/.a", true, false},
      {"[.]x", ".x", true, false},
      {"a**", "a/b/c", true, false}, // `**` spans directories in the config's, is `*` in fnmatch's
      {"a**", "a/b.c", true, false},
      {"**/x", "a/b/x", true, false},
      {"**/x", "b/x", true, true},
      {"**/.x", "b/.x", true, true},
      {"**/.gitlab-ci.yml", "ci/.gitlab-ci.yml", true, true},
      {"**/x", "a/.h/x", true, false},
      {"\\*", "\\a", true, false}, // '\\' stands for itself in the config's, escapes in fnmatch's
      {"\\*", "*", false, true},
      {"a\\", "a\\", true, false}, // a '\\' ending the pattern matches nothing in fnmatch's
      {"[]]", "]", false, true},   // the config's class runs to the first ']'
      {"[]]", "[]", false, false},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
    bool config = hg_glob(cases[i].pattern, cases[i].s, 0);
    bool fnm = hg_glob(cases[i].pattern, cases[i].s, HG_GLOB_FNMATCH);
    if (config != cases[i].config || fnm != cases[i].fnmatch)
      print_error("'%s' on '%s': config %d, fnmatch %d\n", cases[i].pattern, cases[i].s, config, fnm);
    assert_int_equal(config, cases[i].config);
    assert_int_equal(fnm, cases[i].fnmatch);
  }
}

static void test_glob__double_star(void **state) {
  (void)state;
  assert_true(hg_glob("**/x.py", "x.py", 0));
  assert_true(hg_glob("**/x.py", "a/b/x.py", 0));
  assert_false(hg_glob("**/x.py", "a/bx.py", 0));
  assert_true(hg_glob("tests/**", "tests/a/b.py", 0));
  assert_true(hg_glob("a**", "a/b/c", 0));
  // A pattern made to backtrack is still answered (in pattern × path time), in both dialects.
  char path[4001];
  memset(path, 'a', sizeof(path) - 1);
  path[sizeof(path) - 1] = '\0';
  assert_false(hg_glob("*a*a*a*a*a*a*a*a*a*a*b", path, 0));
  assert_false(hg_glob("*a*a*a*a*a*a*a*a*a*a*b", path, HG_GLOB_FNMATCH));
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
      cmocka_unit_test(test_glob__fnmatch_dialect_on_realistic_patterns),
      cmocka_unit_test(test_glob__fnmatch_dialect_on_every_short_pattern),
      cmocka_unit_test(test_glob__dialects_differ),
      cmocka_unit_test(test_glob__double_star),
      cmocka_unit_test(test_glob__config_globs_match_basenames),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
