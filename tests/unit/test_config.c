// Unit tests for config.c: loading .hardguard.yml, discovering it in ancestors, and excludes.
#define _GNU_SOURCE  // nftw
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ftw.h>

#include <cmocka.h>

#include "rules/config.h"

// ---- temp directory fixture ---------------------------------------------------------------------

typedef struct {
  char dir[64];  // /tmp/hg-config-XXXXXX
} tmp;

static int setup_tmp(void **state) {
  tmp *t = calloc(1, sizeof(*t));
  strcpy(t->dir, "/tmp/hg-config-XXXXXX");
  if (!mkdtemp(t->dir)) {
    free(t);
    return -1;
  }
  *state = t;
  return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static int teardown_tmp(void **state) {
  tmp *t = *state;
  if (!t) return 0;
  int rc = nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(t);
  return rc;
}

// Writes `text` to dir/name (name may contain '/': the directories must exist); returns the path.
static char *write_file(const char *dir, const char *name, const char *text) {
  char *path = hg_xasprintf("%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
  return path;
}

static char *make_dir(const char *dir, const char *name) {
  char *path = hg_xasprintf("%s/%s", dir, name);
  assert_int_equal(mkdir(path, 0755), 0);
  return path;
}

// Loads `text` as dir/.hardguard.yml; the config or NULL, with err filled.
static hg_config *load_text(const tmp *t, const char *text, hg_error *err, char **path_out) {
  char *path = write_file(t->dir, ".hardguard.yml", text);
  hg_config *c = (hg_config *)(uintptr_t)1;
  int rc = hg_config_load(&c, path, err);
  if (rc != 0) assert_null(c);
  if (rc == 0) assert_non_null(c);
  if (path_out)
    *path_out = path;
  else
    free(path);
  return rc == 0 ? c : NULL;
}

// ---- load ---------------------------------------------------------------------------------------

static void test_config__loads_builders_and_excludes(void **state) {
  tmp *t = *state;
  hg_error err = {{0}};
  char *path;
  hg_config *c = load_text(t,
                           "builders:\n"
                           "  - module: sandbox.container_hardening\n"
                           "    callables: [hardening_kwargs, Policy.hardening_argv]\n"
                           "  - module: tools\n"
                           "    callables: harden\n"
                           "exclude:\n"
                           "  - tests/**\n"
                           "  - '*_test.py'\n",
                           &err, &path);
  if (!c) print_error("%s\n", err.message);
  assert_non_null(c);
  assert_string_equal(c->path, path);
  assert_string_equal(c->root, t->dir);  // the directory holding the file
  assert_int_equal(c->n_builders, 2);
  assert_string_equal(c->builders[0].module, "sandbox.container_hardening");
  assert_int_equal(c->builders[0].n_callables, 2);
  assert_string_equal(c->builders[0].callables[0], "hardening_kwargs");
  assert_string_equal(c->builders[0].callables[1], "Policy.hardening_argv");
  // A single string is a list of one.
  assert_string_equal(c->builders[1].module, "tools");
  assert_int_equal(c->builders[1].n_callables, 1);
  assert_string_equal(c->builders[1].callables[0], "harden");
  assert_int_equal(c->n_exclude, 2);
  assert_string_equal(c->exclude[0], "tests/**");
  assert_string_equal(c->exclude[1], "*_test.py");
  hg_config_free(c);
  free(path);
}

static void test_config__empty_mapping_and_only_excludes(void **state) {
  tmp *t = *state;
  hg_error err = {{0}};
  hg_config *c = load_text(t, "exclude: build/**\n", &err, NULL);
  if (!c) print_error("%s\n", err.message);
  assert_non_null(c);
  assert_int_equal(c->n_builders, 0);
  assert_int_equal(c->n_exclude, 1);
  assert_string_equal(c->exclude[0], "build/**");
  hg_config_free(c);

  c = load_text(t, "{}\n", &err, NULL);
  assert_non_null(c);
  assert_int_equal(c->n_builders, 0);
  assert_int_equal(c->n_exclude, 0);
  hg_config_free(c);
}

static void test_config__module_and_callable_names(void **state) {
  tmp *t = *state;
  static const struct {
    const char *module, *callable;
    bool ok;
  } cases[] = {
      {"a", "f", true},
      {"a.b.c.d", "f", true},
      {"_priv.mod_2", "_f2", true},
      {"Pkg.Mod", "Cls.method", true},
      {"a..b", "f", false},
      {"1abc", "f", false},
      {"a.1b", "f", false},
      {".a", "f", false},
      {"a.", "f", false},
      {"a-b", "f", false},
      {"a b", "f", false},
      {"a", "A.b.c", false},
      {"a", ".f", false},
      {"a", "f.", false},
      {"a", "2f", false},
      {"a", "f()", false},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *text = hg_xasprintf("builders:\n  - module: '%s'\n    callables: '%s'\n", cases[i].module, cases[i].callable);
    hg_error err = {{0}};
    hg_config *c = load_text(t, text, &err, NULL);
    free(text);
    if ((c != NULL) != cases[i].ok)
      print_error("module '%s' callable '%s': %s, expected %s (%s)\n", cases[i].module, cases[i].callable,
                  c ? "accepted" : "rejected", cases[i].ok ? "accepted" : "rejected", c ? "" : err.message);
    assert_int_equal(c != NULL, cases[i].ok);
    hg_config_free(c);
  }
}

typedef struct {
  const char *name;
  const char *yaml;
  const char *after_path;  // the message after "<path>:"
} reject_case;

static void test_config__rejections_name_file_line_col(void **state) {
  tmp *t = *state;
  static const reject_case cases[] = {
      {"unknown top-level key", "builders: []\nexcludes: [x]\n", "2:1: config: unknown key 'excludes' (expected one of: builders, exclude, surfaces, allow, strict)"},
      {"unknown surface", "surfaces: {ruby: false}\n", "1:12: surfaces: unknown surface 'ruby' (known: python, shell, make, ci, compose"},
      {"surface not a boolean", "surfaces: {shell: off}\n", "1:19: surfaces: shell: expected true or false, found 'off'"},
      {"surfaces a list", "surfaces: [shell]\n", "1:11: surfaces: expected a mapping of surface: true|false"},
      {"allow without reason", "allow:\n  - {paths: [a], requirements: [read-only]}\n",
       "2:5: allow: each entry needs paths, requirements and a reason"},
      {"allow with an empty reason", "allow:\n  - {paths: [a], requirements: [read-only], reason: ' '}\n",
       "2:53: allow: the reason is empty: say why these paths need the exception"},
      {"allow unknown key", "allow:\n  - {paths: [a], requirements: [x], reason: r, why: w}\n",
       "2:48: allow: unknown key 'why' (expected one of: paths, requirements, reason)"},
      {"unknown builder key", "builders:\n  - module: a\n    callables: f\n    kind: x\n",
       "4:5: builder: unknown key 'kind' (expected one of: module, callables, trust)"},
      {"callables empty", "builders:\n  - module: a\n    callables: []\n", "3:16: builder.callables: empty list"},
      {"module a..b", "builders:\n  - module: a..b\n    callables: f\n",
       "2:13: builder.module: expected a dotted module path (Python) or a package path (Go: internal/hardening), got 'a..b'"},
      {"module 1abc", "builders:\n  - { module: 1abc, callables: f }\n",
       "2:15: builder.module: expected a dotted module path (Python) or a package path (Go: internal/hardening), got '1abc'"},
      {"package path a//b", "builders:\n  - { module: a//b, callables: f }\n",
       "2:15: builder.module: expected a dotted module path (Python) or a package path (Go: internal/hardening), got 'a//b'"},
      {"callable with two dots", "builders:\n  - module: a\n    callables: [f, A.b.c]\n",
       "3:16: builder.callables: expected a function or Class.method name, got 'A.b.c'"},
      {"builders not a list", "builders:\n  module: a\n  callables: f\n",
       "2:3: builders: expected a list of {module, callables}"},
      {"builders a scalar", "builders: a.b\n", "1:11: builders: expected a list of {module, callables}"},
      {"builder without callables", "builders:\n  - module: a\n", "2:5: builder: needs 'module' and 'callables'"},
      {"builder is a scalar", "builders:\n  - a.b\n", "2:5: builder: expected a mapping, found a scalar"},
      {"module is a list", "builders:\n  - module: [a]\n    callables: f\n",
       "2:13: builder.module: expected a string, found a list"},
      {"exclude a mapping", "exclude: {a: b}\n", "1:10: exclude: expected a string or a list of strings, found a mapping"},
      {"root a list", "- a\n", "1:1: config: expected a mapping, found a list"},
      {"invalid YAML", "builders: [\n", "2:1: invalid YAML: "},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    hg_error err = {{0}};
    char *path;
    hg_config *c = load_text(t, cases[i].yaml, &err, &path);
    if (c) {
      print_error("case '%s': loaded, expected an error\n", cases[i].name);
      hg_config_free(c);
      free(path);
      fail();
    }
    char *want = hg_xasprintf("%s:%s", path, cases[i].after_path);
    if (strncmp(err.message, want, strlen(want)) != 0)
      print_error("case '%s':\n  got  \"%s\"\n  want \"%s...\"\n", cases[i].name, err.message, want);
    assert_int_equal(strncmp(err.message, want, strlen(want)), 0);
    free(want);
    free(path);
  }
}

static void test_config__missing_file_is_an_error(void **state) {
  tmp *t = *state;
  char *path = hg_xasprintf("%s/nope.yml", t->dir);
  hg_config *c = (hg_config *)(uintptr_t)1;
  hg_error err = {{0}};
  assert_int_equal(hg_config_load(&c, path, &err), -1);
  assert_null(c);
  char *want = hg_xasprintf("%s: cannot open: ", path);
  assert_int_equal(strncmp(err.message, want, strlen(want)), 0);
  free(want);
  free(path);
}

// hg_config_parse: the bytes of a file, without reading it (the fuzz harness's entry point).
static void test_config__parse_bytes_as_the_named_file(void **state) {
  (void)state;
  // Not NUL-terminated: the parser stops at len.
  static const char text[] = "exclude: [\"tests/**\"]\nbuilders: [oops";
  hg_config *c;
  hg_error err = {{0}};
  assert_int_equal(hg_config_parse(&c, "repo/.hardguard.yml", text, strlen("exclude: [\"tests/**\"]\n"), &err), 0);
  assert_string_equal(c->path, "repo/.hardguard.yml");
  assert_string_equal(c->root, "repo");
  assert_int_equal(c->n_exclude, 1);
  assert_true(hg_config_excludes(c, "repo/tests/a.py"));
  hg_config_free(c);
  c = (hg_config *)(uintptr_t)1;
  assert_int_equal(hg_config_parse(&c, "x.yml", text, strlen(text), &err), -1);
  assert_null(c);
  assert_int_equal(strncmp(err.message, "x.yml:", strlen("x.yml:")), 0);
  assert_non_null(strstr(err.message, ": invalid YAML: "));
}

// ---- discover -----------------------------------------------------------------------------------

static void test_config__discover_in_the_directory_itself(void **state) {
  tmp *t = *state;
  free(write_file(t->dir, ".hardguard.yml", "builders:\n  - {module: here, callables: f}\n"));
  hg_config *c = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_config_discover(&c, t->dir, &err), 0);
  assert_non_null(c);
  assert_non_null(c->path);
  char *want = hg_xasprintf("%s/.hardguard.yml", t->dir);
  assert_string_equal(c->path, want);
  assert_string_equal(c->root, t->dir);
  assert_int_equal(c->n_builders, 1);
  assert_string_equal(c->builders[0].module, "here");
  free(want);
  hg_config_free(c);
}

static void test_config__discover_in_an_ancestor(void **state) {
  tmp *t = *state;
  free(write_file(t->dir, ".hardguard.yml", "builders:\n  - {module: top, callables: f}\n"));
  free(make_dir(t->dir, "a"));
  char *b = make_dir(t->dir, "a/b");
  char *file = write_file(b, "x.py", "print(1)\n");

  // From the directory two levels down, and from a file in it.
  const char *starts[] = {b, file};
  for (size_t i = 0; i < 2; i++) {
    hg_config *c = NULL;
    hg_error err = {{0}};
    assert_int_equal(hg_config_discover(&c, starts[i], &err), 0);
    assert_non_null(c);
    assert_non_null(c->path);
    // Reported under the name the user reached it by.
    char *want = hg_xasprintf("%s/../../.hardguard.yml", b);
    assert_string_equal(c->path, want);
    free(want);
    assert_int_equal(c->n_builders, 1);
    assert_string_equal(c->builders[0].module, "top");
    hg_config_free(c);
  }

  // The nearest config wins.
  free(write_file(b, ".hardguard.yml", "builders:\n  - {module: near, callables: f}\n"));
  hg_config *c = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_config_discover(&c, file, &err), 0);
  assert_string_equal(c->builders[0].module, "near");
  hg_config_free(c);
  free(file);
  free(b);
}

