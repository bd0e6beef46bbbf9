#include "base/table.h"

#include <stdlib.h>
#include <string.h>

static void *zeroed(hg_arena *arena, size_t n, size_t size) {
  if (!arena)
    return hg_xcalloc(n, size);
  void *p = hg_arena_alloc(arena, n * size);
  memset(p, 0, n * size);
  return p;
}

static void alloc(hg_table *t, size_t cap) {
  t->cap = cap;
  t->key = zeroed(t->arena, cap, sizeof(char *));
  t->klen = zeroed(t->arena, cap, sizeof(size_t));
  t->val = zeroed(t->arena, cap, sizeof(size_t));
}

void hg_table_init(hg_table *t, hg_arena *arena, size_t expected) {
  *t = (hg_table){.arena = arena};
  size_t cap = 16;
  while (cap < 2 * expected)
    cap *= 2;
  alloc(t, cap);
}

// The slot of `k`: where it is, or the empty one where it would go.
static size_t slot(const hg_table *t, const char *k, size_t n) {
  size_t at = (size_t)hg_hash_fast(0, k, n) & (t->cap - 1);  // names and paths of some 40 bytes
  while (t->key[at] && !(t->klen[at] == n && !memcmp(t->key[at], k, n)))
    at = (at + 1) & (t->cap - 1);
  return at;
}

size_t *hg_table_get(const hg_table *t, const char *k, size_t n) {
  if (!t->cap)
    return NULL;
  size_t at = slot(t, k, n);
  return t->key[at] ? &t->val[at] : NULL;
}

size_t *hg_table_put(hg_table *t, const char *k, size_t n, bool *added) {
  if (!t->cap)
    alloc(t, 16);
  if (2 * (t->used + 1) > t->cap) {
    hg_table old = *t;
    alloc(t, old.cap * 2);
    for (size_t i = 0; i < old.cap; i++)
      if (old.key[i]) {
        size_t at = slot(t, old.key[i], old.klen[i]);
        t->key[at] = old.key[i], t->klen[at] = old.klen[i], t->val[at] = old.val[i];
      }
    if (!t->arena)
      free(old.key), free(old.klen), free(old.val);
  }
  size_t at = slot(t, k, n);
  if (added)
    *added = !t->key[at];
  if (!t->key[at]) {
    t->key[at] = k, t->klen[at] = n, t->val[at] = 0;
    t->used++;
  }
  return &t->val[at];
}

void hg_table_free(hg_table *t) {
  if (!t->arena) {
    free(t->key);
    free(t->klen);
    free(t->val);
  }
  *t = (hg_table){0};
}
