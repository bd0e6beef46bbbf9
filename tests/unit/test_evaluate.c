// Unit tests for evaluate.c: the verdict on hand-built hg_sites against the real policy.
// Requirement bits (policy order): 0 no-new-privileges, 1 cap-drop-all, 2 network-none,
// 3 read-only, 4 memory-limit, 5 cpu-limit, 6 pids-limit.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

#include "judge/verdict.h"

#ifndef HG_SOURCE_DIR
#error "HG_SOURCE_DIR must name the source tree (set by tests/unit/CMakeLists.txt)"
#endif

// ---- group fixture: the real policy and two configs -------------------------------------------

typedef struct {
  hg_policy *policy;
  hg_config *no_builders;
  hg_config *builder; // sandbox.container_hardening: hardening_kwargs
  pcre2_match_data *md;
} env;

static int setup_env(void **state) {
  hg_policy *policy = hg_test_policy();
  if (!policy)
    return -1;
  env *e = calloc(1, sizeof(*e));
  e->policy = policy;
  e->no_builders = hg_config_empty(".");
  e->builder = hg_test_config_with_builder("sandbox.container_hardening", "hardening_kwargs");
  e->md = pcre2_match_data_create(16, NULL);
  *state = e;
  return 0;
}

static int teardown_env(void **state) {
  env *e = *state;
  pcre2_match_data_free(e->md);
  hg_config_free(e->no_builders);
  hg_config_free(e->builder);
  hg_policy_free(e->policy);
  free(e);
  return 0;
}

static void test_evaluate__policy_order(void **state) {
  env *e = *state;
  // The bit constants above assume this order.
  static const char *const ids[] = {"no-new-privileges", "cap-drop-all", "network-none", "read-only",
                                    "memory-limit",      "cpu-limit",    "pids-limit"};
  assert_int_equal(e->policy->n_req, 7);
  for (size_t i = 0; i < 7; i++)
    assert_string_equal(e->policy->req[i].id, ids[i]);
}

// ---- keyword sites -------------------------------------------------------------------------------

#define MAX_KW 16

// One keyword (or spread) of a docker-py call; LIST values hold string items.
typedef struct {
  const char *key; // NULL with splat: a `**spread`; NULL without splat: end of the list
  hg_value_kind kind;
  const char *text;
  const char *items[4];
  bool splat;
  uint32_t group; // 0: the call's own keyword or spread; n: an entry of the n-th `**{...}` literal
} kw;

#define K_STR(k, t)                                                                                                    \
  { .key = (k), .kind = HG_VAL_STR, .text = (t) }
#define K_NUM(k, t)                                                                                                    \
  { .key = (k), .kind = HG_VAL_NUM, .text = (t) }
#define K_TRUE(k)                                                                                                      \
  { .key = (k), .kind = HG_VAL_TRUE, .text = "True" }
#define K_FALSE(k)                                                                                                     \
  { .key = (k), .kind = HG_VAL_FALSE, .text = "False" }
#define K_NONE(k)                                                                                                      \
  { .key = (k), .kind = HG_VAL_NONE, .text = "None" }
#define K_LIST(k, ...)                                                                                                 \
  {                                                                                                                    \
    .key = (k), .kind = HG_VAL_LIST, .text = "[...]", .items = { __VA_ARGS__ }                                         \
  }
#define K_VAR(k, t)                                                                                                    \
  { .key = (k), .kind = HG_VAL_UNKNOWN, .text = (t) }
#define SPREAD_BUILDER(t)                                                                                              \
  { .kind = HG_VAL_BUILDER, .text = (t), .splat = true }
#define SPREAD_UNKNOWN(t)                                                                                              \
  { .kind = HG_VAL_UNKNOWN, .text = (t), .splat = true }
// The same, as entries of the first `**{...}` literal spread into the call.
#define IN_DICT(...)                                                                                                   \
  { __VA_ARGS__, .group = 1 }

#define KW_NNP K_LIST("security_opt", "no-new-privileges")
#define KW_CAP K_LIST("cap_drop", "ALL")
#define KW_NET K_STR("network_mode", "none")
#define KW_RO K_TRUE("read_only")
#define KW_MEM K_STR("mem_limit", "512m")
#define KW_CPU K_NUM("nano_cpus", "1_000_000_000")
#define KW_PIDS K_NUM("pids_limit", "64")
#define KW_ALL KW_NNP, KW_CAP, KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS

// Storage for one hand-built keyword site.
typedef struct {
  hg_value items[MAX_KW];
  hg_value lists[MAX_KW][4];
  hg_site site;
} kw_site;

static void build_kwargs(kw_site *s, const kw *kws, bool imports_builder) {
  memset(s, 0, sizeof(*s));
  size_t n = 0;
  for (; n < MAX_KW && (kws[n].key || kws[n].splat); n++) {
    hg_value *v = &s->items[n];
    *v = (hg_value){.kind = kws[n].kind,
                    .text = kws[n].text,
                    .key = kws[n].key,
                    .splat = kws[n].splat,
                    .group = kws[n].group,
                    .line = 3,
                    .origin = kws[n].kind == HG_VAL_UNKNOWN ? "a name hardguard does not follow yet" : NULL};
    if (kws[n].kind == HG_VAL_LIST) {
      size_t m = 0;
      for (; m < 4 && kws[n].items[m]; m++)
        s->lists[n][m] = (hg_value){.kind = HG_VAL_STR, .text = kws[n].items[m]};
      v->items = s->lists[n];
      v->n_items = m;
    }
  }
  s->site = (hg_site){.kind = "sdk-run",
                      .reads = HG_READS_KWARGS,
                      .line = 3,
                      .col = 5,
                      .imports_builder = imports_builder,
                      .flags = {.kind = HG_VAL_DICT, .text = "(...)", .items = s->items, .n_items = n}};
}

typedef struct {
  const char *name;
  kw kws[MAX_KW];
  hg_rule_id rule;
  hg_via via;
  uint64_t missing;
} kw_case;

