/* base/table.c: the one hash table, on the heap and in an arena, through its growth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/table.h"

static void fill_and_check(hg_table *t, size_t n) {
  char **keys = calloc(n, sizeof(char *));
  for (size_t i = 0; i < n; i++) {
    keys[i] = hg_xasprintf("key%zu", i);
    bool added = false;
    size_t *v = hg_table_put(t, keys[i], strlen(keys[i]), &added);
    assert_true(added);
    assert_int_equal(*v, 0);  // a new key's value is 0
    *v = i + 1;
  }
  assert_int_equal(t->used, n);
  assert_true(2 * t->used <= t->cap);  // at most half full
  for (size_t i = 0; i < n; i++) {
    size_t *v = hg_table_get(t, keys[i], strlen(keys[i]));
    assert_non_null(v);
    assert_int_equal(*v, i + 1);
    bool added = true;
    assert_ptr_equal(hg_table_put(t, keys[i], strlen(keys[i]), &added), v);  // no growth: no move
    assert_false(added);
  }
  // Absent: another key, a prefix of one (the length counts), the empty key.
  assert_null(hg_table_get(t, "nokey", 5));
  assert_null(hg_table_get(t, "key1", 3));
  assert_null(hg_table_get(t, "", 0));
  for (size_t i = 0; i < n; i++) free(keys[i]);
  free(keys);
}

static void test_table__heap_grows(void **state) {
  (void)state;
  hg_table t;
  hg_table_init(&t, NULL, 0);
  fill_and_check(&t, 5000);
  hg_table_free(&t);
  assert_int_equal(t.cap, 0);
}

static void test_table__arena(void **state) {
  (void)state;
  hg_arena *a = hg_arena_new();
  hg_table t;
  hg_table_init(&t, a, 100);
  size_t cap = t.cap;
  assert_true(cap >= 200);
  fill_and_check(&t, 100);
  assert_int_equal(t.cap, cap);  // sized for what was expected: no growth
  hg_arena_free(a);
}

static void test_table__empty_and_lengths(void **state) {
  (void)state;
  hg_table t = {0};  // zeroed, never initialised: holds nothing, takes keys
  assert_null(hg_table_get(&t, "a", 1));
  *hg_table_put(&t, "ab", 2, NULL) = 7;
  *hg_table_put(&t, "abc", 2, NULL) += 1;  // "ab" again: only the first 2 bytes count
  assert_int_equal(*hg_table_get(&t, "ab", 2), 8);
  *hg_table_put(&t, "", 0, NULL) = 3;
  assert_int_equal(*hg_table_get(&t, "x", 0), 3);
  hg_table_free(&t);
}

// A struct of integers without padding is a key by its bytes, zeros included (the qualified-name
// memo's node spans, the extractor's sites taken): found from a copy at another address.
static void test_table__struct_keys(void **state) {
  (void)state;
  typedef struct {
    uint32_t start, end, symbol;
  } span;
  static const span keys[] = {{0, 4, 1}, {0, 4, 2}, {4, 0, 1}, {1, 4, 1}, {0, 0, 0}};
  hg_table t;
  hg_table_init(&t, NULL, 0);
  for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
    *hg_table_put(&t, (const char *)&keys[i], sizeof(span), NULL) = i + 1;
  for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
    span copy = keys[i];
    size_t *v = hg_table_get(&t, (const char *)&copy, sizeof copy);
    assert_non_null(v);
    assert_int_equal(*v, i + 1);
  }
  span other = {4, 0, 2};
  assert_null(hg_table_get(&t, (const char *)&other, sizeof other));
  hg_table_free(&t);
}

// A key's hash handed in (worked out elsewhere, once) files it where hashing it here would: found
// either way, through growth, which moves slots by their kept hashes and hashes no key again.
static void test_table__hashed(void **state) {
  (void)state;
  hg_table t;
  hg_table_init(&t, NULL, 0);
  char keys[3000][16];
  for (size_t i = 0; i < 3000; i++) {
    snprintf(keys[i], sizeof keys[i], "w%zu", i);
    size_t n = strlen(keys[i]);
    if (i % 2)
      *hg_table_put_hashed(&t, keys[i], n, hg_table_hash(keys[i], n), NULL) = i + 1;
    else
      *hg_table_put(&t, keys[i], n, NULL) = i + 1;
  }
  assert_int_equal(t.used, 3000);
  for (size_t i = 0; i < 3000; i++) {
    size_t n = strlen(keys[i]);
    size_t *v = hg_table_get_hashed(&t, keys[i], n, hg_table_hash(keys[i], n));
    assert_non_null(v);
    assert_int_equal(*v, i + 1);
    assert_ptr_equal(hg_table_get(&t, keys[i], n), v);
  }
  // Another key under the same hash is another key: the bytes decide once the hashes agree.
  assert_null(hg_table_get_hashed(&t, "nokey", 5, hg_table_hash("w7", 2)));
  bool added = false;
  *hg_table_put_hashed(&t, "nokey", 5, hg_table_hash("w7", 2), &added) = 99;
  assert_true(added);
  assert_int_equal(*hg_table_get(&t, "w7", 2), 8);
  assert_int_equal(*hg_table_get_hashed(&t, "nokey", 5, hg_table_hash("w7", 2)), 99);
  hg_table_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table__heap_grows),
      cmocka_unit_test(test_table__arena),
      cmocka_unit_test(test_table__empty_and_lengths),
      cmocka_unit_test(test_table__struct_keys),
      cmocka_unit_test(test_table__hashed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
