// Unit tests for the walk's gate (rules/walk.h, rules/checks.h): where a capture stands in every
// match before its pattern is matched (hg_dispatch_capture_place), the checks made from patterns'
// predicates, and a gated walk: a pattern is left out at a node exactly when one of its checks
// finds no node in its place that passes, a key's test is asked once a node whatever the patterns
// that share it, and a file's once a walk.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "rules/checks.h"
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

// The place of capture `capture` in the one pattern `shape`, spelled field:type per step ('*': any),
// "." the node the pattern is tried at, "-" none.
static void place_of(const char *shape, const char *capture, char *out, size_t cap) {
  hg_shapes *s = compile(shape);
  hg_dispatch *d = hg_dispatch_new(s);
  hg_walk_place place;
  const TSLanguage *lang = tree_sitter_python();
  if (!hg_dispatch_capture_place(d, 0, hg_shapes_capture_id(s, capture), &place)) {
    snprintf(out, cap, "-");
  } else {
    snprintf(out, cap, ".");
    for (uint8_t i = 0; i < place.depth; i++) {
      const char *field = place.step[i].field ? ts_language_field_name_for_id(lang, place.step[i].field) : "*";
      const char *type = place.step[i].symbol ? ts_language_symbol_name(lang, place.step[i].symbol) : "*";
      snprintf(out + strlen(out), cap - strlen(out), "%s%s:%s", i ? "/" : "", field, type);
    }
    if (place.depth) memmove(out, out + 1, strlen(out));  // no "." before the steps
  }
  hg_dispatch_free(d);
  hg_shapes_free(s);
}

