// Unit tests for the project stage's summaries (project/summary.c and its pieces): what calls to
// functions, methods and classes of the project yield with their arguments bound, conditions on
// known values, constants across modules, cycles, and configured builders — found, missing,
// trusted, and judged by the receiver's class, not the method's name.
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

#include "surfaces/python/eval.h"
#include "surfaces/python/facts.h"

#include "surfaces/python/extract.h"
#include "surfaces/python/project/index.h"
#include "surfaces/python/project/summary.h"
#include "rules/ruleset.h"
#include "surfaces/registry.h"
#include "surfaces/python/row.h"
#include "surfaces/node.h"

// The project every test reads: a builder module and the file the sites stand in.
static const char BUILDERS[] = "from dataclasses import dataclass\n"
                               "\n"
                               "BASE = {'pids_limit': 64}\n"
                               "\n"
                               "def hardening_kwargs(network='none', read_only=True):\n"
                               "    kw = {**BASE, 'network_mode': network, 'read_only': read_only}\n"
                               "    if read_only:\n"
                               "        kw['cap_drop'] = ['ALL']\n"
                               "    return kw\n"
                               "\n"
                               "@dataclass\n"
                               "class Policy:\n"
                               "    memory: str = '512m'\n"
                               "    strict: bool = False\n"
                               "\n"
                               "    @cache\n"
                               "    def argv(self):\n"
                               "        out = ['--memory', self.memory]\n"
                               "        if self.strict:\n"
                               "            out += ['--cap-drop', 'ALL']\n"
                               "        return out\n"
                               "\n"
                               "class StrictPolicy(Policy):\n"
                               "    strict: bool = True\n"
                               "\n"
                               "def rec(n):\n"
                               "    return rec(n)\n";

static const char MAIN[] = "from sandbox.h import hardening_kwargs, Policy, StrictPolicy, rec, BASE\n"
                           "from vendor.h import vendored\n"
                           "\n"
                           "class Lax:\n"
                           "    def argv(self):\n"
                           "        return ['--privileged']\n"
                           "\n"
                           "def site(p):\n"
                           "    a = hardening_kwargs()\n"
                           "    b = hardening_kwargs(network='bridge')\n"
                           "    c = Policy(strict=False).argv()\n"
                           "    d = Policy('1g', True).argv()\n"
                           "    e = Lax().argv()\n"
                           "    f = rec(1)\n"
                           "    g = BASE\n"
                           "    h = vendored()\n"
                           "    i = p.argv()\n"
                           "    j = StrictPolicy().argv()\n";

typedef struct {
  char dir[64];
  char main_path[128];
  hg_ruleset *rules;
  hg_config *config;
  hg_index *index;
  hg_arena *arena;
  TSParser *parser;
  TSTree *tree;
  hg_module module;
  hg_resolver r;
  hg_notes notes;
} env;