static void check_verdict(const char *name, const hg_verdict *v, hg_rule_id rule, hg_via via, uint64_t missing) {
  if (v->rule != rule || v->via != via || v->missing != missing)
    print_error("case '%s': rule %d via %d missing 0x%llx; expected rule %d via %d missing 0x%llx\n  message: %s\n",
                name, v->rule, v->via, (unsigned long long)v->missing, rule, via, (unsigned long long)missing,
                v->message ? v->message : "(null)");
  assert_int_equal(v->rule, rule);
  assert_int_equal(v->via, via);
  assert_int_equal(v->missing, missing);
  assert_non_null(v->message);
  if (rule == HG_RULE_NONE)
    assert_null(v->fix);
  else
    assert_non_null(v->fix);
}

static void run_kw_cases(env *e, const kw_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    kw_site s;
    build_kwargs(&s, cases[i].kws, false);
    hg_verdict v;
    hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
    check_verdict(cases[i].name, &v, cases[i].rule, cases[i].via, cases[i].missing);
    hg_verdict_clear(&v);
  }
}

#define RUN_KW(e, t) run_kw_cases((e), (t), sizeof(t) / sizeof((t)[0]))
#define PASS_FLAGS HG_RULE_NONE, HG_VIA_FLAGS, 0
#define UNHARDENED(m) HG_RULE_UNHARDENED_SITE, HG_VIA_NONE, (m)

static void test_evaluate__kwargs_all_seven_pass_via_flags(void **state) {
  env *e = *state;
  kw_site s;
  build_kwargs(&s, (const kw[]){KW_ALL, {0}}, false);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("all seven", &v, PASS_FLAGS);
  assert_string_equal(v.message, "container created through docker-py passes every hardening requirement literally");
  hg_verdict_clear(&v);
  assert_null(v.message);
  assert_null(v.fix);
}

static void test_evaluate__kwargs_missing_and_wrong_values(void **state) {
  env *e = *state;
  static const kw_case cases[] = {
      {"no keywords", {{0}}, UNHARDENED(ALL_REQ)},
      {"missing cap_drop", {KW_NNP, KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS}, UNHARDENED(CAP)},
      {"cap_drop NET_RAW",
       {KW_NNP, K_LIST("cap_drop", "NET_RAW"), KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS},
       UNHARDENED(CAP)},
      {"pids_limit -1 (no limit to Docker)", {KW_NNP, KW_CAP, KW_NET, KW_RO, KW_MEM, KW_CPU, K_NUM("pids_limit", "-1")},
       UNHARDENED(PIDS)},
      {"nano_cpus 0", {KW_NNP, KW_CAP, KW_NET, KW_RO, KW_MEM, K_NUM("nano_cpus", "0"), KW_PIDS}, UNHARDENED(CPU)},
      {"cap_drop empty list",
       {KW_NNP, K_LIST("cap_drop", NULL), KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS},
       UNHARDENED(CAP)},
      {"network_mode bridge",
       {KW_NNP, KW_CAP, K_STR("network_mode", "bridge"), KW_RO, KW_MEM, KW_CPU, KW_PIDS},
       UNHARDENED(NET)},
      {"read_only False", {KW_NNP, KW_CAP, KW_NET, K_FALSE("read_only"), KW_MEM, KW_CPU, KW_PIDS}, UNHARDENED(RO)},
      {"mem_limit None", {KW_NNP, KW_CAP, KW_NET, KW_RO, K_NONE("mem_limit"), KW_CPU, KW_PIDS}, UNHARDENED(MEM)},
      {"mem_limit 0", {KW_NNP, KW_CAP, KW_NET, KW_RO, K_NUM("mem_limit", "0"), KW_CPU, KW_PIDS}, UNHARDENED(MEM)},
      {"mem_limit \"\"", {KW_NNP, KW_CAP, KW_NET, KW_RO, K_STR("mem_limit", ""), KW_CPU, KW_PIDS}, UNHARDENED(MEM)},
      {"mem_limit \"0\"", {KW_NNP, KW_CAP, KW_NET, KW_RO, K_STR("mem_limit", "0"), KW_CPU, KW_PIDS}, UNHARDENED(MEM)},
      {"pids_limit 0.0", {KW_NNP, KW_CAP, KW_NET, KW_RO, KW_MEM, KW_CPU, K_NUM("pids_limit", "0.0")}, UNHARDENED(PIDS)},
      {"security_opt false",
       {K_LIST("security_opt", "no-new-privileges:false"), KW_CAP, KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS},
       UNHARDENED(NNP)},
      {"two missing", {KW_NNP, KW_NET, KW_RO, KW_MEM, KW_CPU}, UNHARDENED(CAP | PIDS)},
      // A key given twice (a dict literal merged into the call): the last value counts.
      {"read_only overridden later",
       {KW_NNP, KW_CAP, KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS, K_FALSE("read_only")},
       UNHARDENED(RO)},
  };
  RUN_KW(e, cases);
}

