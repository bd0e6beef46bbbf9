// End-to-end through the pieces: the built-in rules (ruleset.c, predicate.c), extraction
// (extract.c, resolve.c) and judging, driven by hg_scan_bytes on small Python snippets. Also rule
// directories that fail to load, and the prefilter.
#define _GNU_SOURCE  // nftw
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ftw.h>

#include <cmocka.h>

#include "helpers.h"

#include "app/project.h"
#include "app/scan.h"
#include "surfaces/registry.h"

#ifndef HG_SOURCE_DIR
#error "HG_SOURCE_DIR must name the source tree (set by tests/unit/CMakeLists.txt)"
#endif

// ---- group fixture: the built-in rules and three configs ------------------------------------

typedef struct {
  hg_ruleset *rules;
  hg_config *plain;    // no .hardguard.yml
  hg_config *builder;  // builder sandbox.container_hardening: hardening_kwargs
  hg_config *relative; // builder backend.sandbox.container_hardening: hardening_kwargs
  pcre2_match_data *md;
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
  e->builder = hg_test_config_with_builder("sandbox.container_hardening", "hardening_kwargs");
  e->relative = hg_test_config_with_builder("backend.sandbox.container_hardening", "hardening_kwargs");
  e->md = pcre2_match_data_create(16, NULL);
  *state = e;
  return 0;
}

static int teardown_env(void **state) {
  env *e = *state;
  pcre2_match_data_free(e->md);
  hg_config_free(e->plain);
  hg_config_free(e->builder);
  hg_config_free(e->relative);
  hg_ruleset_free(e->rules);
  free(e);
  return 0;
}

// ---- scanning snippets ---------------------------------------------------------------------------

typedef struct {
  uint32_t line, col;
  const char *kind;
  hg_rule_id rule;
  hg_via via;
  size_t n_missing;
} want_finding;

typedef struct {
  const char *name;
  const char *src;
  size_t n;
  want_finding f[4];
} scan_case;

static void scan(const env *e, const hg_config *config, hg_projects *projects, const char *path, const char *src,
                 hg_findings *out, hg_file_errors *errors) {
  hg_scan_options o = {.rules = e->rules, .config = config, .jobs = 1, .projects = projects};
  *out = (hg_findings){0};
  *errors = (hg_file_errors){0};
  hg_scan_bytes(&o, path, src, strlen(src), out, errors);
}

static void print_findings(const hg_findings *f) {
  for (size_t i = 0; i < f->len; i++)
    print_error("  %u:%u %s rule %d via %d missing %zu: %s\n", f->items[i].line, f->items[i].col, f->items[i].kind,
                f->items[i].rule, f->items[i].via, f->items[i].n_missing, f->items[i].message);
}

static void check_findings(const char *name, const hg_findings *got, const want_finding *want, size_t n) {
  if (got->len != n) {
    print_error("case '%s': %zu findings, expected %zu\n", name, got->len, n);
    print_findings(got);
  }
  assert_int_equal(got->len, n);
  for (size_t i = 0; i < n; i++) {
    const hg_finding *f = &got->items[i];
    const want_finding *w = &want[i];
    if (f->line != w->line || f->col != w->col || strcmp(f->kind, w->kind) != 0 || f->rule != w->rule ||
        f->via != w->via || f->n_missing != w->n_missing) {
      print_error("case '%s', finding %zu:\n", name, i);
      print_findings(got);
    }
    assert_int_equal(f->line, w->line);
    assert_int_equal(f->col, w->col);
    assert_string_equal(f->kind, w->kind);
    assert_int_equal(f->rule, w->rule);
    assert_int_equal(f->via, w->via);
    assert_int_equal(f->n_missing, w->n_missing);
  }
}

static void run_scan_cases(const env *e, const hg_config *config, hg_projects *projects, const char *path,
                           const scan_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    hg_findings f;
    hg_file_errors fe;
    scan(e, config, projects, path, cases[i].src, &f, &fe);
    check_findings(cases[i].name, &f, cases[i].f, cases[i].n);
    if (fe.len) print_error("case '%s': unexpected file error: %s\n", cases[i].name, fe.items[0].message);
    assert_int_equal(fe.len, 0);
    hg_findings_free(&f);
    hg_file_errors_free(&fe);
  }
}

#define RUN_SCAN(e, cfg, t) run_scan_cases((e), (cfg), NULL, "t.py", (t), sizeof(t) / sizeof((t)[0]))
#define CLIENT_FAIL(l, c) {(l), (c), "client", HG_RULE_CLIENT_WITHOUT_BUILDER, HG_VIA_NONE, 0}
#define UNHARDENED(l, c, kind, m) {(l), (c), (kind), HG_RULE_UNHARDENED_SITE, HG_VIA_NONE, (m)}