static void test_walk_gate__capture_places(void **state) {
  (void)state;
  static const struct {
    const char *shape, *capture, *place;
  } cases[] = {
      {"((call function: (attribute) @c) @s)", "s", "."},
      {"((call function: (attribute) @c) @s)", "c", "function:attribute"},
      {"((call function: (attribute attribute: (identifier) @c)))", "c", "function:attribute/attribute:identifier"},
      {"((call function: [(identifier) (attribute)] @c))", "c", "function:*"},
      {"((call function: (_) @c))", "c", "function:*"},
      {"((call (argument_list (string) @c)))", "c", "*:argument_list/*:string"},
      {"((call arguments: (argument_list . (comment)* . (_) @c)))", "c", "arguments:argument_list/*:*"},
      {"([(list) (tuple)] @c)", "c", "."},
      // Not one node in a place known before the match:
      {"((call arguments: (argument_list (string)? @c)))", "c", "-"},  // optional
      {"((call arguments: (argument_list (string)* @c)))", "c", "-"},  // repeated
      {"((call arguments: (argument_list (string)+ @c)))", "c", "-"},
      {"((call arguments: (argument_list)? (string) @c))", "c", "*:string"},  // beside an optional item
      {"((call arguments: (argument_list (keyword_argument)* (string) @c)))", "c", "arguments:argument_list/*:string"},
      {"((call arguments: (argument_list (keyword_argument value: (string) @c)*)))", "c", "-"},  // below a repeat
      {"([(list (string) @c) (tuple)])", "c", "-"},                                              // in one branch
      {"((call function: [(identifier) @c (attribute) @c]))", "c", "-"},                        // named twice
      {"((call function: (identifier) @c arguments: (argument_list (identifier) @c)))", "c", "-"},
      // At most HG_WALK_PLACE_MAX steps down.
      {"((call (argument_list (call (argument_list (string) @c)))))", "c", "*:argument_list/*:call/*:argument_list/*:string"},
      {"((call (argument_list (call (argument_list (call) @c (string))))))", "c", "*:argument_list/*:call/*:argument_list/*:call"},
      {"((call (argument_list (call (argument_list (call (argument_list) @c))))))", "c", "-"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char got[256];
    place_of(cases[i].shape, cases[i].capture, got, sizeof(got));
    if (strcmp(got, cases[i].place) != 0)
      fail_msg("%s @%s: %s, expected %s", cases[i].shape, cases[i].capture, got, cases[i].place);
  }
}

// The gate's answers: test 0 passes a node whose text is "run", test 1 one whose text is "2", test
// 2 (a file's) says what `file_ok` says; each call counted per test.
typedef struct {
  const char *src;
  bool file_ok;
  unsigned asked[3];
} gate_ctx;

static bool admits(void *vctx, uint32_t pattern, uint32_t test, TSNode node) {
  (void)pattern;
  gate_ctx *g = vctx;
  g->asked[test]++;
  uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
  if (test == 2) return g->file_ok;
  const char *want = test == 0 ? "run" : "2";
  return b - a == strlen(want) && memcmp(g->src + a, want, b - a) == 0;
}

// Each match as pattern@start (of the node it was found at: its first capture's), in the walk's
// order.
static void walk(hg_walker *w, const hg_dispatch *d, const hg_walk_gate *gate, TSNode root, char *out, size_t cap) {
  hg_walker_exec(w, d, NULL, gate, root, NULL);
  TSQueryMatch m;
  out[0] = '\0';
  while (hg_walker_next_match(w, &m)) {
    uint32_t at = UINT32_MAX;
    for (uint16_t i = 0; i < m.capture_count; i++)
      if (ts_node_start_byte(m.captures[i].node) < at) at = ts_node_start_byte(m.captures[i].node);
    snprintf(out + strlen(out), cap - strlen(out), "%u@%u ", m.pattern_index, at);
  }
}

static void test_walk_gate__leaves_out_what_a_check_fails(void **state) {
  (void)state;
  // P0 and P1 ask one test of one place (key 0); P2 asks the file (key 1); P3 asks nothing; P4 asks
  // test 1 of any string among a call's arguments (key 2).
  hg_shapes *s = compile("((call function: (attribute attribute: (identifier) @a0)) @s0)\n"
                         "((call function: (attribute attribute: (identifier) @a1) arguments: (_)) @s1)\n"
                         "((call) @s2)\n"
                         "((argument_list) @s3)\n"
                         "((call arguments: (argument_list (integer) @i)) @s4)\n");
  hg_dispatch *d = hg_dispatch_new(s);
  hg_walk_check checks[4] = {{.test = 0, .key = 0, .place_id = 0}, {.test = 0, .key = 0, .place_id = 0},
                             {.file = true, .test = 2, .key = 1, .place_id = UINT32_MAX},
                             {.test = 1, .key = 2, .place_id = 1}};
  assert_true(hg_dispatch_capture_place(d, 0, hg_shapes_capture_id(s, "a0"), &checks[0].place));
  assert_true(hg_dispatch_capture_place(d, 1, hg_shapes_capture_id(s, "a1"), &checks[1].place));
  assert_true(hg_dispatch_capture_place(d, 4, hg_shapes_capture_id(s, "i"), &checks[3].place));
  uint32_t first[] = {0, 1, 2, 3, 3, 4};
  const char *src = "a.run(b.stop(1))\nc.run(1, 2)\nf(3, 1)\n";
  gate_ctx g = {.src = src, .file_ok = true};
  hg_checks of_patterns = {first, checks, 3, 2};
  hg_walk_gate gate = {admits, &g, &of_patterns};
  hg_walker *w = hg_walker_new();
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
  TSNode root = ts_tree_root_node(tree);
  char all[256], got[256];
  walk(w, d, NULL, root, all, sizeof(all));
  assert_string_equal(all, "0@0 1@0 2@0 3@5 0@6 1@6 2@6 4@6 3@12 0@17 1@17 2@17 4@17 4@17 3@22 2@29 4@29 4@29 3@30 ");
  walk(w, d, &gate, root, got, sizeof(got));
  // b.stop(1) ends in stop; only c.run(1, 2) has a 2 among its arguments (P4 keeps both its
  // matches there: the gate leaves out a pattern at a node, not one match of it).
  assert_string_equal(got, "0@0 1@0 2@0 3@5 2@6 3@12 0@17 1@17 2@17 4@17 4@17 3@22 2@29 3@30 ");
  assert_int_equal(g.asked[0], 3);  // once a call, for both patterns (f's callee is no attribute)
  assert_int_equal(g.asked[2], 1);  // once a walk
  // a.run's arguments hold no integer; b.stop's 1; c.run's 1, then 2 ends the search; f's 3, 1.
  assert_int_equal(g.asked[1], 5);
  // The file's test failing leaves its pattern out everywhere, asked once again for the new walk.
  g.file_ok = false;
  memset(g.asked, 0, sizeof(g.asked));
  walk(w, d, &gate, root, got, sizeof(got));
  assert_string_equal(got, "0@0 1@0 3@5 3@12 0@17 1@17 4@17 4@17 3@22 3@30 ");
  assert_int_equal(g.asked[2], 1);
  hg_tree_delete(tree);
  ts_parser_delete(parser);
  hg_walker_free(w);
  hg_dispatch_free(d);
  hg_shapes_free(s);
}

// Two tests of one place, each of its own key: the place's nodes (a call's arguments, two or more)
// are asked each test in order up to the first that passes, whichever test found them first.
static void test_walk_gate__one_place_serves_two_tests(void **state) {
  (void)state;
  hg_shapes *s = compile("((call arguments: (argument_list (_) @x)) @s0)\n"
                         "((call arguments: (argument_list (_) @y)) @s1)\n");
  hg_dispatch *d = hg_dispatch_new(s);
  hg_walk_check checks[2] = {{.test = 1, .key = 0, .place_id = 0}, {.test = 0, .key = 1, .place_id = 0}};
  assert_true(hg_dispatch_capture_place(d, 0, hg_shapes_capture_id(s, "x"), &checks[0].place));
  assert_true(hg_dispatch_capture_place(d, 1, hg_shapes_capture_id(s, "y"), &checks[1].place));
  uint32_t first[] = {0, 1, 2};
  const char *src = "f(1, 2)\ng(run, 3, 2)\nh()\n";
  gate_ctx g = {.src = src, .file_ok = true};
  hg_checks of_patterns = {first, checks, 2, 1};
  hg_walk_gate gate = {admits, &g, &of_patterns};
  hg_walker *w = hg_walker_new();
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
  char got[256];
  walk(w, d, &gate, ts_tree_root_node(tree), got, sizeof(got));
  // f has a 2 and no run: P0 only; g has both: both, each pattern a match per argument; h neither.
  assert_string_equal(got, "0@0 0@0 0@8 0@8 0@8 1@8 1@8 1@8 ");
  // "2": f's 1, 2; g's run, 3, 2. "run": f's 1, 2; g's run.
  assert_int_equal(g.asked[1], 5);
  assert_int_equal(g.asked[0], 3);
  hg_tree_delete(tree);
  ts_parser_delete(parser);
  hg_walker_free(w);
  hg_dispatch_free(d);
  hg_shapes_free(s);
}

// The checks of compiled patterns: a pattern's file tests first, then its places from the
// nearest; what no place holds is not asked; the same test of the same place is one key.
static void test_walk_gate__checks_of_patterns(void **state) {
  (void)state;
  hg_shapes *s = compile(
      "((call function: (attribute attribute: (identifier) @v) @c)"
      " (#eq? @v \"run\") (#resolves-to-suffix? @c \"containers.run\") (#file-contains? \"docker\"))\n"
      "((call function: (attribute) @d) (#resolves-to-suffix? @d \"containers.run\"))\n"
      "((call function: (_) @e arguments: (argument_list (string)? @o)) (#contains? @o \"x\") (#match? @e \"y\"))\n"
      "((call function: (attribute) @f) (#resolves-to-suffix? @f \"containers.create\") (#eq? @f @f))\n");
  hg_dispatch *d = hg_dispatch_new(s);
  hg_pattern patterns[4] = {{0}};
  for (uint32_t i = 0; i < 4; i++) {
    hg_error err = {{0}};
    if (hg_predicates_compile(&patterns[i].predicates, s, i, NULL, &err) != 0) fail_msg("%s", err.message);
  }
  hg_checks c;
  hg_checks_build(&c, d, patterns, 4);
  char got[256] = "";
  for (uint32_t p = 0; p < 4; p++) {
    snprintf(got + strlen(got), sizeof(got) - strlen(got), "P%u:", p);
    for (uint32_t i = c.first[p]; i < c.first[p + 1]; i++)
      snprintf(got + strlen(got), sizeof(got) - strlen(got), " %s%u/t%u/k%u/p%d", c.checks[i].file ? "file" : "depth",
               c.checks[i].file ? 0 : c.checks[i].place.depth, c.checks[i].test, c.checks[i].key,
               c.checks[i].place_id == UINT32_MAX ? -1 : (int)c.checks[i].place_id);
    snprintf(got + strlen(got), sizeof(got) - strlen(got), "; ");
  }
  // P0's callee and P1's and P3's are one place (p0), P0's callee's last name another.
  assert_string_equal(got, "P0: file0/t2/k0/p-1 depth1/t1/k1/p0 depth2/t0/k2/p1; P1: depth1/t0/k1/p0; P2:; "
                           "P3: depth1/t0/k3/p0; ");
  assert_int_equal(c.n_keys, 4);
  assert_int_equal(c.n_places, 2);
  hg_checks_free(&c);
  for (uint32_t i = 0; i < 4; i++) hg_predicates_free(patterns[i].predicates);
  hg_dispatch_free(d);
  hg_shapes_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_walk_gate__capture_places),
      cmocka_unit_test(test_walk_gate__leaves_out_what_a_check_fails),
      cmocka_unit_test(test_walk_gate__one_place_serves_two_tests),
      cmocka_unit_test(test_walk_gate__checks_of_patterns),
  };
  return cmocka_run_group_tests_name("walk_gate", tests, NULL, NULL);
}