// An item on only some paths (`conditional`: the resolver's reading of a name bound again in a
// loop) never counts: a cap_drop list whose "ALL" is on some paths only, a limit that is "256m" or
// 0 (two spreads, each on some paths), a limit that is a list of nothing else; an unconditional
// spread of an unknown leaves it unverifiable, of a known list that holds an item, set.
static void test_evaluate__items_on_some_paths_never_count(void **state) {
  env *e = *state;
  struct {
    const char *name;
    size_t slot; // the keyword changed: 1 cap_drop, 4 mem_limit
    hg_value_kind kind;
    hg_value items[2];
    size_t n;
    hg_rule_id rule;
    uint64_t missing;
  } cases[] = {
      {"cap_drop [ALL] on some paths", 1, HG_VAL_LIST,
       {{.kind = HG_VAL_STR, .text = "ALL", .conditional = true}}, 1, HG_RULE_UNHARDENED_SITE, CAP},
      {"mem_limit 256m or 0", 4, HG_VAL_DICT,
       {{.kind = HG_VAL_STR, .text = "256m", .splat = true, .conditional = true},
        {.kind = HG_VAL_NUM, .text = "0", .splat = true, .conditional = true}},
       2, HG_RULE_UNHARDENED_SITE, MEM},
      {"mem_limit a list of one item on some paths", 4, HG_VAL_LIST,
       {{.kind = HG_VAL_STR, .text = "1g", .conditional = true}}, 1, HG_RULE_UNHARDENED_SITE, MEM},
      {"mem_limit a spread of an unknown", 4, HG_VAL_DICT,
       {{.kind = HG_VAL_UNKNOWN, .text = "x", .origin = "a variable", .splat = true}}, 1,
       HG_RULE_UNVERIFIABLE_FLAGS, MEM},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    kw_site s;
    build_kwargs(&s, (const kw[]){KW_ALL, {0}}, false);
    hg_value *v = &s.items[cases[i].slot];
    *v = (hg_value){.kind = cases[i].kind, .text = "(...)", .key = v->key, .line = 3, .items = cases[i].items,
                    .n_items = cases[i].n};
    hg_verdict verdict;
    hg_evaluate(&verdict, e->policy, e->no_builders, &s.site, e->md);
    check_verdict(cases[i].name, &verdict, cases[i].rule, HG_VIA_NONE, cases[i].missing);
    hg_verdict_clear(&verdict);
  }
  // A spread of a known list that holds an item on every path: set.
  hg_value inner[] = {{.kind = HG_VAL_STR, .text = "1g"}};
  hg_value outer[] = {{.kind = HG_VAL_LIST, .text = "[...]", .splat = true, .items = inner, .n_items = 1}};
  kw_site s;
  build_kwargs(&s, (const kw[]){KW_ALL, {0}}, false);
  s.items[4] = (hg_value){.kind = HG_VAL_LIST, .text = "[*M]", .key = "mem_limit", .line = 3, .items = outer, .n_items = 1};
  hg_verdict verdict;
  hg_evaluate(&verdict, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("mem_limit a spread of a known list", &verdict, PASS_FLAGS);
  hg_verdict_clear(&verdict);
}

static void test_evaluate__kwargs_alternative_spellings_pass(void **state) {
  env *e = *state;
  static const kw_case cases[] = {
      {"network_disabled=True",
       {KW_NNP, KW_CAP, K_TRUE("network_disabled"), KW_RO, KW_MEM, KW_CPU, KW_PIDS},
       PASS_FLAGS},
      {"cpu_quota", {KW_NNP, KW_CAP, KW_NET, KW_RO, KW_MEM, K_NUM("cpu_quota", "50000"), KW_PIDS}, PASS_FLAGS},
      {"cap_drop with ALL among others",
       {KW_NNP, K_LIST("cap_drop", "NET_RAW", "ALL"), KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS},
       PASS_FLAGS},
      {"cap_drop as a plain string",
       {KW_NNP, K_STR("cap_drop", "ALL"), KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS},
       PASS_FLAGS},
      {"security_opt :true",
       {K_LIST("security_opt", "label=x", "no-new-privileges:true"), KW_CAP, KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS},
       PASS_FLAGS},
      {"mem_limit as a number",
       {KW_NNP, KW_CAP, KW_NET, KW_RO, K_NUM("mem_limit", "536870912"), KW_CPU, KW_PIDS},
       PASS_FLAGS},
      // A limit hardguard cannot read is no limit: the one rule (docs/value-model.md).
      {"mem_limit from a variable",
       {KW_NNP, KW_CAP, KW_NET, KW_RO, K_VAR("mem_limit", "limit"), KW_CPU, KW_PIDS},
       HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, MEM},
      {"unrelated keywords", {K_STR("image", "x"), K_TRUE("detach"), KW_ALL}, PASS_FLAGS},
  };
  RUN_KW(e, cases);
}

static void test_evaluate__kwargs_builder_spread_passes(void **state) {
  env *e = *state;
  static const kw_case cases[] = {
      {"builder alone", {SPREAD_BUILDER("hardening_kwargs()")}, HG_RULE_NONE, HG_VIA_BUILDER, 0},
      {"builder after other keywords",
       {K_TRUE("detach"), SPREAD_BUILDER("hardening_kwargs()")},
       HG_RULE_NONE,
       HG_VIA_BUILDER,
       0},
      {"builder after an unknown spread",
       {SPREAD_UNKNOWN("opts"), SPREAD_BUILDER("hardening_kwargs()")},
       HG_RULE_NONE,
       HG_VIA_BUILDER,
       0},
      {"builder with the full flag set",
       {KW_ALL, SPREAD_BUILDER("hardening_kwargs()")},
       HG_RULE_NONE,
       HG_VIA_BUILDER,
       0},
  };
  RUN_KW(e, cases);

  kw_site s;
  build_kwargs(&s, (const kw[]){SPREAD_BUILDER("hardening_kwargs()"), {0}}, false);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_string_equal(
      v.message,
      "container created through docker-py applies the hardening builder, taken at its word (`trust: true`)");
  hg_verdict_clear(&v);
}

static void test_evaluate__kwargs_builder_merged_first_is_overridden(void **state) {
  env *e = *state;
  // Inside one `**{...}` literal a later entry replaces what the builder set:
  //   client.containers.run(img, **{**hardening_kwargs(), "read_only": False})
  // fails as builder-overridable, and so does a later unknown spread. A later entry that itself
  // satisfies the requirement, and the call's own keywords (a repeated keyword is a TypeError in
  // Python), cannot weaken it.
  static const kw_case cases[] = {
      {"literal after the builder",
       {IN_DICT(.kind = HG_VAL_BUILDER, .text = "hardening_kwargs()", .splat = true),
        IN_DICT(.key = "read_only", .kind = HG_VAL_FALSE, .text = "False")},
       HG_RULE_BUILDER_OVERRIDABLE,
       HG_VIA_BUILDER,
       0},
      {"unknown spread after the builder",
       {IN_DICT(.kind = HG_VAL_BUILDER, .text = "hardening_kwargs()", .splat = true),
        IN_DICT(.kind = HG_VAL_UNKNOWN, .text = "opts", .splat = true)},
       HG_RULE_BUILDER_OVERRIDABLE,
       HG_VIA_BUILDER,
       0},
      {"hardened entry after the builder",
       {IN_DICT(.kind = HG_VAL_BUILDER, .text = "hardening_kwargs()", .splat = true),
        IN_DICT(.key = "network_mode", .kind = HG_VAL_STR, .text = "none")},
       HG_RULE_NONE,
       HG_VIA_BUILDER,
       0},
      {"unrelated entry after the builder",
       {IN_DICT(.kind = HG_VAL_BUILDER, .text = "hardening_kwargs()", .splat = true),
        IN_DICT(.key = "environment", .kind = HG_VAL_UNKNOWN, .text = "env")},
       HG_RULE_NONE,
       HG_VIA_BUILDER,
       0},
      {"builder merged last",
       {IN_DICT(.kind = HG_VAL_UNKNOWN, .text = "opts", .splat = true),
        IN_DICT(.kind = HG_VAL_BUILDER, .text = "hardening_kwargs()", .splat = true)},
       HG_RULE_NONE,
       HG_VIA_BUILDER,
       0},
      {"call keyword after a call-level builder",
       {SPREAD_BUILDER("hardening_kwargs()"), K_FALSE("read_only")},
       HG_RULE_NONE,
       HG_VIA_BUILDER,
       0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    kw_site s;
    build_kwargs(&s, cases[i].kws, false);
    hg_verdict v;
    hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
    check_verdict(cases[i].name, &v, cases[i].rule, cases[i].via, cases[i].missing);
    if (cases[i].rule == HG_RULE_BUILDER_OVERRIDABLE)
      assert_non_null(strstr(v.message, "merged after it, can replace what it sets"));
    hg_verdict_clear(&v);
  }
}

static void test_evaluate__kwargs_unknown_spread_is_unverifiable(void **state) {
  env *e = *state;
  kw_site s;
  build_kwargs(&s, (const kw[]){K_TRUE("detach"), SPREAD_UNKNOWN("self._default_kwargs"), {0}}, false);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("unknown spread", &v, HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, ALL_REQ);
  assert_string_equal(v.message,
                      "container created through docker-py takes options from `self._default_kwargs` at line 3 "
                      "(a name hardguard does not follow yet), which cannot be verified; not literally present: "
                      "no-new-privileges, cap-drop-all, network-none, read-only, memory-limit, cpu-limit, pids-limit");
  hg_verdict_clear(&v);

  // With every requirement present, the spread could still undo them: unverifiable, nothing missing.
  build_kwargs(&s, (const kw[]){KW_ALL, SPREAD_UNKNOWN("opts"), {0}}, false);
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("unknown spread with all seven", &v, HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, 0);
  assert_non_null(strstr(v.message, "`opts`"));
  assert_null(strstr(v.message, "not literally present"));
  hg_verdict_clear(&v);
}

static void test_evaluate__kwargs_value_from_a_variable_is_unverifiable(void **state) {
  env *e = *state;
  kw_site s;
  // network_mode=mode: the value-compared requirement cannot be checked.
  build_kwargs(&s, (const kw[]){KW_NNP, KW_CAP, K_VAR("network_mode", "mode"), KW_RO, KW_MEM, KW_CPU, KW_PIDS, {0}},
               false);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("network_mode variable", &v, HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, NET);
  assert_non_null(strstr(v.message, "takes options from `mode`"));
  assert_non_null(strstr(v.message, "not literally present: network-none"));
  hg_verdict_clear(&v);

  // A literal failing value of the same requirement does not hide the variable one.
  build_kwargs(&s,
               (const kw[]){KW_NNP,
                            KW_CAP,
                            K_VAR("network_mode", "mode"),
                            K_FALSE("network_disabled"),
                            KW_RO,
                            KW_MEM,
                            KW_CPU,
                            KW_PIDS,
                            {0}},
               false);
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("network_mode variable, network_disabled False", &v, HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, NET);
  hg_verdict_clear(&v);

  // An f-string (a hole in the text) is not a literal either.
  build_kwargs(
      &s,
      (const kw[]){
          K_LIST("security_opt", "no-new-privileges\x01"), KW_CAP, KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS, {0}},
      false);
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("security_opt with a hole", &v, HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, NNP);
  hg_verdict_clear(&v);
}

static void test_evaluate__builder_imported_but_not_applied(void **state) {
  env *e = *state;
  kw_site s;
  build_kwargs(&s, (const kw[]){K_TRUE("detach"), {0}}, true);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->builder, &s.site, e->md);
  check_verdict("imports builder", &v, HG_RULE_BUILDER_NOT_APPLIED, HG_VIA_NONE, ALL_REQ);
  assert_string_equal(v.message, "container created through docker-py does not apply the hardening builder this "
                                 "module imports (sandbox.container_hardening); missing: no-new-privileges, "
                                 "cap-drop-all, network-none, read-only, memory-limit, cpu-limit, pids-limit");
  hg_verdict_clear(&v);

  // Also when an unknown spread is present: the imported builder is the better advice.
  build_kwargs(&s, (const kw[]){SPREAD_UNKNOWN("opts"), {0}}, true);
  hg_evaluate(&v, e->policy, e->builder, &s.site, e->md);
  check_verdict("imports builder, unknown spread", &v, HG_RULE_BUILDER_NOT_APPLIED, HG_VIA_NONE, ALL_REQ);
  hg_verdict_clear(&v);

  // The full flag set passes even in a module that imports the builder.
  build_kwargs(&s, (const kw[]){KW_ALL, {0}}, true);
  hg_evaluate(&v, e->policy, e->builder, &s.site, e->md);
  check_verdict("imports builder, all seven", &v, PASS_FLAGS);
  hg_verdict_clear(&v);
}

static void test_evaluate__syntax_error_is_unparsable(void **state) {
  env *e = *state;
  static const hg_reads modes[] = {HG_READS_KWARGS, HG_READS_ARGV, HG_READS_SHELL, HG_READS_CLIENT};
  for (size_t i = 0; i < 4; i++) {
    kw_site s;
    build_kwargs(&s, (const kw[]){SPREAD_BUILDER("hardening_kwargs()"), {0}}, true);
    s.site.reads = modes[i];
    s.site.has_error = true;
    hg_verdict v;
    hg_evaluate(&v, e->policy, e->builder, &s.site, e->md);
    check_verdict("has_error", &v, HG_RULE_UNPARSABLE_SITE, HG_VIA_NONE, 0);
    hg_verdict_clear(&v);
  }
}

// ---- argv and shell sites ----------------------------------------------------------------------

#define MAX_WORDS 40
#define A_NNP "--security-opt", "no-new-privileges"
#define A_CAP "--cap-drop", "ALL"
#define A_NET "--network", "none"
#define A_RO "--read-only"
#define A_MEM "--memory", "512m"
#define A_CPU "--cpus", "1"
#define A_PIDS "--pids-limit", "64"
#define A_ALL A_NNP, A_CAP, A_NET, A_RO, A_MEM, A_CPU, A_PIDS

typedef struct {
  hg_value words[MAX_WORDS];
  hg_site site;
} argv_site;

static void build_argv(argv_site *s, hg_reads reads, const char *const *words) {
  memset(s, 0, sizeof(*s));
  size_t n = 0;
  for (; n < MAX_WORDS && words[n]; n++)
    s->words[n] = (hg_value){.kind = HG_VAL_STR, .text = words[n], .line = 7};
  s->site = (hg_site){.kind = "cli-run",
                      .reads = reads,
                      .line = 7,
                      .col = 9,
                      .flags = {.kind = HG_VAL_LIST, .text = "[...]", .items = s->words, .n_items = n}};
}

typedef struct {
  const char *name;
  const char *words[MAX_WORDS];
  hg_rule_id rule;
  hg_via via;
  uint64_t missing;
} argv_case;

static void run_argv_cases(env *e, hg_reads reads, const argv_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    argv_site s;
    build_argv(&s, reads, cases[i].words);
    hg_verdict v;
    hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
    check_verdict(cases[i].name, &v, cases[i].rule, cases[i].via, cases[i].missing);
    hg_verdict_clear(&v);
  }
}

