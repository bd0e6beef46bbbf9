// Unit tests for the weakening-option rule of evaluate.c: every `forbid:` entry of
// rules/policy.yml, as a docker-py keyword and as a CLI flag, on hand-built hg_sites. A forbidden
// option fails the site whatever else it carries; what else fails stays in `also` and in the
// message; a forbidden option set on some paths only still counts, while a requirement set on
// some paths only never counts.
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

#define BIT(r) (UINT32_C(1) << (r))

// ---- group fixture: the real policy ------------------------------------------------------------

typedef struct {
  hg_policy *policy;
  hg_config *no_builders;
  pcre2_match_data *md;
} env;

static int setup_env(void **state) {
  hg_policy *policy = hg_test_policy();
  if (!policy) return -1;
  env *e = calloc(1, sizeof(*e));
  e->policy = policy;
  e->no_builders = hg_config_empty(".");
  e->md = pcre2_match_data_create(16, NULL);
  *state = e;
  return 0;
}

static int teardown_env(void **state) {
  env *e = *state;
  pcre2_match_data_free(e->md);
  hg_config_free(e->no_builders);
  hg_policy_free(e->policy);
  free(e);
  return 0;
}

static void test_weakening__policy_forbids(void **state) {
  env *e = *state;
  // The cases below cover exactly these entries, in this order (which is the message order).
  static const char *const ids[] = {"privileged", "cap-add",     "host-network", "host-pid",
                                    "host-ipc",   "host-userns", "host-uts",     "host-cgroup",
                                    "unconfined", "devices",     "docker-socket"};
  assert_int_equal(e->policy->n_forbid, sizeof(ids) / sizeof(ids[0]));
  for (size_t i = 0; i < e->policy->n_forbid; i++) assert_string_equal(e->policy->forbid[i].id, ids[i]);
  assert_int_equal(e->policy->n_req, 7);
}

// ---- values ------------------------------------------------------------------------------------

// The forbidden option stands on line 4; everything else on line 3.
#define WLINE 4

static hg_value str_at(const char *t, uint32_t line) { return (hg_value){.kind = HG_VAL_STR, .text = t, .line = line}; }

#define STR(t) ((hg_value){.kind = HG_VAL_STR, .text = (t), .line = WLINE})
#define NUM(t) ((hg_value){.kind = HG_VAL_NUM, .text = (t), .line = WLINE})
#define TRUE_ ((hg_value){.kind = HG_VAL_TRUE, .text = "True", .line = WLINE})
#define FALSE_ ((hg_value){.kind = HG_VAL_FALSE, .text = "False", .line = WLINE})
#define UNKNOWN(t) ((hg_value){.kind = HG_VAL_UNKNOWN, .text = (t), .origin = "a call", .line = WLINE})
// A list or dict literal; `text` is how it was written.
#define LIST(t, ...)                                                                                   \
  ((hg_value){.kind = HG_VAL_LIST, .text = (t), .line = WLINE, .items = (hg_value[]){__VA_ARGS__},     \
              .n_items = sizeof((hg_value[]){__VA_ARGS__}) / sizeof(hg_value)})
#define EMPTY_LIST ((hg_value){.kind = HG_VAL_LIST, .text = "[]", .line = WLINE})
#define DICT(t, ...)                                                                                   \
  ((hg_value){.kind = HG_VAL_DICT, .text = (t), .line = WLINE, .items = (hg_value[]){__VA_ARGS__},     \
              .n_items = sizeof((hg_value[]){__VA_ARGS__}) / sizeof(hg_value)})

static hg_value keyed(const char *key, hg_value v) {
  v.key = key;
  return v;
}

// ---- keyword sites -----------------------------------------------------------------------------

#define MAX_KW 16

typedef struct {
  hg_value items[MAX_KW];
  hg_site site;
} kw_site;

