// Unit tests for dialects (issue 11): how rules/policy.yml declares each SDK's spelling (policy.c),
// how a site pattern's dialect is chosen (the first pattern matching a call, #sdk?, #imports?,
// #value-contains?), and how a site is judged in it (judge.c's keyword and mapping readings, the
// traps in evaluate.c's messages), driven by hg_scan_bytes on small Python snippets.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

#include "judge/finding.h"
#include "rules/ruleset.h"
#include "app/scan.h"

typedef struct {
  hg_ruleset *rules;
  hg_config *plain;
} env;

static int setup_env(void **state) {
  env *e = calloc(1, sizeof(*e));
  hg_error err = {{0}};
  if (hg_ruleset_load(&e->rules, NULL, &err) != 0) {
    print_error("%s\n", err.message);
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

static const hg_policy *policy(void **state) { return hg_ruleset_policy(((env *)*state)->rules); }

static int dialect(const hg_policy *p, const char *id) {
  int d = hg_policy_dialect(p, id);
  if (d < 0) fail_msg("no dialect '%s'", id);
  return d;
}

static const hg_spelling *spelling(const hg_policy *p, const char *req, const char *d) {
  const hg_requirement *r = hg_policy_requirement(p, req, NULL);
  if (!r) fail_msg("no requirement '%s'", req);
  return &r->spell[dialect(p, d)];
}

// ---- the real policy ---------------------------------------------------------------------------

static void test_dialect__real_policy_dialects(void **state) {
  const hg_policy *p = policy(state);
  static const char *const ids[] = {"docker-py",        "cli",        "compose",   "testcontainers",
                                    "podman-py",        "python-on-whales", "engine-api", "aiodocker",
                                    "k8s-python",       "docker-py-lowlevel", "docker-py-host-config", "docker-py-service",
                                    "go-moby",          "go-dockerclient",  "testcontainers-go", "dockerode",
                                    "testcontainers-node"};
  assert_int_equal(p->n_dialects, sizeof(ids) / sizeof(ids[0]));
  for (size_t i = 0; i < p->n_dialects; i++) assert_string_equal(p->dialects[i].id, ids[i]);
  // The first dialect serving a reading mode is its default.
  assert_int_equal(hg_policy_site_dialect(p, HG_READS_KWARGS, -1), dialect(p, "docker-py"));
  assert_int_equal(hg_policy_site_dialect(p, HG_READS_COMMAND, -1), dialect(p, "cli"));
  assert_int_equal(hg_policy_site_dialect(p, HG_READS_ARGV, -1), dialect(p, "cli"));
  assert_int_equal(hg_policy_site_dialect(p, HG_READS_COMPOSE, -1), dialect(p, "compose"));
  assert_int_equal(hg_policy_site_dialect(p, HG_READS_BODY, -1), dialect(p, "engine-api"));
  // Go's structs: the Engine API's names in Go's case, written dotted in messages, container.Resources
  // embedded in the HostConfig.
  const hg_dialect *go = &p->dialects[dialect(p, "go-moby")];
  assert_true(go->fold_case);
  assert_true(go->dotted);
  assert_false(p->dialects[dialect(p, "engine-api")].dotted);
  const hg_spelling *mem = spelling(p, "memory-limit", "go-moby");
  assert_int_equal(mem->n, 1);
  assert_int_equal(mem->m[0].n_names, 2);
  assert_string_equal(mem->m[0].names[1], "HostConfig.Resources.Memory");
  // go-dockerclient's HostConfig is flat: the Engine API's names (borrowed), its own Go fix.
  const hg_spelling *gdc = spelling(p, "memory-limit", "go-dockerclient");
  assert_true(gdc->borrowed);
  assert_ptr_equal(gdc->m, spelling(p, "memory-limit", "engine-api")->m);
  assert_non_null(strstr(gdc->fix, "Memory: 512 << 20 (HostConfig)"));
  assert_true(p->dialects[dialect(p, "go-dockerclient")].dotted);
  // docker-py's services: a mapping of the call's keywords; what a service cannot be given is an
  // empty spelling, given, its fix saying so.
  assert_int_equal(p->dialects[dialect(p, "docker-py-service")].shape, HG_SHAPE_MAPPING);
  const hg_spelling *svc_pids = spelling(p, "pids-limit", "docker-py-service");
  assert_true(svc_pids->given);
  assert_int_equal(svc_pids->n, 0);
  assert_non_null(strstr(svc_pids->fix, "allow[pids-limit]"));
  assert_string_equal(spelling(p, "memory-limit", "docker-py-service")->m[0].names[0], "resources.mem_limit");
  assert_int_equal(hg_policy_site_dialect(p, HG_READS_CLIENT, -1), -1);
  assert_int_equal(hg_policy_site_dialect(p, HG_READS_KWARGS, dialect(p, "podman-py")), dialect(p, "podman-py"));
  // Shapes, case folding.
  assert_int_equal(p->dialects[dialect(p, "python-on-whales")].shape, HG_SHAPE_KEYWORDS);
  assert_int_equal(p->dialects[dialect(p, "cli")].shape, HG_SHAPE_FLAGS);
  assert_int_equal(p->dialects[dialect(p, "aiodocker")].shape, HG_SHAPE_MAPPING);
  assert_true(p->dialects[dialect(p, "aiodocker")].fold_case);
  assert_false(p->dialects[dialect(p, "compose")].fold_case);
  // A requirement a dialect cannot express: an empty spelling, given, with the fix text saying
  // what does it instead.
  const hg_spelling *net = spelling(p, "network-none", "k8s-python");
  assert_true(net->given);
  assert_int_equal(net->n, 0);
  assert_non_null(strstr(net->fix, "NetworkPolicy"));
  assert_int_equal(p->dialects[dialect(p, "k8s-python")].shape, HG_SHAPE_MAPPING);
}

static void test_dialect__like_borrows_what_is_not_given(void **state) {
  const hg_policy *p = policy(state);
  // testcontainers gives nothing of its own: docker-py's spelling and fix, shared.
  const hg_spelling *tc = spelling(p, "cap-drop-all", "testcontainers"), *dp = spelling(p, "cap-drop-all", "docker-py");
  assert_true(tc->borrowed);
  assert_false(tc->given);
  assert_ptr_equal(tc->m, dp->m);
  assert_string_equal(tc->fix, "cap_drop=[\"ALL\"]");
  // podman-py gives its own no-new-privileges and cpu-limit, and borrows the rest.
  const hg_spelling *nnp = spelling(p, "no-new-privileges", "podman-py");
  assert_true(nnp->given);
  assert_true(hg_matcher_has_name(&nnp->m[0], "no_new_privileges"));
  assert_false(hg_matcher_has_name(&nnp->m[0], "security_opt"));
  assert_string_equal(nnp->fix, "no_new_privileges=True");
  const hg_spelling *cpu = spelling(p, "cpu-limit", "podman-py");
  assert_int_equal(cpu->n, 1);
  assert_false(hg_matcher_has_name(&cpu->m[0], "nano_cpus"));
  assert_true(hg_matcher_has_name(&cpu->m[0], "cpu_quota"));
  // ... and network_mode only: podman-py refuses network_disabled.
  const hg_spelling *net = spelling(p, "network-none", "podman-py");
  assert_int_equal(net->n, 1);
  assert_true(hg_matcher_has_name(&net->m[0], "network_mode"));
  // aiodocker is like the Engine API.
  assert_ptr_equal(spelling(p, "read-only", "aiodocker")->m, spelling(p, "read-only", "engine-api")->m);
  assert_true(hg_matcher_has_name(&spelling(p, "read-only", "engine-api")->m[0], "HostConfig.ReadonlyRootfs"));
  // Traps are loaded in order.
  const hg_dialect *pod = &p->dialects[dialect(p, "podman-py")];
  assert_int_equal(pod->n_traps, 3);
  assert_string_equal(pod->traps[0].name, "security_opt");
  assert_string_equal(pod->traps[1].name, "nano_cpus");
  assert_non_null(strstr(pod->traps[0].text, "SELinux"));
}

// ---- rejected dialect declarations --------------------------------------------------------------

#define REQ "require:\n  r1: { summary: s, a: { name: k }, fix: { a: 'k=1' } }\ncli: { subcommands: [run], boolean_flags: [] }\n"

static void check_rejected(const char *yaml, const char *want) {
  hg_policy *p = NULL;
  hg_error err = {{0}};
  int rc = hg_policy_load(&p, "t.yml", yaml, strlen(yaml), &err);
  if (rc == 0) {
    hg_policy_free(p);
    fail_msg("loaded, expected \"%s\"", want);
  }
  if (!strstr(err.message, want)) fail_msg("message \"%s\", expected it to contain \"%s\"", err.message, want);
}

static void test_dialect__rejected_declarations(void **state) {
  (void)state;
  check_rejected(REQ "dialects: { a: { subject: x } }\n", "dialect 'a': needs 'reads'");
  check_rejected(REQ "dialects: { a: { reads: [kwargs, argv] } }\n", "'argv' is judged unlike 'kwargs'");
  check_rejected(REQ "dialects: { a: { reads: client } }\n", "'client' is not a reading mode with options");
  check_rejected(REQ "dialects: { a: { reads: kwargs, like: b }, b: { reads: kwargs } }\n",
                 "like: 'b' is not a dialect declared before it");
  check_rejected(REQ "dialects: { b: { reads: compose }, a: { reads: kwargs, like: b } }\n",
                 "like: 'b' is judged unlike it");
  check_rejected(REQ "dialects: { a: { reads: body, fold_case: maybe } }\n", "fold_case: expected true or false");
  check_rejected(REQ "dialects: { a: { reads: kwargs, traps: [x] } }\n", "traps: expected a mapping");
  check_rejected(REQ "dialects: { a: { reads: kwargs }, a: { reads: argv } }\n", "dialect 'a' declared twice");
  check_rejected(REQ "dialects: {}\n", "'dialects' must be a non-empty mapping");
  check_rejected(REQ "dialects: { a: { reads: kwargs, at: HostConfig } }\n", "at: a dotted name, for a dialect that reads a mapping");
  check_rejected("require:\n  r1: { summary: s, b: { name: k }, fix: { b: x } }\ncli: { subcommands: [run], "
                 "boolean_flags: [] }\ndialects: { a: { reads: kwargs } }\n",
                 "unknown key 'b' (not a dialect of the policy's 'dialects')");
  check_rejected("require:\n  r1: { summary: s, a: { name: k }, fix: { a: x, c: y } }\ncli: { subcommands: [run], "
                 "boolean_flags: [] }\ndialects: { a: { reads: kwargs }, c: { reads: argv } }\n",
                 "fix.c without a 'c' spelling");
  check_rejected(REQ "dialects: { a: { reads: body, paths: flat } }\n", "paths: expected dotted or subscript");
  check_rejected(REQ "dialects: { a: { reads: kwargs, paths: dotted } }\n", "paths: for a dialect that reads a mapping");
  check_rejected("require:\n  r1: { summary: s, a: { name: k }, fix: {} }\ncli: { subcommands: [run], "
                 "boolean_flags: [] }\ndialects: { a: { reads: kwargs } }\n",
                 "'a' needs 'fix.a'");
}

// An empty list is "no spelling": the dialect's sites can never satisfy the requirement, and a
// dialect `like` another does not borrow over it.
static void test_dialect__empty_spelling_is_none(void **state) {
  (void)state;
  static const char YAML[] = "require:\n  r1: { summary: s, a: { name: k }, b: [], fix: { a: 'k=1' } }\n"
                             "cli: { subcommands: [run], boolean_flags: [] }\n"
                             "dialects: { a: { reads: kwargs }, b: { reads: kwargs, like: a } }\n";
  hg_policy *p = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_policy_load(&p, "t.yml", YAML, strlen(YAML), &err), 0);
  assert_int_equal(p->req[0].spell[1].n, 0);
  assert_true(p->req[0].spell[1].given);
  assert_false(p->req[0].spell[1].borrowed);
  hg_policy_free(p);
}

// A dialect `like` another may write the fix of the spelling it borrows in its own language (Go's
// struct fields, JavaScript's object literal); the spelling stays the other's.
static void test_dialect__like_with_a_fix_of_its_own(void **state) {
  (void)state;
  static const char YAML[] = "require:\n  r1: { summary: s, a: { name: k }, fix: { a: 'k=1', b: 'K: 1' } }\n"
                             "cli: { subcommands: [run], boolean_flags: [] }\n"
                             "dialects: { a: { reads: body }, b: { reads: body, like: a, paths: dotted } }\n";
  hg_policy *p = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_policy_load(&p, "t.yml", YAML, strlen(YAML), &err), 0);
  const hg_spelling *b = &p->req[0].spell[1];
  assert_true(b->borrowed);
  assert_true(b->own_fix);
  assert_string_equal(b->fix, "K: 1");
  assert_string_equal(b->m[0].names[0], "k");
  assert_string_equal(p->req[0].spell[0].fix, "k=1");
  assert_true(p->dialects[1].dotted);
  assert_false(p->dialects[0].dotted);
  hg_policy_free(p);
}

