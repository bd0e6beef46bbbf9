// Unit tests for what the reporters share (report.c, report_github.c, report_markdown.c): a
// finding's status, escaping for GitHub workflow commands, Markdown and URIs, JSON strings from
// bytes that are not UTF-8, a JSON dump written at a depth, and the reporter registry.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "report/report.h"

typedef struct {
  const char *in, *want;
} str_case;

static void run_cases(void (*fn)(hg_buf *, const char *), const str_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    hg_buf b = {0};
    fn(&b, cases[i].in);
    const char *got = b.data ? b.data : "";
    if (strcmp(got, cases[i].want) != 0)
      print_error("input \"%s\": got \"%s\", want \"%s\"\n", cases[i].in, got, cases[i].want);
    assert_string_equal(got, cases[i].want);
    hg_buf_free(&b);
  }
}

#define RUN(fn, t) run_cases((fn), (t), sizeof(t) / sizeof((t)[0]))

static void test_report__github_data(void **state) {
  (void)state;
  static const str_case cases[] = {
      {"plain: a, b", "plain: a, b"},  // ':' and ',' are fine in the message
      {"100% sure\r\nnext", "100%25 sure%0D%0Anext"},
      {"%0A is not a newline", "%250A is not a newline"},
      {"caf\xc3\xa9 \xff!", "caf\xc3\xa9 \xef\xbf\xbd!"},  // bytes that are not UTF-8 become U+FFFD
      {"", ""},
  };
  RUN(hg_github_escape_data, cases);
}

static void test_report__github_property(void **state) {
  (void)state;
  static const str_case cases[] = {
      {"src/a.py", "src/a.py"},
      {"src/odd, dir:1/100%.py", "src/odd%2C dir%3A1/100%25.py"},
      {"a\nb\rc", "a%0Ab%0Dc"},
      {"title: x", "title%3A x"},
  };
  RUN(hg_github_escape_property, cases);
}

static void test_report__markdown(void **state) {
  (void)state;
  static const str_case cases[] = {
      {"takes options from `self._kw` (line 3)", "takes options from `self._kw` (line 3)"},  // code kept
      {"add **hardening_kwargs() and *argv", "add \\*\\*hardening\\_kwargs() and \\*argv"},
      {"a | b", "a \\| b"},
      {"in `a|b` code", "in `a\\|b` code"},  // a pipe in code still ends no cell
      {"<script>&amp;", "\\<script\\>\\&amp;"},
      {"[link](x) ~~s~~ \\", "\\[link\\](x) \\~\\~s\\~\\~ \\\\"},
      {"one ` tick", "one \\` tick"},  // unpaired: every backtick escaped
      {"line\nbreak\r", "line<br>break"},
      {"bad \xff byte", "bad \xef\xbf\xbd byte"},
  };
  RUN(hg_markdown_escape, cases);
}

static void test_report__uri(void **state) {
  (void)state;
  static const str_case cases[] = {
      {"src/pkg/run.py", "src/pkg/run.py"},
      {"sub dir/we%ird, na:me #1.py", "sub%20dir/we%25ird,%20na:me%20%231.py"},
      {"caf\xc3\xa9/\xff?.py", "caf%C3%A9/%FF%3F.py"},
      {"a~b_c-d.e(f)!$&'*+;=@", "a~b_c-d.e(f)!$&'*+;=@"},
      {"main:.hardguard.yml", "main%3A.hardguard.yml"},  // not a scheme
      {"a:b/c:d.py", "a%3Ab/c:d.py"},
  };
  RUN(hg_uri_escape_path, cases);
}

static void test_report__json_string_from_any_bytes(void **state) {
  (void)state;
  static const str_case cases[] = {
      {"plain", "plain"},
      {"caf\xc3\xa9", "caf\xc3\xa9"},
      {"caf\xc3\xa9 \xff\xfe x", "caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd x"},  // valid characters survive
      {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},               // a surrogate is not UTF-8
      {"\xc3", "\xef\xbf\xbd"},                                               // cut short
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    json_t *j = hg_json_string(cases[i].in);
    assert_non_null(j);
    assert_string_equal(json_string_value(j), cases[i].want);
    json_decref(j);
  }
}

