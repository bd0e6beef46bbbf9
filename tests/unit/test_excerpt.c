// Unit tests for excerpt.c: lines of a file by number (clamped to its end, CRLF and the last
// newline dropped), long lines cut at a character boundary, and files that cannot be quoted (gone,
// a directory, a FIFO that must not block) reported with a reason.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/excerpt.h"

typedef struct {
  char dir[64];
  hg_excerpts *x;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof(fixture));
  strcpy(f->dir, "/tmp/hg-excerpt-XXXXXX");
  if (!mkdtemp(f->dir))
    return -1;
  f->x = hg_excerpts_new();
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  hg_excerpts_free(f->x);
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
  int rc = system(cmd);
  free(f);
  return rc == 0 ? 0 : -1;
}

static const char *write_file(fixture *f, const char *name, const char *text, size_t n) {
  static char path[128];
  snprintf(path, sizeof(path), "%s/%s", f->dir, name);
  FILE *fp = fopen(path, "wb");
  fwrite(text, 1, n, fp);
  fclose(fp);
  return path;
}

static void assert_line(const hg_excerpt_line *l, uint32_t number, const char *text, bool cut) {
  assert_int_equal(l->number, number);
  assert_int_equal(l->len, strlen(text));
  assert_memory_equal(l->text, text, l->len);
  assert_int_equal(l->cut, cut);
}

static void test_excerpt__lines(void **state) {
  fixture *f = *state;
  const char text[] = "one\r\ntwo\nthree\n";
  const char *path = write_file(f, "a.py", text, sizeof(text) - 1);
  hg_excerpt_line out[8];
  const char *why = NULL;
  assert_int_equal(hg_excerpts_get(f->x, path, 0, 9, out, 8, &why), 3);
  assert_line(&out[0], 1, "one", false);
  assert_line(&out[1], 2, "two", false);
  assert_line(&out[2], 3, "three", false);
  assert_int_equal(hg_excerpts_get(f->x, path, 2, 2, out, 8, &why), 1);
  assert_line(&out[0], 2, "two", false);
  assert_int_equal(hg_excerpts_get(f->x, path, 4, 6, out, 8, &why), 0); // past the end
  assert_int_equal(hg_excerpts_get(f->x, path, 1, 3, out, 2, &why), 2); // at most cap
}

static void test_excerpt__long_line_cut_at_a_character(void **state) {
  fixture *f = *state;
  char text[HG_EXCERPT_LINE_MAX + 16];
  memset(text, 'x', HG_EXCERPT_LINE_MAX - 1);
  memcpy(text + HG_EXCERPT_LINE_MAX - 1, "\xc3\xa9tail\n", 7); // é straddles the limit
  const char *path = write_file(f, "long.py", text, HG_EXCERPT_LINE_MAX + 6);
  hg_excerpt_line out[1];
  const char *why = NULL;
  assert_int_equal(hg_excerpts_get(f->x, path, 1, 1, out, 1, &why), 1);
  assert_int_equal(out[0].len, HG_EXCERPT_LINE_MAX - 1);
  assert_true(out[0].cut);
}

static void test_excerpt__unreadable(void **state) {
  fixture *f = *state;
  hg_excerpt_line out[1];
  const char *why = NULL;
  char path[128];
  snprintf(path, sizeof(path), "%s/gone.py", f->dir);
  assert_int_equal(hg_excerpts_get(f->x, path, 1, 1, out, 1, &why), -1);
  assert_string_equal(why, "cannot open: No such file or directory");
  assert_int_equal(hg_excerpts_get(f->x, f->dir, 1, 1, out, 1, &why), -1);
  assert_string_equal(why, "not a regular file");
  snprintf(path, sizeof(path), "%s/fifo.py", f->dir);
  assert_int_equal(mkfifo(path, 0600), 0);
  assert_int_equal(hg_excerpts_get(f->x, path, 1, 1, out, 1, &why), -1); // returns: no blocking open
  assert_string_equal(why, "not a regular file");
}

static void test_excerpt__cache_follows_the_file(void **state) {
  fixture *f = *state;
  hg_excerpt_line out[1];
  const char *why = NULL;
  char a[128], b[128], c[128];
  strcpy(a, write_file(f, "a.py", "A\n", 2));
  strcpy(b, write_file(f, "b.py", "B\n", 2));
  strcpy(c, write_file(f, "c.py", "C", 1)); // no final newline
  const char *paths[] = {a, b, c, a, c, b};
  const char *want[] = {"A", "B", "C", "A", "C", "B"};
  for (size_t i = 0; i < 6; i++) {
    assert_int_equal(hg_excerpts_get(f->x, paths[i], 1, 1, out, 1, &why), 1);
    assert_line(&out[0], 1, want[i], false);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_excerpt__lines, setup, teardown),
      cmocka_unit_test_setup_teardown(test_excerpt__long_line_cut_at_a_character, setup, teardown),
      cmocka_unit_test_setup_teardown(test_excerpt__unreadable, setup, teardown),
      cmocka_unit_test_setup_teardown(test_excerpt__cache_follows_the_file, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
