// Unit tests for surface.c: which surface reads a file, by its name, its path and its #! line.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/surface.h"
#include "surfaces/registry.h"

static void test_surface__by_name(void **state) {
  (void)state;
  static const struct {
    const char *path;
    int want;
  } cases[] = {
      {"a.py", HG_SURFACE_PYTHON},
      {"pkg/sub/mod.py", HG_SURFACE_PYTHON},
      {"run.sh", HG_SURFACE_SHELL},
      {"x/lib.bash", HG_SURFACE_SHELL},
      {"Makefile", HG_SURFACE_MAKE},
      {"sub/makefile", HG_SURFACE_MAKE},
      {"GNUmakefile", HG_SURFACE_MAKE},
      {"build/rules.mk", HG_SURFACE_MAKE},
      {"tools/deps.makefile", HG_SURFACE_MAKE},
      {".github/workflows/ci.yml", HG_SURFACE_CI},
      {"repo/.github/workflows/release.yaml", HG_SURFACE_CI},
      {".gitlab-ci.yml", HG_SURFACE_CI},
      {"actions/deploy/action.yml", HG_SURFACE_CI},
      {".github/ci.yml", -1},               // not in workflows/
      {".github/workflows/sub/ci.yml", -1}, // workflows are not nested
      {"workflows/ci.yml", -1},
      {"notes.yml", -1},
      {"a.pyc", -1},
      {"py", -1},
      {".sh", -1}, // a dot file, not a .sh extension
      {"README", -1},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    int got = hg_surface_by_name(cases[i].path);
    if (got != cases[i].want)
      fail_msg("%s: surface %d, want %d", cases[i].path, got, cases[i].want);
  }
}

static void test_surface__by_shebang(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int want;
  } cases[] = {
      {"#!/bin/sh\n", HG_SURFACE_SHELL},
      {"#!/bin/bash -e\necho", HG_SURFACE_SHELL},
      {"#! /usr/bin/env bash\n", HG_SURFACE_SHELL},
      {"#!/usr/bin/env -S bash -eu\n", HG_SURFACE_SHELL},
      {"#!/bin/dash\n", HG_SURFACE_SHELL},
      {"#!/usr/bin/zsh\n", HG_SURFACE_SHELL},
      {"#!/usr/bin/python3\n", HG_SURFACE_PYTHON},
      {"#!/usr/bin/env python3.11\n", HG_SURFACE_PYTHON},
      {"#!/usr/bin/perl\n", -1},
      {"#!/usr/bin/env node\n", HG_SURFACE_JAVASCRIPT},
      {"#!/usr/bin/env ruby\n", -1},
      {"#!/usr/bin/env\n", -1},
      {"# not a shebang\n", -1},
      {"#!", -1},
      {"", -1},
      {"#!/bin/shx\n", -1},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    int got = hg_surface_by_shebang(cases[i].text, strlen(cases[i].text));
    if (got != cases[i].want)
      fail_msg("%s: surface %d, want %d", cases[i].text, got, cases[i].want);
  }
  assert_true(hg_surface_may_have_shebang("tools/launch"));
  assert_true(hg_surface_may_have_shebang(".envrc"));
  assert_false(hg_surface_may_have_shebang("tools/launch.txt"));
}