#define RUN_ARGV(e, t) run_argv_cases((e), HG_READS_ARGV, (t), sizeof(t) / sizeof((t)[0]))

static void test_evaluate__argv_full_set_passes(void **state) {
  env *e = *state;
  static const argv_case cases[] = {
      {"docker run", {"docker", "run", A_ALL, "img", "cmd"}, PASS_FLAGS},
      {"docker container run", {"docker", "container", "run", A_ALL, "img"}, PASS_FLAGS},
      {"podman create", {"podman", "create", A_ALL, "img"}, PASS_FLAGS},
      {"sudo docker run", {"sudo", "docker", "run", A_ALL, "img"}, PASS_FLAGS},
      {"boolean --rm does not take a value",
       {"docker", "run", "--rm", A_RO, A_NNP, A_CAP, A_NET, A_MEM, A_CPU, A_PIDS, "img"},
       PASS_FLAGS},
      {"value flags take their value", {"docker", "run", "-e", "A=1", "--name", "box", A_ALL, "img"}, PASS_FLAGS},
      {"no image", {"docker", "run", A_ALL}, PASS_FLAGS},
  };
  RUN_ARGV(e, cases);
}

static void test_evaluate__argv_every_spelling(void **state) {
  env *e = *state;
  static const argv_case cases[] = {
      {"--memory=512m",
       {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, "--memory=512m", A_CPU, A_PIDS, "img"},
       PASS_FLAGS},
      {"-m 512m", {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, "-m", "512m", A_CPU, A_PIDS, "img"}, PASS_FLAGS},
      {"-m512m", {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, "-m512m", A_CPU, A_PIDS, "img"}, PASS_FLAGS},
      {"-m=512m", {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, "-m=512m", A_CPU, A_PIDS, "img"}, PASS_FLAGS},
      {"--net none", {"docker", "run", A_NNP, A_CAP, "--net", "none", A_RO, A_MEM, A_CPU, A_PIDS, "img"}, PASS_FLAGS},
      {"--network=none",
       {"docker", "run", A_NNP, A_CAP, "--network=none", A_RO, A_MEM, A_CPU, A_PIDS, "img"},
       PASS_FLAGS},
      {"--security-opt=no-new-privileges:true",
       {"docker", "run", "--security-opt=no-new-privileges:true", A_CAP, A_NET, A_RO, A_MEM, A_CPU, A_PIDS, "img"},
       PASS_FLAGS},
      {"--security-opt no-new-privileges=true",
       {"docker", "run", "--security-opt", "no-new-privileges=true", A_CAP, A_NET, A_RO, A_MEM, A_CPU, A_PIDS, "img"},
       PASS_FLAGS},
      {"--cap-drop=ALL",
       {"docker", "run", A_NNP, "--cap-drop=ALL", A_NET, A_RO, A_MEM, A_CPU, A_PIDS, "img"},
       PASS_FLAGS},
      {"--read-only=true",
       {"docker", "run", A_NNP, A_CAP, A_NET, "--read-only=true", A_MEM, A_CPU, A_PIDS, "img"},
       PASS_FLAGS},
      {"--cpus=0.5", {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, A_MEM, "--cpus=0.5", A_PIDS, "img"}, PASS_FLAGS},
      {"combined -it", {"docker", "run", "-it", A_ALL, "img"}, PASS_FLAGS},
      {"combined -dit", {"docker", "run", "-dit", A_ALL, "img"}, PASS_FLAGS},
      {"-itm 512m", {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, "-itm", "512m", A_CPU, A_PIDS, "img"}, PASS_FLAGS},
      {"-itm512m", {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, "-itm512m", A_CPU, A_PIDS, "img"}, PASS_FLAGS},
      {"cap-drop repeated",
       {"docker", "run", A_NNP, "--cap-drop", "NET_RAW", "--cap-drop", "ALL", A_NET, A_RO, A_MEM, A_CPU, A_PIDS, "img"},
       PASS_FLAGS},
  };
  RUN_ARGV(e, cases);
}