// The seven requirements, network-none spelled network_disabled=True so that a case may set
// network_mode; with `hardened` false the site carries nothing but `extra`.
static void build_kwargs(kw_site *s, bool hardened, const hg_value *extra, size_t n_extra) {
  memset(s, 0, sizeof(*s));
  size_t n = 0;
  if (hardened) {
    static hg_value nnp[] = {{.kind = HG_VAL_STR, .text = "no-new-privileges", .line = 3}};
    static hg_value all[] = {{.kind = HG_VAL_STR, .text = "ALL", .line = 3}};
    s->items[n++] = (hg_value){.kind = HG_VAL_LIST, .key = "security_opt", .text = "[\"no-new-privileges\"]",
                               .line = 3, .items = nnp, .n_items = 1};
    s->items[n++] = (hg_value){.kind = HG_VAL_LIST, .key = "cap_drop", .text = "[\"ALL\"]", .line = 3, .items = all,
                               .n_items = 1};
    s->items[n++] = (hg_value){.kind = HG_VAL_TRUE, .key = "network_disabled", .text = "True", .line = 3};
    s->items[n++] = (hg_value){.kind = HG_VAL_TRUE, .key = "read_only", .text = "True", .line = 3};
    s->items[n++] = (hg_value){.kind = HG_VAL_STR, .key = "mem_limit", .text = "512m", .line = 3};
    s->items[n++] = (hg_value){.kind = HG_VAL_NUM, .key = "nano_cpus", .text = "1000000000", .line = 3};
    s->items[n++] = (hg_value){.kind = HG_VAL_NUM, .key = "pids_limit", .text = "64", .line = 3};
  }
  assert_true(n + n_extra <= MAX_KW);
  for (size_t i = 0; i < n_extra; i++) s->items[n++] = extra[i];
  s->site = (hg_site){.kind = "sdk-run", .reads = HG_READS_KWARGS, .line = 3, .col = 5,
                      .flags = {.kind = HG_VAL_DICT, .text = "(...)", .items = s->items, .n_items = n}};
}

static void print_verdict(const char *name, const hg_verdict *v) {
  print_error("case '%s': rule %d also 0x%x via %d missing 0x%llx\n  message: %s\n  fix: %s\n", name, v->rule,
              v->also, v->via, (unsigned long long)v->missing, v->message ? v->message : "(null)",
              v->fix ? v->fix : "(null)");
}

typedef struct {
  const char *name;
  hg_value kw;          // the keyword (key set), added to the site
  const char *hit;      // NULL: not forbidden; else the message after "undoes hardening: "
  const char *fix;      // the fix for the forbidden option: "remove `name`"
  uint64_t also_needs;  // requirements the keyword itself leaves missing at a hardened site
} kw_case;

#define KW_SUBJECT "container created through docker-py undoes hardening: "
#define SOCKET_MSG "mounts the Docker socket (control of the host's Docker) or the host's root into the container"

// Judges each case twice: added to the full hardened set, and alone.
static void run_kw_cases(env *e, const kw_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const kw_case *c = &cases[i];
    kw_site s;
    hg_verdict v;
    hg_buf want = {0};

    // With every requirement: weakening-option alone (or a pass when the option is harmless).
    build_kwargs(&s, true, &c->kw, 1);
    hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
    if (!c->hit) {
      if (v.rule != HG_RULE_NONE) print_verdict(c->name, &v);
      assert_int_equal(v.rule, HG_RULE_NONE);
      assert_int_equal(v.also, 0);
      assert_int_equal(v.via, HG_VIA_FLAGS);
      assert_int_equal(v.missing, 0);
      assert_null(v.fix);
      hg_verdict_clear(&v);
      continue;
    }
    hg_buf_printf(&want, KW_SUBJECT "%s", c->hit);
    uint32_t also = c->also_needs ? BIT(HG_RULE_UNHARDENED_SITE) : 0;
    if (v.rule != HG_RULE_WEAKENING_OPTION || v.also != also || v.missing != c->also_needs ||
        strncmp(v.message, want.data, want.len) != 0)
      print_verdict(c->name, &v);
    assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
    assert_int_equal(v.also, also);
    assert_int_equal(v.via, c->also_needs ? HG_VIA_NONE : HG_VIA_FLAGS);
    assert_int_equal(v.missing, c->also_needs);
    if (!c->also_needs) {
      assert_string_equal(v.message, want.data);
      assert_string_equal(v.fix, c->fix);
    } else {
      assert_int_equal(strncmp(v.message, want.data, want.len), 0);
      assert_non_null(strstr(v.message, "; also unhardened-site: "));
    }
    hg_verdict_clear(&v);

    // Alone: weakening-option first, unhardened-site in `also` and in the message.
    build_kwargs(&s, false, &c->kw, 1);
    hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
    if (v.rule != HG_RULE_WEAKENING_OPTION || v.also != BIT(HG_RULE_UNHARDENED_SITE)) print_verdict(c->name, &v);
    assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
    assert_int_equal(v.also, BIT(HG_RULE_UNHARDENED_SITE));
    assert_int_equal(v.via, HG_VIA_NONE);
    assert_int_equal(v.missing & c->also_needs, c->also_needs);
    hg_buf_printf(&want, "; also unhardened-site: container created through docker-py without the hardening "
                         "builder or the full flag set; missing: ");
    assert_int_equal(strncmp(v.message, want.data, want.len), 0);
    assert_int_equal(strncmp(v.fix, c->fix, strlen(c->fix)), 0);
    assert_non_null(strstr(v.fix, "; add "));
    hg_verdict_clear(&v);
    hg_buf_free(&want);
  }
}