static void test_config__discover_none_gives_an_empty_config(void **state) {
  tmp *t = *state;
  if (access("/tmp/.hardguard.yml", F_OK) == 0 || access("/.hardguard.yml", F_OK) == 0) {
    print_message("skipped: a .hardguard.yml exists in /tmp or /\n");
    skip();
  }
  char *a = make_dir(t->dir, "a");
  hg_config *c = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_config_discover(&c, a, &err), 0);
  assert_non_null(c);
  assert_null(c->path);
  assert_string_equal(c->root, a);
  assert_int_equal(c->n_builders, 0);
  assert_int_equal(c->n_exclude, 0);
  hg_config_free(c);
  free(a);
}

// No config file: a directory named is the project; a file named belongs to the git work tree
// holding it (its nearest ancestor with a .git entry: a directory, or a worktree's file), spelled
// from the file's directory; outside one, the file's directory is the project.
static void test_config__discover_none_roots_a_file_at_its_git_work_tree(void **state) {
  tmp *t = *state;
  if (access("/tmp/.hardguard.yml", F_OK) == 0 || access("/.hardguard.yml", F_OK) == 0 ||
      access("/tmp/.git", F_OK) == 0 || access("/.git", F_OK) == 0) {
    print_message("skipped: a .hardguard.yml or .git exists in /tmp or /\n");
    skip();
  }
  free(make_dir(t->dir, "top"));
  free(make_dir(t->dir, "top/a"));
  char *b = make_dir(t->dir, "top/a/b");
  char *file = write_file(b, "x.py", "print(1)\n");
  struct {
    const char *start;
    const char *root;  // NULL: b
  } cases[] = {{file, NULL}, {b, NULL}};
  for (int round = 0; round < 4; round++) {
    if (round == 1) free(make_dir(t->dir, "top/.git"));
    if (round == 2) free(write_file(t->dir, "top/a/.git", "gitdir: elsewhere\n"));  // the nearest wins
    if (round == 3) {
      char *gitfile = hg_xasprintf("%s/top/a/.git", t->dir);
      assert_int_equal(unlink(gitfile), 0);
      free(gitfile);
      char *gitdir = hg_xasprintf("%s/top/.git", t->dir);
      assert_int_equal(rmdir(gitdir), 0);
      free(gitdir);
    }
    cases[0].root = round == 1 ? "/../.." : round == 2 ? "/.." : NULL;
    for (size_t i = 0; i < 2; i++) {
      hg_config *c = NULL;
      hg_error err = {{0}};
      assert_int_equal(hg_config_discover(&c, cases[i].start, &err), 0);
      assert_null(c->path);
      char *want = hg_xasprintf("%s%s", b, cases[i].root ? cases[i].root : "");
      assert_string_equal(c->root, want);
      free(want);
      hg_config_free(c);
    }
  }
  free(file);
  free(b);
}