static void test_evaluate__argv_missing_and_wrong_values(void **state) {
  env *e = *state;
  static const argv_case cases[] = {
      {"no flags", {"docker", "run", "img"}, UNHARDENED(ALL_REQ)},
      {"only the program", {"docker"}, UNHARDENED(ALL_REQ)},
      {"--read-only=false",
       {"docker", "run", A_NNP, A_CAP, A_NET, "--read-only=false", A_MEM, A_CPU, A_PIDS, "img"},
       UNHARDENED(RO)},
      {"--network bridge",
       {"docker", "run", A_NNP, A_CAP, "--network", "bridge", A_RO, A_MEM, A_CPU, A_PIDS, "img"},
       UNHARDENED(NET)},
      {"--cap-drop NET_RAW",
       {"docker", "run", A_NNP, "--cap-drop", "NET_RAW", A_NET, A_RO, A_MEM, A_CPU, A_PIDS, "img"},
       UNHARDENED(CAP)},
      {"--security-opt=no-new-privileges:false",
       {"docker", "run", "--security-opt=no-new-privileges:false", A_CAP, A_NET, A_RO, A_MEM, A_CPU, A_PIDS, "img"},
       UNHARDENED(NNP)},
      {"--memory 0",
       {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, "--memory", "0", A_CPU, A_PIDS, "img"},
       UNHARDENED(MEM)},
      {"--memory= (empty)",
       {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, "--memory=", A_CPU, A_PIDS, "img"},
       UNHARDENED(MEM)},
      {"--memory without a value at the end",
       {"docker", "run", A_NNP, A_CAP, A_NET, A_RO, A_CPU, A_PIDS, "--memory"},
       UNHARDENED(MEM)},
      // Everything after the image is the container's command, not docker's options.
      {"cap-drop after the image",
       {"docker", "run", A_NNP, A_NET, A_RO, A_MEM, A_CPU, A_PIDS, "img", A_CAP},
       UNHARDENED(CAP)},
      {"all after the image", {"docker", "run", "img", A_ALL}, UNHARDENED(ALL_REQ)},
      {"all after --", {"docker", "run", "--", A_ALL}, UNHARDENED(ALL_REQ)},
      // A value flag swallows the next word: here --name takes "--cap-drop" and "ALL" is the image.
      {"value flag swallows a flag",
       {"docker", "run", A_NNP, A_NET, A_RO, A_MEM, A_CPU, A_PIDS, "--name", A_CAP},
       UNHARDENED(CAP)},
      {"two missing", {"docker", "run", A_NNP, A_NET, A_RO, A_MEM, A_CPU, "img"}, UNHARDENED(CAP | PIDS)},
  };
  RUN_ARGV(e, cases);
}

