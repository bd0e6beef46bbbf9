// Unit tests for source.c: the bytes of one file, the BOM, and offsets to line:column.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/source.h"

// The 0-based row of `offset`, as tree-sitter would report it.
static uint32_t row_of(const hg_source *s, uint32_t offset) {
  uint32_t row = 0;
  for (uint32_t i = 0; i < offset && i < s->len; i++) row += s->data[i] == '\n';
  return row;
}

typedef struct {
  const char *needle;  // the first occurrence of this text is the offset
  uint32_t line, col;
} pos_case;

static void check_positions(const char *text, const pos_case *cases, size_t n) {
  hg_source s;
  hg_source_from_bytes(&s, "t.py", text, strlen(text));
  for (size_t i = 0; i < n; i++) {
    const char *at = strstr(s.data, cases[i].needle);
    assert_non_null(at);
    uint32_t off = (uint32_t)(at - s.data);
    hg_pos p = hg_source_pos(&s, off, row_of(&s, off));
    if (p.line != cases[i].line || p.col != cases[i].col)
      print_error("\"%s\" at byte %u: %u:%u, expected %u:%u\n", cases[i].needle, off, p.line, p.col, cases[i].line,
                  cases[i].col);
    assert_int_equal(p.line, cases[i].line);
    assert_int_equal(p.col, cases[i].col);
  }
  hg_source_free(&s);
}

static void test_source__from_bytes_copies(void **state) {
  (void)state;
  char text[] = "x = 1\n";
  hg_source s;
  hg_source_from_bytes(&s, "dir/t.py", text, strlen(text));
  text[0] = 'y';  // the source holds its own copy
  assert_string_equal(s.path, "dir/t.py");
  assert_int_equal(s.len, 6);
  assert_memory_equal(s.data, "x = 1\n", 6);
  assert_int_equal(s.data[s.len], '\0');
  assert_ptr_equal(s.data, s.raw);
  hg_source_free(&s);
  assert_null(s.path);
  assert_null(s.raw);
  hg_source_free(&s);  // freeing twice is harmless after the reset
  hg_source_free(NULL);
}

