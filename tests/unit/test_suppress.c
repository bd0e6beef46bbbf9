// Unit tests for suppress.c: named exceptions (`# hardguard: allow[requirement, ...] -- reason`
// and `# hardguard: ignore[rule, ...] -- reason`) parsed from hand-built marker comments, where
// they apply, what they relax or suppress, and the bad-suppression / unused-suppression findings;
// then the same through hg_scan_bytes. docs/configuration.md, "Named exceptions".
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "app/scan.h"
#include "judge/suppress.h"

#define RULE(r) (UINT32_C(1) << (r))
#define WEAK RULE(HG_RULE_WEAKENING_OPTION)
#define UNH RULE(HG_RULE_UNHARDENED_SITE)

#define BAD_FIX                                                                                        \
  "write `# hardguard: allow[<requirement>] -- <reason>` or `# hardguard: ignore[<rule>] -- <reason>` " \
  "on the site's line or the line above"
#define UNUSED_ALLOW                                                                                   \
  "this allow[...] marker relaxes nothing: no site on its line (or the next) misses what it names"
#define UNUSED_IGNORE                                                                                  \
  "this ignore[...] marker suppresses nothing: no finding on its line (or the next) has only the rules it names"
#define UNUSED_FIX "remove the marker, or move it to the site it is meant for"

// ---- fixtures: the built-in rules for the group; an arena and a source per test ----------------

typedef struct {
  hg_ruleset *rules;
  hg_config *plain;
} env;

static int setup_env(void **state) {
  env *e = calloc(1, sizeof(*e));
  hg_error err = {{0}};
  if (hg_ruleset_load(&e->rules, NULL, &err) != 0) {
    print_error("built-in rules: %s\n", err.message);
    free(e);
    return -1;
  }
  e->plain = hg_config_empty(".");
  *state = e;
  return 0;
}

static int teardown_env(void **state) {
  env *e = *state;
  hg_config_free(e->plain);
  hg_ruleset_free(e->rules);
  free(e);
  return 0;
}

#define MAX_COMMENTS 16

typedef struct {
  env *e;
  const hg_policy *policy;
  hg_arena *arena;
  hg_source src;
  hg_marker_comment comments[MAX_COMMENTS];
  size_t n;
  hg_findings out;
} fx;

static int setup_fx(void **state) {
  fx *f = calloc(1, sizeof(*f));
  f->e = *state;  // the group's env
  f->policy = hg_ruleset_policy(f->e->rules);
  f->arena = hg_arena_new();
  *state = f;
  return 0;
}

static int teardown_fx(void **state) {
  fx *f = *state;
  hg_findings_free(&f->out);
  hg_source_free(&f->src);
  hg_arena_free(f->arena);
  free(f);
  return 0;
}

// Builds the source and one marker comment per `#` (to the end of its line, as tree-sitter's
// comment node: a '\r' stays in it), then parses the markers. The snippets hold no `#` in strings.
static hg_markers *markers_of(fx *f, const char *text) {
  hg_source_free(&f->src);
  hg_source_from_bytes(&f->src, "t.py", text, strlen(text));
  f->n = 0;
  uint32_t line = 1, col = 1;
  for (size_t i = 0; i < f->src.len; i++) {
    char c = f->src.data[i];
    if (c == '#') {
      size_t end = i;
      while (end < f->src.len && f->src.data[end] != '\n') end++;
      assert_true(f->n < MAX_COMMENTS);
      f->comments[f->n++] = (hg_marker_comment){.start_byte = (uint32_t)i, .line = line, .col = col,
                                                .text = hg_arena_strndup(f->arena, f->src.data + i, end - i)};
      i = end;  // the '\n', if any
      if (i < f->src.len) {
        line++;
        col = 1;
      }
      continue;
    }
    if (c == '\n') {
      line++;
      col = 1;
    } else {
      col++;
    }
  }
  return hg_markers_parse(f->arena, &f->src, f->comments, f->n, f->policy);
}

// Reports the markers into f->out (emptied first).
static void report(fx *f, const hg_markers *m) {
  hg_findings_free(&f->out);
  f->out = (hg_findings){0};
  hg_markers_report(m, &f->src, &f->out);
}

