// Unit tests for project/index.c: modules found by dotted name under the config's directory, its
// src/, and the importing script's directory; packages, namespace packages, each module parsed
// once; and module names of paths.
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "surfaces/node.h"
#include "surfaces/python/imports.h"
#include "surfaces/python/project/index.h"
#include "rules/ruleset.h"

const TSLanguage *tree_sitter_python(void);

typedef struct {
  char dir[64];
  hg_ruleset *rules;
  hg_config *config;
} tree;

static void put(const tree *t, const char *rel, const char *text) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", t->dir, rel);
  // Create each directory on the way.
  for (char *p = path + strlen(t->dir) + 1; (p = strchr(p, '/')); p++) {
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static int setup_tree(void **state) {
  tree *t = calloc(1, sizeof(tree));
  strcpy(t->dir, "/tmp/hg-index-XXXXXX");
  if (!mkdtemp(t->dir))
    return -1;
  hg_error err;
  if (hg_ruleset_load(&t->rules, NULL, &err) != 0)
    return -1;
  t->config = hg_config_empty(t->dir);
  put(t, "pkg/__init__.py", "from .flags import FLAGS\n");
  put(t, "pkg/flags.py", "FLAGS = {'read_only': True}\n");
  put(t, "nspkg/mod.py", "X = 1\n"); // a namespace package: no __init__.py
  put(t, "src/lib/limits.py", "LIMITS = {}\n");
  put(t, "tools/run.py", "import helper\n");
  put(t, "tools/helper.py", "def sandbox_kwargs():\n    return {}\n");
  put(t, "broken.py", "def f(:\n");
  put(t, "dyn.py", "import importlib\nd = importlib.import_module('docker')\ne = load('docker')\n");
  *state = t;
  return 0;
}

static int teardown_tree(void **state) {
  tree *t = *state;
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
  if (system(cmd) != 0)
    return -1;
  hg_config_free(t->config);
  hg_ruleset_free(t->rules);
  free(t);
  return 0;
}

static const hg_module *find(hg_index *ix, const char *dotted, const char *from) {
  return hg_index_module(ix, dotted, strlen(dotted), from, NULL);
}

static bool ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), m = strlen(tail);
  return n >= m && !strcmp(s + n - m, tail);
}

static void test_index__finds_modules_by_dotted_name(void **state) {
  tree *t = *state;
  hg_index *ix = hg_index_new(t->rules, t->config, t->dir);
  const hg_module *m = find(ix, "pkg.flags", NULL);
  assert_non_null(m);
  assert_true(ends_with(m->path, "/pkg/flags.py"));
  assert_string_equal(m->name, "pkg.flags");
  assert_non_null(strstr(m->src, "FLAGS = "));
  assert_string_equal(ts_node_type(m->root), "module");
  // A package is its __init__.py, with its imports recorded (a re-export).
  m = find(ix, "pkg", NULL);
  assert_non_null(m);
  assert_true(ends_with(m->path, "/pkg/__init__.py"));
  assert_string_equal(hg_imports_lookup(m->imports, "FLAGS", 5), "pkg.flags.FLAGS");
  // A namespace package's module, and a src/ layout.
  assert_non_null(find(ix, "nspkg.mod", NULL));
  m = find(ix, "lib.limits", NULL);
  assert_non_null(m);
  assert_true(ends_with(m->path, "/src/lib/limits.py"));
  hg_index_free(ix);
}

static void test_index__imports_by_call(void **state) {
  // The import facts' predicates hold in an indexed module too: only import_module binds a module.
  tree *t = *state;
  hg_index *ix = hg_index_new(t->rules, t->config, t->dir);
  const hg_module *m = find(ix, "dyn", NULL);
  assert_non_null(m);
  assert_string_equal(hg_imports_lookup(m->imports, "d", 1), "docker");
  assert_null(hg_imports_lookup(m->imports, "e", 1));
  hg_index_free(ix);
}

static void test_index__a_scripts_neighbour_and_misses(void **state) {
  tree *t = *state;
  hg_index *ix = hg_index_new(t->rules, t->config, t->dir);
  char from[128];
  snprintf(from, sizeof(from), "%s/tools/run.py", t->dir);
  assert_null(find(ix, "helper", NULL)); // not under a root
  const hg_module *m = find(ix, "helper", from);
  assert_non_null(m);
  assert_true(ends_with(m->path, "/tools/helper.py"));
  assert_null(find(ix, "docker", NULL));     // an installed package is not the project
  assert_null(find(ix, "pkg..flags", NULL)); // not a dotted name
  assert_null(find(ix, "../etc", NULL));
  assert_null(find(ix, "", NULL));
  hg_index_free(ix);
}

