// Unit tests for fix/edit.c and fix/diff.c: an edit list applied in one pass (and refused when two
// edits overlap), offsets mapped through it, the line ending and byte-order mark a fix keeps, and
// the unified diff rendered from the edits.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fix/diff.h"
#include "fix/edit.h"

typedef struct {
  uint32_t start, end;
  const char *text;
} raw_edit;

typedef struct {
  const char *name;
  const char *src;
  raw_edit edits[4];
  size_t n;
  const char *want; // NULL: refused (overlap or out of range)
} apply_case;

static void test_edit__apply(void **state) {
  (void)state;
  static const apply_case cases[] = {
      {"no edits", "abc", {{0}}, 0, "abc"},
      {"insert, replace, delete, out of order", "0123456789", {{8, 10, ""}, {0, 0, ">"}, {3, 5, "xy"}}, 3, ">012xy567"},
      {"insertion at a replacement's end touches, no overlap", "abcdef", {{1, 3, "X"}, {3, 3, "+"}}, 2, "aX+def"},
      {"insertion at a replacement's start goes first", "abcdef", {{2, 4, "X"}, {2, 2, "+"}}, 2, "ab+Xef"},
      {"overlapping replacements", "abcdef", {{1, 4, "X"}, {3, 5, "Y"}}, 2, NULL},
      {"two insertions at one offset: their order is a guess", "abc", {{1, 1, "x"}, {1, 1, "y"}}, 2, NULL},
      {"past the end", "abc", {{2, 4, ""}}, 1, NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    const apply_case *c = &cases[i];
    hg_edits e = {0};
    for (size_t k = 0; k < c->n; k++)
      hg_edits_add(&e, c->edits[k].start, c->edits[k].end, c->edits[k].text);
    hg_buf out = {0};
    hg_buf_puts(&out, "");
    int rc = hg_edits_apply(&e, c->src, strlen(c->src), &out);
    if (c->want) {
      if (rc != 0 || strcmp(out.data, c->want))
        fail_msg("case '%s': got rc %d '%s'", c->name, rc, out.data);
    } else if (rc != -1 || out.len) {
      fail_msg("case '%s': not refused (rc %d, '%s')", c->name, rc, out.data);
    }
    hg_buf_free(&out);
    hg_edits_free(&e);
  }
}

static void test_edit__map(void **state) {
  (void)state;
  hg_edits e = {0};
  hg_edits_add(&e, 0, 0, "12345"); // +5 before everything
  hg_edits_add(&e, 10, 14, "x");   // -3, offsets 10..13 replaced
  hg_edits_add(&e, 20, 20, "yy");  // +2 at 20
  hg_edits_sort(&e);
  assert_int_equal(hg_edits_map(&e, 0), 5);
  assert_int_equal(hg_edits_map(&e, 9), 14);
  assert_int_equal(hg_edits_map(&e, 12), 15); // inside the replacement: its start
  assert_int_equal(hg_edits_map(&e, 14), 16);
  assert_int_equal(hg_edits_map(&e, 20), 24); // an insertion at the offset goes before it
  hg_edits_free(&e);
}

static void test_edit__text_facts(void **state) {
  (void)state;
  assert_string_equal(hg_text_eol("a\r\nb\n", 5), "\r\n");
  assert_string_equal(hg_text_eol("a\nb\r\n", 5), "\n");
  assert_string_equal(hg_text_eol("no newline", 10), "\n");
  assert_string_equal(hg_text_eol("\n", 1), "\n");
  assert_int_equal(hg_text_bom("\xEF\xBB\xBFx", 4), 3);
  assert_int_equal(hg_text_bom("\xEF\xBB", 2), 0);
  // Line 2, column 3 counts characters: "é" is two bytes.
  const char *s = "ab\n\xC3\xA9xy\r\nz";
  assert_int_equal(hg_text_offset(s, strlen(s), 1, 1), 0);
  assert_int_equal(hg_text_offset(s, strlen(s), 2, 2), 5);
  assert_int_equal(hg_text_offset(s, strlen(s), 2, 3), 6);
  assert_int_equal(hg_text_offset(s, strlen(s), 3, 1), 9);
  assert_int_equal(hg_text_offset(s, strlen(s), 9, 1), strlen(s));
}

static void test_edit__diff(void **state) {
  (void)state;
  const char *src = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\nl15\nl16";
  hg_edits e = {0};
  hg_edits_add(&e, 3, 3, "new\n"); // a line inserted before l2
  hg_edits_add(&e, 9, 11, "L4");   // l4 changed (2 lines after: one hunk)
  hg_edits_add(&e, 51, 54, "L16"); // the last line, without a newline (its own hunk)
  hg_buf b = {0};
  assert_int_equal(hg_edits_apply(&e, src, strlen(src), &b), 0);
  hg_buf d = {0};
  hg_diff_unified(&d, "f.py", src, strlen(src), &e);
  assert_string_equal(d.data, "--- a/f.py\n+++ b/f.py\n"
                              "@@ -1,7 +1,8 @@\n l1\n+new\n l2\n l3\n-l4\n+L4\n l5\n l6\n l7\n"
                              "@@ -13,4 +14,4 @@\n l13\n l14\n l15\n-l16\n\\ No newline at end of file\n"
                              "+L16\n\\ No newline at end of file\n");
  hg_buf_free(&b);
  hg_buf_free(&d);
  hg_edits_free(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edit__apply),
      cmocka_unit_test(test_edit__map),
      cmocka_unit_test(test_edit__text_facts),
      cmocka_unit_test(test_edit__diff),
  };
  return cmocka_run_group_tests_name("edit", tests, NULL, NULL);
}