static void check_marker_finding(const hg_finding *x, uint32_t line, uint32_t col, hg_rule_id rule, const char *message,
                                 const char *fix) {
  if (x->line != line || x->col != col || x->rule != rule || strcmp(x->message, message) != 0)
    print_error("marker finding %u:%u rule %d: %s\n  expected %u:%u rule %d: %s\n", x->line, x->col, x->rule,
                x->message, line, col, rule, message);
  assert_string_equal(x->path, "t.py");
  assert_string_equal(x->kind, "marker");
  assert_int_equal(x->line, line);
  assert_int_equal(x->col, col);
  assert_int_equal(x->end_line, line);
  assert_int_equal(x->end_col, col + 1);
  assert_int_equal(x->rule, rule);
  assert_int_equal(x->also, 0);
  assert_int_equal(x->n_missing, 0);
  assert_string_equal(x->message, message);
  assert_string_equal(x->fix, fix);
  assert_int_equal(x->suppression, HG_SUPPRESSION_NONE);
  assert_null(x->justification);
  assert_true(hg_finding_fails(x));
}

static const char *const UNTOUCHED = "untouched";

// ---- allow -------------------------------------------------------------------------------------

static void test_suppress__allow_one_id(void **state) {
  fx *f = *state;
  hg_markers *m = markers_of(f, "run(x)  # hardguard: allow[network-none] -- fetches wheels from the mirror\n");
  const char *reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 1, NET | RO, &reason), NET);
  assert_string_equal(reason, "fetches wheels from the mirror");
  report(f, m);
  assert_int_equal(f->out.len, 0);  // used: nothing to report
}

static void test_suppress__allow_several_ids(void **state) {
  fx *f = *state;
  hg_markers *m = markers_of(f, "# hardguard: allow[network-none, read-only,cpu-limit ] -- three at once  \nrun(x)\n");
  const char *reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 2, ALL_REQ, &reason), NET | RO | CPU);
  assert_string_equal(reason, "three at once");  // trailing blanks trimmed
  // Only what is missing is relaxed.
  reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 2, RO | MEM, &reason), RO);
  assert_string_equal(reason, "three at once");
  report(f, m);
  assert_int_equal(f->out.len, 0);
}

static void test_suppress__where_a_marker_applies(void **state) {
  fx *f = *state;
  hg_markers *m = markers_of(f, "x = 1\n"                                                   // 1
                                "# hardguard: allow[network-none] -- alone above\n"         // 2: applies to 3
                                "run(x)  # hardguard: allow[read-only] -- trailing\n"       // 3: applies to 3
                                "    # hardguard: allow[cpu-limit] -- indented, alone\n"    // 4: applies to 5
                                "run(y)\n"                                                  // 5
                                "# hardguard: allow[pids-limit] -- two lines above\n"       // 6: applies to 7
                                "\n"                                                        // 7
                                "run(z)\n");                                                // 8
  const char *reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 2, ALL_REQ, &reason), 0);  // not on the marker's own line
  assert_ptr_equal(reason, UNTOUCHED);
  assert_int_equal(hg_markers_allow(m, 3, ALL_REQ, &reason), NET | RO);
  assert_string_equal(reason, "alone above");  // the first marker in file order
  reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 4, ALL_REQ, &reason), 0);
  assert_int_equal(hg_markers_allow(m, 5, ALL_REQ, &reason), CPU);
  assert_string_equal(reason, "indented, alone");
  reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 8, ALL_REQ, &reason), 0);  // two lines above does not apply
  assert_ptr_equal(reason, UNTOUCHED);
  report(f, m);
  assert_int_equal(f->out.len, 1);
  check_marker_finding(&f->out.items[0], 6, 1, HG_RULE_UNUSED_SUPPRESSION, UNUSED_ALLOW, UNUSED_FIX);
  assert_string_equal(f->out.items[0].source_line, "# hardguard: allow[pids-limit] -- two lines above");
}

