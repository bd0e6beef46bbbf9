// Unit tests for project/mentions.c: the table of the files that write a name as a call, built from
// one read of every .py file under a root; skipped directories, words that are not calls, files
// that are not Python, and a name written nowhere.
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "surfaces/python/project/mentions.h"

static char dir[64];

static void put(const char *rel, const char *text) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", dir, rel);
  for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static int setup_tree(void **state) {
  (void)state;
  strcpy(dir, "/tmp/hg-mentions-XXXXXX");
  if (!mkdtemp(dir))
    return -1;
  put("app/service.py", "from sandbox import run_example\n\ndef handle(code):\n    return run_example (code)\n");
  put("app/pool.py", "pool = WarmPool(client)\npool.fill()\n# run_example is named here, not called\n");
  put("app/notes.txt", "run_example(code)\n");
  put(".venv/lib/site.py", "run_example(code)\n");
  put("node_modules/x/y.py", "run_example(code)\n");
  put("app/__pycache__/z.py", "run_example(code)\n");
  put("deep/a/b/c.py", "x = obj.\trun_example\t(1)\n");
  put("app/policies.py", "from sandbox.policy import (\n    Policy,\n    Other)\n\n"
                         "class Strict(Policy):\n    pass\nclass Both(base.Policy, Mixin):\n    pass\n");
  put("odd.py/inner.py", "inner_call()\n");
  // Indented imports and classes: by spaces (eight, sixteen, some past eight), tabs, both; a line
  // of blanks only, and words that only begin like the three.
  put("indent/deep.py", "def f():\n        import eight_mod\n                import sixteen_mod\n"
                        "             from thirteen_mod import x\n\t  \tfrom tabbed_mod import y\n        \n"
                        "        importer_mod = 1\n          classy = 2\n            class Inner(DeepBase):\n"
                        "                pass\n        fromage(3)\n");
  // A file writes a call, an import and a base again and again: it is filed once under each.
  put("dups/again.py", "import os, os.path\nfrom os import path\ntwice(1)\nother(2)\nx.twice(3)\ntwice (4)\n"
                       "class A(Twin, Twin):\n    pass\n");  // a directory named like a module is walked
  // One buffer holds each file read in turn: a long file, then (its directory's files come before
  // its subdirectories) a short one, which must not be read with the long one's bytes past its end;
  // a file past 1 MiB is not read at all.
  hg_buf big = {0};
  hg_buf_puts(&big, "x = 1\n");
  while (big.len < 100 * 1024) hg_buf_puts(&big, "# filler filler filler filler filler filler filler filler\n");
  hg_buf_puts(&big, "ghost_call(1)\ntail_call()\n");
  put("big/long.py", big.data);
  put("big/zz/short.py", "y = 2\n");
  while (big.len <= ((size_t)1 << 20)) hg_buf_puts(&big, "# more filler more filler more filler more filler\n");
  hg_buf_puts(&big, "huge_call()\n");
  put("huge/huge.py", big.data);
  hg_buf_free(&big);
  // A byte-order mark is dropped, as the scan drops it: the first line's import is an import.
  put("bom.py", "\xEF\xBB\xBF" "from bommod import thing\nthing()\n");
  // Many files naming the same calls, imports and bases, for readings taken by several threads.
  for (int i = 0; i < 120; i++) {
    char rel[64], text[256];
    snprintf(rel, sizeof(rel), "many/d%d/m%03d.py", i % 7, i);
    snprintf(text, sizeof(text), "from shared import (helper%d,\n  common)\nclass C%d(Norm, Base%d):\n    pass\n"
             "common(%d)\nhelper%d(1)\nmany_run(x) if %d %% 3 == 0 else None\n", i % 5, i, i % 4, i, i % 5, i);
    put(rel, text);
  }
  // Links are not followed, to a file or to a directory: each file is read once, under the root.
  char target[128], link[128];
  snprintf(target, sizeof(target), "%s/app/service.py", dir);
  snprintf(link, sizeof(link), "%s/alias.py", dir);
  if (symlink(target, link) != 0)
    return -1;
  snprintf(target, sizeof(target), "%s/app", dir);
  snprintf(link, sizeof(link), "%s/applink", dir);
  if (symlink(target, link) != 0)
    return -1;
  return 0;
}