static void put(const char *dir, const char *rel, const char *text) {
  char path[256];
  snprintf(path, sizeof(path), "%s/%s", dir, rel);
  char *slash = strrchr(path, '/');
  *slash = '\0';
  mkdir(path, 0755);
  *slash = '/';
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

// Builders: hardening_kwargs and Policy.argv of sandbox.h; vendor.h.vendored (not in the tree),
// trusted or not.
static hg_config *config(const char *dir, bool trust_vendor) {
  hg_config *c = hg_config_empty(dir);
  c->builders = hg_xcalloc(2, sizeof(hg_builder));
  c->n_builders = 2;
  c->builders[0].module = hg_xstrdup("sandbox.h");
  c->builders[0].callables = hg_xcalloc(2, sizeof(char *));
  c->builders[0].callables[0] = hg_xstrdup("hardening_kwargs");
  c->builders[0].callables[1] = hg_xstrdup("Policy.argv");
  c->builders[0].n_callables = 2;
  c->builders[1].module = hg_xstrdup("vendor.h");
  c->builders[1].callables = hg_xcalloc(1, sizeof(char *));
  c->builders[1].callables[0] = hg_xstrdup("vendored");
  c->builders[1].n_callables = 1;
  c->builders[1].trust = trust_vendor;
  return c;
}

static env *open_env(bool trust_vendor) {
  env *e = calloc(1, sizeof(env));
  strcpy(e->dir, "/tmp/hg-summary-XXXXXX");
  assert_non_null(mkdtemp(e->dir));
  put(e->dir, "sandbox/h.py", BUILDERS);
  snprintf(e->main_path, sizeof(e->main_path), "%s/main.py", e->dir);
  hg_error err;
  assert_int_equal(hg_ruleset_load(&e->rules, NULL, &err), 0);
  e->config = config(e->dir, trust_vendor);
  e->index = hg_index_new(e->rules, e->config, e->dir);
  e->arena = hg_arena_new();
  e->parser = ts_parser_new();
  ts_parser_set_language(e->parser, tree_sitter_python());
  e->tree = ts_parser_parse_string(e->parser, NULL, MAIN, sizeof(MAIN) - 1);
  hg_imports *imports = hg_imports_new(e->arena, "");
  hg_python_read_imports(hg_ruleset_query_for(e->rules, HG_SURFACE_PYTHON, 0), MAIN, e->tree, imports, e->arena);
  e->module = (hg_module){.path = e->main_path,
                          .name = "main",
                          .src = MAIN,
                          .len = sizeof(MAIN) - 1,
                          .root = ts_tree_root_node(e->tree),
                          .imports = imports};
  e->r = (hg_resolver){.engine = &hg_python_engine,
                       .src = MAIN,
                       .imports = imports,
                       .config = e->config,
                       .policy = hg_ruleset_policy(e->rules),
                       .arena = e->arena,
                       .module = &e->module,
                       .index = e->index,
                       .notes = &e->notes,
                       .cache = hg_summary_cache_new(e->arena)};
  return e;
}

static void close_env(env *e) {
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->dir);
  assert_int_equal(system(cmd), 0);
  free(e->notes.items);
  hg_tree_delete(e->tree);
  ts_parser_delete(e->parser);
  hg_arena_free(e->arena);
  hg_index_free(e->index);
  hg_config_free(e->config);
  hg_ruleset_free(e->rules);
  free(e);
}

// The value of the right side of `<name> = ...` in site().
static hg_value value_of(env *e, const char *name) {
  char needle[32];
  snprintf(needle, sizeof(needle), "    %s = ", name);
  const char *at = strstr(MAIN, needle);
  assert_non_null(at);
  uint32_t a = (uint32_t)(at - MAIN + strlen(needle));
  TSNode n = ts_node_named_descendant_for_byte_range(e->module.root, a, a + 1);
  while (!ts_node_is_null(ts_node_parent(n)) && !strcmp(ts_node_type(ts_node_parent(n)), "attribute"))
    n = ts_node_parent(n);
  while (!ts_node_is_null(ts_node_parent(n)) && strcmp(ts_node_type(ts_node_parent(n)), "assignment"))
    n = ts_node_parent(n);
  return hg_resolve_value(&e->r, n);
}

static const hg_value *item(const hg_value *dict, const char *key) {
  const hg_value *found = NULL;
  for (size_t i = 0; i < dict->n_items; i++)
    if (dict->items[i].key && !strcmp(dict->items[i].key, key))
      found = &dict->items[i];
  return found;
}

static bool has_word(const hg_value *list, const char *word) {
  for (size_t i = 0; i < list->n_items; i++)
    if (list->items[i].kind == HG_VAL_STR && !strcmp(list->items[i].text, word))
      return true;
  return false;
}

static void test_summary__a_builder_yields_its_return_value(void **state) {
  (void)state;
  env *e = open_env(false);
  hg_value a = value_of(e, "a");
  assert_int_equal(a.kind, HG_VAL_BUILDER);
  assert_int_equal(a.n_items, 1);
  const hg_value *y = &a.items[0];
  assert_int_equal(y->kind, HG_VAL_DICT);
  assert_string_equal(item(y, "network_mode")->text, "none"); // the default, read where defined
  assert_string_equal(item(y, "pids_limit")->text, "64");     // a module constant spread in
  assert_non_null(item(y, "cap_drop"));                       // `if read_only:` known true
  assert_false(item(y, "cap_drop")->conditional);
  assert_non_null(strstr(a.via, "hardening_kwargs() ("));
  assert_true(strstr(item(y, "network_mode")->path, "sandbox/h.py") != NULL);
  // The call's keyword replaces the default.
  hg_value b = value_of(e, "b");
  assert_string_equal(item(&b.items[0], "network_mode")->text, "bridge");
  close_env(e);
}

