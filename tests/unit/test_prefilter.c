// Unit tests for prefilter.c: the literals it derives from the patterns' predicates, its matcher
// held equal to the pcre2 alternation it prints, and the soundness of every analysis: over every
// fixture, mutations of them, a generated corpus of sites buried in filler (and a corpus of real
// code, HG_SOUNDNESS_CORPUS), a file on which the full analysis (parse, extract, judge, without the
// prefilter) reports anything is never ruled out, the analysis narrowed to the units the prefilter
// names reports the same, and so does the analysis whose matches libtree-sitter's query engine
// finds instead of the walk (walk.h).
#define _GNU_SOURCE  // nftw
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app/check.h"
#include "helpers.h"
#include "rules/prefilter.h"
#include "rules/ruleset.h"
#include "surfaces/registry.h"
#include "surfaces/python/row.h"

#ifndef HG_SOURCE_DIR
#error "HG_SOURCE_DIR must name the source tree (set by tests/unit/CMakeLists.txt)"
#endif

// ---- a small deterministic generator (helpers.h) -----------------------------------------------

static uint64_t rng_state;

static uint32_t rnd(uint32_t n) { return hg_test_rnd(&rng_state, n); }

// ---- prefilters built from queries of our own ---------------------------------------------------

typedef struct {
  hg_shapes *query;
  hg_predicates **preds;
  uint32_t n;
  hg_prefilter *pre;
} own;

static void own_build(own *o, const char *query) {
  uint32_t eoff;
  char msg[192];
  o->query = hg_shapes_compile(tree_sitter_python(), query, (uint32_t)strlen(query), &eoff, msg, sizeof(msg));
  if (!o->query) fail_msg("shape error at %u: %s", eoff, msg);
  o->n = hg_shapes_count(o->query);
  o->preds = calloc(o->n, sizeof(*o->preds));
  for (uint32_t i = 0; i < o->n; i++) {
    hg_error err = {{0}};
    if (hg_predicates_compile(&o->preds[i], o->query, i, NULL, &err) != 0) fail_msg("%s", err.message);
  }
  o->pre = hg_prefilter_new((const hg_predicates *const *)o->preds, o->n);
}

static void own_free(own *o) {
  hg_prefilter_free(o->pre);
  for (uint32_t i = 0; i < o->n; i++) hg_predicates_free(o->preds[i]);
  free(o->preds);
  hg_shapes_free(o->query);
}

static bool pcre2_says(const hg_prefilter *pre, const char *text, size_t len, pcre2_match_data *md) {
  const pcre2_code *code = hg_prefilter_code(pre);
  return !code || pcre2_match(code, (PCRE2_SPTR)text, len, 0, 0, md, NULL) >= 0;
}

static void expect(const hg_prefilter *pre, const char *text, bool want) {
  bool got = hg_prefilter_match(pre, text, strlen(text));
  if (got != want) print_error("match(\"%s\") = %d, want %d (prefilter %s)\n", text, got, want, hg_prefilter_source(pre));
  assert_int_equal(got, want);
}

static void test_prefilter__derives_the_most_selective_literals(void **state) {
  (void)state;
  own o;
  // Of each pattern, the predicate whose shortest literal is longest: "containers" over "run";
  // the alternatives of #any-of? together; #contains? unbounded; #resolves-to? its last part.
  own_build(&o, "((attribute object: (identifier) @a attribute: (identifier) @b) @site"
                " (#eq? @a \"containers\") (#eq? @b \"run\"))\n"
                "((string (string_content) @s) @site (#any-of? @s \"podman\" \"docker\"))\n"
                "((string) @site (#contains? @site \"nerd\"))\n"
                "((call function: (_) @f) @site (#resolves-to? @f \"os.system\"))\n");
  assert_true(hg_prefilter_on(o.pre));
  assert_string_equal(hg_prefilter_source(o.pre),
                      "\\b\\Qcontainers\\E\\b|\\b\\Qpodman\\E\\b|\\b\\Qdocker\\E\\b|\\Qnerd\\E|\\b\\Qsystem\\E\\b");
  expect(o.pre, "x.containers", true);
  expect(o.pre, "x.run()", false);
  expect(o.pre, "mycontainers", false);
  expect(o.pre, "containers_x", false);
  expect(o.pre, "'podman'", true);
  expect(o.pre, "nerdctl", true);  // #contains? may sit inside a word
  expect(o.pre, "os.system(c)", true);
  expect(o.pre, "operating_system", false);
  expect(o.pre, "", false);
  own_free(&o);
}

