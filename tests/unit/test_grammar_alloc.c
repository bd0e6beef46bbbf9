// Unit tests for grammar_alloc.c, the allocator tree-sitter allocates through in hardguard: the
// small blocks a thread frees come back to its next allocations of their size, up to a bound, big
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
#include <malloc.h>
#include <pthread.h>
#include <tree_sitter/api.h>

#include "base/grammar_alloc.h"
#include "surfaces/node.h"

const TSLanguage *tree_sitter_python(void);

// Empties the calling thread's kept blocks by asking for them back, size by size.
static void drain(void) {
  for (size_t n = 8; hg_grammar_kept() && n <= 16 * 63 + 8; n += 16)
    for (size_t before = hg_grammar_kept() + 1; hg_grammar_kept() && hg_grammar_kept() < before;) {
      before = hg_grammar_kept();
      free(hg_grammar_malloc(n));
    }
  assert_int_equal(hg_grammar_kept(), 0);
  assert_int_equal(hg_grammar_kept_bytes(), 0);
}

// Sizes of the form 16 c + 8 are a block's usable size under glibc, valgrind and ASan alike.
static void test_grammar_alloc__freed_block_comes_back(void **state) {
  (void)state;
  drain();
  char *a = hg_grammar_malloc(24);
  assert_non_null(a);
  hg_grammar_free(a);
  assert_int_equal(hg_grammar_kept(), 1);
  assert_int_equal(hg_grammar_kept_bytes(), 24);
  char *b = hg_grammar_malloc(12);
  assert_ptr_equal(a, b);  // the block just freed holds it
  assert_int_equal(hg_grammar_kept(), 0);
  hg_grammar_free(b);
  char *c = hg_grammar_malloc(4096);  // no list holds that: malloc's, and the small one stays kept
  assert_ptr_not_equal(c, b);
  assert_int_equal(hg_grammar_kept(), 1);
  hg_grammar_free(c);  // too big to keep
  assert_int_equal(hg_grammar_kept(), 1);
  drain();
  hg_grammar_free(NULL);
  assert_int_equal(hg_grammar_kept(), 0);
}

// One list per size: a freed block serves requests it holds of its own size class only, the last
// one freed first.
static void test_grammar_alloc__one_list_per_size(void **state) {
  (void)state;
  drain();
  void *small = hg_grammar_malloc(24), *mid1 = hg_grammar_malloc(40), *mid2 = hg_grammar_malloc(40);
  hg_grammar_free(small);
  hg_grammar_free(mid1);
  hg_grammar_free(mid2);
  assert_int_equal(hg_grammar_kept(), 3);
  void *x = hg_grammar_malloc(40);
  assert_ptr_equal(x, mid2);
  void *y = hg_grammar_malloc(33);  // 33 to 40 bytes: the same list
  assert_ptr_equal(y, mid1);
  void *z = hg_grammar_malloc(40);  // that list is empty; the 24-byte block does not hold 40
  assert_ptr_not_equal(z, small);
  assert_int_equal(hg_grammar_kept(), 1);
  hg_grammar_free(x);
  hg_grammar_free(y);
  hg_grammar_free(z);
  drain();
}

// The smallest requests (1 to 24 bytes) get malloc's smallest block, 24 usable bytes: freed, it
// serves them again (kept for requests of 9 to 24 bytes only, 320,000 of them piled up on corpus B,
// never asked for, up to the bound). Where malloc's blocks are the size asked for (valgrind, ASan),
// one too small to hold a request of 24 bytes is not kept.
static void test_grammar_alloc__smallest_blocks_come_back(void **state) {
  (void)state;
  drain();
  char *a = hg_grammar_malloc(4);
  bool keepable = malloc_usable_size(a) >= 24;
  hg_grammar_free(a);
  assert_int_equal(hg_grammar_kept(), keepable ? 1 : 0);
  char *b = hg_grammar_malloc(4);
  if (keepable) assert_ptr_equal(b, a);
  assert_int_equal(hg_grammar_kept(), 0);
  hg_grammar_free(b);
  drain();
}

// A growing array moves into a kept block of its new size, its bytes along, and leaves its old
// block kept.
static void test_grammar_alloc__realloc_takes_a_kept_block(void **state) {
  (void)state;
  drain();
  char *small = hg_grammar_malloc(24), *kept = hg_grammar_malloc(40);
  hg_grammar_free(kept);
  memcpy(small, "stack of 24 bytes here.", 24);
  char *grown = hg_grammar_realloc(small, 40);
  assert_ptr_equal(grown, kept);
  assert_memory_equal(grown, "stack of 24 bytes here.", 24);
  assert_int_equal(hg_grammar_kept(), 1);  // the old block, kept for a request of up to 24 bytes
  assert_ptr_equal(hg_grammar_malloc(20), small);
  hg_grammar_free(small);
  hg_grammar_free(grown);
  drain();
}