static void test_summary__self_from_the_constructor_and_conditions(void **state) {
  (void)state;
  env *e = open_env(false);
  hg_value c = value_of(e, "c");
  assert_int_equal(c.kind, HG_VAL_BUILDER);
  const hg_value *y = &c.items[0];
  assert_int_equal(y->kind, HG_VAL_LIST);
  assert_true(has_word(y, "512m"));        // the class default
  assert_false(has_word(y, "--cap-drop")); // `if self.strict:` known false: skipped, and noted
  assert_int_equal(e->notes.len, 1);
  assert_string_equal(e->notes.items[0].condition, "self.strict");
  assert_non_null(strstr(e->notes.items[0].branch, "--cap-drop"));
  assert_non_null(strstr(e->notes.items[0].why, "False"));
  // Positional dataclass arguments bind the fields in order.
  hg_value d = value_of(e, "d");
  assert_true(has_word(&d.items[0], "1g"));
  assert_true(has_word(&d.items[0], "--cap-drop"));
  close_env(e);
}

static void test_summary__the_receivers_class_decides_the_builder(void **state) {
  (void)state;
  env *e = open_env(false);
  // Lax.argv has the configured method's name but is no builder: its result is read as it is.
  hg_value v = value_of(e, "e");
  assert_int_equal(v.kind, HG_VAL_LIST);
  assert_true(has_word(&v, "--privileged"));
  // A subclass inherits the builder (a decorated method, defined in the base class).
  v = value_of(e, "j");
  if (v.kind != HG_VAL_BUILDER)
    print_error("j: kind %d: %s (%s)\n", v.kind, v.text, v.origin ? v.origin : "");
  assert_int_equal(v.kind, HG_VAL_BUILDER);
  assert_true(has_word(&v.items[0], "--cap-drop")); // the subclass's default: strict
  // A receiver of unknown class is named.
  v = value_of(e, "i");
  assert_int_equal(v.kind, HG_VAL_UNKNOWN);
  assert_true(v.of_builder);
  assert_non_null(strstr(v.origin, "`p` (a parameter of site() at line 8) is not known to be a Policy"));
  close_env(e);
}

static void test_summary__cycles_constants_and_missing_builders(void **state) {
  (void)state;
  env *e = open_env(false);
  hg_value f = value_of(e, "f");
  assert_int_equal(f.kind, HG_VAL_UNKNOWN);
  assert_non_null(strstr(f.origin, "depends on itself"));
  hg_value g = value_of(e, "g");
  assert_int_equal(g.kind, HG_VAL_DICT);
  assert_int_equal(strncmp(g.via, "BASE (", 6), 0); // the constant and where it is defined
  assert_non_null(strstr(g.via, "sandbox/h.py:3)"));
  close_env(e);
}

static void test_summary__a_builder_not_in_the_project(void **state) {
  (void)state;
  env *e = open_env(false);
  hg_value h = value_of(e, "h");
  assert_int_equal(h.kind, HG_VAL_UNKNOWN);
  assert_true(h.of_builder);
  assert_non_null(strstr(h.origin, "vendor.h.vendored is not defined in this project"));
  close_env(e);
  e = open_env(true);
  h = value_of(e, "h");
  assert_int_equal(h.kind, HG_VAL_BUILDER);
  assert_int_equal(h.n_items, 0); // taken at its word
  close_env(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_summary__a_builder_yields_its_return_value),
      cmocka_unit_test(test_summary__self_from_the_constructor_and_conditions),
      cmocka_unit_test(test_summary__the_receivers_class_decides_the_builder),
      cmocka_unit_test(test_summary__cycles_constants_and_missing_builders),
      cmocka_unit_test(test_summary__a_builder_not_in_the_project),
  };
  return cmocka_run_group_tests_name("summary", tests, NULL, NULL);
}