#define RUN_KW(e, t) run_kw_cases((e), (t), sizeof(t) / sizeof((t)[0]))

static void test_weakening__privileged_and_cap_add_keywords(void **state) {
  const kw_case cases[] = {
      {"privileged=True", keyed("privileged", TRUE_),
       "`privileged=True` (line 4) runs the container privileged, with every capability and every host device",
       "remove `privileged`", 0},
      {"privileged=False", keyed("privileged", FALSE_), NULL, NULL, 0},
      {"cap_add=[\"NET_ADMIN\"]", keyed("cap_add", LIST("[\"NET_ADMIN\"]", STR("NET_ADMIN"))),
       "`cap_add=[\"NET_ADMIN\"]` (line 4) adds Linux capabilities back after they were dropped", "remove `cap_add`",
       0},
      {"cap_add=\"SYS_ADMIN\"", keyed("cap_add", STR("SYS_ADMIN")),
       "`cap_add=\"SYS_ADMIN\"` (line 4) adds Linux capabilities back after they were dropped", "remove `cap_add`", 0},
      {"cap_add=[]", keyed("cap_add", EMPTY_LIST), NULL, NULL, 0},
      {"cap_add=None", keyed("cap_add", ((hg_value){.kind = HG_VAL_NONE, .text = "None", .line = WLINE})), NULL, NULL,
       0},
  };
  RUN_KW(*state, cases);
}

static void test_weakening__namespace_keywords(void **state) {
  const kw_case cases[] = {
      {"network_mode=\"host\"", keyed("network_mode", STR("host")),
       "`network_mode=\"host\"` (line 4) shares the host's (or another container's) network namespace",
       "remove `network_mode`", 0},
      {"network_mode=\"container:x\"", keyed("network_mode", STR("container:x")),
       "`network_mode=\"container:x\"` (line 4) shares the host's (or another container's) network namespace",
       "remove `network_mode`", 0},
      {"network_mode=\"bridge\"", keyed("network_mode", STR("bridge")), NULL, NULL, 0},
      {"pid_mode=\"host\"", keyed("pid_mode", STR("host")),
       "`pid_mode=\"host\"` (line 4) shares the host's process namespace", "remove `pid_mode`", 0},
      {"pid_mode=\"container:x\"", keyed("pid_mode", STR("container:x")), NULL, NULL, 0},
      {"ipc_mode=\"host\"", keyed("ipc_mode", STR("host")),
       "`ipc_mode=\"host\"` (line 4) shares the host's IPC namespace", "remove `ipc_mode`", 0},
      {"ipc_mode=\"private\"", keyed("ipc_mode", STR("private")), NULL, NULL, 0},
      {"userns_mode=\"host\"", keyed("userns_mode", STR("host")),
       "`userns_mode=\"host\"` (line 4) turns off user-namespace remapping", "remove `userns_mode`", 0},
      {"uts_mode=\"host\"", keyed("uts_mode", STR("host")),
       "`uts_mode=\"host\"` (line 4) shares the host's UTS namespace (its hostname and domain name)",
       "remove `uts_mode`", 0},
      {"cgroupns=\"host\"", keyed("cgroupns", STR("host")),
       "`cgroupns=\"host\"` (line 4) shares the host's cgroup namespace", "remove `cgroupns`", 0},
      {"cgroupns=\"private\"", keyed("cgroupns", STR("private")), NULL, NULL, 0},
  };
  RUN_KW(*state, cases);
}

