// Unit tests for judge/worlds.c: values that are one of several (HG_VAL_ALT) judged by the one
// rule — a requirement holds when it holds in every alternative, a forbidden option is set when
// any alternative sets it, a limit counts only when known in every alternative and not "no
// limit" — with the alternative that falls short named; and the budget that bounds the worlds.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "helpers.h"

#include "judge/verdict.h"
#include "judge/worlds.h"

typedef struct {
  hg_policy *policy;
  hg_config *none;
  pcre2_match_data *md;
} env;

static int setup(void **state) {
  env *e = calloc(1, sizeof(*e));
  e->policy = hg_test_policy();
  if (!e->policy)
    return -1;
  e->none = hg_config_empty(".");
  e->md = pcre2_match_data_create(16, NULL);
  *state = e;
  return 0;
}

static int teardown(void **state) {
  env *e = *state;
  pcre2_match_data_free(e->md);
  hg_config_free(e->none);
  hg_policy_free(e->policy);
  free(e);
  return 0;
}

#define S(t) ((hg_value){.kind = HG_VAL_STR, .text = (t), .line = 2})
#define N(t) ((hg_value){.kind = HG_VAL_NUM, .text = (t), .line = 2})
#define U(t, why) ((hg_value){.kind = HG_VAL_UNKNOWN, .text = (t), .origin = (why), .line = 2})
#define ARR(...) (hg_value[]){__VA_ARGS__}
#define NARGS(...) (sizeof((hg_value[]){__VA_ARGS__}) / sizeof(hg_value))
#define LIST(...) ((hg_value){.kind = HG_VAL_LIST, .text = "[...]", .line = 2, .items = ARR(__VA_ARGS__), .n_items = NARGS(__VA_ARGS__)})
#define EMPTY ((hg_value){.kind = HG_VAL_LIST, .text = "[]", .line = 2})
#define ALT(t, ...) ((hg_value){.kind = HG_VAL_ALT, .text = (t), .line = 2, .items = ARR(__VA_ARGS__), .n_items = NARGS(__VA_ARGS__)})

static hg_value when(const char *cond, hg_value v) {
  v.cond = cond;
  return v;
}

static hg_value key(const char *k, hg_value v) {
  v.key = k;
  return v;
}

static hg_value spread(hg_value v) {
  v.splat = true;
  return v;
}

static void judge_kwargs(env *e, hg_value *items, size_t n, hg_verdict *v) {
  hg_site site = {.kind = "sdk-run", .reads = HG_READS_KWARGS, .line = 1, .col = 1,
                  .flags = {.kind = HG_VAL_DICT, .text = "(...)", .items = items, .n_items = n}};
  hg_evaluate(v, e->policy, e->none, &site, e->md);
}

static void judge_argv(env *e, hg_value *items, size_t n, hg_verdict *v) {
  hg_site site = {.kind = "cli-run", .reads = HG_READS_ARGV, .line = 1, .col = 1,
                  .flags = {.kind = HG_VAL_LIST, .text = "[...]", .items = items, .n_items = n}};
  hg_evaluate(v, e->policy, e->none, &site, e->md);
}

#define KW_SET(net)                                                                                                  \
  key("security_opt", LIST(S("no-new-privileges"))), key("cap_drop", LIST(S("ALL"))), key("network_mode", net),      \
      key("read_only", ((hg_value){.kind = HG_VAL_TRUE, .text = "True", .line = 2})), key("mem_limit", S("512m")),   \
      key("nano_cpus", N("1000000000")), key("pids_limit", N("64"))

static void expect(const hg_verdict *v, hg_rule_id rule, uint64_t missing, const char *needle) {
  if (v->rule != rule || v->missing != missing || (needle && !strstr(v->message, needle)))
    print_error("rule %d missing 0x%llx: %s\n", v->rule, (unsigned long long)v->missing, v->message);
  assert_int_equal(v->rule, rule);
  assert_int_equal(v->missing, missing);
  if (needle)
    assert_non_null(strstr(v->message, needle));
}

// Both arms carry the requirement: it holds, and the message says it holds on every branch.
static void test_worlds__every_arm_holds(void **state) {
  env *e = *state;
  hg_value items[] = {KW_SET(ALT("\"none\" if strict else \"none\"", when("strict", S("none")),
                                 when("not strict", S("none"))))};
  hg_verdict v;
  judge_kwargs(e, items, sizeof(items) / sizeof(items[0]), &v);
  expect(&v, HG_RULE_NONE, 0, "set on every branch (2 combinations of alternatives)");
  hg_verdict_clear(&v);
}

