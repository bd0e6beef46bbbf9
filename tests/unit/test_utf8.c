// Unit tests for utf8.c: which byte sequences are well-formed UTF-8, and replacing the others.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/utf8.h"

static void test_utf8__sequence_lengths(void **state) {
  (void)state;
  static const struct {
    const char *s;
    size_t len;
  } cases[] = {
      {"a", 1},
      {"\x7f", 1},
      {"\xc3\xa9", 2},          // é
      {"\xe2\x82\xac", 3},      // €
      {"\xf0\x9f\x90\x8d", 4},  // 🐍
      {"\xf4\x8f\xbf\xbf", 4},  // U+10FFFF
      {"\x80", 0},              // a lone continuation byte
      {"\xc0\xaf", 0},          // overlong '/'
      {"\xc1\xbf", 0},
      {"\xe0\x80\xaf", 0},      // overlong
      {"\xed\xa0\x80", 0},      // a surrogate
      {"\xf0\x80\x80\xaf", 0},  // overlong
      {"\xf4\x90\x80\x80", 0},  // past U+10FFFF
      {"\xf5\x80\x80\x80", 0},
      {"\xff", 0},
      {"\xc3", 0},              // cut short by the end of the string
      {"\xe2\x82", 0},
      {"\xe2\x82x", 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    if (hg_utf8_seq(cases[i].s) != cases[i].len) print_error("case %zu\n", i);
    assert_int_equal(hg_utf8_seq(cases[i].s), cases[i].len);
  }
}

static void test_utf8__sanitized(void **state) {
  (void)state;
  char *s = hg_utf8_sanitized("ok \xc3\xa9 \xff\xe2\x82 \xf0\x9f\x90\x8d");
  assert_string_equal(s, "ok \xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd \xf0\x9f\x90\x8d");
  free(s);
  s = hg_utf8_sanitized("");
  assert_string_equal(s, "");
  free(s);
  // Invalid bytes first, last and side by side; the runs between them whole.
  s = hg_utf8_sanitized("\x80" "abc\xff\xfe\xc3\xa9\xc3");
  assert_string_equal(s, "\xef\xbf\xbd" "abc\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd");
  free(s);
}

// Text with a UTF-16 or UTF-32 byte-order mark decodes to UTF-8 (the mark left out); a character
// cut short by the end ends the text; an unpaired surrogate or no mark at all does not decode.
static void test_utf8__from_wide(void **state) {
  (void)state;
  static const struct {
    const char *bytes;
    size_t len;
    const char *mark;  // the encoding the mark names (NULL: none)
    bool ok;
    const char *text;
  } cases[] = {
      {"\xff\xfe" "d\0o\0\xe9\0", 8, "UTF-16LE", true, "do\xc3\xa9"},
      {"\xfe\xff" "\0d\0o\xd8\x3d\xdc\x0d", 10, "UTF-16BE", true, "do\xf0\x9f\x90\x8d"},
      {"\xff\xfe\0\0" "d\0\0\0", 8, "UTF-32LE", true, "d"},
      {"\0\0\xfe\xff" "\0\0\0d\0\0\0o", 12, "UTF-32BE", true, "do"},
      {"\xff\xfe" "d\0o\0x", 7, "UTF-16LE", true, "do"},    // an odd byte at the end
      {"\xff\xfe" "d\0\x00\xdc" "o\0", 8, "UTF-16LE", false, NULL},  // a low surrogate alone
      {"docker", 6, NULL, false, NULL},
      {"\xff", 1, NULL, false, NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    size_t mark = 0;
    const char *name = hg_utf8_wide_mark(cases[i].bytes, cases[i].len, &mark);
    if (cases[i].mark) assert_string_equal(name, cases[i].mark);
    else assert_null(name);
    hg_buf out = {0};
    bool ok = hg_utf8_from_wide(&out, cases[i].bytes, cases[i].len);
    if (ok != cases[i].ok) print_error("case %zu\n", i);
    assert_int_equal(ok, cases[i].ok);
    if (ok) assert_string_equal(out.data, cases[i].text);
    hg_buf_free(&out);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_utf8__sequence_lengths),
      cmocka_unit_test(test_utf8__sanitized),
      cmocka_unit_test(test_utf8__from_wide),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