static void test_evaluate__argv_repeated_scalar_flag_last_wins(void **state) {
  env *e = *state;
  // Regression (found by these tests, fixed): for a repeated CLI option the best occurrence counts (record() in
  // evaluate.c), which is right for list options (--cap-drop, --security-opt accumulate) but not for scalar ones:
  // docker (pflag) keeps the last value, so `--read-only ... --read-only=false` runs with a writable root and `--memory
  // 512m ... --memory 0` without a memory limit. hg_evaluate passes both sites; expected: read-only (bit 3) and
  // memory-limit (bit 4) missing.
  static const argv_case cases[] = {
      {"--read-only then --read-only=false", {"docker", "run", A_ALL, "--read-only=false", "img"}, UNHARDENED(RO)},
      {"--memory 512m then --memory 0", {"docker", "run", A_ALL, "--memory", "0", "img"}, UNHARDENED(MEM)},
  };
  RUN_ARGV(e, cases);
}

static void test_evaluate__argv_spreads(void **state) {
  env *e = *state;
  argv_site s;
  build_argv(&s, HG_READS_ARGV, (const char *const[]){"docker", "run", "x", "img", NULL});
  // Replace "x" with a builder spread: *hardening_argv()
  s.words[2] = (hg_value){.kind = HG_VAL_BUILDER, .text = "hardening_argv()", .splat = true, .line = 7};
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("argv builder spread", &v, HG_RULE_NONE, HG_VIA_BUILDER, 0);
  assert_string_equal(v.message,
                      "container command line applies the hardening builder, taken at its word (`trust: true`)");
  hg_verdict_clear(&v);

  s.words[2] = (hg_value){.kind = HG_VAL_UNKNOWN,
                          .text = "extra_flags",
                          .origin = "a name hardguard does not "
                                    "follow yet",
                          .splat = true,
                          .line = 8};
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("argv unknown spread", &v, HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, ALL_REQ);
  assert_non_null(strstr(v.message, "container command line takes options from `extra_flags` at line 8 (a name "
                                    "hardguard does not follow yet)"));
  hg_verdict_clear(&v);

  // A flag value with an interpolation hole cannot be verified.
  build_argv(&s, HG_READS_ARGV,
             (const char *const[]){"docker", "run", A_NNP, A_CAP, "--network", "\x01", A_RO, A_MEM, A_CPU, A_PIDS,
                                   "img", NULL});
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  check_verdict("argv network hole", &v, HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, NET);
  hg_verdict_clear(&v);
}

static void test_evaluate__shell_reads_like_argv(void **state) {
  env *e = *state;
  static const argv_case cases[] = {
      {"shell full", {"docker", "run", A_ALL, "img"}, PASS_FLAGS},
      {"shell short flags",
       {"docker", "run", "-d", A_NNP, A_CAP, "--net=none", A_RO, "-m", "1g", A_CPU, A_PIDS, "img"},
       PASS_FLAGS},
      {"shell missing", {"docker", "run", "--rm", "img"}, UNHARDENED(ALL_REQ)},
  };
  run_argv_cases(e, HG_READS_SHELL, cases, sizeof(cases) / sizeof(cases[0]));
}

// ---- fix hints -----------------------------------------------------------------------------------