static void test_extract__client_sites(void **state) {
  env *e = *state;
  static const scan_case cases[] = {
      {"import docker as d", "import docker as d\nc = d.from_env()\n", 1, {CLIENT_FAIL(2, 5)}},
      {"from docker import from_env as fe", "from docker import from_env as fe\nfe()\n", 1, {CLIENT_FAIL(2, 1)}},
      {"plain docker.from_env", "import docker\nclient = docker.from_env()\n", 1, {CLIENT_FAIL(2, 10)}},
      {"DockerClient", "from docker import DockerClient\nc = DockerClient(base_url=u)\n", 1, {CLIENT_FAIL(2, 5)}},
      {"APIClient", "import docker\napi = docker.APIClient()\n", 1, {CLIENT_FAIL(2, 7)}},
      // Imports are collected before sites are judged: a late import still binds the name.
      {"import after use", "def f():\n    return d.from_env()\nimport docker as d\n", 1, {CLIENT_FAIL(2, 12)}},
      // from_env of another library is not a Docker client.
      {"unrelated from_env", "from environ import from_env\nfrom_env()\n", 0, {{0}}},
      {"shadowed alias", "import docker as d\nimport other as d\nd.from_env()\n", 0, {{0}}},
      // A module imported by a call and bound to a name is an import (rules/python/facts/imports.scm).
      {"pytest.importorskip",
       "import pytest\ndocker = pytest.importorskip(\"docker\")\nc = docker.from_env()\n",
       1,
       {CLIENT_FAIL(3, 5)}},
      {"from pytest import importorskip",
       "from pytest import importorskip\ndef test_x():\n    docker = importorskip('docker', minversion='6')\n"
       "    return docker.DockerClient()\n",
       1,
       {CLIENT_FAIL(4, 12)}},
      {"importlib.import_module",
       "import importlib\nd = importlib.import_module(\"docker\")\nd.APIClient()\n",
       1,
       {CLIENT_FAIL(3, 1)}},
      {"import_module of a submodule",
       "from importlib import import_module\nc = import_module('docker.client')\n"
       "c.from_env()\n",
       1,
       {CLIENT_FAIL(3, 1)}},
      {"__import__", "d = __import__(\"docker\")\nd.from_env()\n", 1, {CLIENT_FAIL(2, 1)}},
      // __import__("a.b") returns the package a; another callee with a module's name is no import.
      {"__import__ of a dotted name", "d = __import__(\"docker.api\")\nd.from_env()\n", 0, {{0}}},
      // podman-py's client, whatever the name it is bound to
      {"importorskip of another SDK",
       "import pytest\ndocker = pytest.importorskip(\"podman\")\ndocker.from_env()\n",
       1,
       {CLIENT_FAIL(3, 1)}},
      {"another callee", "import mylib\ndocker = mylib.load(\"docker\")\ndocker.from_env()\n", 0, {{0}}},
  };
  RUN_SCAN(e, e->plain, cases);
}

static void test_extract__not_a_site(void **state) {
  env *e = *state;
  static const scan_case cases[] = {
      {"containers.list", "client.containers.list()\n", 0, {{0}}},
      {"containers.get and prune", "c = client.containers.get(cid)\nclient.containers.prune()\n", 0, {{0}}},
      {"docstring mentioning docker run",
       "def start():\n    \"\"\"Starts it like `docker run --rm img` or docker.from_env().containers.run().\"\"\"\n"
       "    return 1\n",
       0, {{0}}},
      {"log message", "log.info(\"docker run --rm img\")\nprint('docker run x')\n", 0, {{0}}},
      {"docker build argv", "x = [\"docker\", \"build\", \".\"]\n", 0, {{0}}},
      {"docker ps argv", "subprocess.run([\"docker\", \"ps\"])\n", 0, {{0}}},
      {"other program's run", "x = [\"cargo\", \"run\"]\n", 0, {{0}}},
      {"os.system of another module", "from mylib import os\nos.system(\"docker run --rm x\")\n", 0, {{0}}},
      {"os.system of another command", "import os\nos.system(\"ls -l\")\n", 0, {{0}}},
      {"comment", "# docker.from_env().containers.run(img)\n", 0, {{0}}},
  };
  RUN_SCAN(e, e->plain, cases);
}

