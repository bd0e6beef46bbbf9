// Unit tests for gate.c and gatediff.c: what a config relaxes, and what a change's config,
// baseline and markers relax that their base's did not (removing or narrowing is never reported).
#define _GNU_SOURCE // nftw
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "app/gate.h"
#include "app/project.h"

static hg_config *parse(const char *text) {
  hg_config *c = NULL;
  hg_error err;
  if (hg_config_parse(&c, ".hardguard.yml", text, strlen(text), &err) != 0)
    fail_msg("%s", err.message);
  return c;
}

// The relaxations `head` adds to `base` (config texts), as "line kind: message" lines.
static char *config_diff(const char *base, const char *head) {
  hg_config *b = parse(base), *h = parse(head);
  hg_relaxations out = {0};
  hg_gate_compare_config(b, h, &out);
  hg_buf s = {0};
  for (size_t i = 0; i < out.len; i++) {
    assert_string_equal(out.items[i].path, ".hardguard.yml");
    hg_buf_printf(&s, "%u %s: %s%s%s\n", out.items[i].line, hg_relax_names[out.items[i].kind], out.items[i].message,
                  out.items[i].reason ? " -- " : "", out.items[i].reason ? out.items[i].reason : "");
  }
  hg_relaxations_free(&out);
  hg_config_free(b);
  hg_config_free(h);
  return s.data ? hg_buf_detach(&s) : hg_xstrdup("");
}

#define POLICY                                                                                                         \
  "exclude: [\"tests/**\", \"build/**\"]\n"                                                                            \
  "builders:\n"                                                                                                        \
  "  - module: sandbox.hardening\n"                                                                                    \
  "    callables: [hardening_kwargs, hardening_argv]\n"                                                                \
  "allow:\n"                                                                                                           \
  "  - paths: [\"svc/batch/**\"]\n"                                                                                    \
  "    requirements: [network-none, read-only]\n"                                                                      \
  "    reason: the mirror\n"

static void test_gate__config_unchanged_or_reordered_adds_nothing(void **state) {
  (void)state;
  char *d = config_diff(POLICY, POLICY);
  assert_string_equal(d, "");
  free(d);
  d = config_diff(POLICY,
                  "allow:\n  - paths: [\"svc/batch/**\"]\n    requirements: [read-only, network-none]\n"
                  "    reason: another reason\n"
                  "builders:\n  - module: sandbox.hardening\n    callables: [hardening_argv, hardening_kwargs]\n"
                  "exclude: [\"build/**\", \"tests/**\"]\n");
  assert_string_equal(d, "");
  free(d);
}

static void test_gate__config_additions_are_named_at_their_lines(void **state) {
  (void)state;
  const struct {
    const char *head, *want;
  } cases[] = {
      {"exclude: \"**\"\n", "1 exclude: adds `exclude: **`: the files it matches are not checked\n"},
      {"exclude: [\"tests/**\", \"svc/*.py\"]\n",
       "1 exclude: adds `exclude: svc/*.py`: the files it matches are not checked\n"},
      {"surfaces: {shell: false, make: true}\n", "1 surface: turns the `shell` surface off: its files are not read\n"},
      {POLICY "strict: false\n", ""},
      {"builders:\n  - module: os\n    callables: [getcwd]\n",
       "2 builder: adds the builder `os` (`getcwd`): a site that applies it passes\n"},
      {"builders:\n  - module: sandbox.hardening\n    callables: [hardening_kwargs, hardening_argv, x, y]\n",
       "2 builder: adds `x`, `y` to the builder `sandbox.hardening`: a site that applies one of them passes\n"},
      {"builders:\n  - module: sandbox.hardening\n    callables: [hardening_kwargs]\n    trust: true\n",
       "2 trust: marks the builder `sandbox.hardening` `trust: true`: what it yields is no longer read\n"},
      {"allow:\n  - paths: [\"svc/batch/**\", \"svc/**\"]\n    requirements: [network-none]\n    reason: wider\n",
       "2 allow: `allow:` relaxes network-none for `svc/**` -- wider\n"},
      {"allow:\n  - paths: [\"svc/batch/**\"]\n    requirements: [network-none, read-only, memory-limit]\n"
       "    reason: more\n",
       "2 allow: `allow:` relaxes memory-limit for `svc/batch/**` -- more\n"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *d = config_diff(POLICY, cases[i].head);
    assert_string_equal(d, cases[i].want);
    free(d);
  }
}

static void test_gate__config_removals_and_narrowing_are_silent(void **state) {
  (void)state;
  const char *heads[] = {
      "{}\n",
      "exclude: [\"tests/**\"]\n",
      "builders:\n  - module: sandbox.hardening\n    callables: [hardening_kwargs]\n",
      "allow:\n  - paths: [\"svc/batch/**\"]\n    requirements: [network-none]\n    reason: the mirror\n",
      "surfaces: {shell: true}\n",
  };
  for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
    char *d = config_diff(POLICY, heads[i]);
    assert_string_equal(d, "");
    free(d);
    // Turning `strict` on tightens the gate.
    d = config_diff(heads[i], "strict: true\n");
    assert_string_equal(d, "");
    free(d);
  }
  // Against an empty base (no config at the ref), everything is added.
  char *d = config_diff("{}\n", POLICY);
  assert_string_equal(d, "1 exclude: adds `exclude: tests/**`: the files it matches are not checked\n"
                         "1 exclude: adds `exclude: build/**`: the files it matches are not checked\n"
                         "6 allow: `allow:` relaxes network-none, read-only for `svc/batch/**` -- the mirror\n"
                         "3 builder: adds the builder `sandbox.hardening` (`hardening_kwargs`, `hardening_argv`): a "
                         "site that applies it passes\n");
  free(d);
}