static void test_evaluate__fix_hints(void **state) {
  env *e = *state;
  hg_verdict v;

  kw_site k;
  build_kwargs(&k, (const kw[]){KW_NNP, KW_NET, KW_RO, KW_MEM, KW_CPU, KW_PIDS, {0}}, false);
  hg_evaluate(&v, e->policy, e->no_builders, &k.site, e->md);
  assert_string_equal(v.fix, "add cap_drop=[\"ALL\"]");
  assert_string_equal(v.message,
                      "container created through docker-py without the hardening builder or the full flag set; "
                      "missing: cap-drop-all");
  hg_verdict_clear(&v);

  // With a builder configured, the builder comes first.
  build_kwargs(&k, (const kw[]){KW_NNP, KW_NET, KW_RO, KW_MEM, KW_CPU, {0}}, false);
  hg_evaluate(&v, e->policy, e->builder, &k.site, e->md);
  assert_string_equal(v.fix, "apply `**hardening_kwargs()` from sandbox.container_hardening, merged last; "
                             "or add cap_drop=[\"ALL\"], pids_limit=64");
  hg_verdict_clear(&v);

  // An unknown spread with nothing missing: the builder alone.
  build_kwargs(&k, (const kw[]){KW_ALL, SPREAD_UNKNOWN("opts"), {0}}, false);
  hg_evaluate(&v, e->policy, e->builder, &k.site, e->md);
  assert_string_equal(v.fix, "apply `**hardening_kwargs()` from sandbox.container_hardening, merged last");
  hg_verdict_clear(&v);

  // argv: list items; shell: the flag text.
  argv_site a;
  build_argv(&a, HG_READS_ARGV, (const char *const[]){"docker", "run", A_NNP, A_NET, A_RO, A_MEM, A_CPU, A_PIDS, NULL});
  hg_evaluate(&v, e->policy, e->no_builders, &a.site, e->md);
  assert_string_equal(v.fix, "add \"--cap-drop\", \"ALL\"");
  assert_string_equal(v.message, "container command line without the hardening builder or the full flag set; "
                                 "missing: cap-drop-all");
  hg_verdict_clear(&v);

  build_argv(&a, HG_READS_ARGV, (const char *const[]){"docker", "run", "img", NULL});
  hg_evaluate(&v, e->policy, e->no_builders, &a.site, e->md);
  assert_string_equal(v.fix, "add \"--security-opt\", \"no-new-privileges\", \"--cap-drop\", \"ALL\", \"--network\", "
                             "\"none\", \"--read-only\", \"--memory\", \"512m\", \"--cpus\", \"1\", \"--pids-limit\", "
                             "\"64\"");
  hg_verdict_clear(&v);

  build_argv(&a, HG_READS_SHELL,
             (const char *const[]){"docker", "run", A_NNP, A_NET, A_RO, A_MEM, A_CPU, A_PIDS, NULL});
  hg_evaluate(&v, e->policy, e->no_builders, &a.site, e->md);
  assert_string_equal(v.fix, "add --cap-drop ALL");
  assert_string_equal(v.message, "container shell command without the hardening builder or the full flag set; "
                                 "missing: cap-drop-all");
  hg_verdict_clear(&v);
}

// ---- client sites ------------------------------------------------------------------------------

static void test_evaluate__client_sites(void **state) {
  env *e = *state;
  hg_site site = {.kind = "client", .reads = HG_READS_CLIENT, .line = 2, .col = 5};
  hg_verdict v;

  hg_evaluate(&v, e->policy, e->no_builders, &site, e->md);
  check_verdict("client, no builder configured", &v, HG_RULE_CLIENT_WITHOUT_BUILDER, HG_VIA_NONE, 0);
  assert_string_equal(v.message, "Docker client opened, and no hardening builder is configured");
  hg_verdict_clear(&v);

  hg_evaluate(&v, e->policy, e->builder, &site, e->md);
  check_verdict("client, builder not imported", &v, HG_RULE_CLIENT_WITHOUT_BUILDER, HG_VIA_NONE, 0);
  assert_string_equal(v.message, "Docker client opened in a module that does not import the hardening builder "
                                 "(sandbox.container_hardening)");
  assert_string_equal(v.fix, "import the builder from sandbox.container_hardening here and apply it at every "
                             "container site");
  hg_verdict_clear(&v);

  site.imports_builder = true;
  hg_evaluate(&v, e->policy, e->builder, &site, e->md);
  check_verdict("client, builder imported", &v, HG_RULE_NONE, HG_VIA_BUILDER, 0);
  hg_verdict_clear(&v);
}

// What an allow[...] marker names is relaxed only where the site fails and misses it; the verdict
// says which requirements it relaxed (check.c marks those markers used), and the effective list
// shows them as allowed.
static void test_evaluate__allowable_relaxes_only_what_is_missing(void **state) {
  env *e = *state;
  kw_site s;
  hg_verdict v;
  build_kwargs(&s, (const kw[]){KW_NNP, KW_CAP, K_STR("network_mode", "bridge"), KW_RO, KW_MEM, KW_CPU, KW_PIDS, {0}},
               false);
  s.site.allowable = NET | MEM; // MEM is there already: nothing to relax
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_NONE);
  assert_int_equal(v.relaxed, NET);
  assert_int_equal(v.missing, 0);
  assert_string_equal(hg_effect_names[v.effective[2].status], "allowed");
  assert_string_equal(hg_effect_names[v.effective[4].status], "satisfied");
  hg_verdict_clear(&v);
  // A passing site relaxes nothing, so its marker is left unused.
  build_kwargs(&s, (const kw[]){KW_ALL, {0}}, false);
  s.site.allowable = NET;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_NONE);
  assert_int_equal(v.relaxed, 0);
  hg_verdict_clear(&v);
  // Relaxing one of two missing requirements leaves the other failing.
  build_kwargs(&s, (const kw[]){KW_NNP, KW_CAP, KW_RO, KW_MEM, KW_CPU, {0}}, false);
  s.site.allowable = NET;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_UNHARDENED_SITE);
  assert_int_equal(v.relaxed, NET);
  assert_int_equal(v.missing, PIDS);
  hg_verdict_clear(&v);
}

// ---- compose services (hand-built; tests/unit/test_compose.c reads them from YAML) -------------

#define C_STR(k, t, l)                                                                                                 \
  { .key = (k), .kind = HG_VAL_STR, .text = (t), .line = (l) }

