// Unit tests for baseline.c: code normalisation, field escaping and the file's round trip, parse
// errors, matching (one finding per entry, line numbers ignored) and fingerprints.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "app/baseline.h"

// ---- hg_code_normalise ----------------------------------------------------------------------------

static void test_baseline__normalise_collapses_whitespace(void **state) {
  (void)state;
  static const struct {
    const char *in, *want;
  } cases[] = {
      {"    return client.containers.run(image)", "return client.containers.run(image)"},
      {"\tc.containers.run( image ,\t cmd )  \r", "c.containers.run( image , cmd )"},
      {"a  b\t\tc\n", "a b c"},
      {"", ""},
      {"   \t ", ""},
      {"x", "x"},
      {"caf\xc3\xa9 \xff  y", "caf\xc3\xa9 \xff y"},  // bytes are kept, only whitespace changes
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *got = hg_code_normalise(cases[i].in);
    assert_string_equal(got, cases[i].want);
    free(got);
  }
}

// ---- escaping ---------------------------------------------------------------------------------------

static void test_baseline__escape(void **state) {
  (void)state;
  static const struct {
    const char *in, *want;
  } cases[] = {
      {"app/jobs.py", "app/jobs.py"},
      {"a\tb\nc\rd\\e", "a\\tb\\nc\\rd\\\\e"},
      {"bell\a del\x7f", "bell\\x07 del\\x7F"},
      {"caf\xc3\xa9", "caf\xc3\xa9"},       // well-formed UTF-8 stays readable
      {"bad\xff\xc3(", "bad\\xFF\\xC3("},   // bytes that are not are escaped
      {"#1.py", "\\x231.py"},               // a leading '#' would read as a comment
      {"a#1.py", "a#1.py"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    hg_buf b = {0};
    hg_baseline_escape(&b, cases[i].in);
    assert_string_equal(b.data ? b.data : "", cases[i].want);
    hg_buf_free(&b);
  }
}

// ---- the file ---------------------------------------------------------------------------------------

static hg_finding finding(const char *path, hg_rule_id rule, const char *kind, const char *line) {
  return (hg_finding){.path = (char *)path, .line = 1, .col = 1, .kind = kind, .rule = rule,
                      .source_line = (char *)line};
}

static void test_baseline__format_parse_round_trip(void **state) {
  (void)state;
  hg_baseline b = {0};
  const char *paths[] = {"z.py", "a b/#c\t.py", "bad\xff.py", "a b/#c\t.py"};
  const char *codes[] = {"  run(x)  ", "docker.from_env()", "s = '\xfe'", "x\\y"};
  for (size_t i = 0; i < 4; i++) {
    hg_finding f = finding(paths[i], HG_RULE_UNHARDENED_SITE, "sdk-run", codes[i]);
    hg_baseline_entry e;
    hg_baseline_entry_from(&e, &f, paths[i]);
    HG_VEC_PUSH(&b, e);
  }
  char *text = hg_baseline_format(&b);
  // Sorted, one entry per line after the comment header.
  const char *body = strstr(text, "\na b/");
  assert_non_null(body);
  assert_string_equal(body + 1, "a b/#c\\t.py\tunhardened-site\tsdk-run\tdocker.from_env()\n"
                                "a b/#c\\t.py\tunhardened-site\tsdk-run\tx\\\\y\n"
                                "bad\\xFF.py\tunhardened-site\tsdk-run\ts = '\\xFE'\n"
                                "z.py\tunhardened-site\tsdk-run\trun(x)\n");
  hg_baseline parsed = {0};
  hg_error err;
  assert_int_equal(hg_baseline_parse(&parsed, "b.txt", text, strlen(text), &err), 0);
  assert_int_equal(parsed.len, 4);
  for (size_t i = 0; i < 4; i++) {
    assert_int_equal(hg_baseline_entry_cmp(&parsed.items[i], &b.items[i]), 0);
    assert_true(parsed.items[i].line > 5);  // after the header
  }
  // Formatting what was parsed gives the same bytes.
  char *again = hg_baseline_format(&parsed);
  assert_string_equal(again, text);
  free(again);
  free(text);
  hg_baseline_free(&parsed);
  hg_baseline_free(&b);
}

static void test_baseline__parse_skips_comments_blank_lines_and_crlf(void **state) {
  (void)state;
  static const char text[] = "# header\r\n\r\n\na.py\tr\tk\tcode\r\n# more\nb.py\tr\tk\t";
  hg_baseline b = {0};
  hg_error err;
  assert_int_equal(hg_baseline_parse(&b, "b.txt", text, sizeof(text) - 1, &err), 0);
  assert_int_equal(b.len, 2);
  assert_string_equal(b.items[0].code, "code");
  assert_int_equal(b.items[0].line, 4);
  assert_string_equal(b.items[1].path, "b.py");
  assert_string_equal(b.items[1].code, "");  // the code may be empty
  assert_int_equal(b.items[1].line, 6);
  hg_baseline_free(&b);
}

static void test_baseline__parse_errors(void **state) {
  (void)state;
  static const struct {
    const char *text, *message;
  } cases[] = {
      {"a.py\tr\tk\n", "b.txt:1: expected 4 tab-separated fields (path, rule, kind, code), found 3"},
      {"# c\na.py\tr\tk\tc\textra\n", "b.txt:2: expected 4 tab-separated fields (path, rule, kind, code), found 5"},
      {"\tr\tk\tc\n", "b.txt:1: empty path"},
      {"a.py\t\tk\tc\n", "b.txt:1: empty rule"},
      {"a.py\tr\t\tc\n", "b.txt:1: empty kind"},
      {"a.py\tr\tk\tc\\q\n", "b.txt:1:11: unknown escape (expected \\\\, \\t, \\n, \\r or \\xHH other than \\x00)"},
      {"a.py\tr\tk\tc\\x0\n", "b.txt:1:11: unknown escape (expected \\\\, \\t, \\n, \\r or \\xHH other than \\x00)"},
      {"a.py\tr\tk\tc\\x00\n", "b.txt:1:11: unknown escape (expected \\\\, \\t, \\n, \\r or \\xHH other than \\x00)"},
      {"a.py\tr\tk\tc\\\n", "b.txt:1:11: unknown escape (expected \\\\, \\t, \\n, \\r or \\xHH other than \\x00)"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    hg_baseline b = {0};
    hg_error err;
    assert_int_equal(hg_baseline_parse(&b, "b.txt", cases[i].text, strlen(cases[i].text), &err), -1);
    assert_string_equal(err.message, cases[i].message);
    assert_int_equal(b.len, 0);
    hg_baseline_free(&b);
  }
  // A NUL byte.
  hg_baseline b = {0};
  hg_error err;
  assert_int_equal(hg_baseline_parse(&b, "b.txt", "a.py\tr\0\tk\tc\n", 12, &err), -1);
  assert_string_equal(err.message, "b.txt:1: NUL byte in the baseline");
}

// ---- matching ---------------------------------------------------------------------------------------

static void test_baseline__match_ignores_lines_and_counts_copies(void **state) {
  (void)state;
  static const char text[] = "a.py\tunhardened-site\tsdk-run\tc.containers.run(\"x\")\n"
                             "a.py\tunhardened-site\tsdk-run\tc.containers.run(\"x\")\n"
                             "a.py\tclient-without-builder\tclient\tc = docker.from_env()\n"
                             "gone.py\tunhardened-site\tsdk-run\tc.containers.run(\"x\")\n";
  hg_baseline b = {0};
  hg_error err;
  assert_int_equal(hg_baseline_parse(&b, "b.txt", text, sizeof(text) - 1, &err), 0);
  hg_finding f[] = {
      finding("./a.py", HG_RULE_CLIENT_WITHOUT_BUILDER, "client", "c  =  docker.from_env()"),  // spacing differs
      finding("./a.py", HG_RULE_UNHARDENED_SITE, "sdk-run", "    c.containers.run(\"x\")"),
      finding("./a.py", HG_RULE_UNHARDENED_SITE, "sdk-run", "c.containers.run(\"x\")"),
      finding("./a.py", HG_RULE_UNHARDENED_SITE, "sdk-run", "c.containers.run(\"x\")"),     // a third copy
      finding("./a.py", HG_RULE_BUILDER_NOT_APPLIED, "sdk-run", "c.containers.run(\"x\")"),  // another rule
      finding("./a.py", HG_RULE_UNHARDENED_SITE, "sdk-create", "c.containers.run(\"x\")"),   // another kind
      finding("./b.py", HG_RULE_UNHARDENED_SITE, "sdk-run", "c.containers.run(\"x\")"),      // another file
      finding("./a.py", HG_RULE_NONE, "sdk-run", "c.containers.run(\"x\")"),                 // passes
  };
  f[1].line = 40;  // line numbers play no part
  hg_findings findings = {.items = f, .len = sizeof(f) / sizeof(f[0])};
  const char *rel[] = {"a.py", "a.py", "a.py", "a.py", "a.py", "a.py", "b.py", "a.py"};
  bool matched[8] = {0}, used[4] = {0};
  hg_baseline_match(&b, &findings, rel, matched, used);
  bool want_matched[8] = {true, true, true, false, false, false, false, false};
  for (size_t i = 0; i < 8; i++) assert_int_equal(matched[i], want_matched[i]);
  // Sorted: the client entry, two sdk-run entries, then gone.py's, which nothing matched.
  assert_string_equal(b.items[3].path, "gone.py");
  assert_true(used[0] && used[1] && used[2]);
  assert_false(used[3]);
  hg_baseline_free(&b);
}

static void test_baseline__suppressed_findings_are_not_matched_or_written(void **state) {
  (void)state;
  hg_finding f[] = {finding("a.py", HG_RULE_UNHARDENED_SITE, "sdk-run", "run()")};
  f[0].suppression = HG_SUPPRESSION_SUPPRESSED;
  hg_findings findings = {.items = f, .len = 1};
  const char *rel[] = {"a.py"};
  static const char text[] = "a.py\tunhardened-site\tsdk-run\trun()\n";
  hg_baseline b = {0};
  hg_error err;
  assert_int_equal(hg_baseline_parse(&b, "b.txt", text, sizeof(text) - 1, &err), 0);
  bool matched[1] = {0}, used[1] = {0};
  hg_baseline_match(&b, &findings, rel, matched, used);
  assert_false(matched[0]);
  assert_false(used[0]);
  hg_baseline_free(&b);

  char dir[] = "/tmp/hg-baseline-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char *path = hg_xasprintf("%s/b.txt", dir);
  assert_int_equal(hg_baseline_write(path, &findings, rel, &err), 0);
  assert_int_equal(hg_baseline_load(&b, path, &err), 0);
  assert_int_equal(b.len, 0);
  hg_baseline_free(&b);
  unlink(path);
  rmdir(dir);
  free(path);
}

static void test_baseline__write_reports_errors(void **state) {
  (void)state;
  hg_findings none = {0};
  hg_error err;
  assert_int_equal(hg_baseline_write("/nonexistent-dir/b.txt", &none, NULL, &err), -1);
  assert_string_equal(err.message, "/nonexistent-dir/b.txt.tmp: cannot write: No such file or directory");
}

// ---- fingerprints -----------------------------------------------------------------------------------

static void test_baseline__fingerprint(void **state) {
  (void)state;
  hg_finding a = finding("x/a.py", HG_RULE_UNHARDENED_SITE, "sdk-run", "  c.containers.run(image)");
  char fa[17], fb[17];
  hg_fingerprint(fa, &a, "a.py");
  assert_int_equal(strlen(fa), 16);
  assert_true(strspn(fa, "0123456789abcdef") == 16);
  // The same site moved and re-indented, reached by another path: the same fingerprint.
  hg_finding b = a;
  b.line = 99, b.col = 7, b.path = "./a.py", b.source_line = "c.containers.run(image)\t";
  hg_fingerprint(fb, &b, "a.py");
  assert_string_equal(fa, fb);
  // Any of path (relative to the root), rule, kind or code changing changes it.
  hg_fingerprint(fb, &b, "b.py");
  assert_string_not_equal(fa, fb);
  b.rule = HG_RULE_BUILDER_NOT_APPLIED;
  hg_fingerprint(fb, &b, "a.py");
  assert_string_not_equal(fa, fb);
  b = a, b.kind = "sdk-create";
  hg_fingerprint(fb, &b, "a.py");
  assert_string_not_equal(fa, fb);
  b = a, b.source_line = "c.containers.run(image2)";
  hg_fingerprint(fb, &b, "a.py");
  assert_string_not_equal(fa, fb);
  // Fields are separated: moving a character from one to the next changes it.
  hg_finding c = finding("p", HG_RULE_UNHARDENED_SITE, "sdk-run", "ab");
  hg_fingerprint(fa, &c, "pa");
  c.source_line = "b";
  hg_fingerprint(fb, &c, "pa");
  assert_string_not_equal(fa, fb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_baseline__normalise_collapses_whitespace),
      cmocka_unit_test(test_baseline__escape),
      cmocka_unit_test(test_baseline__format_parse_round_trip),
      cmocka_unit_test(test_baseline__parse_skips_comments_blank_lines_and_crlf),
      cmocka_unit_test(test_baseline__parse_errors),
      cmocka_unit_test(test_baseline__match_ignores_lines_and_counts_copies),
      cmocka_unit_test(test_baseline__suppressed_findings_are_not_matched_or_written),
      cmocka_unit_test(test_baseline__write_reports_errors),
      cmocka_unit_test(test_baseline__fingerprint),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