static int teardown_tree(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
  return system(cmd) == 0 ? 0 : -1;
}

static bool has(const char *const *files, size_t n, const char *suffix) {
  for (size_t i = 0; i < n; i++) {
    size_t a = strlen(files[i]), b = strlen(suffix);
    if (a >= b && !strcmp(files[i] + a - b, suffix))
      return true;
  }
  return false;
}

static void test_mentions__calls_in_python_files_only(void **state) {
  (void)state;
  hg_mentions *m = hg_mentions_build(dir);
  size_t n;
  const char *why = NULL;
  const char *const *files = hg_mentions_files(m, "run_example", 11, &n, &why);
  assert_non_null(files);
  assert_null(why);
  // service.py (a call with a blank before the parenthesis) and c.py (`obj.\trun_example\t(`);
  // not the comment of pool.py, the .txt file or the skipped directories.
  assert_int_equal(n, 2);
  assert_true(has(files, n, "app/service.py"));
  assert_true(has(files, n, "deep/a/b/c.py"));
  files = hg_mentions_files(m, "inner_call", 10, &n, &why);
  assert_int_equal(n, 1);
  assert_true(has(files, n, "odd.py/inner.py"));
  files = hg_mentions_files(m, "WarmPool", 8, &n, &why);
  assert_int_equal(n, 1);
  assert_true(has(files, n, "app/pool.py"));
  files = hg_mentions_files(m, "fill", 4, &n, &why);
  assert_int_equal(n, 1);
  files = hg_mentions_files(m, "tail_call", 9, &n, &why);
  assert_int_equal(n, 1);  // the long file's last bytes
  assert_true(has(files, n, "big/long.py"));
  files = hg_mentions_files(m, "ghost_call", 10, &n, &why);
  assert_int_equal(n, 1);  // not short.py, read after it into the same buffer
  assert_true(has(files, n, "big/long.py"));
  hg_mentions_files(m, "huge_call", 9, &n, &why);
  assert_int_equal(n, 0);  // past 1 MiB: not read
  files = hg_mentions_files(m, "twice", 5, &n, &why);
  assert_int_equal(n, 1);
  assert_true(has(files, n, "dups/again.py"));
  files = hg_mentions_importers(m, "os", 2, &n);
  assert_int_equal(n, 1);
  assert_true(has(files, n, "dups/again.py"));
  files = hg_mentions_importers(m, "path", 4, &n);
  assert_int_equal(n, 1);
  const char *const want[] = {"eight_mod", "sixteen_mod", "thirteen_mod", "tabbed_mod", "x", "y"};
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
    files = hg_mentions_importers(m, want[i], strlen(want[i]), &n);
    assert_int_equal(n, 1);
    assert_true(has(files, n, "indent/deep.py"));
  }
  assert_null(hg_mentions_importers(m, "importer_mod", 12, &n));
  assert_null(hg_mentions_importers(m, "fromage", 7, &n));
  files = hg_mentions_subclasses(m, "DeepBase", 8, &n);
  assert_int_equal(n, 1);
  assert_string_equal(files[0], "Inner");
  files = hg_mentions_subclasses(m, "Twin", 4, &n);
  assert_int_equal(n, 1);
  assert_string_equal(files[0], "A");
  hg_mentions_free(m);
}

static void test_mentions__a_name_written_nowhere(void **state) {
  (void)state;
  hg_mentions *m = hg_mentions_build(dir);
  size_t n = 99;
  const char *why = NULL;
  hg_mentions_files(m, "pool", 4, &n, &why); // `pool =` and `pool.fill`: never `pool(`
  assert_int_equal(n, 0);
  assert_null(why);
  hg_mentions_files(m, "nothing", 7, &n, &why);
  assert_int_equal(n, 0);
  hg_mentions_free(m);
}