// ---- sites in each dialect ----------------------------------------------------------------------

typedef struct {
  uint32_t line;
  const char *kind;
  hg_rule_id rule;
  const char *contains;  // in the message (NULL: anything)
  const char *lacks;     // ... and not this (NULL: nothing)
} want;

static void scan_expect(void **state, const char *name, const char *src, const want *w, size_t n) {
  env *e = *state;
  hg_scan_options o = {.rules = e->rules, .config = e->plain, .jobs = 1};
  hg_findings f = {0};
  hg_file_errors fe = {0};
  hg_scan_bytes(&o, "t.py", src, strlen(src), &f, &fe);
  // Client sites are not what these cases are about.
  size_t k = 0;
  for (size_t i = 0; i < f.len; i++) {
    const hg_finding *x = &f.items[i];
    if (!strcmp(x->kind, "client")) continue;
    if (k >= n) fail_msg("case '%s': unexpected finding %u %s: %s", name, x->line, x->kind, x->message);
    if (x->line != w[k].line || strcmp(x->kind, w[k].kind) || x->rule != w[k].rule ||
        (w[k].contains && !strstr(x->message, w[k].contains)) || (w[k].lacks && strstr(x->message, w[k].lacks)))
      fail_msg("case '%s', finding %zu: %u %s rule %d: %s", name, k, x->line, x->kind, (int)x->rule, x->message);
    k++;
  }
  if (k != n) fail_msg("case '%s': %zu findings, expected %zu", name, k, n);
  assert_int_equal(fe.len, 0);
  hg_findings_free(&f);
  hg_file_errors_free(&fe);
}

