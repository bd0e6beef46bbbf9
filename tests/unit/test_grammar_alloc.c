// Unit tests for grammar_alloc.c, the allocator tree-sitter allocates through in hardguard, and the
// slab its small blocks come from (slab.c): blocks of malloc's a thread frees come back to its next
// allocations of their size, up to a bound, big ones never, and a thread's kept blocks are freed
// when it ends (the ASan and valgrind runs of this test report them otherwise); the slab's blocks
// (up to HG_SLAB_MAX bytes, where it is on: not under valgrind or ASan) come back the same way, and
// its chunks go back to the system once none of their blocks is in use. The tests of malloc's
// blocks ask for more than HG_SLAB_MAX bytes, which are malloc's either way.
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
#include "base/slab.h"
#include "surfaces/node.h"

const TSLanguage *tree_sitter_python(void);

// Empties the calling thread's kept blocks of malloc's by asking for them back, size by size (with
// the slab on, requests of up to HG_SLAB_MAX bytes are its own).
static void drain(void) {
  for (size_t n = hg_slab_on() ? HG_SLAB_MAX + 8 : 8; hg_grammar_kept() && n <= 16 * 63 + 8; n += 16)
    for (size_t before = hg_grammar_kept() + 1; hg_grammar_kept() && hg_grammar_kept() < before;) {
      before = hg_grammar_kept();
      free(hg_grammar_malloc(n));
    }
  assert_int_equal(hg_grammar_kept(), 0);
  assert_int_equal(hg_grammar_kept_bytes(), 0);
}

// Two sizes of malloc's blocks past the slab's: sizes of the form 16 c + 8 are a block's usable
// size under glibc, valgrind and ASan alike.
enum { SMALL = HG_SLAB_MAX + 8, MID = HG_SLAB_MAX + 24 };