// A pattern whose other predicate needs only what other patterns' literals search for anyway
// takes that one: every distinct literal is one more pass over each file. Not when its own best is
// free too, and never a literal that does not imply it (a whole token does not find it inside words).
static void test_prefilter__prefers_literals_searched_anyway(void **state) {
  (void)state;
  own o;
  own_build(&o, "((string) @site (#contains? @site \"docker\"))\n"
                "((call function: (_) @f) @site (#resolves-to? @f \"x.create_or_replace\") (#file-contains? \"aiodocker\"))\n"
                "((call function: (_) @f) @site (#resolves-to? @f \"x.PodmanClient\") (#file-contains? \"pod\"))\n");
  // "aiodocker" holds "docker", searched anyway; "pod" is searched by nothing else.
  assert_string_equal(hg_prefilter_source(o.pre), "\\Qdocker\\E|\\b\\QPodmanClient\\E\\b");
  expect(o.pre, "import aiodocker", true);
  expect(o.pre, "d.create_or_replace()", false);
  own_free(&o);
  own_build(&o, "((call function: (_) @f) @site (#resolves-to? @f \"x.docker\"))\n"
                "((call function: (_) @f) @site (#resolves-to? @f \"x.create_or_replace\") (#file-contains? \"aiodocker\"))\n");
  // A whole-token docker does not find "aiodocker": the second pattern keeps its own literal.
  assert_string_equal(hg_prefilter_source(o.pre), "\\b\\Qdocker\\E\\b|\\b\\Qcreate_or_replace\\E\\b");
  own_free(&o);
}

static void test_prefilter__off_without_a_literal(void **state) {
  (void)state;
  own o;
  own_build(&o, "((call function: (identifier) @f) @site (#eq? @f \"spawn\"))\n((lambda) @site)\n");
  assert_false(hg_prefilter_on(o.pre));
  assert_string_equal(hg_prefilter_source(o.pre), "");
  assert_null(hg_prefilter_code(o.pre));
  expect(o.pre, "", true);
  expect(o.pre, "x = 1", true);
  own_free(&o);
  own_build(&o, "");
  assert_false(hg_prefilter_on(o.pre));
  expect(o.pre, "x = 1", true);
  own_free(&o);
  hg_prefilter_free(NULL);
}

static void test_prefilter__literals_that_need_quoting(void **state) {
  (void)state;
  own o;
  // A literal holding \E cannot go inside \Q...\E; one starting or ending with a non-word
  // character gets no \b on that side; regex syntax is literal.
  own_build(&o, "((string) @site (#eq? @site \"a\\\\Eb\"))\n"
                "((string) @site (#eq? @site \"--net=none\"))\n"
                "((string) @site (#eq? @site \"x.*(\"))\n");
  assert_true(hg_prefilter_on(o.pre));
  pcre2_match_data *md = pcre2_match_data_create(4, NULL);
  static const char *const texts[] = {"a\\Eb", "ab", "xa\\Eb", "--net=none", "x--net=none", "--net=nonex",
                                      "x.*(", "xx.*(", "x.*((", "xa", ""};
  for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
    assert_int_equal(hg_prefilter_match(o.pre, texts[i], strlen(texts[i])),
                     pcre2_says(o.pre, texts[i], strlen(texts[i]), md));
  expect(o.pre, "a\\Eb", true);
  expect(o.pre, "ab", false);
  expect(o.pre, "x--net=none", true);
  expect(o.pre, "--net=nonex", false);
  expect(o.pre, "x.*(", true);
  expect(o.pre, "xx", false);
  pcre2_match_data_free(md);
  own_free(&o);
}