// A dump written at a depth: every line indented, at depths past the spaces written at once too,
// and a string holding "\n" escaped stays on its line.
static void test_report__json_dump_indented(void **state) {
  (void)state;
  json_t *v = json_pack("{s:s, s:[i, i]}", "a", "x\ny", "b", 1, 2);
  static const struct {
    size_t indent;
    const char *want;
  } cases[] = {
      {0, "{\n  \"a\": \"x\\ny\",\n  \"b\": [\n    1,\n    2\n  ]\n}"},
      {4, "    {\n      \"a\": \"x\\ny\",\n      \"b\": [\n        1,\n        2\n      ]\n    }"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    hg_json_dump_indented(out, v, JSON_INDENT(2) | JSON_PRESERVE_ORDER, cases[i].indent);
    fclose(out);
    assert_string_equal(text, cases[i].want);
    free(text);
  }
  // Deeper than one write of spaces: 70 spaces before each line.
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  json_t *n = json_pack("[i]", 7);
  hg_json_dump_indented(out, n, JSON_INDENT(2), 70);
  fclose(out);
  assert_int_equal(len, 70 + 2 + 70 + 4 + 70 + 1);
  assert_memory_equal(text + 70, "[\n", 2);
  for (size_t i = 0; i < 70; i++) assert_int_equal(text[i], ' ');
  assert_memory_equal(text + 72 + 70, "  7\n", 4);
  assert_int_equal(text[len - 1], ']');
  free(text);
  json_decref(n);
  json_decref(v);
}

static void test_report__status(void **state) {
  (void)state;
  hg_finding f[5] = {
      {.rule = HG_RULE_NONE},
      {.rule = HG_RULE_UNHARDENED_SITE},
      {.rule = HG_RULE_UNHARDENED_SITE, .suppression = HG_SUPPRESSION_SUPPRESSED},
      {.rule = HG_RULE_NONE, .suppression = HG_SUPPRESSION_ALLOWED},
      {.rule = HG_RULE_UNHARDENED_SITE, .suppression = HG_SUPPRESSION_ALLOWED},  // allowed, still failing
  };
  hg_findings findings = {.items = f, .len = 5};
  hg_report_input in = {.findings = &findings};
  hg_status want[] = {HG_STATUS_PASS, HG_STATUS_FAIL, HG_STATUS_SUPPRESSED, HG_STATUS_ALLOWED, HG_STATUS_FAIL};
  for (size_t i = 0; i < 5; i++) assert_int_equal(hg_report_status(&in, &f[i]), want[i]);
  bool baselined[5] = {false, true, false, false, false};
  in.baselined = baselined;
  assert_int_equal(hg_report_status(&in, &f[1]), HG_STATUS_BASELINED);
  assert_string_equal(hg_status_names[HG_STATUS_BASELINED], "baselined");
}

// hg_html_escape takes a length: the HTML report quotes lines of a file without copying them.
static void html_escape(hg_buf *out, const char *s) { hg_html_escape(out, s, strlen(s)); }

static void test_report__html(void **state) {
  (void)state;
  static const str_case cases[] = {
      {"<img src=x onerror=alert(1)>.py", "&lt;img src=x onerror=alert(1)&gt;.py"},
      {"</script><script>x</script>", "&lt;/script&gt;&lt;script&gt;x&lt;/script&gt;"},
      {"a & b \"q\" 'q'", "a &amp; b &quot;q&quot; &#39;q&#39;"},
      {"caf\xc3\xa9 \xff\xfe", "caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd"},  // not UTF-8: U+FFFD each
      {"tab\tnl\ncr\r", "tab\tnl\ncr\r"},
      {"bell\a del\x7f esc\x1b", "bell\xef\xbf\xbd del\xef\xbf\xbd esc\xef\xbf\xbd"},
      {"\xe2\x82", "\xef\xbf\xbd\xef\xbf\xbd"},  // a sequence cut short
      {"", ""},
  };
  RUN(html_escape, cases);
  hg_buf b = {0};
  hg_html_escape(&b, "ab\xc3\xa9", 3);  // the range ends inside the sequence
  assert_string_equal(b.data, "ab\xef\xbf\xbd");
  b.len = 0;
  hg_html_escape(&b, "a\0<b", 4);  // a NUL byte inside the range
  assert_string_equal(b.data, "a\xef\xbf\xbd&lt;b");
  hg_buf_free(&b);
}

// The HTML page for a hand-built site: an origin in a file that cannot be read gets a note in
// place of its excerpt (and still its link), a site that names no end line is quoted by its first
// line, and hostile text in the kind, message and values stays text.
static void test_report__html_page_unreadable_origin(void **state) {
  (void)state;
  hg_effect eff[2] = {
      {.id = "read-only", .status = HG_EFFECT_UNVERIFIABLE, .value = "**opts", .path = "/nonexistent/hg/b.py",
       .line = 3, .via = "<opts>", .reason = "an attribute </script>"},
      {.id = "cap-drop-all", .status = HG_EFFECT_MISSING},
  };
  const char *missing[] = {"cap-drop-all"};
  hg_finding f = {.path = "/nonexistent/hg/a<b>.py", .line = 7, .col = 1, .end_line = 0, .kind = "sdk-run",
                  .rule = HG_RULE_UNVERIFIABLE_FLAGS, .via = HG_VIA_NONE, .missing = missing, .n_missing = 1,
                  .message = "takes <options>", .effective = eff, .n_effective = 2};
  hg_findings findings = {.items = &f, .len = 1};
  hg_file_errors errors = {0};
  hg_scan_stats stats = {.files = 1, .sites = 1, .failing = 1};
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  hg_report_input in = {.out = out, .findings = &findings, .errors = &errors, .stats = &stats};
  hg_report(hg_reporter_find("html"), &in);
  fclose(out);
  assert_non_null(
      strstr(text, "<figure id=\"x0-0\"><figcaption>The site, <code>/nonexistent/hg/a&lt;b&gt;.py</code>:7"));
  assert_non_null(strstr(text, "<a href=\"#x0-1\"><code>/nonexistent/hg/b.py:3</code></a>"));
  assert_non_null(strstr(text, "<figure id=\"x0-1\"><figcaption>Where <code>read-only</code> comes from (through "
                               "<code>&lt;opts&gt;</code>), <code>/nonexistent/hg/b.py</code>:3</figcaption>\n"
                               "<p class=\"note\">Not quoted: cannot open: No such file or directory.</p>"));
  assert_non_null(strstr(text, "an attribute &lt;/script&gt;"));
  assert_non_null(strstr(text, "takes &lt;options&gt;"));
  assert_null(strstr(text, "x0-2"));  // the missing entry has no origin
  assert_non_null(strstr(text, "</html>\n"));
  free(text);
}

static void test_report__registry(void **state) {
  (void)state;
  static const char *const names[] = {"text", "json", "sarif", "github", "markdown", "html"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    const hg_reporter *r = hg_reporter_find(names[i]);
    assert_non_null(r);
    assert_string_equal(r->name, names[i]);
    assert_non_null(r->finding);
    assert_non_null(strstr(hg_reporter_names(), names[i]));
  }
  assert_null(hg_reporter_find("yaml"));
  assert_true(hg_reporter_wants_root(hg_reporter_find("sarif")));
  assert_false(hg_reporter_wants_root(hg_reporter_find("text")));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_report__github_data),
      cmocka_unit_test(test_report__github_property),
      cmocka_unit_test(test_report__markdown),
      cmocka_unit_test(test_report__uri),
      cmocka_unit_test(test_report__json_string_from_any_bytes),
      cmocka_unit_test(test_report__json_dump_indented),
      cmocka_unit_test(test_report__status),
      cmocka_unit_test(test_report__html),
      cmocka_unit_test(test_report__html_page_unreadable_origin),
      cmocka_unit_test(test_report__registry),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