static void test_evaluate__compose_service(void **state) {
  env *e = *state;
  hg_value nnp[] = {{.kind = HG_VAL_STR, .text = "no-new-privileges:true", .line = 3}};
  hg_value all[] = {{.kind = HG_VAL_STR, .text = "all", .line = 4}};
  hg_value limits[] = {C_STR("memory", "512m", 9), C_STR("cpus", "0.5", 10)};
  hg_value resources[] = {{.key = "limits", .kind = HG_VAL_DICT, .line = 8, .items = limits, .n_items = 2}};
  hg_value deploy[] = {{.key = "resources", .kind = HG_VAL_DICT, .line = 7, .items = resources, .n_items = 1}};
  hg_value items[] = {
      {.key = "security_opt", .kind = HG_VAL_LIST, .line = 2, .items = nnp, .n_items = 1},
      {.key = "cap_drop", .kind = HG_VAL_LIST, .line = 4, .items = all, .n_items = 1},
      C_STR("network_mode", "none", 5),
      C_STR("read_only", "true", 6),
      {.key = "deploy", .kind = HG_VAL_DICT, .line = 6, .items = deploy, .n_items = 1},
      C_STR("pids_limit", "64", 11),
      C_STR("privileged", "true", 12),
  };
  hg_site site = {.kind = "compose-service", .reads = HG_READS_COMPOSE, .line = 1, .col = 3,
                  .flags = {.kind = HG_VAL_DICT, .items = items, .n_items = 6}};
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &site, e->md);
  check_verdict("hardened service", &v, PASS_FLAGS);
  assert_string_equal(v.message, "compose service passes every hardening requirement literally");
  // What reached it, as YAML under the policy's (dotted) names.
  assert_string_equal(v.effective[4].value, "deploy.resources.limits.memory: 512m");
  assert_int_equal(v.effective[4].line, 9);
  assert_string_equal(v.effective[0].value, "security_opt: [\"no-new-privileges:true\"]");
  hg_verdict_clear(&v);

  // Without pids_limit, and privileged: YAML in the message and in both fixes.
  items[5] = items[6];
  hg_evaluate(&v, e->policy, e->no_builders, &site, e->md);
  check_verdict("privileged service", &v, HG_RULE_WEAKENING_OPTION, HG_VIA_NONE, PIDS);
  assert_string_equal(v.message, "compose service undoes hardening: `privileged: true` (line 12) runs the container "
                                 "privileged, with every capability and every host device; also unhardened-site: "
                                 "compose service without the full flag set; missing: pids-limit");
  assert_string_equal(v.fix, "remove `privileged: true`; add `pids_limit: 64`");
  hg_verdict_clear(&v);
}

// An unknown value under a name of the mapping (a compose service's `deploy:` hardguard could not
// read) can hold only what lies below it: the limits spelled there (deploy.resources.limits) are
// unverifiable, and what it cannot hold (read_only) is plainly missing. Read as a spread that
// could hold anything, the site was unverifiable, read-only included.
static void test_evaluate__unknown_under_a_name_holds_only_what_lies_below(void **state) {
  env *e = *state;
  hg_value nnp[] = {{.kind = HG_VAL_STR, .text = "no-new-privileges:true", .line = 3}};
  hg_value all[] = {{.kind = HG_VAL_STR, .text = "all", .line = 4}};
  hg_value items[] = {
      {.key = "security_opt", .kind = HG_VAL_LIST, .line = 2, .items = nnp, .n_items = 1},
      {.key = "cap_drop", .kind = HG_VAL_LIST, .line = 4, .items = all, .n_items = 1},
      C_STR("network_mode", "none", 5),
      {.key = "deploy", .kind = HG_VAL_UNKNOWN, .text = "deploy", .origin = "a value read from elsewhere", .line = 6},
      C_STR("pids_limit", "64", 7),
      C_STR("read_only", "true", 8),
  };
  hg_site site = {.kind = "compose-service", .reads = HG_READS_COMPOSE, .line = 1, .col = 3,
                  .flags = {.kind = HG_VAL_DICT, .items = items, .n_items = 5}};
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &site, e->md);
  check_verdict("read_only missing beside an unknown deploy", &v, UNHARDENED(RO | MEM | CPU));
  assert_non_null(strstr(v.message, "missing: read-only; cannot be verified: memory-limit"));
  hg_verdict_clear(&v);

  site.flags.n_items = 6; // with read_only: only the limits below `deploy` are left unverified
  hg_evaluate(&v, e->policy, e->no_builders, &site, e->md);
  check_verdict("limits unverifiable under an unknown deploy", &v, HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, MEM | CPU);
  hg_verdict_clear(&v);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_evaluate__policy_order),
      cmocka_unit_test(test_evaluate__kwargs_all_seven_pass_via_flags),
      cmocka_unit_test(test_evaluate__kwargs_missing_and_wrong_values),
      cmocka_unit_test(test_evaluate__items_on_some_paths_never_count),
      cmocka_unit_test(test_evaluate__allowable_relaxes_only_what_is_missing),
      cmocka_unit_test(test_evaluate__kwargs_alternative_spellings_pass),
      cmocka_unit_test(test_evaluate__kwargs_builder_spread_passes),
      cmocka_unit_test(test_evaluate__kwargs_builder_merged_first_is_overridden),
      cmocka_unit_test(test_evaluate__kwargs_unknown_spread_is_unverifiable),
      cmocka_unit_test(test_evaluate__kwargs_value_from_a_variable_is_unverifiable),
      cmocka_unit_test(test_evaluate__builder_imported_but_not_applied),
      cmocka_unit_test(test_evaluate__syntax_error_is_unparsable),
      cmocka_unit_test(test_evaluate__argv_full_set_passes),
      cmocka_unit_test(test_evaluate__argv_every_spelling),
      cmocka_unit_test(test_evaluate__argv_missing_and_wrong_values),
      cmocka_unit_test(test_evaluate__argv_repeated_scalar_flag_last_wins),
      cmocka_unit_test(test_evaluate__argv_spreads),
      cmocka_unit_test(test_evaluate__shell_reads_like_argv),
      cmocka_unit_test(test_evaluate__fix_hints),
      cmocka_unit_test(test_evaluate__client_sites),
      cmocka_unit_test(test_evaluate__compose_service),
      cmocka_unit_test(test_evaluate__unknown_under_a_name_holds_only_what_lies_below),
  };
  return cmocka_run_group_tests_name("evaluate", tests, setup_env, teardown_env);
}