// ---- the built-in rules --------------------------------------------------------------------------

typedef struct {
  hg_ruleset *rules;
  hg_ruleset *whole;  // the same rules, every file analysed with every unit (no narrowing)
  hg_ruleset *ref;    // ... and with libtree-sitter's query engine finding the matches, not the walk
  hg_config *config;
  hg_checker *checker;
  pcre2_match_data *md;
  size_t files, with_findings, ruled_out, compared;
} env;

static int setup_env(void **state) {
  env *e = calloc(1, sizeof(*e));
  hg_error err = {{0}};
  if (hg_ruleset_load(&e->rules, NULL, &err) != 0 || hg_ruleset_load(&e->whole, NULL, &err) != 0 ||
      hg_ruleset_load(&e->ref, NULL, &err) != 0) {
    print_error("built-in rules: %s\n", err.message);
    hg_ruleset_free(e->rules);
    free(e);
    return -1;
  }
  hg_ruleset_whole(e->whole);
  hg_ruleset_whole(e->ref);
  hg_ruleset_reference(e->ref);
  e->config = hg_config_empty(".");
  e->checker = hg_checker_new();
  e->md = pcre2_match_data_create(16, NULL);
  *state = e;
  return 0;
}

static int teardown_env(void **state) {
  env *e = *state;
  pcre2_match_data_free(e->md);
  hg_checker_free(e->checker);
  hg_config_free(e->config);
  hg_ruleset_free(e->rules);
  hg_ruleset_free(e->whole);
  hg_ruleset_free(e->ref);
  free(e);
  return 0;
}

static const char *const LITERAL_BITS[] = {
    "docker", "podman", "nerdctl", "container", "containers", "from_env", "DockerClient", "APIClient",
    "create_container", "dock", "ontainer", "from_", "Client", "run", "system", "_", "x", "9", ".", " ",
    "'", "\"", "\n", "(", "-", "\xc3\xa9", "\xff", "\t",
};

// Up to `parts` random pieces of LITERAL_BITS joined into `text` (cap bytes); its length.
static size_t random_text(char *text, size_t cap, uint32_t parts) {
  size_t len = 0;
  for (parts = 1 + rnd(parts); parts-- > 0;) {
    const char *bit = LITERAL_BITS[rnd(sizeof(LITERAL_BITS) / sizeof(LITERAL_BITS[0]))];
    size_t n = strlen(bit);
    if (len + n >= cap) break;
    memcpy(text + len, bit, n);
    len += n;
  }
  return len;
}

// The matcher and the alternation it prints agree, on the built-in rules, over random strings
// made of literals, their pieces and the characters around word boundaries, on every prefix.
static void test_prefilter__agrees_with_the_alternation(void **state) {
  env *e = *state;
  const pcre2_code *code = hg_ruleset_prefilter(e->rules, HG_SURFACE_PYTHON);
  assert_non_null(code);
  rng_state = UINT64_C(0x9E3779B97F4A7C15);
  char text[256];
  size_t agree_true = 0;
  for (int round = 0; round < 4000; round++) {
    size_t len = random_text(text, sizeof(text), 8);
    for (size_t cut = 0; cut <= len; cut += 1 + cut / 4) {
      bool got = hg_ruleset_may_contain_site(e->rules, HG_SURFACE_PYTHON, text, cut, NULL);
      bool want = pcre2_match(code, (PCRE2_SPTR)text, cut, 0, 0, e->md, NULL) >= 0;
      if (got != want) print_error("round %d: \"%.*s\": matcher %d, alternation %d\n", round, (int)cut, text, got, want);
      assert_int_equal(got, want);
      agree_true += got;
    }
  }
  assert_true(agree_true > 1000);  // the corpus exercises both answers
}