static void test_weakening__security_opt_and_devices_keywords(void **state) {
  // security_opt keeps no-new-privileges in each list: only the confinement is undone.
  const kw_case cases[] = {
      {"seccomp=unconfined",
       keyed("security_opt", LIST("[\"no-new-privileges\", \"seccomp=unconfined\"]", STR("no-new-privileges"),
                                  STR("seccomp=unconfined"))),
       "`security_opt=[\"no-new-privileges\", \"seccomp=unconfined\"]` (line 4) turns off seccomp, AppArmor or SELinux "
       "confinement",
       "remove `security_opt`", 0},
      {"apparmor:unconfined",
       keyed("security_opt", LIST("[\"apparmor:unconfined\", \"no-new-privileges\"]", STR("apparmor:unconfined"),
                                  STR("no-new-privileges"))),
       "`security_opt=[\"apparmor:unconfined\", \"no-new-privileges\"]` (line 4) turns off seccomp, AppArmor or "
       "SELinux confinement",
       "remove `security_opt`", 0},
      {"label=disable",
       keyed("security_opt", LIST("[\"no-new-privileges\", \"label=disable\"]", STR("no-new-privileges"),
                                  STR("label=disable"))),
       "`security_opt=[\"no-new-privileges\", \"label=disable\"]` (line 4) turns off seccomp, AppArmor or SELinux "
       "confinement",
       "remove `security_opt`", 0},
      // Without no-new-privileges the same list also misses a requirement.
      {"seccomp=unconfined alone", keyed("security_opt", LIST("[\"seccomp=unconfined\"]", STR("seccomp=unconfined"))),
       "`security_opt=[\"seccomp=unconfined\"]` (line 4) turns off seccomp, AppArmor or SELinux confinement",
       "remove `security_opt`", NNP},
      {"a seccomp profile",
       keyed("security_opt", LIST("[\"no-new-privileges\", \"seccomp=/p.json\"]", STR("no-new-privileges"),
                                  STR("seccomp=/p.json"))),
       NULL, NULL, 0},
      {"devices", keyed("devices", LIST("[\"/dev/fuse:/dev/fuse:rwm\"]", STR("/dev/fuse:/dev/fuse:rwm"))),
       "`devices=[\"/dev/fuse:/dev/fuse:rwm\"]` (line 4) passes host devices into the container", "remove `devices`",
       0},
      {"devices=[]", keyed("devices", EMPTY_LIST), NULL, NULL, 0},
  };
  RUN_KW(*state, cases);
}

static void test_weakening__volume_keywords(void **state) {
  const kw_case cases[] = {
      {"volumes list with the docker socket",
       keyed("volumes", LIST("[\"/var/run/docker.sock:/var/run/docker.sock\"]",
                             STR("/var/run/docker.sock:/var/run/docker.sock"))),
       "`volumes=[\"/var/run/docker.sock:/var/run/docker.sock\"]` (line 4) " SOCKET_MSG, "remove `volumes`", 0},
      {"volumes list with /run/docker.sock among others",
       keyed("volumes", LIST("[...]", STR("/srv/data:/data:ro"), STR("/run/docker.sock:/s"))),
       "`volumes=[...]` (line 4) " SOCKET_MSG, "remove `volumes`", 0},
      {"volumes list with the host root", keyed("volumes", LIST("[\"/:/host\"]", STR("/:/host"))),
       "`volumes=[\"/:/host\"]` (line 4) " SOCKET_MSG, "remove `volumes`", 0},
      {"volumes dict keyed by the socket",
       keyed("volumes", DICT("{\"/var/run/docker.sock\": {...}}",
                             keyed("/var/run/docker.sock",
                                   DICT("{...}", keyed("bind", STR("/s")), keyed("mode", STR("rw")))))),
       "`volumes={\"/var/run/docker.sock\": {...}}` (line 4) " SOCKET_MSG, "remove `volumes`", 0},
      {"binds", keyed("binds", LIST("[\"/var/run/docker.sock:/s:rw\"]", STR("/var/run/docker.sock:/s:rw"))),
       "`binds=[\"/var/run/docker.sock:/s:rw\"]` (line 4) " SOCKET_MSG, "remove `binds`", 0},
      // A value hardguard cannot follow is judged by its source text.
      {"mounts from a call that mentions the socket",
       keyed("mounts", UNKNOWN("socket_mounts(\"/var/run/docker.sock\")")),
       "`mounts=socket_mounts(\"/var/run/docker.sock\")` (line 4) " SOCKET_MSG, "remove `mounts`", 0},
      {"mounts list of Mount(...) calls",
       keyed("mounts", LIST("[Mount(...)]", UNKNOWN("Mount(target=\"/s\", source=\"/var/run/docker.sock\")"))),
       "`mounts=[Mount(...)]` (line 4) " SOCKET_MSG, "remove `mounts`", 0},
      {"mounts of the host root", keyed("mounts", LIST("[Mount(...)]", UNKNOWN("Mount(\"/host\", \"/\")"))),
       "`mounts=[Mount(...)]` (line 4) " SOCKET_MSG, "remove `mounts`", 0},
      // Harmless volumes and mounts.
      {"volumes with a data directory", keyed("volumes", LIST("[\"/srv/data:/data\"]", STR("/srv/data:/data"))), NULL,
       NULL, 0},
      {"volumes with a lookalike socket path",
       keyed("volumes", LIST("[\"/var/run/docker.sock.bak:/b\"]", STR("/var/run/docker.sock.bak:/b"))), NULL, NULL, 0},
      // (mounts from a call hardguard cannot follow could mount the socket: unverifiable, test_worlds.c
      // and docs/value-model.md)
  };
  RUN_KW(*state, cases);
}