// A YAML file no surface names is claimed by its content: compose when its top level has a
// services: mapping whose entries hold image: (a scalar) or build:.
static void test_surface__by_content(void **state) {
  (void)state;
  static const struct {
    const char *path, *text;
    int want;
  } cases[] = {
      {"deploy/stack.yml", "version: '3.8'\nservices:\n  web:\n    image: nginx:1\n", HG_SURFACE_COMPOSE},
      {"backend.yaml", "# c\nservices:\n\n  # api\n  api:\n    build:\n      context: .\n", HG_SURFACE_COMPOSE},
      {"b.yml", "services: {api: {image: x}}\n", HG_SURFACE_COMPOSE},
      {"b.yml", "services:\n  \"api\":\n    \"image\": x\n", HG_SURFACE_COMPOSE},
      {"b.yml", "services:\n  api: {build: ., privileged: true}\n", HG_SURFACE_COMPOSE},
      {"values.yaml", "services:\n  api:\n    image:\n      repository: x\n", -1},  // a Helm chart
      {"catalog.yml", "services:\n  - name: billing\n", -1},
      {"jobs.yml", "jobs:\n  t:\n    services:\n      db:\n        image: postgres\n", -1},  // not top level
      {"x.yml", "other:\n  image: x\nservices:\nimage: y\n", -1},
      {"x.yml", "", -1},
      {"notes.txt", "services:\n  web:\n    image: nginx\n", -1},  // not a YAML name
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
    int got = hg_surface_by_content(cases[i].path, cases[i].text, strlen(cases[i].text));
    if (got != cases[i].want)
      fail_msg("%s: %s: got %d, want %d", cases[i].path, cases[i].text, got, cases[i].want);
    assert_int_equal(hg_surface_may_claim(cases[i].path), strcmp(cases[i].path, "notes.txt") != 0);
  }
  // A name decides first; the content only when nothing else does.
  assert_int_equal(hg_surface_of("compose.yml", "", 0, hg_surface_by_name("compose.yml")), HG_SURFACE_COMPOSE);
  assert_int_equal(hg_surface_of("x", "#!/bin/sh\n", 10, -1), HG_SURFACE_SHELL);
}

static void collect_include(void *ctx, const char *name, size_t len) {
  char *out = ctx;
  strncat(out, name, len);
  strcat(out, "|");
}

// The makefiles a Makefile includes: include, -include and sinclude, names make does not compute.
static void test_surface__make_includes(void **state) {
  (void)state;
  const hg_surface *make = hg_surface_get(HG_SURFACE_MAKE);
  assert_non_null(make->includes);
  const char *text = "include a.mk b/c.inc # comment\n-include d.mk\n  sinclude e.mk\n"
                     "include $(TOP)/x.mk *.mk\n\tinclude recipe.mk\ninclude\nincluded: x\n";
  char got[256] = "";
  make->includes(text, strlen(text), collect_include, got);
  assert_string_equal(got, "a.mk|b/c.inc|d.mk|e.mk|");
  assert_null(hg_surface_get(HG_SURFACE_PYTHON)->includes);
}

static void test_surface__registry(void **state) {
  (void)state;
  // Every surface has an id, a way to read it, and the ids are unique rules folders.
  for (int s = 0; s < HG_SURFACE_COUNT; s++) {
    const hg_surface *sf = hg_surface_get((hg_surface_id)s);
    assert_non_null(sf->id);
    assert_non_null(sf->extract);
    assert_int_equal(hg_surface_by_id(sf->id), s);
  }
  assert_int_equal(hg_surface_by_id("ruby"), -1);
}

// Each pinned grammar (grammars/tree-sitter-*.cmake) is language ABI 14: Debian bookworm's
// libtree-sitter 0.20.7 loads 13 and 14 only, so a newer pin would build and then fail to load.
static void test_surface__grammar_abi(void **state) {
  (void)state;
  int grammars = 0;
  for (int s = 0; s < HG_SURFACE_COUNT; s++) {
    const hg_surface *sf = hg_surface_get((hg_surface_id)s);
    if (!sf->language)
      continue;
    grammars++;
    assert_int_equal(ts_language_version(sf->language()), 14);
    assert_true(ts_language_version(sf->language()) <= TREE_SITTER_LANGUAGE_VERSION);
  }
  assert_true(grammars >= 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_surface__by_name),
      cmocka_unit_test(test_surface__by_shebang),
      cmocka_unit_test(test_surface__by_content),
      cmocka_unit_test(test_surface__make_includes),
      cmocka_unit_test(test_surface__registry),
      cmocka_unit_test(test_surface__grammar_abi),
  };
  return cmocka_run_group_tests_name("surface", tests, NULL, NULL);
}