static void test_source__ascii_positions(void **state) {
  (void)state;
  static const pos_case cases[] = {
      {"import", 1, 1}, {"os\n", 1, 8}, {"x = ", 3, 1}, {"= 1", 3, 3}, {"1\n", 3, 5}, {"    y", 4, 1}, {"y", 4, 5},
  };
  check_positions("import os\n\nx = 1\n    y\n", cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_source__utf8_columns_count_characters(void **state) {
  (void)state;
  static const pos_case cases[] = {
      {"= 'caf", 1, 3},    // after "é " : é is one column
      {"'caf", 1, 5},
      {"# end", 1, 12},    // "é = 'café' " is 11 characters
      {"z = ", 2, 1},
      {"\xe2\x82\xac", 2, 6},  // € (3 bytes)
      {"w", 2, 9},
      {"\xf0\x9f\x98\x80", 3, 1},  // 😀 (4 bytes)
      {"!", 3, 2},
      {"\xe4\xb8\xad\xe6\x96\x87", 3, 4},  // 中文 after "😀! "
      {"tail", 3, 6},
  };
  check_positions("\xc3\xa9 = 'caf\xc3\xa9' # end\n"
                  "z = '\xe2\x82\xac' w\n"
                  "\xf0\x9f\x98\x80! \xe4\xb8\xad\xe6\x96\x87tail\n",
                  cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_source__bom_is_stripped(void **state) {
  (void)state;
  const char text[] = "\xEF\xBB\xBFimport docker\n";
  hg_source s;
  hg_source_from_bytes(&s, "t.py", text, sizeof(text) - 1);
  assert_int_equal(s.len, sizeof(text) - 1 - 3);
  assert_ptr_equal(s.data, s.raw + 3);
  assert_string_equal(s.data, "import docker\n");
  // Offsets count from the first byte after the BOM.
  hg_pos p = hg_source_pos(&s, 0, 0);
  assert_int_equal(p.line, 1);
  assert_int_equal(p.col, 1);
  p = hg_source_pos(&s, 7, 0);
  assert_int_equal(p.col, 8);
  hg_source_free(&s);

  // Only a complete BOM at the very start is stripped.
  static const char *const kept[] = {"\xEF\xBBx", "x\xEF\xBB\xBF", "\xEF\xBB"};
  for (size_t i = 0; i < 3; i++) {
    hg_source_from_bytes(&s, "t.py", kept[i], strlen(kept[i]));
    assert_ptr_equal(s.data, s.raw);
    assert_int_equal(s.len, strlen(kept[i]));
    hg_source_free(&s);
  }
}

static int setup_tmpdir(void **state) {
  char *dir = hg_xstrdup("/tmp/hg-source-XXXXXX");
  if (!mkdtemp(dir)) return -1;
  *state = dir;
  return 0;
}

// Removes the directory and the one file a test may leave in it.
static int teardown_tmpdir(void **state) {
  char *dir = *state;
  char *file = hg_xasprintf("%s/t.py", dir);
  unlink(file);
  free(file);
  int rc = rmdir(dir);
  free(dir);
  return rc;
}

static void test_source__read_strips_bom_from_a_file(void **state) {
  const char *dir = *state;
  char *path = hg_xasprintf("%s/t.py", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("\xEF\xBB\xBFx = 1\r\n", f);
  fclose(f);
  hg_source s;
  hg_error err = {{0}};
  assert_int_equal(hg_source_read(&s, path, &err), 0);
  assert_string_equal(s.path, path);
  assert_int_equal(s.len, 7);
  assert_string_equal(s.data, "x = 1\r\n");
  hg_source_free(&s);
  unlink(path);
  assert_int_equal(hg_source_read(&s, path, &err), -1);
  char *want = hg_xasprintf("%s: cannot open: ", path);
  assert_int_equal(strncmp(err.message, want, strlen(want)), 0);
  free(want);
  free(path);
}

typedef struct {
  const char *text;
  uint32_t offset;
  const char *line;  // expected line text, without its ending
} line_case;

static void test_source__line_text(void **state) {
  (void)state;
  static const line_case cases[] = {
      {"first\nsecond\n", 0, "first"},
      {"first\nsecond\n", 3, "first"},
      {"first\nsecond\n", 5, "first"},  // the offset of the '\n' itself
      {"first\nsecond\n", 6, "second"},
      {"first\nsecond\n", 9, "second"},
      {"a\r\nbc\r\n", 0, "a"},  // "\r\n" is stripped
      {"a\r\nbc\r\n", 3, "bc"},
      {"a\r\nbc\r\n", 4, "bc"},
      {"\r\nx", 0, ""},
      {"a\rb\n", 0, "a\rb"},  // a lone CR inside a line stays
      {"x\nlast", 2, "last"},  // last line without newline
      {"x\nlast", 5, "last"},
      {"x\nlast", 6, "last"},  // offset at the end of the data
      {"x\n\ny", 2, ""},  // empty line
      {"only", 2, "only"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    hg_source s;
    hg_source_from_bytes(&s, "t.py", cases[i].text, strlen(cases[i].text));
    size_t len = 999;
    const char *line = hg_source_line(&s, cases[i].offset, &len);
    assert_non_null(line);
    if (len != strlen(cases[i].line) || memcmp(line, cases[i].line, len) != 0)
      print_error("case %zu: line [%.*s], expected [%s]\n", i, (int)len, line, cases[i].line);
    assert_int_equal(len, strlen(cases[i].line));
    assert_memory_equal(line, cases[i].line, len);
    // The line points into the source's own data.
    assert_true(line >= s.data && line + len <= s.data + s.len);
    hg_source_free(&s);
  }
}

static void test_source__line_text_after_bom(void **state) {
  (void)state;
  const char text[] = "\xEF\xBB\xBF" "first\r\nsecond";
  hg_source s;
  hg_source_from_bytes(&s, "t.py", text, sizeof(text) - 1);
  size_t len;
  const char *line = hg_source_line(&s, 2, &len);
  assert_int_equal(len, 5);
  assert_memory_equal(line, "first", 5);
  line = hg_source_line(&s, 8, &len);
  assert_int_equal(len, 6);
  assert_memory_equal(line, "second", 6);
  hg_source_free(&s);
}

static void test_source__position_at_end_and_empty(void **state) {
  (void)state;
  hg_source s;
  hg_source_from_bytes(&s, "t.py", "ab\ncd", 5);
  hg_pos p = hg_source_pos(&s, 5, 1);  // one past the last byte
  assert_int_equal(p.line, 2);
  assert_int_equal(p.col, 3);
  hg_source_free(&s);

  hg_source_from_bytes(&s, "t.py", "", 0);
  assert_int_equal(s.len, 0);
  assert_string_equal(s.data, "");
  p = hg_source_pos(&s, 0, 0);
  assert_int_equal(p.line, 1);
  assert_int_equal(p.col, 1);
  size_t len = 99;
  hg_source_line(&s, 0, &len);
  assert_int_equal(len, 0);
  hg_source_free(&s);
}

// Positions asked in any order along and across lines (the memo of the last one) agree with a
// count from the line's start; a long line is given as a window around the position.
static void test_source__positions_in_any_order_and_windows(void **state) {
  (void)state;
  hg_buf text = {0};
  hg_buf_puts(&text, "ab\n");
  for (int i = 0; i < 700; i++) hg_buf_puts(&text, "x\xc3\xa9"); // 700 x 2 characters, 2100 bytes
  hg_buf_puts(&text, "\nlast");
  hg_source src;
  hg_source_from_bytes(&src, "long.js", text.data, text.len);
  static const uint32_t offsets[] = {3, 2000, 9, 1500, 1500, 2102, 2104, 1, 600, 2103};
  for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
    uint32_t o = offsets[i], start = o;
    while (start > 0 && src.data[start - 1] != '\n') start--;
    uint32_t want = 1;
    for (uint32_t k = start; k < o; k++) want += ((unsigned char)src.data[k] & 0xC0) != 0x80;
    assert_int_equal(hg_source_pos(&src, o, 0).col, want);
  }
  size_t len;
  bool before, after;
  uint32_t col;
  const char *w = hg_source_window(&src, 1503, &len, &before, &after, &col); // near the end: to the end
  assert_true(before);
  assert_false(after);
  assert_int_equal(w + len - src.data, 2103);
  w = hg_source_window(&src, 600, &len, &before, &after, &col);
  assert_true(before);
  assert_true(after);
  assert_true(len <= 520);
  assert_true(((unsigned char)w[0] & 0xC0) != 0x80);                   // whole characters
  assert_int_equal(hg_source_pos(&src, (uint32_t)(w - src.data), 0).col, col);
  w = hg_source_window(&src, 2, &len, &before, &after, &col);         // a short line: whole
  assert_false(before);
  assert_false(after);
  assert_int_equal(len, 2);
  assert_int_equal(col, 1);
  assert_memory_equal(w, "ab", 2);
  hg_source_free(&src);
  hg_buf_free(&text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_source__from_bytes_copies),
      cmocka_unit_test(test_source__ascii_positions),
      cmocka_unit_test(test_source__utf8_columns_count_characters),
      cmocka_unit_test(test_source__bom_is_stripped),
      cmocka_unit_test_setup_teardown(test_source__read_strips_bom_from_a_file, setup_tmpdir, teardown_tmpdir),
      cmocka_unit_test(test_source__line_text),
      cmocka_unit_test(test_source__line_text_after_bom),
      cmocka_unit_test(test_source__position_at_end_and_empty),
      cmocka_unit_test(test_source__positions_in_any_order_and_windows),
  };
  return cmocka_run_group_tests_name("source", tests, NULL, NULL);
}
