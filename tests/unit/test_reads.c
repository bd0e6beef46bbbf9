/* The reading-mode table (model/reads.h) and the stages that read it agree: the policy lets a
 * dialect read a mode exactly when the mode has a shape, the rule loader asks a dialect of a site
 * exactly when the mode carries options, and the checker names a dialect for the same sites.
 * `script` is the case that once disagreed: its commands are spelled as flags (a flags dialect
 * may read it), but a script is no site with options of its own (no dialect is needed for it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/reads.h"
#include "rules/pattern.h"
#include "rules/policy.h"

static void test_reads__names_round_trip(void **state) {
  (void)state;
  for (int r = 0; r < HG_READS_COUNT; r++) {
    assert_non_null(hg_readings[r].name);
    assert_int_equal(hg_reads_by_name(hg_readings[r].name), r);
    assert_string_equal(hg_reads_name(r), hg_readings[r].name);
  }
  assert_int_equal(hg_reads_by_name("nope"), -1);
  assert_null(hg_reads_name(HG_READS_COUNT));
  assert_null(hg_reads_name(-1));
}

static void test_reads__options_have_a_shape(void **state) {
  (void)state;
  for (int r = 0; r < HG_READS_COUNT; r++)
    if (hg_readings[r].options) assert_true(hg_readings[r].shape >= 0);
  assert_int_equal(hg_readings[HG_READS_SCRIPT].shape, HG_SHAPE_FLAGS);
  assert_false(hg_readings[HG_READS_SCRIPT].options);
  assert_int_equal(hg_readings[HG_READS_CLIENT].shape, -1);
  assert_int_equal(hg_readings[HG_READS_OPAQUE].shape, -1);
  assert_true(hg_readings[HG_READS_COMMAND].options);
}

static hg_policy *load(const char *dialects, hg_error *err) {
  char yaml[512];
  snprintf(yaml, sizeof(yaml),
           "require:\n  r1:\n    summary: s\n    flag: { name: --f }\n    fix: { flag: '--f 1' }\n"
           "dialects: { %s }\ncli:\n  subcommands: [run]\n  boolean_flags: [--rm]\n",
           dialects);
  hg_policy *p = NULL;
  return hg_policy_load(&p, "t.yml", yaml, strlen(yaml), err) == 0 ? p : NULL;
}

// The policy: a dialect may read a mode with a shape, of one shape only, and no mode without one.
static void test_reads__policy_reads_modes_by_shape(void **state) {
  (void)state;
  hg_error err = {{0}};
  for (int r = 0; r < HG_READS_COUNT; r++) {
    char d[96];
    snprintf(d, sizeof(d), "flag: { reads: [%s] }", hg_readings[r].name);
    hg_policy *p = load(d, &err);
    if (hg_readings[r].shape >= 0) {
      if (!p) print_error("%s: %s\n", hg_readings[r].name, err.message);
      assert_non_null(p);
      assert_int_equal(p->dialects[0].shape, hg_readings[r].shape);
      hg_policy_free(p);
    } else {
      assert_null(p);
      assert_non_null(strstr(err.message, "is not a reading mode with options"));
    }
  }
  assert_null(load("flag: { reads: [argv, kwargs] }", &err));
  assert_non_null(strstr(err.message, "is judged unlike"));
}

// The rule loader: a site of a mode with options needs a dialect that reads it; one without (a
// script, a client) needs none.
static void test_reads__site_needs_a_dialect_when_it_has_options(void **state) {
  (void)state;
  hg_error err = {{0}};
  hg_policy *p = load("flag: { reads: [argv] }", &err);
  assert_non_null(p);
  for (int r = 0; r < HG_READS_COUNT; r++) {
    uint8_t d = 0;
    char msg[192];
    int rc = hg_pattern_site_dialect(p, (hg_reads)r, NULL, &d, msg, sizeof(msg));
    bool served = r == HG_READS_ARGV;
    if (hg_readings[r].options && !served) {
      assert_int_equal(rc, -1);
      assert_non_null(strstr(msg, "the policy has no dialect that reads"));
    } else {
      assert_int_equal(rc, 0);
    }
  }
  hg_policy_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reads__names_round_trip),
      cmocka_unit_test(test_reads__options_have_a_shape),
      cmocka_unit_test(test_reads__policy_reads_modes_by_shape),
      cmocka_unit_test(test_reads__site_needs_a_dialect_when_it_has_options),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
