// Unit tests for walk.c: which files a directory walk yields (*.py, regular files only, no
// symlinks followed, VCS/cache/virtualenv directories and the config's excludes skipped before
// descending) and how paths are spelled, as reached from the argument given.
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

#include "app/walk.h"

typedef struct {
  char root[64];
  char cwd[4096];
} tree;

static void put(const tree *t, const char *rel) {
  char *path = hg_xasprintf("%s/%s", t->root, rel);
  // Make the parent directories.
  for (char *s = path + strlen(t->root) + 1; (s = strchr(s, '/')); s++) {
    *s = '\0';
    mkdir(path, 0755);
    *s = '/';
  }
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("x = 1\n", f);
  fclose(f);
  free(path);
}

static void put_text(const tree *t, const char *rel, const char *text) {
  put(t, rel);
  char *path = hg_xasprintf("%s/%s", t->root, rel);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  free(path);
}

static void link_to(const tree *t, const char *target, const char *rel) {
  char *path = hg_xasprintf("%s/%s", t->root, rel);
  assert_int_equal(symlink(target, path), 0);
  free(path);
}

static int setup_tree(void **state) {
  tree *t = calloc(1, sizeof(*t));
  strcpy(t->root, "/tmp/hg-walk-XXXXXX");
  if (!mkdtemp(t->root) || !getcwd(t->cwd, sizeof(t->cwd))) return -1;
  *state = t;
  static const char *const files[] = {
      "a.py", "b.txt", "pyvenv.cfg",  // pyvenv.cfg in the walked directory itself does not skip it
      "pkg/c.py", "pkg/sub/d.py", "pkg/sub/notes.md", "tests/t.py", "gen_x.py", "pkg/gen_y.py",
      ".git/e.py", "__pycache__/f.py", "node_modules/g.py", "venv/h.py", ".venv/i.py", ".hg/j.py", ".svn/k.py",
      "env/pyvenv.cfg", "env/lib/l.py", "env/m.py",  // a virtualenv
      "dangling/n.py",                               // its pyvenv.cfg is a dangling link
      "cfglink/o.py",                                // its pyvenv.cfg is a link to a real file
      "py/.py", "py/x.pyc", "py/y.py~",
      "vendor/modules.txt", "vendor/p.py",           // Go's vendored dependencies
      "pkg/vendor/q.py",                             // a vendor directory without modules.txt is walked
  };
  for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) put(t, files[i]);
  link_to(t, "nowhere", "dangling/pyvenv.cfg");
  link_to(t, "../pyvenv.cfg", "cfglink/pyvenv.cfg");
  link_to(t, "pkg", "linkdir");
  link_to(t, "a.py", "link.py");
  link_to(t, "/", "root.py");
  char *fifo = hg_xasprintf("%s/fifo.py", t->root);
  assert_int_equal(mkfifo(fifo, 0644), 0);
  free(fifo);
  return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static int teardown_tree(void **state) {
  tree *t = *state;
  int rc = chdir(t->cwd);
  nftw(t->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(t);
  return rc;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// The walk's files, sorted and joined with spaces, with `strip` taken off the front of each.
static char *walked(const char *const *args, size_t n, const hg_config *config, const char *strip,
                    hg_file_errors *errors) {
  hg_paths out = {0};
  hg_walk(args, n, config, &out, errors, NULL, NULL);
  qsort(out.items, out.len, sizeof(char *), cmp_str);
  hg_buf b = {0};
  for (size_t i = 0; i < out.len; i++) {
    const char *p = out.items[i];
    if (strip && strncmp(p, strip, strlen(strip)) == 0) p += strlen(strip);
    hg_buf_puts(&b, i ? " " : "");
    hg_buf_puts(&b, p);
  }
  hg_strvec_free(&out);
  return hg_buf_detach(&b);
}

static void test_walk__python_files_only(void **state) {
  tree *t = *state;
  hg_config *c = hg_config_empty(t->root);
  hg_file_errors errors = {0};
  const char *args[] = {t->root};
  char *prefix = hg_xasprintf("%s/", t->root);
  char *got = walked(args, 1, c, prefix, &errors);
  // No symlink (link.py, linkdir/, root.py) is followed, no FIFO listed, no skipped directory
  // entered; env/ holds pyvenv.cfg and is a virtualenv, and so is cfglink/, whose pyvenv.cfg is a
  // link that resolves; dangling/'s does not resolve; vendor/ holds Go's modules.txt.
  assert_string_equal(got, "a.py dangling/n.py gen_x.py pkg/c.py pkg/gen_y.py pkg/sub/d.py pkg/vendor/q.py tests/t.py");
  assert_int_equal(errors.len, 0);
  free(got);
  free(prefix);
  hg_config_free(c);
}

// Every surface's files: by extension, by name glob, by path glob, and extensionless scripts by
// their #! line (a file without one is not read).
static void test_walk__every_surface(void **state) {
  (void)state;
  tree own = {0}, *t = &own;  // a tree of its own: the shared one is walked whole by other tests
  strcpy(t->root, "/tmp/hg-walk-XXXXXX");
  assert_non_null(mkdtemp(t->root));
  char *dir = hg_xasprintf("%s/surfaces", t->root);
  put_text(t, "surfaces/run.sh", "docker run x\n");
  put_text(t, "surfaces/lib.bash", "x\n");
  put_text(t, "surfaces/tools/launch", "#!/usr/bin/env bash\ndocker run x\n");
  put_text(t, "surfaces/tools/py_tool", "#!/usr/bin/python3.11 -u\nimport docker\n");
  put_text(t, "surfaces/tools/README", "docker run x\n");
  put_text(t, "surfaces/tools/perl_tool", "#!/usr/bin/perl\n");
  put_text(t, "surfaces/Makefile", "a:\n\tdocker run x\n");
  put_text(t, "surfaces/mk/rules.mk", "x\n");
  put_text(t, "surfaces/.github/workflows/ci.yml", "on: push\n");
  put_text(t, "surfaces/.github/other.yml", "on: push\n");
  put_text(t, "surfaces/deploy/action.yml", "runs: {}\n");
  put_text(t, "surfaces/.gitlab-ci.yml", "a: {}\n");
  put_text(t, "surfaces/notes.yml", "a: {}\n");
  put_text(t, "surfaces/deploy/docker-compose.dev.yml", "services: {}\n");
  hg_config *c = hg_config_empty(dir);
  hg_file_errors errors = {0};
  const char *args[] = {dir};
  char *prefix = hg_xasprintf("%s/", dir);
  char *got = walked(args, 1, c, prefix, &errors);
  assert_string_equal(got, ".github/workflows/ci.yml .gitlab-ci.yml Makefile deploy/action.yml "
                           "deploy/docker-compose.dev.yml lib.bash "
                           "mk/rules.mk run.sh tools/launch tools/py_tool");
  assert_int_equal(errors.len, 0);
  free(got);
  free(prefix);
  free(dir);
  hg_config_free(c);
  nftw(t->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_walk__excludes_before_descending(void **state) {
  tree *t = *state;
  hg_config *c = hg_config_empty(t->root);
  c->exclude = hg_xcalloc(2, sizeof(char *));
  c->exclude[c->n_exclude++] = hg_xstrdup("tests/**");
  c->exclude[c->n_exclude++] = hg_xstrdup("gen_*.py");
  hg_file_errors errors = {0};
  const char *args[] = {t->root};
  char *prefix = hg_xasprintf("%s/", t->root);
  char *got = walked(args, 1, c, prefix, &errors);
  assert_string_equal(got, "a.py dangling/n.py pkg/c.py pkg/sub/d.py pkg/vendor/q.py");
  assert_int_equal(errors.len, 0);
  free(got);
  // Counted for the reports: the directory once (not entered), each file a surface would read.
  hg_paths out = {0};
  size_t excluded = 0;
  hg_walk(args, 1, c, &out, &errors, &excluded, NULL);
  assert_int_equal(excluded, 3);  // tests/, gen_x.py, pkg/gen_y.py
  hg_strvec_free(&out);
  free(prefix);
  hg_config_free(c);
}

static void test_walk__paths_as_reached(void **state) {
  tree *t = *state;
  assert_int_equal(chdir(t->root), 0);
  hg_config *c = hg_config_empty(".");
  hg_file_errors errors = {0};
  // "." is not spelled out; a trailing slash is not doubled; a file named on the command line is
  // listed whatever it is (reading it reports a FIFO), and a missing one is an error.
  const char *args[] = {".", "pkg/", "fifo.py", "b.txt", "missing.py"};
  char *got = walked(args, 5, c, NULL, &errors);
  assert_string_equal(got, "a.py b.txt dangling/n.py fifo.py gen_x.py pkg/c.py pkg/c.py pkg/gen_y.py pkg/gen_y.py "
                           "pkg/sub/d.py pkg/sub/d.py pkg/vendor/q.py pkg/vendor/q.py tests/t.py");
  assert_int_equal(errors.len, 1);
  assert_string_equal(errors.items[0].path, "missing.py");
  assert_string_equal(errors.items[0].message, "cannot open: No such file or directory");
  hg_file_errors_free(&errors);
  free(got);
  hg_config_free(c);
  assert_int_equal(chdir(t->cwd), 0);
}

static void test_walk__many_files(void **state) {
  tree *t = *state;
  for (int i = 0; i < 300; i++) {
    char rel[64];
    snprintf(rel, sizeof(rel), "many/d%02d/f%03d.py", i % 17, i);
    put(t, rel);
  }
  char *dir = hg_xasprintf("%s/many", t->root);
  hg_config *c = hg_config_empty(t->root);
  hg_paths out = {0};
  hg_file_errors errors = {0};
  const char *args[] = {dir};
  hg_walk(args, 1, c, &out, &errors, NULL, NULL);
  assert_int_equal(out.len, 300);
  assert_int_equal(errors.len, 0);
  for (size_t i = 0; i < out.len; i++) assert_int_equal(strncmp(out.items[i], dir, strlen(dir)), 0);
  hg_strvec_free(&out);
  hg_strvec_free(&out);  // harmless after the reset
  hg_config_free(c);
  free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_walk__python_files_only),
      cmocka_unit_test(test_walk__every_surface),
      cmocka_unit_test(test_walk__excludes_before_descending),
      cmocka_unit_test(test_walk__paths_as_reached),
      cmocka_unit_test(test_walk__many_files),
  };
  return cmocka_run_group_tests_name("walk", tests, setup_tree, teardown_tree);
}
