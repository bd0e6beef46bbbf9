// Unit tests for shape.c (hardguard's compiler of the rules' .scm subset) and walk.c (finding the
// shapes in one walk of the tree): what the compiler refuses and where, the capture quantifiers it
// reports, and the matches the walk finds, held equal, for shapes of every construct of the subset
// over snippets of Python, to the matches libtree-sitter's query engine finds.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "rules/shape.h"
#include "rules/walk.h"
#include "surfaces/node.h"

const TSLanguage *tree_sitter_python(void);

static hg_shapes *compile(const char *text) {
  uint32_t off = 0;
  char msg[192];
  hg_shapes *s = hg_shapes_compile(tree_sitter_python(), text, (uint32_t)strlen(text), &off, msg, sizeof(msg));
  if (!s) fail_msg("\"%s\" does not compile: %s at %u", text, msg, off);
  return s;
}

// ---- what the compiler refuses ------------------------------------------------------------------

static void test_shape__refusals_name_their_place(void **state) {
  (void)state;
  static const struct {
    const char *text;
    uint32_t at;
    const char *message;
  } cases[] = {
      {"(call", 0, "a pattern left open"},
      {"((call) @x", 0, "a pattern left open"},
      {"(call))", 6, "an item expected"},
      {"(no_such_node)", 1, "unknown node type \"no_such_node\""},
      {"(call nofield: (identifier))", 6, "unknown field name \"nofield\""},
      {"(call \"(\")", 6, "anonymous nodes"},
      {"(call _)", 6, "a bare '_'"},
      {"(call !arguments)", 6, "negated fields"},
      {"(call (expression/identifier))", 7, "supertypes"},
      {"(call (ERROR))", 7, "ERROR and MISSING"},
      {"(call (MISSING))", 7, "ERROR and MISSING"},
      {"(call ((identifier) (argument_list)))", 6, "a group of sibling patterns"},
      {"((call) (call))", 8, "one node per pattern"},
      {"(call (identifier)?* )", 19, "a quantifier right after another"},
      {"((call)+ @x)", 0, "a quantifier on a pattern's root"},
      {"(call [])", 6, "an empty alternation"},
      {"(call [. (identifier)])", 7, "an anchor '.' inside an alternation"},
      {"(call . . (identifier))", 8, "two anchors in a row"},
      {"(call .)", 6, "an anchor '.' needs an item"},
      {"((call) @x (#eq? @y \"a\"))", 17, "a predicate names a capture its pattern does not hold"},
      {"((call) @x (#eq? @x \"a))", 20, "a string left open"},
      {"((call) @x (#eq? @x (call)))", 20, "a predicate's argument is"},
      {"((call) @x (#))", 11, "a predicate needs a name"},
      {"(call @)", 6, "an item expected"},
      {"((call) @)", 8, "a capture name after '@'"},
      {"((call) @a @b @c @d @e)", 20, "at most 4 captures"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    uint32_t off = UINT32_MAX;
    char msg[192] = "";
    hg_shapes *s =
        hg_shapes_compile(tree_sitter_python(), cases[i].text, (uint32_t)strlen(cases[i].text), &off, msg, sizeof(msg));
    if (s || off != cases[i].at || strncmp(msg, cases[i].message, strlen(cases[i].message)) != 0)
      print_error("%s: %s, at %u \"%s\"; expected at %u \"%s...\"\n", cases[i].text, s ? "compiled" : "refused", off, msg,
                  cases[i].at, cases[i].message);
    assert_null(s);
    assert_int_equal(off, cases[i].at);
    assert_int_equal(strncmp(msg, cases[i].message, strlen(cases[i].message)), 0);
  }
}

// A second text's patterns are numbered after the first's and its offsets count from its base;
// an error in it is at base + its place, and a pattern left open does not run on into it.
static void test_shape__texts_added_one_by_one(void **state) {
  (void)state;
  hg_shapes *s = hg_shapes_new(tree_sitter_python());
  uint32_t off = 0;
  char msg[192];
  assert_int_equal(hg_shapes_add(s, "((call) @a)\n(comment) @c\n", 24, 0, &off, msg, sizeof(msg)), 0);
  assert_int_equal(hg_shapes_add(s, "  ((string) @a)", 15, 100, &off, msg, sizeof(msg)), 0);
  assert_int_equal(hg_shapes_count(s), 3);
  assert_int_equal(hg_shapes_start_byte(s, 0), 0);
  assert_int_equal(hg_shapes_start_byte(s, 1), 12);
  assert_int_equal(hg_shapes_start_byte(s, 2), 102);
  assert_int_equal(hg_shapes_capture_count(s), 2);  // @a once, numbered by first appearance
  assert_string_equal(hg_shapes_capture_name(s, 0), "a");
  assert_string_equal(hg_shapes_capture_name(s, 1), "c");
  assert_int_equal(hg_shapes_capture_id(s, "c"), 1);
  assert_int_equal(hg_shapes_capture_id(s, "none"), UINT32_MAX);
  assert_int_equal(hg_shapes_add(s, "((call) @a", 10, 200, &off, msg, sizeof(msg)), -1);
  assert_int_equal(off, 200);
  assert_int_equal(hg_shapes_add(s, "\n\n(nope)", 8, 300, &off, msg, sizeof(msg)), -1);
  assert_int_equal(off, 303);
  hg_shapes_free(s);
}

static void test_shape__capture_quantifiers(void **state) {
  (void)state;
  hg_shapes *s = compile("((call function: (identifier) @one arguments: (argument_list (string)? @opt (integer)* @many"
                         " (comment)+ @some [(float) @alt (true)] [(none) @both (false) @both]) @args) @site"
                         " (#eq? @one \"f\") (#set! hardguard.reads \"kwargs\"))\n((comment) @other)");
  static const struct {
    const char *name;
    TSQuantifier q;
  } want[] = {{"one", TSQuantifierOne},        {"opt", TSQuantifierZeroOrOne}, {"many", TSQuantifierZeroOrMore},
              {"some", TSQuantifierOneOrMore}, {"alt", TSQuantifierZeroOrOne}, {"both", TSQuantifierOne},
              {"args", TSQuantifierOne},       {"site", TSQuantifierOne},      {"other", TSQuantifierZero}};
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
    uint32_t id = hg_shapes_capture_id(s, want[i].name);
    assert_int_not_equal(id, UINT32_MAX);
    if (hg_shapes_capture_quantifier(s, 0, id) != want[i].q) fail_msg("@%s", want[i].name);
  }
  // The predicate steps, as ts_query_predicates_for_pattern gives them: a bare name is a string.
  uint32_t n;
  const TSQueryPredicateStep *st = hg_shapes_predicates(s, 0, &n);
  assert_int_equal(n, 8);
  assert_string_equal(hg_shapes_string(s, st[0].value_id), "eq?");
  assert_int_equal(st[1].type, TSQueryPredicateStepTypeCapture);
  assert_int_equal(st[1].value_id, hg_shapes_capture_id(s, "one"));
  assert_string_equal(hg_shapes_string(s, st[2].value_id), "f");
  assert_int_equal(st[3].type, TSQueryPredicateStepTypeDone);
  assert_string_equal(hg_shapes_string(s, st[4].value_id), "set!");
  assert_string_equal(hg_shapes_string(s, st[5].value_id), "hardguard.reads");
  assert_string_equal(hg_shapes_string(s, st[6].value_id), "kwargs");
  hg_shapes_predicates(s, 1, &n);
  assert_int_equal(n, 0);
  hg_shapes_free(s);
  // Escapes in strings, as tree-sitter reads them.
  s = compile("((string) @s (#eq? @s \"a\\nb\\t\\\"c\\\\\"))");
  st = hg_shapes_predicates(s, 0, &n);
  assert_string_equal(hg_shapes_string(s, st[2].value_id), "a\nb\t\"c\\");
  hg_shapes_free(s);
}