#define EXPECT(state, name, src, ...)                                                                                 \
  do {                                                                                                                \
    static const want w_[] = {__VA_ARGS__};                                                                           \
    scan_expect((state), (name), (src), w_, sizeof(w_) / sizeof(w_[0]));                                              \
  } while (0)
#define EXPECT_NONE(state, name, src) scan_expect((state), (name), (src), NULL, 0)

#define PODMAN_FULL "no_new_privileges=True, cap_drop=['ALL'], network_mode='none', read_only=True, " \
                    "mem_limit='1g', cpu_quota=50000, pids_limit=32"
#define DOCKER_FULL "security_opt=['no-new-privileges'], cap_drop=['ALL'], network_mode='none', read_only=True, " \
                    "mem_limit='1g', nano_cpus=10**9, pids_limit=32"

static void test_dialect__the_receiver_picks_the_dialect(void **state) {
  // A module speaking both SDKs: each call in its receiver's dialect.
  EXPECT(state, "mixed module",
         "import docker, podman\n"
         "d = docker.from_env()\n"
         "p = podman.PodmanClient()\n"
         "d.containers.run('i', " PODMAN_FULL ")\n"
         "p.containers.run('i', " DOCKER_FULL ")\n"
         "p.containers.create('i', " PODMAN_FULL ")\n",
         {4, "sdk-run", HG_RULE_UNHARDENED_SITE, "container created through docker-py", NULL},
         {5, "sdk-run", HG_RULE_UNHARDENED_SITE, "container created through podman-py", NULL},
         {6, "sdk-create", HG_RULE_NONE, "container created through podman-py passes", NULL});
  // A receiver that follows nowhere: the module's only SDK decides; with two, docker-py.
  EXPECT(state, "podman alone", "from podman import PodmanClient\ndef f(c):\n    c.containers.run('i', " DOCKER_FULL ")\n",
         {3, "sdk-run", HG_RULE_UNHARDENED_SITE, "missing: no-new-privileges, cpu-limit", NULL});
  EXPECT(state, "both imported", "import docker\nimport podman\ndef f(c):\n    c.containers.run('i', " DOCKER_FULL ")\n",
         {4, "sdk-run", HG_RULE_NONE, "docker-py passes", NULL});
  // A parameter named `docker` in an aiodocker module is no docker-py module.
  EXPECT(state, "aiodocker parameter named docker",
         "import aiodocker\nasync def f(docker):\n    await docker.containers.run({'Image': 'i'})\n",
         {3, "sdk-run", HG_RULE_UNHARDENED_SITE, "container created through aiodocker", NULL});
}