static void test_gate__turning_strict_off_is_reported(void **state) {
  (void)state;
  char *d = config_diff("strict: true\n", "exclude: []\nstrict: false\n");
  assert_string_equal(d, "2 strict: turns `strict` off: gate-relaxed warnings no longer fail the run\n");
  free(d);
  d = config_diff("strict: true\n", "{}\n");
  assert_string_equal(d, "0 strict: turns `strict` off: gate-relaxed warnings no longer fail the run\n");
  free(d);
  hg_config *c = NULL;
  hg_error err;
  assert_int_equal(hg_config_parse(&c, "c.yml", "strict: yes\n", 12, &err), -1);
  assert_string_equal(err.message, "c.yml:1:9: strict: expected true or false, got 'yes'");
}

static void test_gate__init_lists_what_the_config_relaxes(void **state) {
  (void)state;
  hg_config *c = parse(POLICY "surfaces: {make: false}\n");
  free(c->builders[0].module);
  c->builders[0].module = hg_xstrdup("vendor.hardening");
  c->builders[0].trust = true;
  hg_gate g = {0};
  hg_gate_init(&g, c);
  assert_int_equal(g.trusted_builders, 1);
  assert_int_equal(g.in_force.len, 5);
  assert_int_equal(g.in_force.items[0].kind, HG_RELAX_EXCLUDE);
  assert_int_equal(g.in_force.items[0].line, 1);
  assert_int_equal(g.in_force.items[2].kind, HG_RELAX_ALLOW);
  assert_string_equal(g.in_force.items[2].message, "`allow:` relaxes network-none, read-only for `svc/batch/**`");
  assert_string_equal(g.in_force.items[2].reason, "the mirror");
  assert_int_equal(g.in_force.items[3].kind, HG_RELAX_SURFACE);
  assert_int_equal(g.in_force.items[3].line, 9);
  assert_int_equal(g.in_force.items[4].kind, HG_RELAX_TRUST);
  assert_int_equal(g.in_force.items[4].line, 3);
  hg_gate_free(&g);
  hg_config_free(c);
}

static hg_baseline baseline(const char *text) {
  hg_baseline b = {0};
  hg_error err;
  if (hg_baseline_parse(&b, "base.txt", text, strlen(text), &err) != 0)
    fail_msg("%s", err.message);
  return b;
}

static void test_gate__baseline_entries_added_as_many_times(void **state) {
  (void)state;
  hg_baseline b = baseline("# header\na.py\tunhardened-site\tsdk-run\tx()\nb.py\tunhardened-site\tsdk-run\ty()\n");
  hg_baseline h = baseline("a.py\tunhardened-site\tsdk-run\tx()\n"
                           "a.py\tunhardened-site\tsdk-run\tx()\n"
                           "c.py\tweakening-option\tsdk-run\tz(privileged=True)\n");
  hg_relaxations out = {0};
  hg_gate_compare_baseline(&b, &h, "base.txt", &out);
  assert_int_equal(out.len, 2);
  assert_int_equal(out.items[0].line, 2);
  assert_string_equal(out.items[0].message,
                      "adds a baseline entry: a.py unhardened-site (sdk-run) at `x()` no longer fails the run");
  assert_int_equal(out.items[1].line, 3);
  assert_int_equal(out.items[1].kind, HG_RELAX_BASELINE);
  hg_relaxations_free(&out);
  // Entries removed: nothing.
  hg_gate_compare_baseline(&h, &b, "base.txt", &out);
  assert_int_equal(out.len, 1); // b.py's entry is new relative to h
  assert_string_equal(out.items[0].message,
                      "adds a baseline entry: b.py unhardened-site (sdk-run) at `y()` no longer fails the run");
  hg_relaxations_free(&out);
  hg_baseline_free(&b);
  hg_baseline_free(&h);
}