// One arm falls short: the requirement is missing, named with the arm's condition, and the
// effect is conditional with that condition as its reason.
static void test_worlds__one_arm_falls_short(void **state) {
  env *e = *state;
  hg_value items[] = {KW_SET(ALT("net", when("strict", S("none")), when("not strict", S("bridge"))))};
  hg_verdict v;
  judge_kwargs(e, items, sizeof(items) / sizeof(items[0]), &v);
  expect(&v, HG_RULE_UNHARDENED_SITE, NET, "missing: network-none (when `not strict`)");
  assert_int_equal(v.effective[2].status, HG_EFFECT_CONDITIONAL);
  assert_string_equal(v.effective[2].reason, "`not strict`");
  hg_verdict_clear(&v);
}

// A limit from the environment or "-1": unknown in one arm, "no limit" in the other: never set.
static void test_worlds__limit_known_in_every_arm(void **state) {
  env *e = *state;
  hg_value items[] = {KW_SET(S("none"))};
  items[6] = key("pids_limit", ALT("int(os.environ.get(\"PIDS\", \"-1\"))",
                                   when("PIDS is set", U("os.environ[\"PIDS\"]", "the environment variable PIDS")),
                                   when("PIDS is unset", N("-1"))));
  hg_verdict v;
  judge_kwargs(e, items, 7, &v);
  assert_int_not_equal(v.rule, HG_RULE_NONE);
  assert_int_equal(v.missing, PIDS);
  hg_verdict_clear(&v);
  // Both arms known and limits: it holds.
  items[6] = key("pids_limit", ALT("64 if big else 32", when("big", N("64")), when("not big", N("32"))));
  judge_kwargs(e, items, 7, &v);
  expect(&v, HG_RULE_NONE, 0, NULL);
  hg_verdict_clear(&v);
}

// A forbidden option set by any arm fails the site, naming the arm.
static void test_worlds__any_arm_weakens(void **state) {
  env *e = *state;
  hg_value items[8] = {KW_SET(S("none"))};
  items[7] = key("privileged", ALT("debug", when("debug", ((hg_value){.kind = HG_VAL_TRUE, .text = "True", .line = 2})),
                                   when("not debug", ((hg_value){.kind = HG_VAL_FALSE, .text = "False", .line = 2}))));
  hg_verdict v;
  judge_kwargs(e, items, 8, &v);
  expect(&v, HG_RULE_WEAKENING_OPTION, 0, "when `debug`");
  hg_verdict_clear(&v);
}

// A command line with `*(["-v", f"{D}:/data:ro"] if D.exists() else [])`: spliced in one world,
// nothing in the other; a fixed ordinary target with an unknown source cannot undo hardening.
static void test_worlds__spread_alternative_in_argv(void **state) {
  env *e = *state;
  hg_value words[] = {S("docker"), S("run"), S("--security-opt"), S("no-new-privileges"), S("--cap-drop"), S("ALL"),
                      S("--network"), S("none"), S("--read-only"), S("--memory"), S("512m"), S("--cpus"), S("1"),
                      S("--pids-limit"), S("64"),
                      spread(ALT("([...] if D.exists() else [])", when("D.exists()", LIST(S("-v"), S("\x01:/data:ro"))),
                                 when("not D.exists()", EMPTY))),
                      S("python:3.12"), S("python")};
  hg_verdict v;
  judge_argv(e, words, sizeof(words) / sizeof(words[0]), &v);
  expect(&v, HG_RULE_NONE, 0, "on every branch");
  hg_verdict_clear(&v);
  // The socket in one arm: a weakening, named with its arm.
  words[15].items[0].items[1] = S("/var/run/docker.sock:/var/run/docker.sock");
  judge_argv(e, words, sizeof(words) / sizeof(words[0]), &v);
  expect(&v, HG_RULE_WEAKENING_OPTION, 0, "when `D.exists()`");
  hg_verdict_clear(&v);
}

// A spread hardguard cannot read in one world, none in the other: what the spread's world does
// not meet it may carry (unverifiable), what the known world lacks is plainly missing, and the
// spread is named too; with a spread in both worlds the site is only unverifiable.
static void test_worlds__known_world_lacks_beside_a_spread(void **state) {
  env *e = *state;
  hg_value opts = U("opts", "a parameter of f() at line 1");
  hg_value items[] = {KW_SET(S("none"))};
  items[6] = spread(ALT("opts or {}", when("opts", opts),
                        when("not opts", ((hg_value){.kind = HG_VAL_DICT, .text = "{}", .line = 2}))));
  hg_verdict v;
  judge_kwargs(e, items, 7, &v);
  expect(&v, HG_RULE_UNHARDENED_SITE, PIDS, "missing: pids-limit (when `not opts`); cannot be verified either: `opts`");
  hg_verdict_clear(&v);
  items[6] = spread(ALT("opts or more", when("opts", opts), when("not opts", U("more", "an attribute"))));
  judge_kwargs(e, items, 7, &v);
  expect(&v, HG_RULE_UNVERIFIABLE_FLAGS, PIDS, "not literally present: pids-limit");
  hg_verdict_clear(&v);
}