static void test_dialect__traps_are_named(void **state) {
  EXPECT(state, "podman security_opt and nano_cpus",
         "import podman\nc = podman.from_env()\nc.containers.run('i',\n  " DOCKER_FULL ")\n",
         {3, "sdk-run", HG_RULE_UNHARDENED_SITE, "`security_opt` (line 4): podman-py passes `security_opt` to SELinux", NULL});
  EXPECT(state, "python-on-whales with docker-py's names",
         "from python_on_whales import docker\ndocker.run('i', " DOCKER_FULL ")\n",
         {2, "sdk-run", HG_RULE_UNHARDENED_SITE, "`mem_limit` (line 2): python-on-whales has no `mem_limit`", NULL});
  // A passing site names no trap; nor does a failing one that sets none.
  EXPECT(state, "podman failing without traps", "import podman\nc = podman.from_env()\nc.containers.run('i', cap_drop=['ALL'])\n",
         {3, "sdk-run", HG_RULE_UNHARDENED_SITE, "cpu-limit, pids-limit", "podman-py passes"});
}

#define HC_FULL "'SecurityOpt': ['no-new-privileges'], 'CapDrop': ['ALL'], 'NetworkMode': 'none', " \
                "'ReadonlyRootfs': True, 'Memory': 2**28, 'NanoCpus': 10**9, 'PidsLimit': 32"