static void test_grammar_alloc__freed_block_comes_back(void **state) {
  (void)state;
  drain();
  char *a = hg_grammar_malloc(SMALL);
  assert_non_null(a);
  assert_false(hg_slab_owns(a));
  hg_grammar_free(a);
  assert_int_equal(hg_grammar_kept(), 1);
  assert_int_equal(hg_grammar_kept_bytes(), SMALL);
  char *b = hg_grammar_malloc(SMALL - 4);
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
  void *small = hg_grammar_malloc(SMALL), *mid1 = hg_grammar_malloc(MID), *mid2 = hg_grammar_malloc(MID);
  hg_grammar_free(small);
  hg_grammar_free(mid1);
  hg_grammar_free(mid2);
  assert_int_equal(hg_grammar_kept(), 3);
  void *x = hg_grammar_malloc(MID);
  assert_ptr_equal(x, mid2);
  void *y = hg_grammar_malloc(SMALL + 1);  // SMALL + 1 to MID bytes: the same list
  assert_ptr_equal(y, mid1);
  void *z = hg_grammar_malloc(MID);  // that list is empty; the SMALL block does not hold MID
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
// one too small to hold a request of 24 bytes is not kept. (With the slab on, they are its own.)
static void test_grammar_alloc__smallest_blocks_come_back(void **state) {
  (void)state;
  if (hg_slab_on()) skip();
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
  char *small = hg_grammar_malloc(SMALL), *kept = hg_grammar_malloc(MID);
  hg_grammar_free(kept);
  memcpy(small, "stack of 24 bytes here.", 24);
  char *grown = hg_grammar_realloc(small, MID);
  assert_ptr_equal(grown, kept);
  assert_memory_equal(grown, "stack of 24 bytes here.", 24);
  assert_int_equal(hg_grammar_kept(), 1);  // the old block, kept for a request of up to SMALL bytes
  assert_ptr_equal(hg_grammar_malloc(SMALL - 4), small);
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
  unsigned char *a = hg_grammar_malloc(MID);
  memset(a, 0xAB, MID);
  hg_grammar_free(a);
  unsigned char *z = hg_grammar_calloc(MID / 8, 8);  // the dirty block again, zeroed
  assert_ptr_equal(z, a);
  for (int i = 0; i < MID; i++) assert_int_equal(z[i], 0);
  assert_null(hg_grammar_calloc(SIZE_MAX / 2, 4));  // overflow: refused, not wrapped
  unsigned char *big = hg_grammar_calloc(1000, 100);  // past the lists: calloc's, zeroed
  for (int i = 0; i < 100000; i += 999) assert_int_equal(big[i], 0);
  hg_grammar_free(big);
  // Shrinking stays in place; growing past the block's room moves the bytes along.
  unsigned char *r = hg_grammar_realloc(z, SMALL);
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
  for (int i = 0; i < 3; i++) hg_grammar_free(hg_grammar_malloc(SMALL));  // one block, again and again
  void *p[3];
  for (int i = 0; i < 3; i++) p[i] = hg_grammar_malloc(SMALL + 16 * (size_t)i);
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
// more per node; a tree's deletion then leaves its blocks kept (the tree is the same either way;
// with the slab on, the nodes' blocks are the slab's).
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
  size_t kept = hg_grammar_kept() + hg_slab_kept();
  hg_tree_delete(t);
  assert_true(hg_grammar_kept() + hg_slab_kept() > kept);
  ts_parser_delete(p);
  ts_set_allocator(NULL, NULL, NULL, NULL);  // malloc's again: it frees what was kept alike
  drain();
}

// ---- the slab (slab.c), where it is on --------------------------------------------------------

// Every size up to HG_SLAB_MAX: a block of the slab, 8-byte aligned, holding what was asked for and
// no more than the next step of 8, apart from every other; freed, the last one of a size serves
// the next request of that size.
static void test_grammar_alloc__slab_blocks_of_every_size(void **state) {
  (void)state;
  if (!hg_slab_on()) skip();
  unsigned char *a[HG_SLAB_MAX + 1];
  for (size_t n = 1; n <= HG_SLAB_MAX; n++) {
    a[n] = hg_grammar_malloc(n);
    assert_true(hg_slab_owns(a[n]));
    assert_int_equal((uintptr_t)a[n] % 8, 0);
    assert_true(hg_slab_size(a[n]) >= n && hg_slab_size(a[n]) < n + 8);
    memset(a[n], (int)n, n);
  }
  for (size_t n = 1; n <= HG_SLAB_MAX; n++)
    for (size_t i = 0; i < n; i++) assert_int_equal(a[n][i], (unsigned char)n);
  size_t kept = hg_slab_kept();
  for (size_t n = 1; n <= HG_SLAB_MAX; n++) hg_grammar_free(a[n]);
  assert_int_equal(hg_slab_kept(), kept + HG_SLAB_MAX);
  assert_ptr_equal(hg_grammar_malloc(HG_SLAB_MAX - 3), a[HG_SLAB_MAX]);  // 249 to 256: one size
  assert_ptr_equal(hg_grammar_malloc(0), a[8]);  // 0 to 8 bytes: the smallest
  hg_grammar_free(a[8]);
  hg_grammar_free(a[HG_SLAB_MAX]);
  unsigned char *m = hg_grammar_malloc(HG_SLAB_MAX + 1);  // past it: malloc's
  assert_false(hg_slab_owns(m));
  hg_grammar_free(m);
}

// realloc: in place while the block holds it, else to a block of the new size, the slab's or
// malloc's, with its bytes; realloc(p, 0) frees p.
static void test_grammar_alloc__slab_realloc(void **state) {
  (void)state;
  if (!hg_slab_on()) skip();
  unsigned char *p = hg_grammar_malloc(80);
  for (int i = 0; i < 80; i++) p[i] = (unsigned char)i;
  assert_ptr_equal(hg_grammar_realloc(p, 77), p);
  unsigned char *q = hg_grammar_realloc(p, 84);  // a node's block grown by one child's
  assert_ptr_not_equal(q, p);
  assert_true(hg_slab_owns(q));
  assert_int_equal(hg_slab_size(q), 88);
  for (int i = 0; i < 80; i++) assert_int_equal(q[i], (unsigned char)i);
  unsigned char *big = hg_grammar_realloc(q, 3000);  // out of the slab
  assert_false(hg_slab_owns(big));
  for (int i = 0; i < 80; i++) assert_int_equal(big[i], (unsigned char)i);
  assert_ptr_equal(hg_grammar_realloc(big, 100), big);  // malloc's, shrunk in place
  unsigned char *s = hg_grammar_malloc(200);
  assert_null(hg_grammar_realloc(s, 0));
  assert_ptr_equal(hg_grammar_malloc(200), s);  // freed by it
  hg_grammar_free(s);
  assert_null(hg_grammar_realloc(big, 0));
  unsigned char *z = hg_grammar_calloc(10, 10);  // a dirty block, zeroed
  assert_true(hg_slab_owns(z));
  for (int i = 0; i < 100; i++) assert_int_equal(z[i], 0);
  hg_grammar_free(z);
}

static void *free_it(void *p) {
  hg_grammar_free(p);  // onto this thread's list: its next request of the size takes it
  void *again = hg_grammar_malloc(96);
  hg_grammar_free(again);
  return again;
}

// A block freed by another thread than its maker's serves that thread's requests.
static void test_grammar_alloc__slab_block_freed_by_another_thread(void **state) {
  (void)state;
  if (!hg_slab_on()) skip();
  void *p = hg_grammar_malloc(96), *again;
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, free_it, p), 0);
  assert_int_equal(pthread_join(t, &again), 0);
  assert_ptr_equal(again, p);
  void *mine = hg_grammar_malloc(96);  // this thread's list never had it
  assert_ptr_not_equal(mine, p);
  hg_grammar_free(mine);
}