static void test_config__discover_from_a_missing_path(void **state) {
  tmp *t = *state;
  char *gone = hg_xasprintf("%s/no/such/dir/x.py", t->dir);
  hg_config *c = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_config_discover(&c, gone, &err), 0);
  assert_non_null(c);
  assert_null(c->path);
  assert_int_equal(c->n_builders, 0);
  hg_config_free(c);
  free(gone);
}

static void test_config__discover_reports_a_broken_config(void **state) {
  tmp *t = *state;
  free(write_file(t->dir, ".hardguard.yml", "colour: red\n"));
  hg_config *c = (hg_config *)(uintptr_t)1;
  hg_error err = {{0}};
  assert_int_equal(hg_config_discover(&c, t->dir, &err), -1);
  assert_null(c);
  assert_non_null(strstr(err.message, ".hardguard.yml:1:1: "));
  assert_non_null(strstr(err.message, "unknown key 'colour'"));
}

// ---- excludes -----------------------------------------------------------------------------------

static hg_config *config_with_excludes(const char *root, const char *const *patterns) {
  hg_config *c = hg_config_empty(root);
  size_t n = 0;
  while (patterns[n]) n++;
  c->exclude = hg_xcalloc(n, sizeof(char *));
  for (size_t i = 0; i < n; i++) c->exclude[i] = hg_xstrdup(patterns[i]);
  c->n_exclude = n;
  return c;
}