// ---- the walk against libtree-sitter's query engine ----------------------------------------------

// One match, written "pattern:capture=start-end,..." with the captures sorted, for comparing sets.
static void describe(const TSQueryMatch *m, char *out, size_t cap) {
  uint32_t key[64][3];
  uint16_t n = m->capture_count < 64 ? m->capture_count : 64;
  for (uint16_t i = 0; i < n; i++) {
    key[i][0] = m->captures[i].index;
    key[i][1] = ts_node_start_byte(m->captures[i].node);
    key[i][2] = ts_node_end_byte(m->captures[i].node);
  }
  for (uint16_t i = 1; i < n; i++)  // insertion sort: a few captures
    for (uint16_t j = i; j > 0 && memcmp(key[j - 1], key[j], sizeof(key[j])) > 0; j--) {
      uint32_t t[3];
      memcpy(t, key[j], sizeof(t));
      memcpy(key[j], key[j - 1], sizeof(t));
      memcpy(key[j - 1], t, sizeof(t));
    }
  size_t used = (size_t)snprintf(out, cap, "%u:", m->pattern_index);
  for (uint16_t i = 0; i < n && used < cap; i++)
    used += (size_t)snprintf(out + used, cap - used, "%u=%u-%u,", key[i][0], key[i][1], key[i][2]);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// Every match of `query` over `src`, by the walk or by the query engine, described and sorted into
// one string.
static char *matches(const char *query, const char *src, bool walk) {
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
  HG_VEC(char *) all = {0};
  TSQueryMatch m;
  char one[1024];
  if (walk) {
    hg_shapes *s = compile(query);
    hg_dispatch *d = hg_dispatch_new(s);
    hg_walker *w = hg_walker_new();
    hg_walker_exec(w, d, NULL, NULL, ts_tree_root_node(tree), NULL);
    while (hg_walker_next_match(w, &m)) {
      describe(&m, one, sizeof(one));
      HG_VEC_PUSH(&all, hg_xstrdup(one));
    }
    hg_walker_free(w);
    hg_dispatch_free(d);
    hg_shapes_free(s);
  } else {
    uint32_t off;
    TSQueryError err;
    TSQuery *q = ts_query_new(tree_sitter_python(), query, (uint32_t)strlen(query), &off, &err);
    if (!q) fail_msg("libtree-sitter refuses \"%s\": error %d at %u", query, (int)err, off);
    TSQueryCursor *c = ts_query_cursor_new();
    ts_query_cursor_exec(c, q, ts_tree_root_node(tree));
    while (ts_query_cursor_next_match(c, &m)) {
      describe(&m, one, sizeof(one));
      HG_VEC_PUSH(&all, hg_xstrdup(one));
    }
    ts_query_cursor_delete(c);
    ts_query_delete(q);
  }
  if (all.len) qsort(all.items, all.len, sizeof(char *), cmp_str);
  hg_buf b = {0};
  for (size_t i = 0; i < all.len; i++) hg_buf_printf(&b, "%s\n", all.items[i]);
  hg_strv_free(all.items, all.len);
  hg_tree_delete(tree);
  ts_parser_delete(parser);
  return b.data ? hg_buf_detach(&b) : hg_xstrdup("");
}

static const char *const SNIPPETS[] = {
    "f(a, b=1, c=True)\n",
    "x.y.z(1, 'two', [3, 4], key=True, other=None)\n",
    "g(  # lead\n  'docker', 'run',  # words\n  b=True)\n",
    "import os\nimport a.b as c, d\nfrom e import f as g, h\n",
    "m = __import__('mod')\nn = importlib.import_module(\"p.q\")\n",
    "def f(x):\n    return [h(y) for y in x if y]\n",
    "threading.Thread(target=run, name='n', kwargs={'a': 1})\nThread(target=run, kwargs={})\n",
    "client.containers.run('img', cap_drop=['ALL'], read_only=True)\nclient.containers.create(img)\n",
    "l = ['docker', 'run', '--rm']\nt = ('podman', \"create\", x)\n",
    "functools.partial(client.containers.run, img)\nf(partial(g, 1), key=partial(h))\n",
    "f(\n",  // a syntax error: ERROR nodes
    "x = [1, (2,\n",
    "exec 'docker run'\n",
    "'''doc'''\n# a comment\nx = 1  # another\n",
    "a(b(c(d(1), e=2), f=g(h=True)), i=j(k=True))\n",
    "v = [1, 2, 'a']\nf('x', 'y', k=1)\nf('x', 1)\nf(1, k=2)\n",
};

static const char *const QUERIES[] = {
    "((call function: (identifier) @f arguments: (argument_list) @args) @site)",
    "((call function: (attribute object: (_) @o attribute: (identifier) @a)) @site)",
    "((call arguments: (argument_list (keyword_argument name: (identifier) @k value: (true)))) @site)",
    "((call arguments: (argument_list . (_) @first)) @site)",
    "((call arguments: (argument_list (_) @last .)) @site)",
    "((call arguments: (argument_list . (comment)* . (_) @first)) @site)",
    "((call arguments: (argument_list (string) @s . (string) @t)) @site)",
    "((call arguments: (argument_list (_) @any)) @site)",
    "([(list) (tuple)] @seq @site)",
    "([(list . [(identifier) (attribute)] @p . (string) @v) (tuple . [(identifier) (attribute)] @p . (string) @v)] @site)",
    "((list . (string) @a . (string) @b) @site)",
    "((call function: [(identifier) @fn (attribute attribute: (identifier) @fn)]) @site)",
    "((call function: [(identifier) (attribute object: (identifier)) (call function: [(identifier) (attribute)])] @c) @site)",
    "((argument_list (call function: (_) @p arguments: (argument_list . [(identifier) (attribute)] @c) @args) @site))",
    "((keyword_argument value: (call function: (_) @p) @site))",
    "((call arguments: (argument_list (keyword_argument name: (identifier) @t value: (_) @v) . (_)? . "
    "(keyword_argument name: (identifier) @k) @args)) @site)",
    "((import_statement name: (dotted_name) @m))",
    "((import_statement name: (aliased_import name: (dotted_name) @m alias: (identifier) @a)))",
    "((import_from_statement module_name: (_) @f name: (dotted_name) @n))",
    "((assignment left: (identifier) @a right: (call function: [(identifier) (attribute)] @i arguments: "
    "(argument_list . (string . (string_start) . (string_content) @m . (string_end) .)))))",
    "((comment) @c)",
    "((exec_statement code: (_) @code) @site)",
    "((_ function: (_) arguments: (argument_list) @argv) @site)",
    "((call arguments: (argument_list (string)? @s (keyword_argument) @k)) @site)",
    "((argument_list (integer)+ @ints) @site)",
    "((call arguments: (argument_list . (integer)* . (keyword_argument) @k)) @site)",
    "((call arguments: (argument_list . (integer)+ . (_) @after)) @site)",
    "((call) @a)\n((call function: (identifier)) @b)\n((argument_list) @c)",
    "(argument_list (_))",  // no capture: one match a node, however many children match
    // Patterns of one shape (sdk-run's, which differ in their predicates) are matched once a node:
    // each still has every match, as its own; a capture of another name is another shape.
    "((call function: (identifier) @f arguments: (argument_list) @args) @site)\n"
    "((call function: (identifier) @f arguments: (argument_list) @args) @site)\n"
    "((call function: (identifier) @g arguments: (argument_list) @args) @site)\n"
    "((call function: (identifier) @f arguments: (argument_list) @args) @site)",
    "((call arguments: (argument_list (_) @any)) @site)\n((call arguments: (argument_list (_)? @any)) @site)\n"
    "((call arguments: (argument_list (_) @any)) @site)",
    // ... and so are those whose captures are named otherwise, one to one (their matches renamed).
    "((call function: (identifier) @f arguments: (argument_list) @args) @site)\n"
    "((call function: (identifier) @g arguments: (argument_list) @a2) @s2)\n"
    "((call function: (identifier) @f arguments: (argument_list) @f) @site)",  // two for one: another shape
    "((call arguments: (argument_list (_) @x)) @y)\n((call arguments: (argument_list (_) @y)) @x)\n"
    "((call arguments: (argument_list . (comment)* @x . (_) @z)) @y)\n"
    "((call arguments: (argument_list . (comment)* @y . (_) @z)) @x)",
};

static void test_shape__walk_finds_what_the_query_engine_finds(void **state) {
  (void)state;
  size_t compared = 0, nonempty = 0;
  for (size_t q = 0; q < sizeof(QUERIES) / sizeof(QUERIES[0]); q++)
    for (size_t s = 0; s < sizeof(SNIPPETS) / sizeof(SNIPPETS[0]); s++) {
      char *walk = matches(QUERIES[q], SNIPPETS[s], true), *ref = matches(QUERIES[q], SNIPPETS[s], false);
      if (strcmp(walk, ref) != 0)
        fail_msg("%s\nover %s\nwalk:\n%squery engine:\n%s", QUERIES[q], SNIPPETS[s], walk, ref);
      compared++;
      nonempty += *ref != '\0';
      free(walk);
      free(ref);
    }
  assert_true(nonempty > 60);  // the shapes do match: the comparison is not of empty sets
  assert_int_equal(compared, sizeof(QUERIES) / sizeof(QUERIES[0]) * (sizeof(SNIPPETS) / sizeof(SNIPPETS[0])));
}

// The two differences docs/rules.md states, where libtree-sitter 0.20.7 misses a match the
// subset's meaning gives: it tries an uncaptured item without child items only at the first child
// it matches, so an anchored item after it can miss; and a run of more than one of a repeated
// item whose node has children (a string) does not reach an anchored item after it. The walk
// finds both.
static void test_shape__where_libtree_sitter_misses(void **state) {
  (void)state;
  static const struct {
    const char *query, *src, *walk;
  } cases[] = {
      {"((argument_list (keyword_argument) . (string) @s))", "f(a=1, b=2, 's')\n", "0:0=12-15,\n"},
      {"((argument_list . (string)* . (keyword_argument) @k))", "f('x', 'y', k=1)\n", "0:0=12-15,\n"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *walk = matches(cases[i].query, cases[i].src, true), *ref = matches(cases[i].query, cases[i].src, false);
    assert_string_equal(walk, cases[i].walk);
    assert_string_equal(ref, "");
    free(walk);
    free(ref);
  }
  // One string before the keyword: both find it.
  char *walk = matches(cases[1].query, "f('x', k=1)\n", true), *ref = matches(cases[1].query, "f('x', k=1)\n", false);
  assert_string_equal(walk, ref);
  assert_string_equal(walk, "0:0=7-10,\n");
  free(walk);
  free(ref);
}

// The order of the walk's matches: by node in pre-order, then by pattern; only enabled patterns.
// The nodes of a type it is asked to keep, whatever the patterns tried.
static void test_shape__order_and_enabled_patterns(void **state) {
  (void)state;
  const char *src = "a(b(1))\n";
  hg_shapes *s = compile("((call) @x)\n((argument_list) @y)\n((integer) @z)");
  hg_dispatch *d = hg_dispatch_new(s);
  hg_walker *w = hg_walker_new();
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
  hg_walker_exec(w, d, NULL, NULL, ts_tree_root_node(tree), NULL);
  TSQueryMatch m;
  char got[64] = "";
  while (hg_walker_next_match(w, &m))
    snprintf(got + strlen(got), sizeof(got) - strlen(got), "%u@%u ", m.pattern_index,
             ts_node_start_byte(m.captures[0].node));
  assert_string_equal(got, "0@0 1@1 0@2 1@3 2@4 ");
  static const uint8_t only_calls[] = {1, 0, 0};
  hg_walker_exec(w, d, only_calls, NULL, ts_tree_root_node(tree), NULL);
  got[0] = '\0';
  while (hg_walker_next_match(w, &m)) snprintf(got + strlen(got), sizeof(got) - strlen(got), "%u ", m.pattern_index);
  assert_string_equal(got, "0 0 ");
  // The nodes of the types asked for, kept as the walk passes them, whatever patterns it tries:
  // both calls, the outer one first; with the integer too, in pre-order.
  size_t n;
  const TSNode *kept = hg_walker_kept(w, &n);
  assert_int_equal(n, 0);
  uint32_t n_symbols = ts_language_symbol_count(tree_sitter_python());
  uint8_t *keep = calloc(n_symbols, 1);
  keep[ts_language_symbol_for_name(tree_sitter_python(), "call", 4, true)] = 1;
  hg_walker_exec(w, d, only_calls, NULL, ts_tree_root_node(tree), keep);
  kept = hg_walker_kept(w, &n);
  assert_int_equal(n, 2);
  assert_int_equal(ts_node_start_byte(kept[0]), 0);
  assert_int_equal(ts_node_end_byte(kept[0]), 7);
  assert_int_equal(ts_node_start_byte(kept[1]), 2);
  assert_string_equal(ts_node_type(kept[1]), "call");
  keep[ts_language_symbol_for_name(tree_sitter_python(), "integer", 7, true)] = 1;
  hg_walker_exec(w, d, only_calls, NULL, ts_tree_root_node(tree), keep);
  kept = hg_walker_kept(w, &n);
  assert_int_equal(n, 3);
  assert_string_equal(ts_node_type(kept[2]), "integer");
  assert_int_equal(ts_node_start_byte(kept[2]), 4);
  free(keep);
  hg_tree_delete(tree);
  ts_parser_delete(parser);
  hg_walker_free(w);
  hg_dispatch_free(d);
  hg_shapes_free(s);
}

// A pattern of the same shape as an earlier one has the matches that one has at the node, under
// its own index, also when the earlier one is not tried.
static void test_shape__same_shapes(void **state) {
  (void)state;
  const char *src = "a(b(1))\n";
  hg_shapes *s = compile("((call) @x)\n((argument_list) @y)\n((call) @x)\n((call (argument_list)) @x)");
  hg_dispatch *d = hg_dispatch_new(s);
  hg_walker *w = hg_walker_new();
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
  static const uint8_t all[] = {1, 1, 1, 1}, not_first[] = {0, 1, 1, 0};
  static const struct {
    const uint8_t *enabled;
    const char *want;
  } cases[] = {{all, "0@0 2@0 3@0 1@1 0@2 2@2 3@2 1@3 "}, {not_first, "2@0 1@1 2@2 1@3 "}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    hg_walker_exec(w, d, cases[i].enabled, NULL, ts_tree_root_node(tree), NULL);
    TSQueryMatch m;
    char got[128] = "";
    while (hg_walker_next_match(w, &m))
      snprintf(got + strlen(got), sizeof(got) - strlen(got), "%u@%u ", m.pattern_index,
               ts_node_start_byte(m.captures[0].node));
    assert_string_equal(got, cases[i].want);
  }
  hg_tree_delete(tree);
  ts_parser_delete(parser);
  hg_walker_free(w);
  hg_dispatch_free(d);
  hg_shapes_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shape__refusals_name_their_place),
      cmocka_unit_test(test_shape__texts_added_one_by_one),
      cmocka_unit_test(test_shape__capture_quantifiers),
      cmocka_unit_test(test_shape__walk_finds_what_the_query_engine_finds),
      cmocka_unit_test(test_shape__where_libtree_sitter_misses),
      cmocka_unit_test(test_shape__order_and_enabled_patterns),
      cmocka_unit_test(test_shape__same_shapes),
  };
  return cmocka_run_group_tests_name("shape", tests, NULL, NULL);
}