static void test_index__each_module_parsed_once(void **state) {
  tree *t = *state;
  hg_index *ix = hg_index_new(t->rules, t->config, t->dir);
  assert_int_equal(hg_index_parsed(ix), 0); // nothing is read until asked
  const hg_module *a = find(ix, "pkg.flags", NULL);
  const hg_module *b = find(ix, "pkg.flags", NULL);
  assert_ptr_equal(a, b);
  assert_int_equal(hg_index_parsed(ix), 1);
  assert_null(find(ix, "missing.mod", NULL));
  assert_null(find(ix, "missing.mod", NULL));
  assert_int_equal(hg_index_parsed(ix), 1);
  // A module with a syntax error is still a module (its valid parts hold definitions).
  assert_non_null(find(ix, "broken", NULL));
  assert_int_equal(hg_index_parsed(ix), 2);
  assert_int_equal(hg_index_parsed(NULL), 0);
  hg_index_free(ix);
}

// The file being checked, held parsed by the caller: its module is made from the held bytes and a
// copy of the held tree (which outlives the held one), not read from the disk and parsed again;
// a module held of another file changes nothing.
static void test_index__the_held_file_is_not_parsed_again(void **state) {
  tree *t = *state;
  hg_index *ix = hg_index_new(t->rules, t->config, t->dir);
  const char *held_src = "from pkg import other\nFLAGS = {'read_only': True}  # as checked\n";
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree *held_tree = ts_parser_parse_string(parser, NULL, held_src, (uint32_t)strlen(held_src));
  char path[160], init[160];
  snprintf(path, sizeof(path), "%s/pkg/../pkg/flags.py", t->dir);  // the same file, spelled otherwise
  snprintf(init, sizeof(init), "%s/pkg/__init__.py", t->dir);
  hg_module held = {.path = path, .name = "pkg.flags", .src = held_src, .len = strlen(held_src),
                    .root = ts_tree_root_node(held_tree)};
  hg_module other = held;
  other.path = init;
  // Held of another file: pkg.flags is read from the disk.
  hg_index *ix2 = hg_index_new(t->rules, t->config, t->dir);
  const hg_module *m = hg_index_module(ix2, "pkg.flags", 9, NULL, &other);
  assert_non_null(m);
  assert_null(strstr(m->src, "as checked"));
  hg_index_free(ix2);
  m = hg_index_module(ix, "pkg.flags", 9, NULL, &held);
  assert_non_null(m);
  assert_true(ends_with(m->path, "/pkg/flags.py"));
  assert_string_equal(m->src, held_src);
  assert_ptr_not_equal(m->src, held_src);                // a copy: the checked bytes are the worker's
  assert_ptr_not_equal(m->root.tree, held.root.tree);     // a copy of the tree ...
  assert_ptr_equal(ts_node_child(m->root, 1).id, ts_node_child(held.root, 1).id);  // ... sharing its nodes
  assert_string_equal(hg_imports_lookup(m->imports, "other", 5), "pkg.other");
  assert_int_equal(hg_index_parsed(ix), 1);
  hg_tree_delete(held_tree);  // the checked file is done; the index's copy lives on
  assert_string_equal(ts_node_type(m->root), "module");
  assert_int_equal(ts_node_named_child_count(m->root), 3);
  assert_ptr_equal(hg_index_module(ix, "pkg.flags", 9, NULL, NULL), m);
  ts_parser_delete(parser);
  hg_index_free(ix);
}

static void test_index__module_names_of_paths(void **state) {
  (void)state;
  hg_arena *a = hg_arena_new();
  static const struct {
    const char *root, *path, *want;
  } cases[] = {
      {".", "a/b/c.py", "a.b.c"},         {".", "a/__init__.py", "a"}, {".", "./run.py", "run"},
      {"proj", "proj/pkg/m.py", "pkg.m"}, {".", "__init__.py", ""},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    const char *got = hg_module_name_of(a, cases[i].root, cases[i].path);
    if (strcmp(got, cases[i].want))
      print_error("%s under %s: %s\n", cases[i].path, cases[i].root, got);
    assert_string_equal(got, cases[i].want);
  }
  hg_arena_free(a);
}