static void test_suppress__allow_relaxes_only_missing_ids(void **state) {
  fx *f = *state;
  const char *src = "run(x)  # hardguard: allow[network-none] -- mirror\n";
  hg_markers *m = markers_of(f, src);
  const char *reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 1, CAP | RO, &reason), 0);  // network-none is not missing
  assert_ptr_equal(reason, UNTOUCHED);
  assert_int_equal(hg_markers_allow(m, 1, 0, &reason), 0);
  report(f, m);
  assert_int_equal(f->out.len, 1);  // so it is unused
  check_marker_finding(&f->out.items[0], 1, 9, HG_RULE_UNUSED_SUPPRESSION, UNUSED_ALLOW, UNUSED_FIX);
  assert_string_equal(f->out.items[0].source_line, "run(x)  # hardguard: allow[network-none] -- mirror");

  // Once it relaxes something, it is used.
  m = markers_of(f, src);
  assert_int_equal(hg_markers_allow(m, 1, NET, &reason), NET);
  report(f, m);
  assert_int_equal(f->out.len, 0);
}

// ---- ignore ------------------------------------------------------------------------------------

static void test_suppress__ignore_names_every_rule(void **state) {
  fx *f = *state;
  const char *src = "run(x)  # hardguard: ignore[weakening-option] -- sandboxed in a VM\n";
  hg_markers *m = markers_of(f, src);
  const char *reason = UNTOUCHED;
  // A finding with a primary rule and an `also` rule: naming only one is not enough.
  assert_false(hg_markers_ignore(m, 1, WEAK | UNH, &reason));
  assert_ptr_equal(reason, UNTOUCHED);
  assert_false(hg_markers_ignore(m, 1, 0, &reason));  // no rule at all: nothing to suppress
  assert_false(hg_markers_ignore(m, 2, WEAK, &reason));  // another line
  report(f, m);
  assert_int_equal(f->out.len, 1);
  check_marker_finding(&f->out.items[0], 1, 9, HG_RULE_UNUSED_SUPPRESSION, UNUSED_IGNORE, UNUSED_FIX);

  m = markers_of(f, src);
  assert_true(hg_markers_ignore(m, 1, WEAK, &reason));
  assert_string_equal(reason, "sandboxed in a VM");
  report(f, m);
  assert_int_equal(f->out.len, 0);

  // One marker naming both rules, or more than the finding has.
  m = markers_of(f, "run(x)  # hardguard: ignore[weakening-option, unhardened-site] -- both\n");
  reason = UNTOUCHED;
  assert_true(hg_markers_ignore(m, 1, WEAK | UNH, &reason));
  assert_string_equal(reason, "both");
  assert_true(hg_markers_ignore(m, 1, UNH, &reason));
  assert_false(hg_markers_ignore(m, 1, UNH | RULE(HG_RULE_UNVERIFIABLE_FLAGS), &reason));
  report(f, m);
  assert_int_equal(f->out.len, 0);
}

static void test_suppress__ignore_markers_add_up_on_a_line(void **state) {
  fx *f = *state;
  // One alone on the line above, one trailing: together they name both rules.
  hg_markers *m = markers_of(f, "# hardguard: ignore[weakening-option] -- first\n"
                                "run(x)  # hardguard: ignore[unhardened-site] -- second\n");
  const char *reason = UNTOUCHED;
  assert_true(hg_markers_ignore(m, 2, WEAK | UNH, &reason));
  assert_string_equal(reason, "first");
  report(f, m);
  assert_int_equal(f->out.len, 0);  // both used
}

static void test_suppress__allow_and_ignore_do_not_mix(void **state) {
  fx *f = *state;
  hg_markers *m = markers_of(f, "run(x)  # hardguard: ignore[unhardened-site] -- r\n"
                                "run(y)  # hardguard: allow[network-none] -- r\n");
  const char *reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 1, ALL_REQ, &reason), 0);
  assert_false(hg_markers_ignore(m, 2, UNH, &reason));
  assert_ptr_equal(reason, UNTOUCHED);
  report(f, m);
  assert_int_equal(f->out.len, 2);
  check_marker_finding(&f->out.items[0], 1, 9, HG_RULE_UNUSED_SUPPRESSION, UNUSED_IGNORE, UNUSED_FIX);
  check_marker_finding(&f->out.items[1], 2, 9, HG_RULE_UNUSED_SUPPRESSION, UNUSED_ALLOW, UNUSED_FIX);
}

// ---- what is a marker --------------------------------------------------------------------------