// A shortfall names the conditions that select it, not every arm of the first world that falls
// short: pids-limit is missing whenever the spread is left out (`not opts`), whichever user the
// other alternative picks; a condition every such world needs stays.
static void test_worlds__shortfall_names_the_conditions_it_needs(void **state) {
  env *e = *state;
  hg_value opts = U("opts", "a parameter of f() at line 1");
  hg_value items[8] = {KW_SET(S("none"))};
  items[6] = spread(ALT("opts or {}", when("opts", opts),
                        when("not opts", ((hg_value){.kind = HG_VAL_DICT, .text = "{}", .line = 2}))));
  items[7] = key("user", ALT("user or nobody", when("user", S("1000")), when("not user", S("nobody"))));
  hg_verdict v;
  judge_kwargs(e, items, 8, &v);
  expect(&v, HG_RULE_UNHARDENED_SITE, PIDS, "missing: pids-limit (when `not opts`); cannot be verified either");
  assert_null(strstr(v.message, "`user`"));
  assert_null(strstr(v.message, "`not user`"));
  hg_verdict_clear(&v);
  // Another spread sets the limit when `strict`: the shortfall needs both conditions.
  items[7] = spread(ALT("extra", when("strict", ((hg_value){.kind = HG_VAL_DICT, .text = "{...}", .line = 3,
                                                            .items = ARR(key("pids_limit", N("64"))), .n_items = 1})),
                        when("not strict", ((hg_value){.kind = HG_VAL_DICT, .text = "{}", .line = 3}))));
  judge_kwargs(e, items, 8, &v);
  expect(&v, HG_RULE_UNHARDENED_SITE, PIDS, "missing: pids-limit (when `not opts` and `not strict`)");
  hg_verdict_clear(&v);
}

// Too many alternatives: bounded, and what lies past the budget is unknown, never a pass.
static void test_worlds__budget(void **state) {
  env *e = *state;
  enum { N_ALTS = 40 };
  // (every array the values point into lives as long as the test: no compound literal in the loop)
  hg_value ro[N_ALTS], arms[N_ALTS][2];
  hg_value words[4 + N_ALTS];
  size_t n = 0;
  words[n++] = S("docker");
  words[n++] = S("run");
  for (size_t i = 0; i < N_ALTS; i++) {
    ro[i] = S("--read-only");
    arms[i][0] = when("c", (hg_value){.kind = HG_VAL_LIST, .text = "[...]", .line = 2, .items = &ro[i], .n_items = 1});
    arms[i][1] = when("not c", EMPTY);
    words[n++] = spread((hg_value){.kind = HG_VAL_ALT, .text = "x", .line = 2, .items = arms[i], .n_items = 2});
  }
  words[n++] = S("img");
  clock_t t0 = clock();
  hg_verdict v;
  judge_argv(e, words, n, &v);
  assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 2.0);
  assert_int_not_equal(v.rule, HG_RULE_NONE);
  hg_verdict_clear(&v);

  // An alternative of 1,000 arms, each complete: past the arms budget, unknown.
  static hg_value many[1000];
  for (size_t i = 0; i < 1000; i++)
    many[i] = S("none");
  hg_value items[] = {KW_SET(((hg_value){.kind = HG_VAL_ALT, .text = "NETS[i]", .line = 2, .items = many, .n_items = 1000}))};
  judge_kwargs(e, items, 7, &v);
  expect(&v, HG_RULE_UNVERIFIABLE_FLAGS, NET, "past hardguard's budget");
  hg_verdict_clear(&v);
}

// Without alternatives nothing changes: one world, and the value model's flags are read as before.
static void test_worlds__has_alt(void **state) {
  (void)state;
  hg_value plain = LIST(S("a"), LIST(S("b")));
  assert_false(hg_value_has_alt(&plain));
  hg_value deep = LIST(S("a"), LIST(ALT("x", S("b"), S("c"))));
  assert_true(hg_value_has_alt(&deep));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_worlds__every_arm_holds),    cmocka_unit_test(test_worlds__one_arm_falls_short),
      cmocka_unit_test(test_worlds__limit_known_in_every_arm), cmocka_unit_test(test_worlds__any_arm_weakens),
      cmocka_unit_test(test_worlds__spread_alternative_in_argv), cmocka_unit_test(test_worlds__budget),
      cmocka_unit_test(test_worlds__has_alt),
      cmocka_unit_test(test_worlds__known_world_lacks_beside_a_spread),
      cmocka_unit_test(test_worlds__shortfall_names_the_conditions_it_needs),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