static void test_extract__container_sites(void **state) {
  env *e = *state;
  static const scan_case cases[] = {
      {"os.system", "import os\nos.system(\"docker run --rm x\")\n", 1, {UNHARDENED(2, 1, "cli-run", 7)}},
      {"subprocess shell=True", "import subprocess\nsubprocess.run(\"docker run x\", shell=True)\n", 1,
       {UNHARDENED(2, 1, "cli-run", 7)}},
      {"argv list at its bracket", "import subprocess\nsubprocess.run([\"docker\", \"run\", \"--rm\", \"img\"])\n", 1,
       {UNHARDENED(2, 16, "cli-run", 7)}},
      {"argv tuple", "cmd = (\"podman\", \"container\", \"create\", \"img\")\n", 1, {UNHARDENED(1, 7, "cli-run", 7)}},
      {"two sites at one column", "import docker\ndocker.from_env().containers.create(i)\n", 2,
       {CLIENT_FAIL(2, 1), UNHARDENED(2, 1, "sdk-create", 7)}},
      {"sdk-run partial, multi-line", "client.containers.run(\n    img,\n    cap_drop=[\"ALL\"],\n)\n", 1,
       {UNHARDENED(1, 1, "sdk-run", 6)}},
      {"sdk-run full flags",
       "client.containers.run(img, security_opt=[\"no-new-privileges\"], cap_drop=[\"ALL\"], network_mode=\"none\",\n"
       "    read_only=True, mem_limit=\"512m\", nano_cpus=10**9, pids_limit=64)\n",
       1, {{1, 1, "sdk-run", HG_RULE_NONE, HG_VIA_FLAGS, 0}}},
      {"sdk-run flags in a dict literal",
       "client.containers.run(img, **{\"security_opt\": [\"no-new-privileges\"], \"cap_drop\": [\"ALL\"],\n"
       "    \"network_mode\": \"none\", \"read_only\": True, \"mem_limit\": \"1g\", \"cpu_quota\": 50000,\n"
       "    \"pids_limit\": 64})\n",
       1, {{1, 1, "sdk-run", HG_RULE_NONE, HG_VIA_FLAGS, 0}}},
      {"sdk-run kwargs parameter", "def run(client, **kw):\n    return client.containers.run(img, **kw)\n", 1,
       {{2, 12, "sdk-run", HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, 7}}},
      {"utf-8 column", "x = \"\xc3\xa9\"; c = docker.from_env()\n", 1, {CLIENT_FAIL(1, 14)}},
  };
  RUN_SCAN(e, e->plain, cases);
}

static void test_extract__lowlevel_receivers(void **state) {
  env *e = *state;
  static const scan_case cases[] = {
      {"any receiver in a module importing docker",
       "import docker\ndef t(self):\n    self.client.create_container('img', ['true'])\n",
       1,
       {UNHARDENED(3, 5, "sdk-lowlevel", 7)}},
      {"any import form",
       "from docker.api import APIClient\ncontext.docker_client.create_container(image='x')\n",
       1,
       {UNHARDENED(2, 1, "sdk-lowlevel", 7)}},
      {"docker imported by a call",
       "import pytest\ndocker = pytest.importorskip('docker')\napi.create_container('x')\n",
       1,
       {UNHARDENED(3, 1, "sdk-lowlevel", 7)}},
      {"a client followed without the import",
       "api = __import__('docker').APIClient()\napi.create_container('x')\n",
       2,
       {CLIENT_FAIL(1, 7), UNHARDENED(2, 1, "sdk-lowlevel", 7)}},
      {"no docker import", "import azure\nservice.create_container('logs')\n", 0, {{0}}},
      {"another package named like it", "import dockerfile\nservice.create_container('logs')\n", 0, {{0}}},
      {"the project's own class",
       "import docker\nclass Store:\n    def create_container(self, n):\n        return n\n"
       "s = Store()\ns.create_container('logs')\n",
       0,
       {{0}}},
      {"self inside the project's class",
       "import docker\nclass Store:\n    def create_container(self, n):\n        return n\n"
       "    def again(self, n):\n        return self.create_container(n)\n",
       0,
       {{0}}},
      {"self of a class that only inherits docker's",
       "import docker\nclass Api(docker.APIClient):\n    def make(self, n):\n        return self.create_container(n)\n",
       1,
       {UNHARDENED(4, 16, "sdk-lowlevel", 7)}},
      {"a project function of that name",
       "import docker\ndef create_container(n):\n    return n\ncreate_container('x')\n",
       0,
       {{0}}},
      {"with host_config on the project's class",
       "class Store:\n    def create_container(self, n, host_config=None):\n        return n\n"
       "Store().create_container('logs', host_config={})\n",
       0,
       {{0}}},
  };
  // With the project stage (an index over no files: the snippet's own classes are followed).
  hg_projects *ix = hg_projects_new(e->rules, e->plain, "/nonexistent");
  run_scan_cases(e, e->plain, ix, "t.py", cases, sizeof(cases) / sizeof(cases[0]));
  hg_projects_free(ix);
}