// A prefilter rebuilt from its seed (what the binary carries) is the same prefilter: the same
// needles, units and alternation, and the same answers.
static void test_prefilter__seed_round_trip(void **state) {
  env *e = *state;
  hg_prefilter_seed seed = hg_ruleset_seed_of(e->rules, HG_SURFACE_PYTHON);
  assert_non_null(seed.source);
  assert_true(seed.n_needles > 3);
  hg_prefilter *back = hg_prefilter_from_seed(&seed);
  hg_prefilter_seed again = hg_prefilter_seed_of(back);  // the same data, copied
  assert_string_equal(again.source, seed.source);
  assert_int_equal(again.n_needles, seed.n_needles);
  for (size_t i = 0; i < seed.n_needles; i++) {
    assert_string_equal(again.needles[i].text, seed.needles[i].text);
    assert_int_equal(again.needles[i].combos, seed.needles[i].combos);
    assert_int_equal(again.needles[i].units, seed.needles[i].units);
  }
  hg_prefilter *fresh = hg_prefilter_from_seed(&seed);
  assert_true(hg_prefilter_equal(back, fresh));
  rng_state = UINT64_C(0x2545F4914F6CDD1D);
  char text[128];
  size_t narrowed = 0;
  for (int round = 0; round < 2000; round++) {
    size_t len = random_text(text, sizeof(text), 5);
    hg_units want = hg_ruleset_units(e->rules, HG_SURFACE_PYTHON, text, len);
    hg_units got = hg_prefilter_units(back, text, len);
    assert_int_equal(got & want, want);  // the ruleset masks them with the units it has
    assert_int_equal(hg_prefilter_match(back, text, len), want != 0);
    narrowed += want != 0 && ~want & (hg_units)0x7f;
  }
  assert_true(narrowed > 100);  // some files name only some kinds
  // A changed needle is a different prefilter.
  hg_prefilter_needle *changed = malloc(seed.n_needles * sizeof(*changed));
  memcpy(changed, seed.needles, seed.n_needles * sizeof(*changed));
  changed[0].units ^= 1;
  hg_prefilter_seed other = {seed.source, changed, seed.n_needles};
  hg_prefilter *diff = hg_prefilter_from_seed(&other);
  assert_false(hg_prefilter_equal(back, diff));
  hg_prefilter_free(diff);
  free(changed);
  hg_prefilter_free(back);
  hg_prefilter_free(fresh);
}

// ---- soundness -----------------------------------------------------------------------------------

static bool same_finding(const hg_finding *a, const hg_finding *b) {
  return a->line == b->line && a->col == b->col && a->rule == b->rule && !strcmp(a->kind, b->kind) &&
         !strcmp(a->message ? a->message : "", b->message ? b->message : "");
}

// The analysis with `rules` finds what `whole` says the analysis with every unit, its matches
// found by the walk, finds; `rules` named `what` in a failure. Used for the analysis narrowed to
// the units the prefilter names (what hardguard runs) and for the one whose matches libtree-sitter's
// query engine finds.
static void check_same(env *e, const hg_ruleset *rules, const char *what, hg_surface_id surface, const char *path,
                       const char *text, size_t len, const hg_findings *whole) {
  hg_source src;
  hg_source_from_bytes(&src, path, text, len);
  hg_findings findings = {0};
  hg_file_errors errors = {0};
  hg_check_source(e->checker, surface, rules, e->config, NULL, &src, &findings, &errors);
  hg_findings_sort(&findings);  // in the order a report gives them
  bool same = findings.len == whole->len;
  for (size_t i = 0; i < findings.len && same; i++) same = same_finding(&findings.items[i], &whole->items[i]);
  if (!same) {
    print_error("%s: %zu findings with every unit by the walk, %zu %s:\n", path, whole->len, findings.len, what);
    for (size_t i = 0; i < whole->len; i++)
      print_error("  whole %u:%u %s %s\n", whole->items[i].line, whole->items[i].col, whole->items[i].kind,
                  whole->items[i].message ? whole->items[i].message : "");
    for (size_t i = 0; i < findings.len; i++)
      print_error("  other %u:%u %s %s\n", findings.items[i].line, findings.items[i].col, findings.items[i].kind,
                  findings.items[i].message ? findings.items[i].message : "");
    print_error("%.*s\n", (int)src.len, src.data);
    fail();
  }
  hg_findings_free(&findings);
  hg_file_errors_free(&errors);
  hg_source_free(&src);
}