// The lines of `head` whose markers `base` does not cover, as "line,line,".
static char *marker_lines(const char *base, const char *head) {
  hg_relaxations out = {0};
  hg_gate_compare_markers(base, base ? strlen(base) : 0, head, strlen(head), "f.py", &out);
  hg_buf s = {0};
  hg_buf_puts(&s, "");
  for (size_t i = 0; i < out.len; i++) {
    assert_int_equal(out.items[i].kind, HG_RELAX_MARKER);
    hg_buf_printf(&s, "%u,", out.items[i].line);
  }
  hg_relaxations_free(&out);
  return hg_buf_detach(&s);
}

static void test_gate__markers(void **state) {
  (void)state;
  const char *base = "import docker\n"
                     "run(a)  # hardguard: ignore[weakening-option, unhardened-site] -- legacy\n"
                     "# hardguard: allow[network-none] -- mirror\n"
                     "run(b)\n";
  const struct {
    const char *head, *want;
  } cases[] = {
      {base, ""},
      // removed, narrowed, reason reworded in place: silent
      {"import docker\nrun(a)\nrun(b)\n", ""},
      {"import docker\nrun(a)  # hardguard: ignore[weakening-option] -- legacy\nrun(b)\n", ""},
      {"import docker\nrun(a)  # hardguard: ignore[weakening-option, unhardened-site] -- now tracked in #7\n", ""},
      // moved above its site, or code above it added: silent
      {"import docker\nx = 1\n# hardguard: ignore[weakening-option, unhardened-site] -- legacy\nrun(a)\n", ""},
      // widened, added, copied to a second site, switched from allow to ignore: reported
      {"import docker\nrun(a)  # hardguard: ignore[weakening-option, unhardened-site, unused-suppression] -- legacy\n",
       "2,"},
      {"run(c)  #hardguard:ignore[unhardened-site] -- new\n", "1,"},
      {"run(a)  # hardguard: ignore[weakening-option, unhardened-site] -- legacy\n"
       "run(z)  # hardguard: ignore[weakening-option, unhardened-site] -- legacy\n",
       "2,"},
      {"# hardguard: ignore[network-none] -- mirror\nrun(b)\n", "1,"},
      // not markers: prose, a malformed one
      {"# see the hardguard: docs\nrun(a)  # hardguard: ignore[x -- unclosed\n", ""},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *got = marker_lines(base, cases[i].head);
    if (strcmp(got, cases[i].want))
      fail_msg("case %zu: lines %s, expected %s", i, got, cases[i].want);
    free(got);
  }
  // A new file: every marker is added.
  char *got = marker_lines(NULL, base);
  assert_string_equal(got, "2,3,");
  free(got);
}

// ---- builders must be real ----------------------------------------------------------------------

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static void test_gate__builders_must_be_modules_of_the_project(void **state) {
  (void)state;
  char dir[] = "/tmp/hg-gate-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char *pkg = hg_xasprintf("%s/sandbox", dir), *mod = hg_xasprintf("%s/sandbox/hardening.py", dir);
  assert_int_equal(mkdir(pkg, 0755), 0);
  FILE *f = fopen(mod, "w");
  assert_non_null(f);
  fputs("def hardening_kwargs():\n    return {}\n", f);
  fclose(f);
  const char *text = "builders:\n  - module: sandbox.hardening\n    callables: [hardening_kwargs]\n"
                     "  - module: os\n    callables: [getcwd]\n";
  hg_config *c = NULL;
  hg_error err;
  char *path = hg_xasprintf("%s/.hardguard.yml", dir);
  assert_int_equal(hg_config_parse(&c, path, text, strlen(text), &err), 0);
  hg_projects *projects = hg_projects_new(NULL, c, dir);
  assert_int_equal(hg_gate_check_builders(c, projects, &err), -1);
  char *want = hg_xasprintf("%s:4: builders: 'os' is not a module of this project", path);
  assert_memory_equal(err.message, want, strlen(want));
  assert_int_equal(hg_projects_parsed(projects), 0); // looked for, not parsed
  c->builders[1].trust = true;
  assert_int_equal(hg_gate_check_builders(c, projects, &err), 0);
  hg_projects_free(projects);
  hg_config_free(c);
  free(want);
  free(path);
  free(mod);
  free(pkg);
  assert_int_equal(nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gate__config_unchanged_or_reordered_adds_nothing),
      cmocka_unit_test(test_gate__config_additions_are_named_at_their_lines),
      cmocka_unit_test(test_gate__config_removals_and_narrowing_are_silent),
      cmocka_unit_test(test_gate__turning_strict_off_is_reported),
      cmocka_unit_test(test_gate__init_lists_what_the_config_relaxes),
      cmocka_unit_test(test_gate__baseline_entries_added_as_many_times),
      cmocka_unit_test(test_gate__markers),
      cmocka_unit_test(test_gate__builders_must_be_modules_of_the_project),
  };
  return cmocka_run_group_tests_name("gate", tests, NULL, NULL);
}
