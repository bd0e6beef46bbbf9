// Unit tests for scan.c and the reader in source.c: the worker pool gives the same findings,
// errors and counts for any number of workers; files the prefilter rules out are counted, not
// parsed; unreadable inputs (missing, a directory, a FIFO) are file errors and never block; the
// reader reuses its buffer, maps big files and strips a BOM.
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

#include "app/scan.h"
#include "base/source.h"
#include "base/spare.h"
#include "surfaces/registry.h"

typedef struct {
  hg_ruleset *rules;
  hg_config *config;
  char dir[64];
  HG_VEC(char *) paths;
  size_t candidates;  // files the prefilter lets through
} env;

static char *write_file(env *e, const char *name, const char *text, size_t len) {
  char *path = hg_xasprintf("%s/%s", e->dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len, f), len);
  fclose(f);
  return path;
}

static void add(env *e, const char *name, const char *text, size_t len) {
  char *path = write_file(e, name, text, len);
  size_t skip = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  e->candidates += hg_ruleset_may_contain_site(e->rules, HG_SURFACE_PYTHON, text + skip, len - skip, NULL);
  HG_VEC_PUSH(&e->paths, path);
}

static const char *const BODIES[] = {
    "import docker\nc = docker.from_env()\nc.containers.run('img%d', cap_drop=['ALL'])\n",
    "import subprocess\nsubprocess.run(['docker', 'run', '--rm', 'img%d'])\n",
    "import os\nos.system('podman run --network none img%d')\n",
    "x = %d\nprint('no sites here')\n",
    "client.containers.create('img%d', read_only=True\n",  // unclosed: an unparsable region
    "def f():\n    return %d\n",
};