// Runs the full analysis on `text` without the prefilter; when it reports anything, the prefilter
// must have let the file through, and the analysis narrowed to the units it names must report
// the same.
static void check_sound_as(env *e, hg_surface_id surface, const char *path, const char *text, size_t len) {
  hg_source src;
  hg_source_from_bytes(&src, path, text, len);
  hg_findings findings = {0};
  hg_file_errors errors = {0};
  hg_check_source(e->checker, surface, e->whole, e->config, NULL, &src, &findings, &errors);
  hg_findings_sort(&findings);  // in the order a report gives them
  if (hg_ruleset_has(e->ref, surface) && hg_surface_get(surface)->language) {
    check_same(e, e->ref, "by libtree-sitter's query engine", surface, path, text, len, &findings);
    e->compared++;
  }
  bool may = hg_ruleset_may_contain_site(e->rules, surface, src.data, src.len, NULL);
  if (may)
    check_same(e, e->rules, "with the units the prefilter names", surface, path, text, len, &findings);
  // Sites, and regions that failed to parse where one may hide, are what the prefilter answers
  // for. A marker comment's own findings (bad-suppression, unused-suppression) are not sites: the
  // prefilter is derived from the site patterns only, so a file holding a marker and no site's
  // words is not parsed and its marker not checked.
  const hg_finding *site = NULL;
  for (size_t i = 0; i < findings.len && !site; i++)
    if (findings.items[i].rule != HG_RULE_BAD_SUPPRESSION && findings.items[i].rule != HG_RULE_UNUSED_SUPPRESSION)
      site = &findings.items[i];
  e->files++;
  e->with_findings += site != NULL;
  e->ruled_out += !may;
  if (site && !may) {
    print_error("%s: a site at %u:%u (%s), but the prefilter rules the file out:\n%.*s\n", path, site->line,
                site->col, site->kind, (int)src.len, src.data);
    fail();
  }
  hg_findings_free(&findings);
  hg_file_errors_free(&errors);
  hg_source_free(&src);
}

// The surface a fixture belongs to: its name, else its #! line (a script the walk reads); Python
// for the generated files.
static void check_sound(env *e, const char *path, const char *text, size_t len) {
  int s = hg_surface_by_name(path);
  if (s < 0) s = hg_surface_by_shebang(text, len);
  check_sound_as(e, s < 0 ? HG_SURFACE_PYTHON : (hg_surface_id)s, path, text, len);
}

static env *walk_env;