static void test_weakening__several_options_in_policy_order(void **state) {
  env *e = *state;
  // Given in reverse order, reported in the order of `forbid:`.
  const hg_value extra[] = {keyed("devices", LIST("[\"/dev/kvm\"]", STR("/dev/kvm"))), keyed("privileged", TRUE_)};
  kw_site s;
  build_kwargs(&s, true, extra, 2);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
  assert_int_equal(v.also, 0);
  assert_string_equal(v.message, KW_SUBJECT "`privileged=True` (line 4) runs the container privileged, with every "
                                            "capability and every host device; `devices=[\"/dev/kvm\"]` (line 4) "
                                            "passes host devices into the container");
  assert_string_equal(v.fix, "remove `privileged`, `devices`");
  hg_verdict_clear(&v);
}

static void test_weakening__builder_does_not_excuse_it(void **state) {
  env *e = *state;
  const hg_value extra[] = {{.kind = HG_VAL_BUILDER, .text = "hardening_kwargs()", .splat = true, .line = 3},
                            keyed("privileged", TRUE_)};
  kw_site s;
  build_kwargs(&s, false, extra, 2);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
  assert_int_equal(v.also, 0);
  assert_int_equal(v.via, HG_VIA_BUILDER);
  assert_int_equal(v.missing, 0);
  assert_string_equal(v.message, KW_SUBJECT "`privileged=True` (line 4) runs the container privileged, with every "
                                            "capability and every host device");
  hg_verdict_clear(&v);
}

static void test_weakening__later_keyword_takes_it_back(void **state) {
  env *e = *state;
  // `{**{"privileged": True}, "privileged": False}`: the last value of a key counts.
  hg_value on = keyed("privileged", TRUE_), off = keyed("privileged", FALSE_);
  on.group = off.group = 1;
  const hg_value extra[] = {on, off};
  kw_site s;
  build_kwargs(&s, true, extra, 2);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_NONE);
  assert_int_equal(v.via, HG_VIA_FLAGS);
  hg_verdict_clear(&v);
}

// ---- argv sites ------------------------------------------------------------------------------------

#define MAX_WORDS 40

typedef struct {
  hg_value words[MAX_WORDS];
  hg_site site;
} argv_site;

// "docker run", the full flag set when `hardened` (on line 3), then `extra` (on line 4), then "img".
static void build_argv(argv_site *s, bool hardened, const char *const *extra) {
  static const char *const full[] = {"--security-opt", "no-new-privileges", "--cap-drop", "ALL", "--network", "none",
                                     "--read-only", "--memory", "512m", "--cpus", "1", "--pids-limit", "64", NULL};
  memset(s, 0, sizeof(*s));
  size_t n = 0;
  s->words[n++] = str_at("docker", 3);
  s->words[n++] = str_at("run", 3);
  for (size_t i = 0; hardened && full[i]; i++) s->words[n++] = str_at(full[i], 3);
  for (size_t i = 0; extra[i]; i++) {
    assert_true(n < MAX_WORDS - 1);
    s->words[n++] = str_at(extra[i], WLINE);
  }
  s->words[n++] = str_at("img", 3);
  s->site = (hg_site){.kind = "cli-run", .reads = HG_READS_ARGV, .line = 3, .col = 11,
                      .flags = {.kind = HG_VAL_LIST, .text = "[...]", .items = s->words, .n_items = n}};
}

typedef struct {
  const char *name;
  const char *words[6];  // the option words, NULL-terminated
  const char *hit;       // NULL: not forbidden; else the message after "undoes hardening: "
  const char *fix;
  uint64_t also_needs;  // requirements the words themselves leave missing at a hardened site
} argv_case;

#define ARGV_SUBJECT "container command line undoes hardening: "

static void run_argv_cases(env *e, const argv_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const argv_case *c = &cases[i];
    argv_site s;
    hg_verdict v;
    hg_buf want = {0};

    build_argv(&s, true, c->words);
    hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
    if (!c->hit) {
      if (v.rule != HG_RULE_NONE) print_verdict(c->name, &v);
      assert_int_equal(v.rule, HG_RULE_NONE);
      assert_int_equal(v.missing, 0);
      hg_verdict_clear(&v);
      continue;
    }
    hg_buf_printf(&want, ARGV_SUBJECT "%s", c->hit);
    uint32_t also = c->also_needs ? BIT(HG_RULE_UNHARDENED_SITE) : 0;
    if (v.rule != HG_RULE_WEAKENING_OPTION || v.also != also || v.missing != c->also_needs ||
        strncmp(v.message, want.data, want.len) != 0)
      print_verdict(c->name, &v);
    assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
    assert_int_equal(v.also, also);
    assert_int_equal(v.missing, c->also_needs);
    if (!c->also_needs) {
      assert_string_equal(v.message, want.data);
      assert_string_equal(v.fix, c->fix);
    } else {
      assert_int_equal(strncmp(v.message, want.data, want.len), 0);
      assert_non_null(strstr(v.message, "; also unhardened-site: container command line without the hardening "
                                        "builder or the full flag set; missing: "));
      assert_int_equal(strncmp(v.fix, c->fix, strlen(c->fix)), 0);
    }
    hg_verdict_clear(&v);

    build_argv(&s, false, c->words);
    hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
    if (v.rule != HG_RULE_WEAKENING_OPTION || v.also != BIT(HG_RULE_UNHARDENED_SITE)) print_verdict(c->name, &v);
    assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
    assert_int_equal(v.also, BIT(HG_RULE_UNHARDENED_SITE));
    assert_int_equal(v.missing & c->also_needs, c->also_needs);
    assert_int_equal(strncmp(v.message, want.data, want.len), 0);
    assert_non_null(strstr(v.message, "; also unhardened-site: "));
    hg_verdict_clear(&v);
    hg_buf_free(&want);
  }
}