// A worker of the scan out of files (hg_index_lend), while another is still checking files.
typedef struct {
  hg_index *ix;
  atomic_bool busy, returned;
} lender;

static bool others_busy(void *ctx) { return atomic_load(&((lender *)ctx)->busy); }

static void *lend(void *ctx) {
  lender *l = ctx;
  hg_index_lend(l->ix, others_busy, l);
  atomic_store(&l->returned, true);
  return NULL;
}

static void test_index__a_worker_out_of_files_lends_itself(void **state) {
  tree *t = *state;
  // No other worker busy, no table asked for: it returns at once.
  hg_index *ix = hg_index_new(t->rules, t->config, t->dir);
  lender l = {.ix = ix};
  lend(&l);
  assert_true(atomic_load(&l.returned));
  // Another worker busy: it waits, and reads with the table's build when that worker asks for the
  // table, returning once the table is made, with the other worker still busy.
  atomic_store(&l.returned, false);
  atomic_store(&l.busy, true);
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, lend, &l), 0);
  usleep(50 * 1000);
  assert_false(atomic_load(&l.returned));
  size_t n;
  const char *why = NULL;
  const char *const *files = hg_index_calling(ix, "sandbox_kwargs", 14, &n, &why);
  assert_null(why);
  assert_int_equal(n, 1);
  assert_true(ends_with(files[0], "/tools/helper.py"));
  pthread_join(th, NULL);
  assert_true(atomic_load(&l.returned));
  hg_index_free(ix);
  // Another worker busy, then out of files too without asking: woken, it returns.
  ix = hg_index_new(t->rules, t->config, t->dir);
  l = (lender){.ix = ix};
  atomic_store(&l.busy, true);
  assert_int_equal(pthread_create(&th, NULL, lend, &l), 0);
  usleep(20 * 1000);
  assert_false(atomic_load(&l.returned));
  atomic_store(&l.busy, false);
  hg_index_wake(ix);
  pthread_join(th, NULL);
  assert_true(atomic_load(&l.returned));
  hg_index_free(ix);
}

// Two workers at once: one asks for a module by path (found in the table), the other makes the
// table grow (each module asked for is an entry, found or not). The entry is read while the table
// is held: a table grown between the two would have moved it (a use after free under ASan, seen in
// CI's sanitizer run on the fixtures; this test hit it in 3 runs of 6 before the fix). Each worker
// does a fixed amount, so the test ends under valgrind too, which runs one thread at a time.
typedef struct {
  hg_index *ix;
  char path[128];
  atomic_bool asking, grown;
} asker;

static void *ask_by_path(void *ctx) {
  asker *a = ctx;
  for (int i = 0; i < 1000 && !atomic_load(&a->grown); i++) {
    assert_non_null(hg_index_module_at(a->ix, a->path));
    atomic_store(&a->asking, true);
  }
  return NULL;
}

static void test_index__a_module_asked_by_path_while_the_table_grows(void **state) {
  tree *t = *state;
  for (int round = 0; round < 500; round++) {
    hg_index *ix = hg_index_new(t->rules, t->config, t->dir);
    asker a = {.ix = ix};
    snprintf(a.path, sizeof(a.path), "%s/pkg/flags.py", t->dir);
    assert_non_null(hg_index_module_at(ix, a.path));
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, ask_by_path, &a), 0);
    while (!atomic_load(&a.asking))
      sched_yield();
    char name[32];
    for (int i = 0; i < 100; i++) {
      snprintf(name, sizeof(name), "absent.m%d", i);
      assert_null(find(ix, name, NULL));
    }
    atomic_store(&a.grown, true);
    pthread_join(th, NULL);
    hg_index_free(ix);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_index__finds_modules_by_dotted_name),
      cmocka_unit_test(test_index__imports_by_call),
      cmocka_unit_test(test_index__a_scripts_neighbour_and_misses),
      cmocka_unit_test(test_index__each_module_parsed_once),
      cmocka_unit_test(test_index__the_held_file_is_not_parsed_again),
      cmocka_unit_test(test_index__module_names_of_paths),
      cmocka_unit_test(test_index__a_worker_out_of_files_lends_itself),
      cmocka_unit_test(test_index__a_module_asked_by_path_while_the_table_grows),
  };
  return cmocka_run_group_tests_name("index", tests, setup_tree, teardown_tree);
}