typedef struct {
  const char *path;
  bool excluded;
} exclude_case;

static void check_excludes(const hg_config *c, const exclude_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    bool got = hg_config_excludes(c, cases[i].path);
    if (got != cases[i].excluded)
      print_error("root '%s', path '%s': %s, expected %s\n", c->root, cases[i].path, got ? "excluded" : "kept",
                  cases[i].excluded ? "excluded" : "kept");
    assert_int_equal(got, cases[i].excluded);
  }
}

static void test_config__excludes_relative_to_dot(void **state) {
  (void)state;
  static const char *const patterns[] = {"tests/**", "*_test.py", NULL};
  hg_config *c = config_with_excludes(".", patterns);
  static const exclude_case cases[] = {
      {"tests/x.py", true},      {"tests/a/b.py", true},   {"./tests/x.py", true},  {"././tests/a/b.py", true},
      {"src/tests.py", false},   {"src/tests/x.py", false}, {"testsx/y.py", false}, {"foo_test.py", true},
      {"a/b/foo_test.py", true}, {"./a/foo_test.py", true}, {"a/b/foo.py", false},  {"a/b/test_foo.py", false},
  };
  check_excludes(c, cases, sizeof(cases) / sizeof(cases[0]));
  hg_config_free(c);
}

static void test_config__excludes_relative_to_a_root(void **state) {
  (void)state;
  static const char *const patterns[] = {"tests/**", NULL};
  static const exclude_case cases[] = {
      {"proj/tests/x.py", true},
      {"proj/tests/a/b.py", true},
      {"proj/src/x.py", false},
      {"projx/tests/x.py", false},  // not under the root, and does not exist
  };
  hg_config *c = config_with_excludes("proj", patterns);
  check_excludes(c, cases, sizeof(cases) / sizeof(cases[0]));
  hg_config_free(c);
  // A trailing slash on the root changes nothing.
  c = config_with_excludes("proj/", patterns);
  check_excludes(c, cases, sizeof(cases) / sizeof(cases[0]));
  hg_config_free(c);
}