static void test_extract__finding_details(void **state) {
  env *e = *state;
  hg_findings f;
  hg_file_errors fe;
  scan(e, e->plain, NULL, "pkg/t.py", "import docker as d\nc = d.from_env()  # here\n", &f, &fe);
  assert_int_equal(f.len, 1);
  const hg_finding *x = &f.items[0];
  assert_string_equal(x->path, "pkg/t.py");
  assert_int_equal(x->line, 2);
  assert_int_equal(x->col, 5);
  assert_int_equal(x->end_line, 2);
  assert_int_equal(x->end_col, 17);
  assert_string_equal(x->source_line, "c = d.from_env()  # here");
  assert_string_equal(x->message, "Docker client opened, and no hardening builder is configured");
  assert_non_null(x->fix);
  hg_findings_free(&f);
  hg_file_errors_free(&fe);

  // The missing requirement ids, in policy order.
  scan(e, e->plain, NULL, "t.py", "client.containers.run(img, cap_drop=[\"ALL\"], read_only=True)\n", &f, &fe);
  assert_int_equal(f.len, 1);
  static const char *const missing[] = {"no-new-privileges", "network-none", "memory-limit", "cpu-limit", "pids-limit"};
  assert_int_equal(f.items[0].n_missing, 5);
  for (size_t i = 0; i < 5; i++) assert_string_equal(f.items[0].missing[i], missing[i]);
  assert_int_equal(f.items[0].end_line, 1);
  assert_int_equal(f.items[0].end_col, 61);
  hg_findings_free(&f);
  hg_file_errors_free(&fe);
}

static void test_extract__builder_config(void **state) {
  env *e = *state;
  static const scan_case cases[] = {
      {"builder applied and not applied",
       "from sandbox.container_hardening import hardening_kwargs\n"
       "import docker\n"
       "client = docker.from_env()\n"
       "client.containers.run(img, **hardening_kwargs())\n"
       "client.containers.create(img)\n",
       3,
       {{3, 10, "client", HG_RULE_NONE, HG_VIA_BUILDER, 0},
        {4, 1, "sdk-run", HG_RULE_NONE, HG_VIA_BUILDER, 0},
        {5, 1, "sdk-create", HG_RULE_BUILDER_NOT_APPLIED, HG_VIA_NONE, 7}}},
      {"builder merged last over caller kwargs",
       "from sandbox.container_hardening import hardening_kwargs\n"
       "def run(client, **kw):\n"
       "    client.containers.run(img, **{**kw, **hardening_kwargs()})\n",
       1, {{3, 5, "sdk-run", HG_RULE_NONE, HG_VIA_BUILDER, 0}}},
      {"lookalike builder from another module",
       "from mylib import hardening_kwargs\n"
       "client.containers.run(img, **hardening_kwargs())\n",
       1, {{2, 1, "sdk-run", HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, 7}}},
      {"client without the builder import", "import docker\nc = docker.from_env()\n", 1, {CLIENT_FAIL(2, 5)}},
  };
  RUN_SCAN(e, e->builder, cases);
}

static void test_extract__relative_builder_import(void **state) {
  env *e = *state;
  static const scan_case cases[] = {
      {"from .container_hardening",
       "from .container_hardening import hardening_kwargs\n"
       "client.containers.run(img, **hardening_kwargs())\n",
       1, {{2, 1, "sdk-run", HG_RULE_NONE, HG_VIA_BUILDER, 0}}},
  };
  // The package comes from the path: backend/sandbox/app.py is in backend.sandbox.
  run_scan_cases(e, e->relative, NULL, "backend/sandbox/app.py", cases, 1);
  // From another package, the same relative import names another module.
  static const scan_case elsewhere[] = {
      {"from .container_hardening elsewhere",
       "from .container_hardening import hardening_kwargs\n"
       "client.containers.run(img, **hardening_kwargs())\n",
       1, {{2, 1, "sdk-run", HG_RULE_UNVERIFIABLE_FLAGS, HG_VIA_NONE, 7}}},
  };
  run_scan_cases(e, e->relative, NULL, "backend/api/app.py", elsewhere, 1);
}

static void test_extract__syntax_errors(void **state) {
  env *e = *state;
  hg_findings f;
  hg_file_errors fe;
  // A syntax error elsewhere: the file error, and the valid site is still judged.
  scan(e, e->plain, NULL, "t.py", "def f(:\n    pass\nimport docker\ndocker.from_env()\n", &f, &fe);
  static const want_finding later[] = {CLIENT_FAIL(4, 1)};
  check_findings("site after a syntax error", &f, later, 1);
  assert_int_equal(fe.len, 1);
  assert_int_equal(fe.items[0].kind, HG_FILE_SYNTAX);
  assert_string_equal(fe.items[0].path, "t.py");
  assert_int_equal(fe.items[0].line, 1);
  assert_int_equal(fe.items[0].col, 7);
  hg_findings_free(&f);
  hg_file_errors_free(&fe);

  // A syntax error inside the site's own arguments.
  scan(e, e->plain, NULL, "t.py", "client.containers.run(img, cap_drop=[\"ALL\", )\nx = 1\n", &f, &fe);
  static const want_finding own[] = {{1, 1, "sdk-run", HG_RULE_UNPARSABLE_SITE, HG_VIA_NONE, 0}};
  check_findings("syntax error in the site", &f, own, 1);
  assert_int_equal(fe.len, 1);
  hg_findings_free(&f);
  hg_file_errors_free(&fe);

  // An unclosed call that mentions a site's words is reported rather than skipped.
  scan(e, e->plain, NULL, "t.py", "import docker\nc = docker.from_env(\n", &f, &fe);
  assert_int_equal(f.len, 1);
  assert_int_equal(f.items[0].rule, HG_RULE_UNPARSABLE_SITE);
  assert_int_equal(f.items[0].line, 2);
  assert_int_equal(fe.len, 1);
  hg_findings_free(&f);
  hg_file_errors_free(&fe);

  // A syntax error with no site words anywhere near: only the file error.
  scan(e, e->plain, NULL, "t.py", "import docker\nc = docker.from_env()\ndef g(:\n    pass\n", &f, &fe);
  static const want_finding none_hidden[] = {CLIENT_FAIL(2, 5)};
  check_findings("unrelated syntax error", &f, none_hidden, 1);
  assert_int_equal(fe.len, 1);
  hg_findings_free(&f);
  hg_file_errors_free(&fe);
}