static void test_suppress__only_a_comment_starting_with_the_word_is_a_marker(void **state) {
  fx *f = *state;
  hg_markers *m = markers_of(f, "# see hardguard: docs\n"
                                "# TODO(hardguard: later) allow[network-none] -- r\n"
                                "run(x)  # note, hardguard: allow[network-none] -- r\n"
                                "## hardguard: allow[network-none] -- r\n"
                                "# plain comment\n"
                                "run(y)\n");
  const char *reason = UNTOUCHED;
  for (uint32_t line = 1; line <= 6; line++) assert_int_equal(hg_markers_allow(m, line, ALL_REQ, &reason), 0);
  assert_ptr_equal(reason, UNTOUCHED);
  report(f, m);
  assert_int_equal(f->out.len, 0);  // prose, not bad markers
}

static void test_suppress__spacing_variants_are_markers(void **state) {
  fx *f = *state;
  hg_markers *m = markers_of(f, "run(a)  #hardguard:allow[network-none]--tight\n"
                                "run(b)  #   hardguard:   ignore[ unhardened-site ,weakening-option ]   --   loose   \n"
                                "run(c)  # hardguard: allow[read-only] -- a reason -- with dashes\n");
  const char *reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 1, ALL_REQ, &reason), NET);
  assert_string_equal(reason, "tight");
  assert_true(hg_markers_ignore(m, 2, WEAK | UNH, &reason));
  assert_string_equal(reason, "loose");
  assert_int_equal(hg_markers_allow(m, 3, ALL_REQ, &reason), RO);
  assert_string_equal(reason, "a reason -- with dashes");
  report(f, m);
  assert_int_equal(f->out.len, 0);
}