static void test_config__no_excludes_excludes_nothing(void **state) {
  (void)state;
  hg_config *c = hg_config_empty(".");
  assert_string_equal(c->root, ".");
  assert_null(c->path);
  assert_false(hg_config_excludes(c, "tests/x.py"));
  hg_config_free(c);
}

static void test_config__excludes_root_spelled_differently(void **state) {
  tmp *t = *state;
  free(make_dir(t->dir, "tests"));
  free(make_dir(t->dir, "src"));
  char *excluded = write_file(t->dir, "tests/x.py", "");
  char *kept = write_file(t->dir, "src/x.py", "");
  // The root reached through a detour: the paths are compared as real paths.
  char *root = hg_xasprintf("%s/src/..", t->dir);
  static const char *const patterns[] = {"tests/**", NULL};
  hg_config *c = config_with_excludes(root, patterns);
  assert_true(hg_config_excludes(c, excluded));
  assert_false(hg_config_excludes(c, kept));
  hg_config_free(c);
  free(root);
  free(excluded);
  free(kept);
}

static void test_config__excludes_from_a_loaded_file(void **state) {
  tmp *t = *state;
  hg_error err = {{0}};
  hg_config *c = load_text(t, "exclude: [tests/**, '*_test.py']\n", &err, NULL);
  assert_non_null(c);
  char *in_tests = hg_xasprintf("%s/tests/deep/x.py", t->dir);
  char *test_file = hg_xasprintf("%s/src/a_test.py", t->dir);
  char *src = hg_xasprintf("%s/src/a.py", t->dir);
  assert_true(hg_config_excludes(c, in_tests));
  assert_true(hg_config_excludes(c, test_file));
  assert_false(hg_config_excludes(c, src));
  free(in_tests);
  free(test_file);
  free(src);
  hg_config_free(c);
}

#define TMP_TEST(f) cmocka_unit_test_setup_teardown(f, setup_tmp, teardown_tmp)

int main(void) {
  const struct CMUnitTest tests[] = {
      TMP_TEST(test_config__loads_builders_and_excludes),
      TMP_TEST(test_config__empty_mapping_and_only_excludes),
      TMP_TEST(test_config__module_and_callable_names),
      TMP_TEST(test_config__rejections_name_file_line_col),
      TMP_TEST(test_config__missing_file_is_an_error),
      cmocka_unit_test(test_config__parse_bytes_as_the_named_file),
      TMP_TEST(test_config__discover_in_the_directory_itself),
      TMP_TEST(test_config__discover_in_an_ancestor),
      TMP_TEST(test_config__discover_none_gives_an_empty_config),
      TMP_TEST(test_config__discover_none_roots_a_file_at_its_git_work_tree),
      TMP_TEST(test_config__discover_from_a_missing_path),
      TMP_TEST(test_config__discover_reports_a_broken_config),
      cmocka_unit_test(test_config__excludes_relative_to_dot),
      cmocka_unit_test(test_config__excludes_relative_to_a_root),
      cmocka_unit_test(test_config__no_excludes_excludes_nothing),
      TMP_TEST(test_config__excludes_root_spelled_differently),
      TMP_TEST(test_config__excludes_from_a_loaded_file),
  };
  return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