static void test_extract__message_has_no_hole_bytes(void **state) {
  env *e = *state;
  // Regression (found by these tests, fixed): an f-string value that cannot be verified is named in the message by its resolved text,
  // which holds the HG_HOLE byte ('\x01') where the interpolation was. For
  //   client.containers.run(i, security_opt=[f"no-new-privileges{x}"])
  // the message reads "takes options from `no-new-privileges\x01` (not a literal, line 1)": a raw
  // control byte in text output. Expected: the expression as written (f"no-new-privileges{x}").
  hg_findings f;
  hg_file_errors fe;
  scan(e, e->plain, NULL, "t.py",
       "client.containers.run(i, security_opt=[f\"no-new-privileges{x}\"], cap_drop=[\"ALL\"], network_mode=\"none\",\n"
       "    read_only=True, mem_limit=\"1g\", nano_cpus=10**9, pids_limit=64)\n",
       &f, &fe);
  assert_int_equal(f.len, 1);
  assert_int_equal(f.items[0].rule, HG_RULE_UNVERIFIABLE_FLAGS);
  assert_non_null(strstr(f.items[0].message, "f\"no-new-privileges{…}\""));
  bool has_hole = strchr(f.items[0].message, '\x01') != NULL;
  hg_findings_free(&f);
  hg_file_errors_free(&fe);
  assert_false(has_hole);
}

// ---- hg_scan over files, on several threads -------------------------------------------------------

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

typedef struct {
  env *e;
  char dir[64];
} scan_dir;

static int setup_scan_dir(void **state) {
  scan_dir *d = calloc(1, sizeof(*d));
  d->e = *state;  // the group's env
  strcpy(d->dir, "/tmp/hg-extract-XXXXXX");
  if (!mkdtemp(d->dir)) return -1;
  *state = d;
  return 0;
}

static int teardown_scan_dir(void **state) {
  scan_dir *d = *state;
  int rc = nftw(d->dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
  free(d);
  return rc;
}

static void test_extract__scan_files_sorted_across_threads(void **state) {
  scan_dir *d = *state;
  env *e = d->e;
  const char *dir = d->dir;
  char *paths[4];
  static const char *const srcs[4] = {
      "import docker\nc = docker.from_env()\n",
      "print('hello')\n",
      "client.containers.run(img)\nclient.containers.create(img)\n",
      "import os\nos.system('docker run x')\n",
  };
  for (int i = 0; i < 4; i++) {
    paths[3 - i] = hg_xasprintf("%s/f%d.py", dir, i);  // given in reverse order
    write_file(paths[3 - i], srcs[i]);
  }
  hg_scan_options o = {.rules = e->rules, .config = e->plain, .jobs = 3};
  hg_findings f = {0};
  hg_file_errors fe = {0};
  hg_scan_stats stats = {0};
  hg_error err = {{0}};
  assert_int_equal(hg_scan(&o, paths, 4, &f, &fe, &stats, &err), 0);
  assert_int_equal(stats.files, 4);
  assert_int_equal(stats.parsed, 3);  // the prefilter skips print('hello')
  assert_int_equal(stats.sites, 4);
  assert_int_equal(stats.failing, 4);
  assert_int_equal(fe.len, 0);
  assert_int_equal(f.len, 4);
  static const struct {
    int file;
    uint32_t line;
    const char *kind;
  } order[] = {{0, 2, "client"}, {2, 1, "sdk-run"}, {2, 2, "sdk-create"}, {3, 2, "cli-run"}};
  for (size_t i = 0; i < 4; i++) {
    char *want = hg_xasprintf("%s/f%d.py", dir, order[i].file);
    assert_string_equal(f.items[i].path, want);
    free(want);
    assert_int_equal(f.items[i].line, order[i].line);
    assert_string_equal(f.items[i].kind, order[i].kind);
  }
  hg_findings_free(&f);
  hg_file_errors_free(&fe);

  // A missing file is a file error, not a failure of the scan.
  char *gone = hg_xasprintf("%s/gone.py", dir);
  f = (hg_findings){0};
  fe = (hg_file_errors){0};
  assert_int_equal(hg_scan(&o, &gone, 1, &f, &fe, &stats, &err), 0);
  assert_int_equal(f.len, 0);
  assert_int_equal(fe.len, 1);
  assert_int_equal(fe.items[0].kind, HG_FILE_UNREADABLE);
  assert_string_equal(fe.items[0].path, gone);
  assert_non_null(strstr(fe.items[0].message, "cannot open"));
  hg_findings_free(&f);
  hg_file_errors_free(&fe);
  free(gone);

  for (int i = 0; i < 4; i++) free(paths[i]);
}

// ---- the ruleset ---------------------------------------------------------------------------------

static void test_extract__builtin_kinds(void **state) {
  env *e = *state;
  const char *const *kinds;
  size_t n = hg_ruleset_kinds(e->rules, &kinds);
  // Sorted, each once, and every kind of the built-in rules among them (a new surface adds its own).
  static const char *const want[] = {"api-create",   "ci-container", "ci-service", "cli-run",      "client",
                                     "compose-service", "devcontainer", "dynamic-code", "sdk-create",
                                     "sdk-lowlevel", "sdk-run"};
  for (size_t i = 1; i < n; i++) assert_true(strcmp(kinds[i - 1], kinds[i]) < 0);
  for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
    bool found = false;
    for (size_t i = 0; i < n && !found; i++) found = !strcmp(kinds[i], want[w]);
    if (!found) print_error("kind %s is not among the built-in rules' kinds\n", want[w]);
    assert_true(found);
  }
  assert_int_equal(hg_ruleset_policy(e->rules)->n_req, 7);
  assert_non_null(hg_ruleset_query_for(e->rules, HG_SURFACE_PYTHON, HG_UNITS_ALL));
  assert_non_null(hg_ruleset_query_for(e->rules, HG_SURFACE_JAVASCRIPT, HG_UNITS_ALL));
  // The shell surface has its own query, with the same kind (cli-run) listed once.
  assert_non_null(hg_ruleset_query_for(e->rules, HG_SURFACE_SHELL, HG_UNITS_ALL));
  assert_true(hg_ruleset_has(e->rules, HG_SURFACE_SHELL));
}