static void test_dialect__engine_body_is_a_mapping(void **state) {
  // Names in any case; the last of two names equal but for case counts, as Go's decoder keeps it.
  EXPECT(state, "any case",
              "import aiodocker\nasync def f(d: aiodocker.Docker):\n"
              "    await d.containers.run(config={'image': 'i', 'hostconfig': {'securityopt': ['no-new-privileges'], "
              "'capdrop': ['all'], 'networkmode': 'none', 'readonlyrootfs': True, 'memory': 1, 'nanocpus': 1, "
              "'pidslimit': 1}})\n",
         {3, "sdk-run", HG_RULE_NONE, "aiodocker passes", NULL});
  EXPECT(state, "last of a case-folded pair",
         "import aiodocker\nasync def f(d):\n"
         "    await d.containers.run({'HostConfig': {" HC_FULL ", 'readonlyrootfs': False}})\n",
         {3, "sdk-run", HG_RULE_UNHARDENED_SITE, "missing: read-only", NULL});
  // A spread hardguard cannot follow could hold anything.
  EXPECT(state, "unknown spread",
         "import aiodocker\nasync def f(d, extra):\n"
         "    await d.containers.run({'HostConfig': {" HC_FULL ", **extra}})\n",
         {3, "sdk-run", HG_RULE_UNVERIFIABLE_FLAGS, "takes options from `extra` at line 3", NULL});
  // No config the reading can find: the arguments stand for it.
  EXPECT(state, "no config", "import aiodocker\nasync def f(d, kw):\n    await d.containers.run(**kw)\n",
         {3, "sdk-run", HG_RULE_UNVERIFIABLE_FLAGS, "arguments without the body", NULL});
  // create_or_replace takes the config second.
  EXPECT(state, "create_or_replace",
         "import aiodocker\nasync def f(d):\n    await d.containers.create_or_replace('n', {'HostConfig': {" HC_FULL
         "}})\n",
         {3, "sdk-create", HG_RULE_NONE, NULL, NULL});
  // A scalar where a mapping belongs never satisfies.
  EXPECT(state, "HostConfig not a mapping", "import aiodocker\nasync def f(d):\n    await d.containers.run({'HostConfig': 'x'})\n",
         {3, "sdk-run", HG_RULE_UNHARDENED_SITE, NULL, NULL});
}

