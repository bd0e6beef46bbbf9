/* --shard K/N (app/shard.h): which values it takes, and which files go to which shard. The
 * assignment is pinned: a CI matrix run by two versions of hardguard (a cache, a rollout) must
 * not lose or double a file, so the hash of a path may never change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app/shard.h"

static void test_shard__parse(void **state) {
  (void)state;
  hg_shard s = {0};
  assert_true(hg_shard_parse("1/1", &s));
  assert_int_equal(s.k, 1);
  assert_int_equal(s.n, 1);
  assert_true(hg_shard_parse("3/4", &s));
  assert_int_equal(s.k, 3);
  assert_int_equal(s.n, 4);
  assert_true(hg_shard_parse("4096/4096", &s));
  static const char *const bad[] = {"", "/", "1", "1/", "/2", "0/2", "3/2", "1/0", "1/4097", "-1/2", "+1/2",
                                    " 1/2", "1/2 ", "1/2/3", "a/b", "1.0/2", "01/2x", "99999999999999999999/2",
                                    "000001/2"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
    hg_shard t = {.k = 7, .n = 9};
    if (hg_shard_parse(bad[i], &t)) fail_msg("'%s' parsed", bad[i]);
    assert_int_equal(t.k, 7);  // untouched
  }
}

static void test_shard__holds(void **state) {
  (void)state;
  // Without a shard every path is held.
  hg_shard none = {0};
  assert_true(hg_shard_holds(&none, "any.py"));
  assert_true(hg_shard_holds(NULL, "any.py"));
  // Each path is in exactly one shard of N.
  static const char *const paths[] = {"a.py", "src/app/run.py", "docker-compose.yml", ".github/workflows/ci.yml",
                                      "Makefile", "scripts/run.sh", "cmd/sandbox/main.go", "src/sandbox.ts"};
  for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++)
    for (unsigned n = 1; n <= 9; n++) {
      unsigned in = 0;
      for (unsigned k = 1; k <= n; k++) in += hg_shard_holds(&(hg_shard){k, n}, paths[i]);
      assert_int_equal(in, 1);
    }
  // Pinned: the shard of a path never changes between versions (64-bit FNV-1a of its bytes, from
  // hg_hash's start, mod N; computed apart, in Python).
  static const unsigned of4[] = {4, 3, 3, 3, 4, 1, 2, 3}, of7[] = {6, 5, 5, 4, 3, 3, 4, 7};
  for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++) {
    if (!hg_shard_holds(&(hg_shard){of4[i], 4}, paths[i])) fail_msg("%s: not in shard %u/4", paths[i], of4[i]);
    if (!hg_shard_holds(&(hg_shard){of7[i], 7}, paths[i])) fail_msg("%s: not in shard %u/7", paths[i], of7[i]);
  }
  // Roughly even: 1,000 paths over 4 shards, none with under 200.
  unsigned count[4] = {0};
  char path[32];
  for (unsigned i = 0; i < 1000; i++) {
    snprintf(path, sizeof path, "pkg/module_%u.py", i);
    for (unsigned k = 1; k <= 4; k++) count[k - 1] += hg_shard_holds(&(hg_shard){k, 4}, path);
  }
  for (unsigned k = 0; k < 4; k++) assert_true(count[k] >= 200);
}

static void test_shard__automation_id(void **state) {
  (void)state;
  assert_null(hg_shard_automation_id(&(hg_shard){0}));
  char *id = hg_shard_automation_id(&(hg_shard){2, 4});
  assert_string_equal(id, "hardguard/shard-2-of-4/");
  free(id);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shard__parse),
      cmocka_unit_test(test_shard__holds),
      cmocka_unit_test(test_shard__automation_id),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