static void test_extract__prefilter(void **state) {
  env *e = *state;
  assert_non_null(hg_ruleset_prefilter(e->rules, HG_SURFACE_PYTHON));
  assert_string_not_equal(hg_ruleset_prefilter_source(e->rules, HG_SURFACE_PYTHON), "");
  static const struct {
    const char *text;
    bool may;
  } cases[] = {
      {"print('hello')", false},
      {"", false},
      {"import os\nos.listdir('.')\n", false},
      {"x.containers.run(img)", true},
      {"client.containers", true},
      {"c = from_env()", true},
      {"import docker", true},
      {"cmd = ['podman', 'run']", true},
      {"cmd = ['nerdctl', 'run']", true},
      {"DockerClient(base_url=u)", true},
      // Identifiers and whole strings must stand as whole words; a shell command may hold its
      // program name anywhere (#contains?).
      {"mycontainers_list = 1", false},
      {"from_environment = 1", false},
      {"os.system('/usr/bin/docker run x')", true},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    bool got = hg_ruleset_may_contain_site(e->rules, HG_SURFACE_PYTHON, cases[i].text, strlen(cases[i].text), e->md);
    if (got != cases[i].may)
      print_error("may_contain_site(\"%s\") = %d (prefilter %s)\n", cases[i].text, got,
                  hg_ruleset_prefilter_source(e->rules, HG_SURFACE_PYTHON));
    assert_int_equal(got, cases[i].may);
  }
  // Only `len` bytes are searched.
  const char *text = "print('hello') # containers";
  assert_false(hg_ruleset_may_contain_site(e->rules, HG_SURFACE_PYTHON, text, 14, e->md));
  assert_true(hg_ruleset_may_contain_site(e->rules, HG_SURFACE_PYTHON, text, strlen(text), e->md));
}

// ---- rule directories that fail to load -----------------------------------------------------------

typedef struct {
  char dir[64];
} rules_dir;