static void test_suppress__bad_markers(void **state) {
  fx *f = *state;
  char overlong[200];
  snprintf(overlong, sizeof(overlong), "# hardguard: allow[%0150d] -- r", 0);
  const struct {
    const char *marker;
    const char *why;
  } cases[] = {
      {"# hardguard: allow[network-none]", "the marker gives no reason: add `-- why this exception is needed`"},
      {"# hardguard: allow[network-none] --", "the marker gives no reason: add `-- why this exception is needed`"},
      {"# hardguard: ignore[unhardened-site] --  \t ", "the marker gives no reason: add `-- why this exception is "
                                                       "needed`"},
      {"# hardguard: allow[network-none] because", "the marker gives no reason: add `-- why this exception is needed`"},
      {"# hardguard: allow[network-none] - r", "the marker gives no reason: add `-- why this exception is needed`"},
      {"# hardguard: allow[nope] -- r", "unknown requirement `nope` (see hardguard --list-rules)"},
      {"# hardguard: allow[network-none, nope] -- r", "unknown requirement `nope` (see hardguard --list-rules)"},
      {"# hardguard: allow[unhardened-site] -- r",
       "unknown requirement `unhardened-site` (see hardguard --list-rules)"},
      {"# hardguard: ignore[nope] -- r", "unknown rule `nope` (see hardguard --list-rules)"},
      {"# hardguard: ignore[network-none] -- r", "unknown rule `network-none` (see hardguard --list-rules)"},
      {"# hardguard: allow[network-none -- r", "the list of ids is not closed with `]`"},
      {"# hardguard: ignore[ -- r", "the list of ids is not closed with `]`"},
      {"# hardguard: allow[] -- r", "the marker names no id"},
      {"# hardguard: allow[network-none,,read-only] -- r", "an empty or overlong id in the list"},
      {"# hardguard: allow[ ] -- r", "an empty or overlong id in the list"},
      {overlong, "an empty or overlong id in the list"},
      {"# hardguard: please", "a marker reads `# hardguard: allow[requirement] -- reason` or "
                              "`# hardguard: ignore[rule] -- reason`"},
      {"# hardguard:", "a marker reads `# hardguard: allow[requirement] -- reason` or "
                       "`# hardguard: ignore[rule] -- reason`"},
      {"# hardguard: allow network-none -- r", "a marker reads `# hardguard: allow[requirement] -- reason` or "
                                               "`# hardguard: ignore[rule] -- reason`"},
      {"# hardguard: Allow[network-none] -- r", "a marker reads `# hardguard: allow[requirement] -- reason` or "
                                                "`# hardguard: ignore[rule] -- reason`"},
      {"# hardguard: suppress[unhardened-site] -- r", "a marker reads `# hardguard: allow[requirement] -- reason` "
                                                      "or `# hardguard: ignore[rule] -- reason`"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    hg_buf src = {0}, msg = {0};
    hg_buf_printf(&src, "%s\nrun(x)\n", cases[i].marker);
    hg_markers *m = markers_of(f, src.data);
    // A bad marker relaxes and suppresses nothing.
    const char *reason = UNTOUCHED;
    assert_int_equal(hg_markers_allow(m, 2, ALL_REQ, &reason), 0);
    assert_false(hg_markers_ignore(m, 2, UNH, &reason));
    assert_ptr_equal(reason, UNTOUCHED);
    report(f, m);
    if (f->out.len != 1) print_error("marker '%s': %zu findings\n", cases[i].marker, f->out.len);
    assert_int_equal(f->out.len, 1);
    hg_buf_printf(&msg, "invalid hardguard marker: %s", cases[i].why);
    check_marker_finding(&f->out.items[0], 1, 1, HG_RULE_BAD_SUPPRESSION, msg.data, BAD_FIX);
    assert_string_equal(f->out.items[0].source_line, cases[i].marker);
    hg_buf_free(&src);
    hg_buf_free(&msg);
  }
}

static void test_suppress__unused_allow_and_ignore(void **state) {
  fx *f = *state;
  hg_markers *m = markers_of(f, "x = 1  # hardguard: ignore[unhardened-site] -- nothing here\n"
                                "  # hardguard: allow[read-only] -- nothing below\n"
                                "y = 2\n"
                                "# hardguard: allow[network-] -- bad\n");
  report(f, m);  // no site was judged
  assert_int_equal(f->out.len, 3);
  check_marker_finding(&f->out.items[0], 1, 8, HG_RULE_UNUSED_SUPPRESSION, UNUSED_IGNORE, UNUSED_FIX);
  check_marker_finding(&f->out.items[1], 2, 3, HG_RULE_UNUSED_SUPPRESSION, UNUSED_ALLOW, UNUSED_FIX);
  check_marker_finding(&f->out.items[2], 4, 1, HG_RULE_BAD_SUPPRESSION,
                       "invalid hardguard marker: unknown requirement `network-` (see hardguard --list-rules)",
                       BAD_FIX);
}

static void test_suppress__no_markers(void **state) {
  fx *f = *state;
  hg_markers *m = markers_of(f, "run(x)\n");
  const char *reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 1, ALL_REQ, &reason), 0);
  assert_false(hg_markers_ignore(m, 1, UNH, &reason));
  report(f, m);
  assert_int_equal(f->out.len, 0);
}

static void test_suppress__crlf_marker_without_reason(void **state) {
  // Regression (found by these tests, fixed): in a file with CRLF line endings the comment node ends in '\r'. parse() in suppress.c
  // checks for a reason with skip_space (blanks and tabs only), so `-- \r` counts as a reason,
  // which is then trimmed to "". Input "run(x)  # hardguard: allow[network-none] --\r\n": expected a
  // bad-suppression finding ("the marker gives no reason"); actual: a valid marker whose
  // justification is the empty string. Through hg_scan_bytes the site below is "allowed" with
  // justification "" instead of failing with network-none missing plus a bad-suppression finding.
  fx *f = *state;
  hg_markers *m = markers_of(f, "run(x)  # hardguard: allow[network-none] --\r\n");
  assert_string_equal(f->comments[0].text, "# hardguard: allow[network-none] --\r");
  const char *reason = UNTOUCHED;
  assert_int_equal(hg_markers_allow(m, 1, NET, &reason), 0);
  report(f, m);
  assert_int_equal(f->out.len, 1);
  check_marker_finding(&f->out.items[0], 1, 9, HG_RULE_BAD_SUPPRESSION,
                       "invalid hardguard marker: the marker gives no reason: add `-- why this exception is needed`",
                       BAD_FIX);
}

// ---- through hg_scan_bytes ---------------------------------------------------------------------