// A chunk of blocks of n bytes holds (HG_SLAB_CHUNK - its header) / n of them. Each test of the
// chunks asks for a size of its own: the tests before leave blocks of theirs about.
#define PER_CHUNK(n) ((HG_SLAB_CHUNK - 64) / (n))

// Chunks none of whose blocks is in use go back to the system, and only those.
static void test_grammar_alloc__slab_trim_gives_back_unused_chunks(void **state) {
  (void)state;
  if (!hg_slab_on()) skip();
  hg_grammar_trim();  // what the tests before left (but blocks of chunks still in use)
  size_t chunks = hg_slab_chunks(), kept = hg_slab_kept(), n = 4 * PER_CHUNK(104);
  void **p = malloc(n * sizeof(void *));
  for (size_t i = 0; i < n; i++) p[i] = hg_grammar_malloc(104);
  assert_int_equal(hg_slab_chunks(), chunks + 4);
  assert_int_equal(hg_grammar_trim(), 0);  // all in use
  for (size_t i = 1; i < n; i++) hg_grammar_free(p[i]);
  assert_int_equal(hg_grammar_trim(), 3);  // the first one still holds p[0]
  assert_int_equal(hg_slab_chunks(), chunks + 1);
  assert_int_equal(hg_slab_kept(), kept + PER_CHUNK(104) - 1);  // the others' blocks left the lists
  hg_grammar_free(p[0]);
  assert_int_equal(hg_grammar_trim(), 1);
  assert_int_equal(hg_slab_chunks(), chunks);
  assert_int_equal(hg_slab_kept(), kept);
  for (size_t i = 0; i < n; i++) p[i] = hg_grammar_malloc(104);  // from the chunks given back
  assert_int_equal(hg_slab_chunks(), chunks + 4);
  for (size_t i = 0; i < n; i++) hg_grammar_free(p[i]);
  assert_int_equal(hg_grammar_trim(), 4);
  free(p);
}

static void *keep_one(void *p) {
  hg_grammar_free(p);
  return NULL;  // it ends with the block on its list: its chunk is not its own, so it stays
}

// A chunk one of whose blocks is on another thread's list is not given back.
static void test_grammar_alloc__slab_trim_keeps_a_chunk_another_thread_holds(void **state) {
  (void)state;
  if (!hg_slab_on()) skip();
  hg_grammar_trim();
  size_t chunks = hg_slab_chunks(), n = PER_CHUNK(112);
  void **p = malloc(n * sizeof(void *));
  for (size_t i = 0; i < n; i++) p[i] = hg_grammar_malloc(112);
  assert_int_equal(hg_slab_chunks(), chunks + 1);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, keep_one, p[0]), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  for (size_t i = 1; i < n; i++) hg_grammar_free(p[i]);
  assert_int_equal(hg_grammar_trim(), 0);
  assert_int_equal(hg_slab_chunks(), chunks + 1);
  free(p);
}

static void *carve_and_end(void *arg) {
  (void)arg;
  void *p[1000];
  for (int i = 0; i < 1000; i++) p[i] = hg_grammar_malloc(120);
  for (int i = 0; i < 1000; i++) hg_grammar_free(p[i]);
  return (void *)(uintptr_t)hg_slab_chunks();
}

// A thread's end gives back its chunks none of whose blocks is in use.
static void test_grammar_alloc__slab_thread_end_gives_chunks_back(void **state) {
  (void)state;
  if (!hg_slab_on()) skip();
  size_t chunks = hg_slab_chunks();
  pthread_t t;
  void *during;
  assert_int_equal(pthread_create(&t, NULL, carve_and_end, NULL), 0);
  assert_int_equal(pthread_join(t, &during), 0);
  assert_int_equal((uintptr_t)during, chunks + (1000 * 120 + HG_SLAB_CHUNK - 65) / (HG_SLAB_CHUNK - 64));
  assert_int_equal(hg_slab_chunks(), chunks);
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
      cmocka_unit_test(test_grammar_alloc__slab_blocks_of_every_size),
      cmocka_unit_test(test_grammar_alloc__slab_realloc),
      cmocka_unit_test(test_grammar_alloc__slab_block_freed_by_another_thread),
      cmocka_unit_test(test_grammar_alloc__slab_trim_gives_back_unused_chunks),
      cmocka_unit_test(test_grammar_alloc__slab_trim_keeps_a_chunk_another_thread_holds),
      cmocka_unit_test(test_grammar_alloc__slab_thread_end_gives_chunks_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