static void test_mentions__imports_and_subclasses(void **state) {
  (void)state;
  char path[128];
  hg_mentions *m = hg_mentions_build(dir);
  snprintf(path, sizeof(path), "%s/app/policies.py", dir);
  assert_true(hg_mentions_imports(m, path, "sandbox", 7));
  assert_true(hg_mentions_imports(m, path, "policy", 6));
  assert_true(hg_mentions_imports(m, path, "Other", 5)); // inside the parenthesised list
  assert_false(hg_mentions_imports(m, path, "Strict", 6));
  assert_false(hg_mentions_imports(m, "/nowhere.py", "sandbox", 7));
  snprintf(path, sizeof(path), "%s/bom.py", dir);
  assert_true(hg_mentions_imports(m, path, "bommod", 6));
  size_t n;
  const char *const *subs = hg_mentions_subclasses(m, "Policy", 6, &n);
  assert_int_equal(n, 2);
  assert_string_equal(subs[0], "Strict");
  assert_string_equal(subs[1], "Both");
  assert_null(hg_mentions_subclasses(m, "Strict", 6, &n));
  assert_int_equal(n, 0);
  hg_mentions_free(m);
}

static void *read_some(void *job) {
  hg_mentions_read(job);
  return NULL;
}

// Every answer as text, lists in their order.
static char *answers(const hg_mentions *m) {
  static const char *const words[] = {"run_example", "many_run", "common", "helper0", "helper3", "inner_call",
                                      "tail_call", "shared", "Policy", "Norm", "Base1", "fill", "WarmPool"};
  hg_buf b = {0};
  for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
    size_t n;
    const char *why = NULL;
    const char *const *l = hg_mentions_files(m, words[w], strlen(words[w]), &n, &why);
    hg_buf_printf(&b, "%s calls:", words[w]);
    for (size_t i = 0; l && i < n; i++) hg_buf_printf(&b, " %s", l[i]);
    l = hg_mentions_importers(m, words[w], strlen(words[w]), &n);
    hg_buf_puts(&b, "\n importers:");
    for (size_t i = 0; l && i < n; i++) hg_buf_printf(&b, " %s", l[i]);
    l = hg_mentions_subclasses(m, words[w], strlen(words[w]), &n);
    hg_buf_puts(&b, "\n subclasses:");
    for (size_t i = 0; l && i < n; i++) hg_buf_printf(&b, " %s", l[i]);
    hg_buf_puts(&b, "\n");
  }
  return hg_buf_detach(&b);
}

// Read by three threads at once, the table is the one a single reading makes: every list in walk
// order, whichever thread read which file and in whatever order the readings came.
static void test_mentions__read_by_several_threads(void **state) {
  (void)state;
  hg_mentions *one = hg_mentions_build(dir);
  char *want = answers(one);
  assert_non_null(strstr(want, "many/d0/m000.py"));
  for (int round = 0; round < 5; round++) {
    hg_mentions_job *job = hg_mentions_begin(dir);
    pthread_t t[2];
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, read_some, job), 0);
    hg_mentions_read(job);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    hg_mentions *many = hg_mentions_end(job);
    char *got = answers(many);
    assert_string_equal(got, want);
    char path[128];
    snprintf(path, sizeof(path), "%s/many/d3/m010.py", dir);
    assert_true(hg_mentions_imports(many, path, "helper0", 7));
    assert_false(hg_mentions_imports(many, path, "helper1", 7));
    free(got);
    hg_mentions_free(many);
  }
  free(want);
  hg_mentions_free(one);
}

static void test_mentions__a_missing_root_is_empty(void **state) {
  (void)state;
  hg_mentions *m = hg_mentions_build("/nonexistent/hg-mentions");
  size_t n = 99;
  const char *why = NULL;
  hg_mentions_files(m, "run_example", 11, &n, &why);
  assert_int_equal(n, 0);
  hg_mentions_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mentions__calls_in_python_files_only),
      cmocka_unit_test(test_mentions__a_name_written_nowhere),
      cmocka_unit_test(test_mentions__imports_and_subclasses),
      cmocka_unit_test(test_mentions__read_by_several_threads),
      cmocka_unit_test(test_mentions__a_missing_root_is_empty),
  };
  return cmocka_run_group_tests_name("mentions", tests, setup_tree, teardown_tree);
}