// A docker-py site with every requirement but network-none.
#define NO_NET                                                                                                    \
  "client.containers.run(img, security_opt=[\"no-new-privileges\"], cap_drop=[\"ALL\"], read_only=True, "        \
  "mem_limit=\"1g\", nano_cpus=1, pids_limit=64)"
#define NO_NET_MSG "container created through docker-py passes every hardening requirement literally"

static void scan(fx *f, const char *src) {
  hg_scan_options o = {.rules = f->e->rules, .config = f->e->plain, .jobs = 1};
  hg_file_errors fe = {0};
  hg_findings_free(&f->out);
  f->out = (hg_findings){0};
  hg_scan_bytes(&o, "t.py", src, strlen(src), &f->out, &fe);
  assert_int_equal(fe.len, 0);
  hg_file_errors_free(&fe);
}

static void check_site(const hg_finding *x, uint32_t line, hg_rule_id rule, uint32_t also, size_t n_missing,
                       hg_suppression suppression, const char *justification, bool fails) {
  if (x->line != line || x->rule != rule || x->also != also || x->n_missing != n_missing ||
      x->suppression != suppression || hg_finding_fails(x) != fails)
    print_error("site %u:%u rule %d also 0x%x missing %zu suppression %d fails %d: %s\n", x->line, x->col, x->rule,
                x->also, x->n_missing, x->suppression, hg_finding_fails(x), x->message);
  assert_string_equal(x->kind, "sdk-run");
  assert_int_equal(x->line, line);
  assert_int_equal(x->col, 1);
  assert_int_equal(x->rule, rule);
  assert_int_equal(x->also, also);
  assert_int_equal(x->n_missing, n_missing);
  assert_int_equal(x->suppression, suppression);
  if (justification)
    assert_string_equal(x->justification, justification);
  else
    assert_null(x->justification);
  assert_int_equal(hg_finding_fails(x), fails);
}

static uint32_t col_of(const char *src, const char *needle) {
  const char *hit = strstr(src, needle);
  assert_non_null(hit);
  const char *line = hit;
  while (line > src && line[-1] != '\n') line--;
  return (uint32_t)(hit - line) + 1;
}

static void test_suppress__scan_allowed_site_passes(void **state) {
  fx *f = *state;
  scan(f, NO_NET "  # hardguard: allow[network-none] -- fetches wheels from the mirror\n");
  assert_int_equal(f->out.len, 1);
  check_site(&f->out.items[0], 1, HG_RULE_NONE, 0, 0, HG_SUPPRESSION_ALLOWED, "fetches wheels from the mirror", false);
  assert_int_equal(f->out.items[0].via, HG_VIA_FLAGS);
  assert_string_equal(f->out.items[0].message,
                      NO_NET_MSG " (allowed at the site: network-none -- fetches wheels from the mirror)");
  assert_null(f->out.items[0].fix);

  // The marker alone on the line above.
  scan(f, "# hardguard: allow[network-none] -- above\n" NO_NET "\n");
  assert_int_equal(f->out.len, 1);
  check_site(&f->out.items[0], 2, HG_RULE_NONE, 0, 0, HG_SUPPRESSION_ALLOWED, "above", false);

  // Without the marker the same site fails.
  scan(f, NO_NET "\n");
  assert_int_equal(f->out.len, 1);
  check_site(&f->out.items[0], 1, HG_RULE_UNHARDENED_SITE, 0, 1, HG_SUPPRESSION_NONE, NULL, true);
  assert_string_equal(f->out.items[0].missing[0], "network-none");
}

static void test_suppress__scan_partial_allow_still_fails(void **state) {
  fx *f = *state;
  scan(f, "client.containers.run(img)  # hardguard: allow[network-none, read-only] -- two of seven\n");
  assert_int_equal(f->out.len, 1);
  const hg_finding *x = &f->out.items[0];
  check_site(x, 1, HG_RULE_UNHARDENED_SITE, 0, 5, HG_SUPPRESSION_ALLOWED, "two of seven", true);
  static const char *const missing[] = {"no-new-privileges", "cap-drop-all", "memory-limit", "cpu-limit",
                                        "pids-limit"};
  for (size_t i = 0; i < 5; i++) assert_string_equal(x->missing[i], missing[i]);
  assert_string_equal(x->message, "container created through docker-py without the hardening builder or the full "
                                  "flag set; missing: no-new-privileges, cap-drop-all, memory-limit, cpu-limit, "
                                  "pids-limit (allowed at the site: network-none read-only -- two of seven)");
}