#define RUN_ARGV(e, t) run_argv_cases((e), (t), sizeof(t) / sizeof((t)[0]))

static void test_weakening__argv_privileged_cap_add_namespaces(void **state) {
  const argv_case cases[] = {
      {"--privileged", {"--privileged", NULL},
       "`\"--privileged\"` (line 4) runs the container privileged, with every capability and every host device",
       "remove `--privileged`", 0},
      {"--privileged=false", {"--privileged=false", NULL}, NULL, NULL, 0},
      {"--cap-add X", {"--cap-add", "NET_ADMIN", NULL},
       "`\"--cap-add\", \"NET_ADMIN\"` (line 4) adds Linux capabilities back after they were dropped",
       "remove `--cap-add`", 0},
      {"--cap-add=X", {"--cap-add=SYS_ADMIN", NULL},
       "`\"--cap-add=SYS_ADMIN\"` (line 4) adds Linux capabilities back after they were dropped", "remove `--cap-add`",
       0},
      // --net is also a network-none spelling and the last value counts: network-none is lost too.
      {"--net=host", {"--net=host", NULL},
       "`\"--net=host\"` (line 4) shares the host's (or another container's) network namespace", "remove `--net`",
       NET},
      {"--network container:x", {"--network", "container:db", NULL},
       "`\"--network\", \"container:db\"` (line 4) shares the host's (or another container's) network namespace",
       "remove `--network`", NET},
      {"--pid host", {"--pid", "host", NULL}, "`\"--pid\", \"host\"` (line 4) shares the host's process namespace",
       "remove `--pid`", 0},
      {"--ipc=host", {"--ipc=host", NULL}, "`\"--ipc=host\"` (line 4) shares the host's IPC namespace",
       "remove `--ipc`", 0},
      {"--userns host", {"--userns", "host", NULL},
       "`\"--userns\", \"host\"` (line 4) turns off user-namespace remapping", "remove `--userns`", 0},
      {"--uts=host", {"--uts=host", NULL},
       "`\"--uts=host\"` (line 4) shares the host's UTS namespace (its hostname and domain name)", "remove `--uts`",
       0},
      {"--cgroupns host", {"--cgroupns", "host", NULL},
       "`\"--cgroupns\", \"host\"` (line 4) shares the host's cgroup namespace", "remove `--cgroupns`", 0},
      {"--pid container:x", {"--pid", "container:x", NULL}, NULL, NULL, 0},
  };
  RUN_ARGV(*state, cases);
}

static void test_weakening__argv_confinement_devices_mounts(void **state) {
  const argv_case cases[] = {
      {"--security-opt seccomp=unconfined", {"--security-opt", "seccomp=unconfined", NULL},
       "`\"--security-opt\", \"seccomp=unconfined\"` (line 4) turns off seccomp, AppArmor or SELinux confinement",
       "remove `--security-opt`", 0},
      {"--security-opt=apparmor=unconfined", {"--security-opt=apparmor=unconfined", NULL},
       "`\"--security-opt=apparmor=unconfined\"` (line 4) turns off seccomp, AppArmor or SELinux confinement",
       "remove `--security-opt`", 0},
      {"--security-opt label=disable", {"--security-opt", "label=disable", NULL},
       "`\"--security-opt\", \"label=disable\"` (line 4) turns off seccomp, AppArmor or SELinux confinement",
       "remove `--security-opt`", 0},
      {"--device", {"--device", "/dev/kvm", NULL},
       "`\"--device\", \"/dev/kvm\"` (line 4) passes host devices into the container", "remove `--device`", 0},
      {"-v docker.sock", {"-v", "/var/run/docker.sock:/var/run/docker.sock", NULL},
       "`\"-v\", \"/var/run/docker.sock:/var/run/docker.sock\"` (line 4) " SOCKET_MSG, "remove `-v`", 0},
      {"--volume=/:/host", {"--volume=/:/host", NULL}, "`\"--volume=/:/host\"` (line 4) " SOCKET_MSG,
       "remove `--volume`", 0},
      {"--mount of the socket", {"--mount", "type=bind,source=/var/run/docker.sock,target=/s", NULL},
       "`\"--mount\", \"type=bind,source=/var/run/docker.sock,target=/s\"` (line 4) " SOCKET_MSG, "remove `--mount`",
       0},
      {"--mount src=/", {"--mount", "type=bind,src=/,dst=/host", NULL},
       "`\"--mount\", \"type=bind,src=/,dst=/host\"` (line 4) " SOCKET_MSG, "remove `--mount`", 0},
      {"-v with a data directory", {"-v", "/srv/data:/data", NULL}, NULL, NULL, 0},
      {"--mount of a volume", {"--mount", "type=volume,source=cache,target=/c", NULL}, NULL, NULL, 0},
  };
  RUN_ARGV(*state, cases);
}