static void copy_file(const char *from, const char *to) {
  char *data;
  size_t len;
  hg_error err = {{0}};
  if (hg_read_file(&data, &len, from, &err) != 0) fail_msg("%s", err.message);
  FILE *f = fopen(to, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
  free(data);
}

// A copy of the real rules without the site patterns: policy.yml and python/facts/imports.scm.
static int setup_rules_dir(void **state) {
  rules_dir *r = calloc(1, sizeof(*r));
  strcpy(r->dir, "/tmp/hg-rules-XXXXXX");
  if (!mkdtemp(r->dir)) return -1;
  char *python = hg_xasprintf("%s/python", r->dir), *facts = hg_xasprintf("%s/python/facts", r->dir);
  char *policy = hg_xasprintf("%s/policy.yml", r->dir), *imports = hg_xasprintf("%s/python/facts/imports.scm", r->dir);
  int rc = mkdir(python, 0755) | mkdir(facts, 0755);
  copy_file(HG_SOURCE_DIR "/rules/policy.yml", policy);
  copy_file(HG_SOURCE_DIR "/rules/python/facts/imports.scm", imports);
  free(python);
  free(facts);
  free(policy);
  free(imports);
  *state = r;
  return rc;
}

static int teardown_rules_dir(void **state) {
  rules_dir *r = *state;
  int rc = nftw(r->dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
  free(r);
  return rc;
}

static void write_rule(const rules_dir *r, const char *name, const char *text) {
  char *path = hg_xasprintf("%s/%s", r->dir, name);
  write_file(path, text);
  free(path);
}

// Loads the directory and checks that it fails with "<dir>/<after_dir>..." .
static void expect_load_error(const rules_dir *r, const char *after_dir) {
  hg_ruleset *rs = (hg_ruleset *)(uintptr_t)1;
  hg_error err = {{0}};
  int rc = hg_ruleset_load(&rs, r->dir, &err);
  if (rc == 0) {
    hg_ruleset_free(rs);
    fail_msg("loaded, expected an error starting \"%s/%s\"", r->dir, after_dir);
  }
  assert_null(rs);
  char *want = hg_xasprintf("%s/%s", r->dir, after_dir);
  if (strncmp(err.message, want, strlen(want)) != 0) print_error("got  \"%s\"\nwant \"%s...\"\n", err.message, want);
  assert_int_equal(strncmp(err.message, want, strlen(want)), 0);
  free(want);
}

static void test_extract__rules_dir_loads(void **state) {
  rules_dir *r = *state;
  write_rule(r, "python/mine.scm",
             ";; a site kind of our own\n((call function: (identifier) @_f) @site (#eq? @_f \"spawn\")\n"
             " (#set! hardguard.reads \"client\"))\n");
  hg_ruleset *rs = NULL;
  hg_error err = {{0}};
  int rc = hg_ruleset_load(&rs, r->dir, &err);
  if (rc != 0) print_error("%s\n", err.message);
  assert_int_equal(rc, 0);
  const char *const *kinds;
  assert_int_equal(hg_ruleset_kinds(rs, &kinds), 1);
  assert_string_equal(kinds[0], "mine");
  // The prefilter is built from the new pattern's literal.
  pcre2_match_data *md = pcre2_match_data_create(4, NULL);
  assert_true(hg_ruleset_may_contain_site(rs, HG_SURFACE_PYTHON, "spawn()", 7, md));
  assert_false(hg_ruleset_may_contain_site(rs, HG_SURFACE_PYTHON, "docker.from_env()", 17, md));
  pcre2_match_data_free(md);
  hg_ruleset_free(rs);
}

static void test_extract__rules_dir_unknown_predicate(void **state) {
  rules_dir *r = *state;
  write_rule(r, "python/bad.scm", ";; line 1\n;; line 2\n((call) @site (#unknown? @site))\n");
  expect_load_error(r, "python/bad.scm:3:1: unknown predicate #unknown?");
}

static void test_extract__rules_dir_query_errors(void **state) {
  rules_dir *r = *state;
  static const struct {
    const char *scm, *after_dir;
  } cases[] = {
      {"((call) @site))\n", "python/bad.scm:1:15: an item expected"},
      {";; x\n((no_such_node) @site (#set! hardguard.reads \"client\"))\n",
       "python/bad.scm:2:3: unknown node type \"no_such_node\" (the tree-sitter-python grammar)"},
      {";; x\n((call nosuchfield: (identifier)) @site (#set! hardguard.reads \"client\"))\n",
       "python/bad.scm:2:8: unknown field name \"nosuchfield\" (the tree-sitter-python grammar)"},
      {";; x\n\n  ((call) @site (#set! hardguard.reads \"client\") (#match? @site \"(\"))\n",
       "python/bad.scm:3:3: #match?: invalid regex \"(\""},
      {"((call) @site)\n", "python/bad.scm:1:1: a site pattern needs (#set! hardguard.reads"},
      {"((call) @site (#set! hardguard.reads \"sometimes\"))\n", "python/bad.scm:1:1: a site pattern needs"},
      {"((call) @site (#set! hardguard.reads \"argv\"))\n", "python/bad.scm:1:1: a \"argv\" pattern captures @argv"},
      {"((call) @x (#set! hardguard.reads \"client\"))\n", "python/bad.scm:1:1: a site pattern captures @site"},
      {"((call arguments: (argument_list) @body) @site (#set! hardguard.reads \"body\")\n"
       " (#set! hardguard.body-position \"kwargs\"))\n",
       "python/bad.scm:1:1: hardguard.body-position is a number (the positional argument, from 0) or \"keywords\""},
      // The second pattern of a file is located in that file.
      {"((call) @site (#set! hardguard.reads \"client\"))\n\n((call) @site (#eq? @site))\n",
       "python/bad.scm:3:1: #eq? needs a capture and an argument"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    write_rule(r, "python/bad.scm", cases[i].scm);
    expect_load_error(r, cases[i].after_dir);
  }
}

static void test_extract__rules_dir_unclosed_pattern_names_its_file(void **state) {
  rules_dir *r = *state;
  // Regression: when all rule files were compiled as one query source, a pattern left open at the
  // end of python/bad.scm was reported where tree-sitter gave up, in the next file; each file is
  // compiled on its own now, and the error names the pattern that is left open.
  write_rule(r, "python/bad.scm", "((call) @site\n");
  expect_load_error(r, "python/bad.scm:1:1: a pattern left open");
}

static void test_extract__rules_dir_missing_pieces(void **state) {
  rules_dir *r = *state;
  // No site patterns at all.
  hg_ruleset *rs = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_ruleset_load(&rs, r->dir, &err), -1);
  assert_string_equal(err.message, "rules: no site patterns (<surface>/*.scm)");

  // A rule file outside the folder of a known surface is refused, not ignored.
  write_rule(r, "policy.yml", "require: {x: {kwarg: {name: x}, flag: {name: --x}, fix: {kwarg: x, flag: --x}}}\n"
                              "cli: {subcommands: [], boolean_flags: []}\n"
                              "dialects: { kwarg: { reads: kwargs }, flag: { reads: [argv, shell, command, script] }, compose: { reads: compose } }\n");
  char *odd = hg_xasprintf("%s/ruby", r->dir);
  assert_int_equal(mkdir(odd, 0755), 0);
  free(odd);
  write_rule(r, "ruby/x.scm", "((call) @site (#set! hardguard.reads \"client\"))\n");
  hg_ruleset_free(rs);
  rs = NULL;
  assert_int_equal(hg_ruleset_load(&rs, r->dir, &err), -1);
  assert_non_null(strstr(err.message, "/ruby: not the folder of a surface (python, shell, make, ci, compose"));
  char *odd_file = hg_xasprintf("%s/ruby/x.scm", r->dir), *odd_dir = hg_xasprintf("%s/ruby", r->dir);
  assert_int_equal(unlink(odd_file), 0);
  assert_int_equal(rmdir(odd_dir), 0);
  free(odd_file);
  free(odd_dir);

  // A broken policy is reported at its line and column.
  write_rule(r, "python/ok.scm", "((call) @site (#set! hardguard.reads \"client\"))\n");
  write_rule(r, "policy.yml", "require: {}\ncli: {subcommands: [], boolean_flags: []}\ndialects: { kwarg: { reads: kwargs }, flag: { reads: [argv, shell, command, script] }, compose: { reads: compose } }\n");
  expect_load_error(r, "policy.yml:1:10: policy: 'require' must be a non-empty mapping");

  // No policy.yml.
  char *policy = hg_xasprintf("%s/policy.yml", r->dir);
  assert_int_equal(unlink(policy), 0);
  free(policy);
  expect_load_error(r, "policy.yml: cannot open: ");

  // A directory that does not exist.
  assert_int_equal(hg_ruleset_load(&rs, "/nonexistent/hg-rules", &err), -1);
  assert_null(rs);
  assert_string_equal(err.message, "/nonexistent/hg-rules/policy.yml: cannot open: No such file or directory");
}

#define ENV_TEST(f) cmocka_unit_test(f)
#define DIR_TEST(f) cmocka_unit_test_setup_teardown(f, setup_rules_dir, teardown_rules_dir)

int main(void) {
  const struct CMUnitTest with_builtin_rules[] = {
      ENV_TEST(test_extract__client_sites),
      ENV_TEST(test_extract__not_a_site),
      ENV_TEST(test_extract__container_sites),
      ENV_TEST(test_extract__lowlevel_receivers),
      ENV_TEST(test_extract__finding_details),
      ENV_TEST(test_extract__builder_config),
      ENV_TEST(test_extract__relative_builder_import),
      ENV_TEST(test_extract__syntax_errors),
      ENV_TEST(test_extract__message_has_no_hole_bytes),
      cmocka_unit_test_setup_teardown(test_extract__scan_files_sorted_across_threads, setup_scan_dir,
                                      teardown_scan_dir),
      ENV_TEST(test_extract__builtin_kinds),
      ENV_TEST(test_extract__prefilter),
  };
  const struct CMUnitTest with_rules_dir[] = {
      DIR_TEST(test_extract__rules_dir_loads),
      DIR_TEST(test_extract__rules_dir_unknown_predicate),
      DIR_TEST(test_extract__rules_dir_query_errors),
      DIR_TEST(test_extract__rules_dir_unclosed_pattern_names_its_file),
      DIR_TEST(test_extract__rules_dir_missing_pieces),
  };
  int failed = cmocka_run_group_tests_name("extract", with_builtin_rules, setup_env, teardown_env);
  failed += cmocka_run_group_tests_name("rules_dir", with_rules_dir, NULL, NULL);
  return failed;
}