// A thread keeps at most HG_GRAMMAR_KEEP_BYTES; past that, blocks go back to malloc.
static void test_grammar_alloc__keeps_a_bounded_amount(void **state) {
  (void)state;
  drain();
  enum { SIZE = 16 * 62 + 8, N = 9000 };  // 9 MB of the biggest kept size
  void **p = malloc(N * sizeof(void *));
  for (size_t i = 0; i < N; i++) p[i] = hg_grammar_malloc(SIZE);
  for (size_t i = 0; i < N; i++) hg_grammar_free(p[i]);
  assert_true(hg_grammar_kept_bytes() <= HG_GRAMMAR_KEEP_BYTES);
  assert_true(hg_grammar_kept_bytes() > HG_GRAMMAR_KEEP_BYTES - SIZE);
  assert_int_equal(hg_grammar_kept(), HG_GRAMMAR_KEEP_BYTES / SIZE);
  free(p);
  drain();
}

static void test_grammar_alloc__calloc_and_realloc(void **state) {
  (void)state;
  drain();
  unsigned char *a = hg_grammar_malloc(40);
  memset(a, 0xAB, 40);
  hg_grammar_free(a);
  unsigned char *z = hg_grammar_calloc(5, 8);  // the dirty block again, zeroed
  assert_ptr_equal(z, a);
  for (int i = 0; i < 40; i++) assert_int_equal(z[i], 0);
  assert_null(hg_grammar_calloc(SIZE_MAX / 2, 4));  // overflow: refused, not wrapped
  unsigned char *big = hg_grammar_calloc(1000, 100);  // past the lists: calloc's, zeroed
  for (int i = 0; i < 100000; i += 999) assert_int_equal(big[i], 0);
  hg_grammar_free(big);
  // Shrinking stays in place; growing past the block's room moves the bytes along.
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
  for (int i = 0; i < 3; i++) hg_grammar_free(hg_grammar_malloc(24));  // one block, again and again
  void *p[3];
  for (int i = 0; i < 3; i++) p[i] = hg_grammar_malloc(24 + 16 * (size_t)i);
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

// The build wires it in: the Python scanner allocates through it whatever libtree-sitter's own
// allocator, and, once handed to libtree-sitter (as main() does), so does the parser, a block or
// more per node; a tree's deletion then leaves its blocks kept (the tree is the same either way).
static void test_grammar_alloc__tree_sitter_allocates_here(void **state) {
  (void)state;
  drain();
  static const char src[] = "def f(x):\n    if x:\n        return f\"{x!r}\"\n    return None\n";
  TSParser *p = ts_parser_new();
  assert_true(ts_parser_set_language(p, tree_sitter_python()));
  size_t before = hg_grammar_requests();
  TSTree *t = ts_parser_parse_string(p, NULL, src, sizeof(src) - 1);
  assert_non_null(t);
  assert_false(ts_node_has_error(ts_tree_root_node(t)));
  size_t scanner = hg_grammar_requests() - before;
  assert_true(scanner > 0);
  char *plain = ts_node_string(ts_tree_root_node(t));
  hg_tree_delete(t);
  ts_parser_delete(p);
  ts_set_allocator(hg_grammar_malloc, hg_grammar_calloc, hg_grammar_realloc, hg_grammar_free);
  p = ts_parser_new();
  assert_true(ts_parser_set_language(p, tree_sitter_python()));
  before = hg_grammar_requests();
  t = ts_parser_parse_string(p, NULL, src, sizeof(src) - 1);
  size_t all = hg_grammar_requests() - before;
  assert_true(all > scanner + 20);  // the nodes' too
  char *again = ts_node_string(ts_tree_root_node(t));
  assert_string_equal(again, plain);
  hg_grammar_free(again);
  free(plain);
  size_t kept = hg_grammar_kept();
  hg_tree_delete(t);
  assert_true(hg_grammar_kept() > kept);
  ts_parser_delete(p);
  ts_set_allocator(NULL, NULL, NULL, NULL);  // malloc's again: it frees what was kept alike
  drain();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_grammar_alloc__freed_block_comes_back),
      cmocka_unit_test(test_grammar_alloc__one_list_per_size),
      cmocka_unit_test(test_grammar_alloc__smallest_blocks_come_back),
      cmocka_unit_test(test_grammar_alloc__realloc_takes_a_kept_block),
      cmocka_unit_test(test_grammar_alloc__keeps_a_bounded_amount),
      cmocka_unit_test(test_grammar_alloc__calloc_and_realloc),
      cmocka_unit_test(test_grammar_alloc__per_thread_and_freed_at_its_end),
      cmocka_unit_test(test_grammar_alloc__tree_sitter_allocates_here),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