static void test_weakening__argv_after_the_image_is_the_command(void **state) {
  env *e = *state;
  // "--privileged" after the image is an argument of the container's command, not docker's.
  argv_site s;
  build_argv(&s, true, (const char *const[]){NULL});
  s.words[s.site.flags.n_items++] = str_at("--privileged", WLINE);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_NONE);
  assert_int_equal(v.via, HG_VIA_FLAGS);
  hg_verdict_clear(&v);
}

// ---- conditional values ----------------------------------------------------------------------------

static void test_weakening__conditional_weakening_still_counts(void **state) {
  env *e = *state;
  hg_value priv = keyed("privileged", TRUE_);
  priv.conditional = true;
  kw_site s;
  build_kwargs(&s, true, &priv, 1);
  hg_verdict v;
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
  assert_int_equal(v.also, 0);
  assert_int_equal(v.missing, 0);
  assert_string_equal(v.message, KW_SUBJECT "`privileged=True` (line 4) runs the container privileged, with every "
                                            "capability and every host device");
  hg_verdict_clear(&v);

  // The same in an argv list: a conditional "--cap-add", "NET_ADMIN".
  argv_site a;
  build_argv(&a, true, (const char *const[]){"--cap-add", "NET_ADMIN", NULL});
  a.words[15].conditional = a.words[16].conditional = true;
  assert_string_equal(a.words[15].text, "--cap-add");
  hg_evaluate(&v, e->policy, e->no_builders, &a.site, e->md);
  assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
  assert_int_equal(v.also, 0);
  assert_string_equal(v.message, ARGV_SUBJECT "`\"--cap-add\", \"NET_ADMIN\"` (line 4) adds Linux capabilities back "
                                              "after they were dropped");
  hg_verdict_clear(&v);
}

static void test_weakening__conditional_hardening_never_satisfies(void **state) {
  env *e = *state;
  hg_verdict v;

  // Keywords: each requirement, set on some paths only, is missing.
  for (size_t r = 0; r < 7; r++) {
    kw_site s;
    build_kwargs(&s, true, NULL, 0);
    s.items[r].conditional = true;
    hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
    if (v.missing != (UINT64_C(1) << r)) print_verdict(s.items[r].key, &v);
    assert_int_equal(v.rule, HG_RULE_UNHARDENED_SITE);
    assert_int_equal(v.also, 0);
    assert_int_equal(v.missing, UINT64_C(1) << r);
    hg_verdict_clear(&v);
  }

  // A conditional weaker value after an unconditional good one: the weakest path counts.
  hg_value ro_off = keyed("read_only", FALSE_);
  ro_off.conditional = true;
  kw_site s;
  build_kwargs(&s, true, &ro_off, 1);
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_UNHARDENED_SITE);
  assert_int_equal(v.missing, RO);
  hg_verdict_clear(&v);

  // A conditional builder spread is not applied.
  hg_value builder = {.kind = HG_VAL_BUILDER, .text = "hardening_kwargs()", .splat = true, .conditional = true,
                      .line = 4};
  build_kwargs(&s, false, &builder, 1);
  hg_evaluate(&v, e->policy, e->no_builders, &s.site, e->md);
  assert_int_equal(v.rule, HG_RULE_UNHARDENED_SITE);
  assert_int_equal(v.via, HG_VIA_NONE);
  assert_int_equal(v.missing, ALL_REQ);
  hg_verdict_clear(&v);

  // argv: a conditional --read-only (word 8 of "docker run" + the full set) is missing.
  argv_site a;
  build_argv(&a, true, (const char *const[]){NULL});
  assert_string_equal(a.words[8].text, "--read-only");
  a.words[8].conditional = true;
  hg_evaluate(&v, e->policy, e->no_builders, &a.site, e->md);
  assert_int_equal(v.rule, HG_RULE_UNHARDENED_SITE);
  assert_int_equal(v.missing, RO);
  hg_verdict_clear(&v);

  // ... and a conditional weakening together with a conditional requirement: both count.
  build_argv(&a, true, (const char *const[]){"--privileged", NULL});
  a.words[8].conditional = a.words[15].conditional = true;
  hg_evaluate(&v, e->policy, e->no_builders, &a.site, e->md);
  assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
  assert_int_equal(v.also, BIT(HG_RULE_UNHARDENED_SITE));
  assert_int_equal(v.missing, RO);
  assert_string_equal(v.message, ARGV_SUBJECT "`\"--privileged\"` (line 4) runs the container privileged, with every "
                                              "capability and every host device; also unhardened-site: container "
                                              "command line without the hardening builder or the full flag set; "
                                              "missing: read-only");
  assert_string_equal(v.fix, "remove `--privileged`; add \"--read-only\"");
  hg_verdict_clear(&v);
}