static int each_fixture(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  if (flag != FTW_F) return 0;
  char *data;
  size_t len;
  hg_error err = {{0}};
  if (hg_read_file(&data, &len, path, &err) != 0) fail_msg("%s", err.message);
  // Every file a surface reads, by its name or its #! line.
  if (hg_surface_by_name(path) < 0 && (!hg_surface_may_have_shebang(path) || hg_surface_by_shebang(data, len) < 0)) {
    free(data);
    return 0;
  }
  env *e = walk_env;
  check_sound(e, path, data, len);
  // Mutations: every prefix at a few cut points (unclosed calls, lists and strings: regions that
  // failed to parse), and the file without each of its first lines.
  for (size_t cut = 1; cut < len; cut += 1 + len / 7) check_sound(e, path, data, cut);
  const char *line = data;
  for (int k = 0; k < 12 && line < data + len; k++) {
    const char *next = memchr(line, '\n', (size_t)(data + len - line));
    next = next ? next + 1 : data + len;
    size_t head = (size_t)(line - data), tail = (size_t)(data + len - next);
    char *cut = malloc(head + tail + 1);
    memcpy(cut, data, head);
    memcpy(cut + head, next, tail);
    check_sound(e, path, cut, head + tail);
    free(cut);
    line = next;
  }
  free(data);
  return 0;
}

static void test_prefilter__never_rules_out_a_fixture(void **state) {
  env *e = *state;
  e->files = e->with_findings = e->ruled_out = 0;
  walk_env = e;
  assert_int_equal(nftw(HG_SOURCE_DIR "/fixtures", each_fixture, 16, FTW_PHYS), 0);
  walk_env = NULL;
  assert_true(e->files > 500);
  assert_true(e->with_findings > 100);
  assert_true(e->compared > 500);  // the walk held equal to the query engine on each
}

// The same over a corpus of real code, when HG_SOUNDNESS_CORPUS names one (.ci/test: corpus C,
// Debian's docker-compose, buildbot, python3-docker and ansible's community.docker): every file,
// its prefixes and the file without each of its first lines.
static void test_prefilter__sound_on_a_corpus(void **state) {
  const char *dir = getenv("HG_SOUNDNESS_CORPUS");
  if (!dir || !*dir) skip();
  env *e = *state;
  e->files = e->with_findings = e->ruled_out = e->compared = 0;
  walk_env = e;
  assert_int_equal(nftw(dir, each_fixture, 16, FTW_PHYS), 0);
  walk_env = NULL;
  print_message("%s: %zu files and mutations, %zu with findings\n", dir, e->files, e->with_findings);
  assert_true(e->files > 100);
  assert_true(e->with_findings > 10);
}

// Snippets holding sites of every kind and shape, some of them cut short.
static const char *const SITES[] = {
    "client.containers.run('img')\n",
    "self._docker.containers.create(image, **kw)\n",
    "docker.from_env().containers.run(x, cap_drop=['ALL'])\n",
    "r = (client\n    .containers  # the collection\n    .run('x'))\n",
    "run = client.containers.run\nrun('img', read_only=True)\n",
    "c = client.containers\nc.create('img')\n",
    "getattr(client.containers, 'run')('img')\n",
    "import docker as d\ncl = d.from_env()\n",
    "from docker import from_env as fe\ncl = fe()\n",
    "from docker import DockerClient\ncl = DockerClient(base_url='unix://x')\n",
    "from docker import DockerClient as DC\ncl = DC.from_env()\n",
    "import docker\nlow = docker.APIClient()\nlow.create_container('img')\n",
    "from docker.api import APIClient as A\nA().create_container(image='x')\n",
    "subprocess.run(['docker', 'run', '--rm', img])\n",
    "cmd = ('podman', 'create', img)\n",
    "argv = [  # c\n    'nerdctl',  # d\n    'container', 'run', x]\n",
    "os.system('docker run --rm x')\n",
    "os.system(\"sudo podman container create x\")\n",
    "from os import system as sh\nsh('docker run x')\n",
    "subprocess.check_output('nerdctl run x', shell=True)\n",
    "shlex.split(f'docker run {img}')\n",
    "asyncio.create_subprocess_shell('docker run x')\n",
    "l\xc3\xa4ufer = client.containers\nl\xc3\xa4ufer.run('img')\n",
    "\xe5\xae\x9f\xe8\xa1\x8c = client.containers.create\n\xe5\xae\x9f\xe8\xa1\x8c('img', **k\xc3\xa9)\n",
    "from docker import from_env as st\xc3\xa4rt\nk = st\xc3\xa4rt()\n",
    "import asyncio\nasyncio.to_thread(client.containers.create, img, **kw)\n",
    "loop.run_in_executor(None, functools.partial(client.containers.run, img))\n",
    "threading.Thread(target=client.containers.run, kwargs={})\n",
    "import docker\nself.client.create_container(img)\n",
    "d = __import__('docker')\nd.from_env()\n",
    "client.containers.run(\n",
    "os.system('docker run x'\n",
    "cmd = ['docker', 'run'\n",
    "x = docker.from_env(\n",
};