static void test_suppress__scan_marker_applies_to_the_line_a_site_starts_on(void **state) {
  fx *f = *state;
  // A trailing marker on a multi-line site's second line does not reach the site (it starts on
  // line 1); the marker is unused.
  const char *src = "client.containers.run(img,\n"
                    "    cap_drop=[\"ALL\"])  # hardguard: allow[network-none] -- r\n";
  scan(f, src);
  assert_int_equal(f->out.len, 2);
  check_site(&f->out.items[0], 1, HG_RULE_UNHARDENED_SITE, 0, 6, HG_SUPPRESSION_NONE, NULL, true);
  check_marker_finding(&f->out.items[1], 2, col_of(src, "# hardguard"), HG_RULE_UNUSED_SUPPRESSION, UNUSED_ALLOW,
                       UNUSED_FIX);

  // Two lines above: unused too.
  src = "# hardguard: allow[network-none] -- r\n\n" NO_NET "\n";
  scan(f, src);
  assert_int_equal(f->out.len, 2);
  check_marker_finding(&f->out.items[0], 1, 1, HG_RULE_UNUSED_SUPPRESSION, UNUSED_ALLOW, UNUSED_FIX);
  check_site(&f->out.items[1], 3, HG_RULE_UNHARDENED_SITE, 0, 1, HG_SUPPRESSION_NONE, NULL, true);
}

static void test_suppress__scan_ignore_suppresses_every_rule_or_nothing(void **state) {
  fx *f = *state;
  scan(f, "client.containers.run(img, privileged=True)  # hardguard: ignore[weakening-option, unhardened-site] "
          "-- runs in a throwaway VM\n");
  assert_int_equal(f->out.len, 1);
  check_site(&f->out.items[0], 1, HG_RULE_WEAKENING_OPTION, UNH, 7, HG_SUPPRESSION_SUPPRESSED,
             "runs in a throwaway VM", false);

  // Naming the primary rule only: the site fails, and the marker is unused.
  const char *src = "client.containers.run(img, privileged=True)  # hardguard: ignore[weakening-option] -- r\n";
  scan(f, src);
  assert_int_equal(f->out.len, 2);
  check_site(&f->out.items[0], 1, HG_RULE_WEAKENING_OPTION, UNH, 7, HG_SUPPRESSION_NONE, NULL, true);
  check_marker_finding(&f->out.items[1], 1, col_of(src, "# hardguard"), HG_RULE_UNUSED_SUPPRESSION, UNUSED_IGNORE,
                       UNUSED_FIX);

  // Naming the `also` rule only: the same.
  src = "client.containers.run(img, privileged=True)  # hardguard: ignore[unhardened-site] -- r\n";
  scan(f, src);
  assert_int_equal(f->out.len, 2);
  check_site(&f->out.items[0], 1, HG_RULE_WEAKENING_OPTION, UNH, 7, HG_SUPPRESSION_NONE, NULL, true);
  assert_int_equal(f->out.items[1].rule, HG_RULE_UNUSED_SUPPRESSION);
}

static void test_suppress__scan_allow_then_ignore(void **state) {
  fx *f = *state;
  // allow relaxes network-none; ignore suppresses what still fails, and its reason is kept.
  scan(f, "# hardguard: allow[network-none] -- mirror\n"
          "client.containers.run(img)  # hardguard: ignore[unhardened-site] -- dev tool\n");
  assert_int_equal(f->out.len, 1);
  check_site(&f->out.items[0], 2, HG_RULE_UNHARDENED_SITE, 0, 6, HG_SUPPRESSION_SUPPRESSED, "dev tool", false);
}