// A `--rules` policy may forbid more than 64 options (the judge once kept them in fixed arrays of
// 64: an out-of-bounds write found with UBSan). The 70th entry is hit and named.
static void test_weakening__more_than_64_forbidden_options(void **state) {
  (void)state;
  hg_buf y = {0};
  hg_buf_puts(&y, "require:\n  read-only:\n    summary: ro\n    kwarg: { name: read_only, value: '^True$' }\n"
                  "    flag: { name: --read-only }\n    fix: { kwarg: 'read_only=True', flag: '--read-only' }\n"
                  "forbid:\n");
  for (int i = 0; i < 70; i++)
    hg_buf_printf(&y, "  opt-%d:\n    message: sets option %d\n    kwarg: { name: opt_%d }\n    flag: { name: --opt-%d }\n",
                  i, i, i, i);
  hg_buf_puts(&y, "cli: { subcommands: [run], process_calls: [], repeatable_flags: [], boolean_flags: [--read-only] }\n"
                  "dialects: { kwarg: { reads: kwargs }, flag: { reads: [argv, shell, command, script] }, compose: { reads: compose } }\n");
  hg_policy *p = NULL;
  hg_error err;
  int rc = hg_policy_load(&p, "many.yml", y.data, y.len, &err);
  if (rc != 0) print_error("%s\n", err.message);
  assert_int_equal(rc, 0);
  assert_int_equal(p->n_forbid, 70);
  hg_value items[] = {keyed("read_only", TRUE_), keyed("opt_69", TRUE_)};
  hg_site site = {.kind = "sdk-run", .reads = HG_READS_KWARGS, .line = 3, .col = 5,
                  .flags = {.kind = HG_VAL_DICT, .text = "(...)", .items = items, .n_items = 2}};
  hg_config *c = hg_config_empty(".");
  pcre2_match_data *md = pcre2_match_data_create(16, NULL);
  hg_verdict v;
  hg_evaluate(&v, p, c, &site, md);
  assert_int_equal(v.rule, HG_RULE_WEAKENING_OPTION);
  assert_non_null(strstr(v.message, "`opt_69=True` (line 4) sets option 69"));
  hg_verdict_clear(&v);
  pcre2_match_data_free(md);
  hg_config_free(c);
  hg_policy_free(p);
  hg_buf_free(&y);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_weakening__policy_forbids),
      cmocka_unit_test(test_weakening__privileged_and_cap_add_keywords),
      cmocka_unit_test(test_weakening__namespace_keywords),
      cmocka_unit_test(test_weakening__security_opt_and_devices_keywords),
      cmocka_unit_test(test_weakening__volume_keywords),
      cmocka_unit_test(test_weakening__several_options_in_policy_order),
      cmocka_unit_test(test_weakening__builder_does_not_excuse_it),
      cmocka_unit_test(test_weakening__later_keyword_takes_it_back),
      cmocka_unit_test(test_weakening__argv_privileged_cap_add_namespaces),
      cmocka_unit_test(test_weakening__argv_confinement_devices_mounts),
      cmocka_unit_test(test_weakening__argv_after_the_image_is_the_command),
      cmocka_unit_test(test_weakening__conditional_weakening_still_counts),
      cmocka_unit_test(test_weakening__conditional_hardening_never_satisfies),
      cmocka_unit_test(test_weakening__more_than_64_forbidden_options),
  };
  return cmocka_run_group_tests_name("weakening", tests, setup_env, teardown_env);
}