static const char *const FILLER[] = {
    "x = 1\n", "def f(a):\n    return a + 1\n", "mycontainers_list = []\n", "from_environment = 2\n",
    "operating_system = 'linux'\n", "print('hello world')\n", "# containers are nice\n", "class K:\n    pass\n",
    "s = 'dockerfile'\n", "'''doc\nstring'''\n", "\xc3\xa9 = 'caf\xc3\xa9'\n", "for i in range(3):\n    pass\n",
    "y = {'a': [1, 2], 'b': (3,)}\n", "import os, subprocess, shlex, asyncio\n", "z = f'{x!r:>10}'\n",
    "if x:\n    y = 2\nelse:\n    y = 3\n", "run = 1\n", "\n",
};

static void test_prefilter__never_rules_out_a_generated_site(void **state) {
  env *e = *state;
  e->files = e->with_findings = e->ruled_out = 0;
  rng_state = UINT64_C(0xD1B54A32D192ED03);
  hg_buf b = {0};
  for (int round = 0; round < 600; round++) {
    b.len = 0;
    uint32_t n_filler = rnd(12), n_sites = rnd(3);
    uint32_t total = n_filler + n_sites;
    bool indent = rnd(4) == 0;
    if (indent) hg_buf_puts(&b, "def wrapper():\n    pass\n");
    for (uint32_t i = 0; i < total; i++) {
      bool site = rnd(total - i) < n_sites;
      const char *text = site ? SITES[rnd(sizeof(SITES) / sizeof(SITES[0]))]
                              : FILLER[rnd(sizeof(FILLER) / sizeof(FILLER[0]))];
      n_sites -= site;
      // Inside the function, every line is indented once.
      for (const char *l = text; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
        if (indent) hg_buf_puts(&b, "    ");
        hg_buf_add(&b, l, len);
        l += len;
      }
    }
    char path[32];
    snprintf(path, sizeof(path), "gen%d.py", round);
    check_sound(e, path, b.data ? b.data : "", b.len);
  }
  hg_buf_free(&b);
  assert_int_equal(e->files, 600);
  assert_true(e->with_findings > 200);
  assert_true(e->ruled_out > 50);  // filler alone is ruled out: the prefilter does its job
}

int main(void) {
  const struct CMUnitTest plain[] = {
      cmocka_unit_test(test_prefilter__derives_the_most_selective_literals),
      cmocka_unit_test(test_prefilter__prefers_literals_searched_anyway),
      cmocka_unit_test(test_prefilter__off_without_a_literal),
      cmocka_unit_test(test_prefilter__literals_that_need_quoting),
  };
  const struct CMUnitTest builtin[] = {
      cmocka_unit_test(test_prefilter__agrees_with_the_alternation),
      cmocka_unit_test(test_prefilter__seed_round_trip),
      cmocka_unit_test(test_prefilter__never_rules_out_a_fixture),
      cmocka_unit_test(test_prefilter__never_rules_out_a_generated_site),
      cmocka_unit_test(test_prefilter__sound_on_a_corpus),
  };
  int failed = cmocka_run_group_tests_name("prefilter", plain, NULL, NULL);
  return failed + cmocka_run_group_tests_name("prefilter/builtin-rules", builtin, setup_env, teardown_env);
}