static void test_suppress__scan_bad_and_non_markers(void **state) {
  fx *f = *state;
  // A marker without a reason relaxes nothing and is itself a finding.
  const char *src = NO_NET "  # hardguard: allow[network-none]\n";
  scan(f, src);
  assert_int_equal(f->out.len, 2);
  check_site(&f->out.items[0], 1, HG_RULE_UNHARDENED_SITE, 0, 1, HG_SUPPRESSION_NONE, NULL, true);
  check_marker_finding(&f->out.items[1], 1, col_of(src, "# hardguard"), HG_RULE_BAD_SUPPRESSION,
                       "invalid hardguard marker: the marker gives no reason: add `-- why this exception is needed`",
                       BAD_FIX);

  // "hardguard:" later in a comment is prose: no marker, no finding about it.
  scan(f, NO_NET "  # see hardguard: allow[network-none] -- r\n");
  assert_int_equal(f->out.len, 1);
  check_site(&f->out.items[0], 1, HG_RULE_UNHARDENED_SITE, 0, 1, HG_SUPPRESSION_NONE, NULL, true);

  // An allow at a site that passes anyway is unused.
  src = "client.containers.run(img, **{\"security_opt\": [\"no-new-privileges\"], \"cap_drop\": [\"ALL\"], "
        "\"network_mode\": \"none\", \"read_only\": True, \"mem_limit\": \"1g\", \"nano_cpus\": 1, "
        "\"pids_limit\": 64})  # hardguard: allow[network-none] -- r\n";
  scan(f, src);
  assert_int_equal(f->out.len, 2);
  check_site(&f->out.items[0], 1, HG_RULE_NONE, 0, 0, HG_SUPPRESSION_NONE, NULL, false);
  check_marker_finding(&f->out.items[1], 1, col_of(src, "# hardguard"), HG_RULE_UNUSED_SUPPRESSION, UNUSED_ALLOW,
                       UNUSED_FIX);
}

static void test_suppress__scan_crlf_marker_without_reason(void **state) {
  // Regression (found by these tests, fixed): see test_suppress__crlf_marker_without_reason. Input below (CRLF): expected the site to
  // fail (unhardened-site, network-none missing, no suppression) and a bad-suppression finding;
  // actual: one finding, suppression "allowed" with justification "", not failing.
  fx *f = *state;
  const char *src = NO_NET "  # hardguard: allow[network-none] --\r\nx = 1\r\n";
  scan(f, src);
  assert_int_equal(f->out.len, 2);
  check_site(&f->out.items[0], 1, HG_RULE_UNHARDENED_SITE, 0, 1, HG_SUPPRESSION_NONE, NULL, true);
  check_marker_finding(&f->out.items[1], 1, col_of(src, "# hardguard"), HG_RULE_BAD_SUPPRESSION,
                       "invalid hardguard marker: the marker gives no reason: add `-- why this exception is needed`",
                       BAD_FIX);
}

#define FX_TEST(f) cmocka_unit_test_setup_teardown(f, setup_fx, teardown_fx)

int main(void) {
  const struct CMUnitTest tests[] = {
      FX_TEST(test_suppress__allow_one_id),
      FX_TEST(test_suppress__allow_several_ids),
      FX_TEST(test_suppress__where_a_marker_applies),
      FX_TEST(test_suppress__allow_relaxes_only_missing_ids),
      FX_TEST(test_suppress__ignore_names_every_rule),
      FX_TEST(test_suppress__ignore_markers_add_up_on_a_line),
      FX_TEST(test_suppress__allow_and_ignore_do_not_mix),
      FX_TEST(test_suppress__only_a_comment_starting_with_the_word_is_a_marker),
      FX_TEST(test_suppress__spacing_variants_are_markers),
      FX_TEST(test_suppress__bad_markers),
      FX_TEST(test_suppress__unused_allow_and_ignore),
      FX_TEST(test_suppress__no_markers),
      FX_TEST(test_suppress__crlf_marker_without_reason),
      FX_TEST(test_suppress__scan_allowed_site_passes),
      FX_TEST(test_suppress__scan_partial_allow_still_fails),
      FX_TEST(test_suppress__scan_marker_applies_to_the_line_a_site_starts_on),
      FX_TEST(test_suppress__scan_ignore_suppresses_every_rule_or_nothing),
      FX_TEST(test_suppress__scan_allow_then_ignore),
      FX_TEST(test_suppress__scan_bad_and_non_markers),
      FX_TEST(test_suppress__scan_crlf_marker_without_reason),
  };
  return cmocka_run_group_tests_name("suppress", tests, setup_env, teardown_env);
}
