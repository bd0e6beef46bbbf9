// Unit tests for grammar_alloc.c, the allocator the grammars' external scanners are built with:
// the small blocks a thread frees come back to its next allocations that fit, a few at most, big
// ones never, and a thread's kept blocks are freed when it ends (the ASan and valgrind runs of this
// test report them otherwise).
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <tree_sitter/api.h>

#include "base/grammar_alloc.h"
#include "surfaces/node.h"

const TSLanguage *tree_sitter_python(void);

// Empties the calling thread's kept blocks by asking for them back.
static void drain(void) {
  while (hg_grammar_kept()) free(hg_grammar_malloc(1));
}

static void test_grammar_alloc__freed_block_comes_back(void **state) {
  (void)state;
  drain();
  char *a = hg_grammar_malloc(16);
  assert_non_null(a);
  hg_grammar_free(a);
  assert_int_equal(hg_grammar_kept(), 1);
  char *b = hg_grammar_malloc(12);
  assert_ptr_equal(a, b);  // the block just freed fits
  assert_int_equal(hg_grammar_kept(), 0);
  hg_grammar_free(b);
  char *c = hg_grammar_malloc(4096);  // does not fit: malloc's, and the small one stays kept
  assert_ptr_not_equal(c, b);
  assert_int_equal(hg_grammar_kept(), 1);
  hg_grammar_free(c);  // too big to keep
  assert_int_equal(hg_grammar_kept(), 1);
  drain();
  hg_grammar_free(NULL);
  assert_int_equal(hg_grammar_kept(), 0);
}

static void test_grammar_alloc__keeps_a_few(void **state) {
  (void)state;
  drain();
  void *p[10];
  for (int i = 0; i < 10; i++) p[i] = hg_grammar_malloc(8 + (size_t)i);
  for (int i = 0; i < 10; i++) hg_grammar_free(p[i]);
  assert_int_equal(hg_grammar_kept(), 4);
  // Each kept block comes back once: the first four freed (the rest went back to malloc).
  void *q[4];
  for (int i = 0; i < 4; i++) {
    q[i] = hg_grammar_malloc(8);
    bool known = false;
    for (int k = 0; k < 4; k++) known |= q[i] == p[k];
    assert_true(known);
    for (int k = 0; k < i; k++) assert_ptr_not_equal(q[i], q[k]);
  }
  assert_int_equal(hg_grammar_kept(), 0);
  for (int i = 0; i < 4; i++) hg_grammar_free(q[i]);
  drain();
}

static void test_grammar_alloc__calloc_and_realloc(void **state) {
  (void)state;
  drain();
  unsigned char *a = hg_grammar_malloc(32);
  memset(a, 0xAB, 32);
  hg_grammar_free(a);
  unsigned char *z = hg_grammar_calloc(4, 8);  // the dirty block again, zeroed
  assert_ptr_equal(z, a);
  for (int i = 0; i < 32; i++) assert_int_equal(z[i], 0);
  assert_null(hg_grammar_calloc(SIZE_MAX / 2, 4));  // overflow: refused, not wrapped
  // Growing within the block's room stays in place; past it, the bytes move along.
  unsigned char *r = hg_grammar_realloc(z, 24);
  assert_ptr_equal(r, z);
  memcpy(r, "indents", 8);
  r = hg_grammar_realloc(r, 100000);
  assert_non_null(r);
  assert_memory_equal(r, "indents", 8);
  hg_grammar_free(r);
  unsigned char *n = hg_grammar_realloc(NULL, 8);  // realloc(NULL, n) is malloc
  assert_non_null(n);
  hg_grammar_free(n);
  drain();
}

static void *keep_and_end(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++) hg_grammar_free(hg_grammar_malloc(16));
  void *p[3];
  for (int i = 0; i < 3; i++) p[i] = hg_grammar_malloc(16 + (size_t)i);
  for (int i = 0; i < 3; i++) hg_grammar_free(p[i]);
  return (void *)(uintptr_t)hg_grammar_kept();
}

static void test_grammar_alloc__per_thread_and_freed_at_its_end(void **state) {
  (void)state;
  drain();
  pthread_t t;
  void *kept;
  assert_int_equal(pthread_create(&t, NULL, keep_and_end, NULL), 0);
  assert_int_equal(pthread_join(t, &kept), 0);
  assert_int_equal((uintptr_t)kept, 3);  // that thread kept three
  assert_int_equal(hg_grammar_kept(), 0);  // none of them is this thread's
}

// The build wires it in: parsing Python, whose scanner frees its stacks at each state it is handed,
// leaves blocks kept by this thread (none, were the scanner built with malloc's).
static void test_grammar_alloc__the_python_scanner_allocates_here(void **state) {
  (void)state;
  drain();
  static const char src[] = "def f(x):\n    if x:\n        return f\"{x!r}\"\n    return None\n";
  TSParser *p = ts_parser_new();
  assert_true(ts_parser_set_language(p, tree_sitter_python()));
  TSTree *t = ts_parser_parse_string(p, NULL, src, sizeof(src) - 1);
  assert_non_null(t);
  assert_false(ts_node_has_error(ts_tree_root_node(t)));
  assert_true(hg_grammar_kept() > 0);
  hg_tree_delete(t);
  ts_parser_delete(p);
  drain();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_grammar_alloc__freed_block_comes_back),
      cmocka_unit_test(test_grammar_alloc__keeps_a_few),
      cmocka_unit_test(test_grammar_alloc__calloc_and_realloc),
      cmocka_unit_test(test_grammar_alloc__per_thread_and_freed_at_its_end),
      cmocka_unit_test(test_grammar_alloc__the_python_scanner_allocates_here),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