static void test_dialect__engine_api_requests(void **state) {
  // The URL followed through a name and an f-string; json= and data=json.dumps(...).
  EXPECT(state, "hardened, URL in a name",
              "import json\nBASE = 'http+unix://%2Fvar%2Frun%2Fdocker.sock'\nURL = f'{BASE}/v1.43/containers/create'\n"
              "def f(s):\n    s.post(URL, data=json.dumps({'HostConfig': {" HC_FULL "}}))\n"
              "    s.post(f'{BASE}/containers/x/start')\n",
         {5, "api-create", HG_RULE_NONE, "Engine API passes", NULL});
  EXPECT(state, "privileged, in any case",
         "def f(s):\n    s.post('http://docker/containers/create?name=x', json={'HostConfig': {" HC_FULL
         ", 'privileged': True}})\n",
         {2, "api-create", HG_RULE_WEAKENING_OPTION, "[\"HostConfig\"][\"Privileged\"]=True", NULL});
  // A POST to another endpoint, or a GET of this one, is no site.
  EXPECT_NONE(state, "other endpoints",
              "def f(s):\n    s.post('/containers/abc/exec', json={'Cmd': ['ls']})\n"
              "    s.get('/containers/create')\n");
}

static void test_dialect__testcontainers(void **state) {
  EXPECT(state, "with_kwargs replaces",
         "from testcontainers.core.container import DockerContainer\n"
         "c = DockerContainer('i', " DOCKER_FULL ").with_kwargs(platform='linux/amd64')\n"
         "d = DockerContainer('i').with_kwargs(" DOCKER_FULL ")\n",
         {2, "sdk-create", HG_RULE_UNHARDENED_SITE, "container created through testcontainers", NULL},
         {3, "sdk-create", HG_RULE_NONE, NULL, NULL});
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dialect__real_policy_dialects),
      cmocka_unit_test(test_dialect__like_borrows_what_is_not_given),
      cmocka_unit_test(test_dialect__rejected_declarations),
      cmocka_unit_test(test_dialect__empty_spelling_is_none),
      cmocka_unit_test(test_dialect__like_with_a_fix_of_its_own),
      cmocka_unit_test(test_dialect__the_receiver_picks_the_dialect),
      cmocka_unit_test(test_dialect__traps_are_named),
      cmocka_unit_test(test_dialect__engine_body_is_a_mapping),
      cmocka_unit_test(test_dialect__engine_api_requests),
      cmocka_unit_test(test_dialect__testcontainers),
  };
  return cmocka_run_group_tests(tests, setup_env, teardown_env);
}