static int setup_env(void **state) {
  env *e = calloc(1, sizeof(*e));
  hg_error err = {{0}};
  if (hg_ruleset_load(&e->rules, NULL, &err) != 0) {
    print_error("built-in rules: %s\n", err.message);
    return -1;
  }
  strcpy(e->dir, "/tmp/hg-scan-XXXXXX");
  if (!mkdtemp(e->dir)) return -1;
  e->config = hg_config_empty(e->dir);
  *state = e;
  char name[32], text[256];
  for (int i = 0; i < 120; i++) {
    snprintf(name, sizeof(name), "m%03d.py", i);
    int n = snprintf(text, sizeof(text), BODIES[i % (sizeof(BODIES) / sizeof(BODIES[0]))], i);
    add(e, name, text, (size_t)n);
  }
  add(e, "bom.py", "\xEF\xBB\xBFimport docker\ndocker.from_env()\n", 35);
  add(e, "empty.py", "", 0);
  static const char nul[] = "x = 1\0\nimport docker\ndocker.from_env()\n";
  add(e, "nul.py", nul, sizeof(nul) - 1);
  // Bigger than the reader keeps and than the scan parses side by side; its site is at the end.
  hg_buf big = {0};
  while (big.len < HG_READER_KEEP + 4096) hg_buf_puts(&big, "values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n");
  hg_buf_puts(&big, "import docker\ndocker.from_env().containers.run('big')\n");
  add(e, "big.py", big.data, big.len);
  // Big files next to each other, which workers set aside while another one is checked.
  for (int i = 0; i < 4; i++) {
    big.len = 0;
    hg_buf_printf(&big, "import docker\nc = docker.from_env()\nc.containers.run('big%d')\nv = [\n", i);
    while (big.len < 300 * 1024) hg_buf_puts(&big, "    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',\n");
    hg_buf_puts(&big, "]\n");
    snprintf(name, sizeof(name), "big%d.py", i);
    add(e, name, big.data, big.len);
  }
  hg_buf_free(&big);
  return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static int teardown_env(void **state) {
  env *e = *state;
  nftw(e->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  for (size_t i = 0; i < e->paths.len; i++) free(e->paths.items[i]);
  free(e->paths.items);
  hg_config_free(e->config);
  hg_ruleset_free(e->rules);
  free(e);
  return 0;
}

// Everything a scan hands back, as text.
static char *render(const hg_findings *f, const hg_file_errors *errors, const hg_scan_stats *s) {
  hg_buf b = {0};
  for (size_t i = 0; i < f->len; i++) {
    const hg_finding *x = &f->items[i];
    hg_buf_printf(&b, "%s:%u:%u-%u:%u %s rule=%d via=%d missing=%zu %s | %s\n", x->path, x->line, x->col,
                  x->end_line, x->end_col, x->kind, x->rule, x->via, x->n_missing, x->message,
                  x->source_line ? x->source_line : "");
  }
  for (size_t i = 0; i < errors->len; i++)
    hg_buf_printf(&b, "error %s %d %u:%u %s\n", errors->items[i].path, errors->items[i].kind, errors->items[i].line,
                  errors->items[i].col, errors->items[i].message);
  hg_buf_printf(&b, "files %zu parsed %zu sites %zu failing %zu\n", s->files, s->parsed, s->sites, s->failing);
  return hg_buf_detach(&b);
}

static char *scan_with(env *e, unsigned jobs, hg_scan_stats *stats) {
  hg_scan_options o = {.rules = e->rules, .config = e->config, .jobs = jobs};
  hg_findings f = {0};
  hg_file_errors errors = {0};
  *stats = (hg_scan_stats){0};
  hg_error err = {{0}};
  assert_int_equal(hg_scan(&o, e->paths.items, e->paths.len, &f, &errors, stats, &err), 0);
  char *text = render(&f, &errors, stats);
  hg_findings_free(&f);
  hg_file_errors_free(&errors);
  return text;
}

static void test_scan__same_for_any_number_of_workers(void **state) {
  env *e = *state;
  hg_scan_stats one;
  char *want = scan_with(e, 1, &one);
  assert_int_equal(one.files, e->paths.len);
  assert_int_equal(one.parsed, e->candidates);
  assert_true(one.parsed < one.files);  // the prefilter ruled files out
  assert_true(one.sites > 60);
  assert_non_null(strstr(want, "big.py:"));
  static const unsigned jobs[] = {2, 3, 8, 0};
  for (size_t i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
    hg_scan_stats s;
    char *got = scan_with(e, jobs[i], &s);
    if (strcmp(got, want) != 0) print_error("-j %u differs from -j 1:\n%s\n---\n%s\n", jobs[i], got, want);
    assert_string_equal(got, want);
    free(got);
  }
  free(want);
}

// Threads started ahead of the scan (as the command line starts them) are the ones it runs its
// workers on, as many as it needs; the findings are the same as with threads it starts itself.
static void test_scan__runs_on_spares_started_ahead(void **state) {
  env *e = *state;
  hg_scan_stats one;
  char *want = scan_with(e, 1, &one);
  hg_spare_start(3);
  hg_scan_stats s;
  char *got = scan_with(e, 3, &s);  // workers 1 and 2 on spares
  assert_int_equal(hg_spare_waiting(), 1);
  assert_string_equal(got, want);
  free(got);
  got = scan_with(e, 3, &s);  // one spare left: one worker on it, one on a thread of its own
  assert_int_equal(hg_spare_waiting(), 0);
  assert_string_equal(got, want);
  free(got);
  hg_spare_release();
  free(want);
  // How many the command line starts ahead: one per core (or -j), at most one per path when none
  // is a directory.
  const char *files[] = {e->paths.items[0], e->paths.items[1], e->paths.items[2]};
  const char *dir[] = {e->paths.items[0], e->dir};
  assert_int_equal(hg_scan_threads_ahead(8, files, 3), 3);
  assert_int_equal(hg_scan_threads_ahead(2, files, 3), 2);
  assert_int_equal(hg_scan_threads_ahead(8, files, 1), 1);
  assert_int_equal(hg_scan_threads_ahead(8, dir, 2), 8);
  assert_int_equal(hg_scan_threads_ahead(8, dir + 1, 1), 8);
  assert_int_equal(hg_scan_threads_ahead(1, dir, 2), 1);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  assert_int_equal(hg_scan_threads_ahead(0, dir + 1, 1), cores > 0 ? (unsigned)cores : 1);
}

// A sink's findings, appended in the order the scan hands them on.
static void collect(void *ctx, hg_findings *file) {
  hg_findings *all = ctx;
  for (size_t i = 0; i < file->len; i++) HG_VEC_PUSH(all, file->items[i]);
  free(file->items);
  *file = (hg_findings){0};
}

// With a sink, the findings come file by file in path order and, joined, are the sorted list a
// run without one returns: for any number of workers, paths given in any order, big files set
// aside, and a file named twice (its findings merged as the sort has them).
static void test_scan__sink_gets_files_in_path_order(void **state) {
  env *e = *state;
  HG_VEC(char *) paths = {0};
  for (size_t i = e->paths.len; i-- > 0;) HG_VEC_PUSH(&paths, e->paths.items[i]);
  HG_VEC_PUSH(&paths, e->paths.items[1]);
  HG_VEC_PUSH(&paths, e->paths.items[e->paths.len - 1]);  // a big file
  hg_scan_options o = {.rules = e->rules, .config = e->config, .jobs = 1};
  hg_findings f = {0};
  hg_file_errors errors = {0};
  hg_scan_stats s = {0};
  hg_error err = {{0}};
  assert_int_equal(hg_scan(&o, paths.items, paths.len, &f, &errors, &s, &err), 0);
  char *want = render(&f, &errors, &s);
  hg_findings_free(&f);
  hg_file_errors_free(&errors);
  static const unsigned jobs[] = {1, 2, 3, 8};
  for (size_t i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
    hg_findings got = {0};
    o = (hg_scan_options){.rules = e->rules, .config = e->config, .jobs = jobs[i], .sink = collect, .sink_ctx = &got};
    errors = (hg_file_errors){0};
    s = (hg_scan_stats){0};
    assert_int_equal(hg_scan(&o, paths.items, paths.len, NULL, &errors, &s, &err), 0);
    char *text = render(&got, &errors, &s);
    if (strcmp(text, want) != 0) print_error("-j %u with a sink differs:\n%s\n---\n%s\n", jobs[i], text, want);
    assert_string_equal(text, want);
    free(text);
    hg_findings_free(&got);
    hg_file_errors_free(&errors);
  }
  free(want);
  free(paths.items);
}

static void test_scan__bytes_like_files(void **state) {
  env *e = *state;
  // hg_scan_bytes on a file's bytes gives what hg_scan gives for the file.
  for (size_t i = 0; i < 6; i++) {
    const char *path = e->paths.items[i];
    char *data;
    size_t len;
    hg_error err = {{0}};
    assert_int_equal(hg_read_file(&data, &len, path, &err), 0);
    hg_scan_options o = {.rules = e->rules, .config = e->config, .jobs = 1};
    hg_findings a = {0}, b = {0};
    hg_file_errors ea = {0}, eb = {0};
    hg_scan_stats sa = {0}, sb = {0};
    hg_scan_bytes(&o, path, data, len, &a, &ea);
    char *const one[] = {e->paths.items[i]};
    assert_int_equal(hg_scan(&o, one, 1, &b, &eb, &sb, &err), 0);
    sb = sa;  // hg_scan_bytes keeps no counts
    char *ra = render(&a, &ea, &sa), *rb = render(&b, &eb, &sb);
    assert_string_equal(ra, rb);
    free(ra);
    free(rb);
    free(data);
    hg_findings_free(&a);
    hg_findings_free(&b);
    hg_file_errors_free(&ea);
    hg_file_errors_free(&eb);
  }
}

static void test_scan__unreadable_inputs_never_block(void **state) {
  env *e = *state;
  char *fifo = hg_xasprintf("%s/fifo.py", e->dir);
  assert_int_equal(mkfifo(fifo, 0644), 0);
  char *missing = hg_xasprintf("%s/missing.py", e->dir);
  char *paths[] = {fifo, missing, e->dir};
  hg_scan_options o = {.rules = e->rules, .config = e->config, .jobs = 2};
  hg_findings f = {0};
  hg_file_errors errors = {0};
  hg_scan_stats s = {0};
  hg_error err = {{0}};
  alarm(20);  // a blocking open or read of the FIFO would end the test here
  assert_int_equal(hg_scan(&o, paths, 3, &f, &errors, &s, &err), 0);
  alarm(0);
  assert_int_equal(f.len, 0);
  assert_int_equal(s.files, 0);
  assert_int_equal(errors.len, 3);
  // Sorted by path: the directory, then fifo.py, then missing.py.
  assert_string_equal(errors.items[0].message, "not a regular file");
  assert_string_equal(errors.items[1].message, "not a regular file");
  assert_string_equal(errors.items[2].message, "cannot open: No such file or directory");
  for (size_t i = 0; i < 3; i++) assert_int_equal(errors.items[i].kind, HG_FILE_UNREADABLE);
  hg_file_errors_free(&errors);
  unlink(fifo);
  free(fifo);
  free(missing);
}

static void test_scan__reader(void **state) {
  env *e = *state;
  hg_reader *r = hg_reader_new();
  hg_source s;
  hg_error err = {{0}};
  char *small = write_file(e, "small.py", "\xEF\xBB\xBFx = 1\n", 9);
  char *big = NULL;
  for (size_t i = 0; i < e->paths.len; i++)
    if (strstr(e->paths.items[i], "/big.py")) big = e->paths.items[i];
  assert_non_null(big);
  // A small file, a big one (mapped), a small one again: each a view with the BOM stripped.
  for (int round = 0; round < 2; round++) {
    assert_int_equal(hg_reader_read(r, &s, small, &err), 0);
    assert_ptr_equal(s.path, small);
    assert_null(s.raw);
    assert_int_equal(s.len, 6);
    assert_string_equal(s.data, "x = 1\n");
    hg_source_free(&s);  // a view: frees nothing
    assert_int_equal(hg_reader_read(r, &s, big, &err), 0);
    assert_true(s.len > HG_READER_KEEP);
    assert_int_equal(s.data[s.len], '\0');
    assert_non_null(strstr(s.data, "containers.run('big')"));
  }
  // An empty file, and one that is gone.
  char *empty = write_file(e, "empty2.py", "", 0);
  assert_int_equal(hg_reader_read(r, &s, empty, &err), 0);
  assert_int_equal(s.len, 0);
  assert_string_equal(s.data, "");
  unlink(empty);
  assert_int_equal(hg_reader_read(r, &s, empty, &err), -1);
  char *want = hg_xasprintf("%s: cannot open: No such file or directory", empty);
  assert_string_equal(err.message, want);
  free(want);
  // procfs files say they are empty: they are read to their end all the same.
  if (access("/proc/self/status", R_OK) == 0) {
    assert_int_equal(hg_reader_read(r, &s, "/proc/self/status", &err), 0);
    assert_non_null(strstr(s.data, "Name:"));
    assert_int_equal(hg_reader_read_below(r, &s, "/proc/self/status", 1, &err), 0);  // no size to go by
    assert_non_null(strstr(s.data, "Name:"));
  }
  // Read below a size: a file of that size or more is left unread (its size is known before a
  // byte is read), a smaller one read as usual; a missing one is still an error.
  assert_int_equal(hg_reader_read_below(r, &s, small, 9, &err), HG_READ_BIG);
  assert_null(s.data);
  assert_int_equal(hg_reader_read_below(r, &s, small, 10, &err), 0);
  assert_string_equal(s.data, "x = 1\n");
  assert_int_equal(hg_reader_read_below(r, &s, big, HG_READER_KEEP, &err), HG_READ_BIG);
  assert_int_equal(hg_reader_read_below(r, &s, big, 0, &err), 0);
  assert_true(s.len > HG_READER_KEEP);
  hg_reader_trim(r);  // the big buffer goes now; the next read makes another
  assert_int_equal(hg_reader_read_below(r, &s, small, 1 << 20, &err), 0);
  assert_string_equal(s.data, "x = 1\n");
  assert_int_equal(hg_reader_read_below(r, &s, empty, 1, &err), -1);
  hg_reader_free(r);
  hg_reader_free(NULL);
  unlink(small);
  free(small);
  free(empty);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scan__same_for_any_number_of_workers),
      cmocka_unit_test(test_scan__runs_on_spares_started_ahead),
      cmocka_unit_test(test_scan__sink_gets_files_in_path_order),
      cmocka_unit_test(test_scan__bytes_like_files),
      cmocka_unit_test(test_scan__unreadable_inputs_never_block),
      cmocka_unit_test(test_scan__reader),
  };
  return cmocka_run_group_tests_name("scan", tests, setup_env, teardown_env);
}
