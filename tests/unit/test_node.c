// Unit tests for node.c's tree helpers that stand in for slower libtree-sitter calls: the ancestors
// of a node found in one descent (against ts_node_parent, climbed step by step, for every node of
// snippets with syntax errors, missing and empty nodes, in two grammars, in three orders, and after
// a tree is deleted), a field looked up by a
// name cached by address (against ts_node_child_by_field_name, a name rewritten at one address)
// and a tree's root.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "surfaces/node.h"

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_bash(void);

static TSTree *parse(const TSLanguage *lang, const char *src) {
  TSParser *p = ts_parser_new();
  assert_true(ts_parser_set_language(p, lang));
  TSTree *t = ts_parser_parse_string(p, NULL, src, (uint32_t)strlen(src));
  ts_parser_delete(p);
  assert_non_null(t);
  return t;
}

// Every node under root (named or not), in pre-order.
static size_t all_nodes(TSNode root, TSNode *out, size_t cap) {
  size_t n = 0;
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    if (n < cap) out[n] = ts_tree_cursor_current_node(&c);
    n++;
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
  }
done:
  ts_tree_cursor_delete(&c);
  return n;
}

static const char *const PYTHON[] = {
    "import docker\nclient = docker.from_env()\nclient.containers.run('img', network_mode='none')\n",
    "def f(a, b=1):\n    if a:\n        return g(a)(b)[0]\n    return [x for x in a if x]\n",
    "class C:\n    def m(self):\n        run(\n",                     // unclosed call: a missing ")"
    "x = (1 +\ny = f(\"a\" \"b\" f'{c}')\n",                             // an error in the middle
    "def f():\n    pass\n\n\n\n",                                        // trailing blank lines
    "a.b.c.d.e.f(g.h(i.j(k)))\n",                                        // method chains: same start
    "",                                                                  // an empty module
    "@dec\nasync def f():\n    async with a as b:\n        await b()\n", // decorators, async
};

// Each node's ancestors against its parents: in pre-order, backwards and in a stride that jumps
// across the tree, so that each descent starts from what the one before it kept (hg_node_ancestors
// starts below the root where its last path holds the node).
static void check_ancestors(TSTree *tree) {
  static TSNode nodes[4096], up[512], want[512];
  size_t n = all_nodes(ts_tree_root_node(tree), nodes, 4096);
  assert_true(n <= 4096);
  for (size_t q = 0; q < 3 * n; q++) {
    size_t i = q < n ? q : q < 2 * n ? 2 * n - 1 - q : (q - 2 * n) * 7919 % n;
    size_t k = 0;
    for (TSNode p = ts_node_parent(nodes[i]); !ts_node_is_null(p); p = ts_node_parent(p)) want[k++] = p;
    size_t got = hg_node_ancestors(nodes[i], up, 512);
    assert_int_equal(got, k);
    for (size_t j = 0; j < k; j++) assert_true(ts_node_eq(up[j], want[j]));
    // A path longer than the room: the count, and the first ones.
    if (k > 1) {
      assert_int_equal(hg_node_ancestors(nodes[i], up, 1), k);
      assert_true(ts_node_eq(up[0], want[0]));
    }
    assert_true(ts_node_eq(hg_node_root(nodes[i]), ts_tree_root_node(tree)));
  }
}

static void test_ancestors_are_the_parents(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(PYTHON) / sizeof(PYTHON[0]); i++) {
    TSTree *t = parse(tree_sitter_python(), PYTHON[i]);
    check_ancestors(t);
    hg_tree_delete(t);
  }
  TSTree *t = parse(tree_sitter_bash(), "docker run --rm \"$img\" && { echo $(date); }\nif [ -n x ]; then\n");
  check_ancestors(t);
  hg_tree_delete(t);
  assert_int_equal(hg_node_ancestors((TSNode){0}, NULL, 0), 0);
  assert_true(ts_node_is_null(hg_node_root((TSNode){0})));
}

// A tree deleted by hg_tree_delete: nothing kept of it is used for the next tree, though that one
// may have its nodes' addresses (ASan reports a kept node read after its tree is freed).
static void test_ancestors_after_a_tree_is_deleted(void **state) {
  (void)state;
  static TSNode nodes[4096], up[512];
  for (size_t i = 0; i < sizeof(PYTHON) / sizeof(PYTHON[0]); i++) {
    TSTree *t = parse(tree_sitter_python(), PYTHON[i]);
    size_t n = all_nodes(ts_tree_root_node(t), nodes, 4096);
    // The last node a descent reaches (not an empty one at a child's end) has its path kept.
    for (size_t j = n; j-- > 0 && !hg_node_kept_path(t);) hg_node_ancestors(nodes[j], up, 512);
    assert_true(hg_node_kept_path(t) > 0);
    TSTree *other = parse(tree_sitter_python(), "x = 1\n");
    assert_int_equal(hg_node_kept_path(other), 0);  // another tree's
    hg_tree_delete(other);
    assert_int_equal(hg_node_kept_path(t), 0);  // a tree deleted since: not trusted
    hg_tree_delete(t);
    t = parse(tree_sitter_python(), PYTHON[(i + 1) % (sizeof(PYTHON) / sizeof(PYTHON[0]))]);
    check_ancestors(t);
    hg_tree_delete(t);
  }
}

static void test_field_by_name(void **state) {
  (void)state;
  TSTree *t = parse(tree_sitter_python(), "x = f(a, k=1)\n");
  static TSNode nodes[256];
  size_t n = all_nodes(ts_tree_root_node(t), nodes, 256);
  static const char *const names[] = {"left", "right", "function", "arguments", "name", "value", "no_such_field"};
  for (size_t i = 0; i < n; i++)
    for (size_t f = 0; f < sizeof(names) / sizeof(names[0]); f++)
      for (int again = 0; again < 2; again++)  // the second time from the cache
        assert_true(ts_node_eq(hg_node_field(nodes[i], names[f]),
                               ts_node_child_by_field_name(nodes[i], names[f], (uint32_t)strlen(names[f]))));
  // One address, another name: looked up again, not taken from the cache.
  TSNode asg = ts_node_named_child(ts_node_named_child(ts_tree_root_node(t), 0), 0);
  assert_string_equal(ts_node_type(asg), "assignment");
  char name[16];
  strcpy(name, "left");
  assert_string_equal(ts_node_type(hg_node_field(asg, name)), "identifier");
  strcpy(name, "right");
  assert_string_equal(ts_node_type(hg_node_field(asg, name)), "call");
  strcpy(name, "nothing");
  assert_true(ts_node_is_null(hg_node_field(asg, name)));
  assert_true(ts_node_is_null(hg_node_field((TSNode){0}, "left")));
  // The same name in another grammar: its own id.
  TSTree *b = parse(tree_sitter_bash(), "x=1\n");
  TSNode va = ts_node_named_child(ts_tree_root_node(b), 0);
  assert_string_equal(ts_node_type(va), "variable_assignment");
  assert_true(ts_node_eq(hg_node_field(va, "name"), ts_node_child_by_field_name(va, "name", 4)));
  assert_false(ts_node_is_null(hg_node_field(va, "name")));
  hg_tree_delete(b);
  hg_tree_delete(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ancestors_are_the_parents),
      cmocka_unit_test(test_ancestors_after_a_tree_is_deleted),
      cmocka_unit_test(test_field_by_name),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
