#include "base/table.h"

#include <stdlib.h>
#include <string.h>

static void alloc(hg_table *t, size_t cap) {
  t->cap = cap;
  if (!t->arena) {
    t->slot = hg_xcalloc(cap, sizeof(hg_table_slot));
  } else {
    t->slot = hg_arena_alloc(t->arena, cap * sizeof(hg_table_slot));
    memset(t->slot, 0, cap * sizeof(hg_table_slot));
  }
}

void hg_table_init(hg_table *t, hg_arena *arena, size_t expected) {
  *t = (hg_table){.arena = arena};
  size_t cap = 16;
  while (cap < 2 * expected)
    cap *= 2;
  alloc(t, cap);
}

uint64_t hg_table_hash(const char *k, size_t n) { return hg_hash_fast(0, k, n); }  // names and paths of some 40 bytes

// The slot of `k` (hash h): where it is, or the empty one where it would go.
static size_t find(const hg_table *t, const char *k, size_t n, uint32_t h) {
  size_t at = h & (t->cap - 1);
  for (const hg_table_slot *s; (s = &t->slot[at])->key; at = (at + 1) & (t->cap - 1))
    if (s->hash == h && s->klen == n && !memcmp(s->key, k, n))
      break;
  return at;
}

size_t *hg_table_get_hashed(const hg_table *t, const char *k, size_t n, uint64_t h) {
  if (!t->cap)
    return NULL;
  hg_table_slot *s = &t->slot[find(t, k, n, (uint32_t)h)];
  return s->key ? &s->val : NULL;
}

size_t *hg_table_put_hashed(hg_table *t, const char *k, size_t n, uint64_t h, bool *added) {
  if (n > UINT32_MAX)
    abort();  // no name, path or struct of hardguard's is so long
  if (!t->cap)
    alloc(t, 16);
  if (2 * (t->used + 1) > t->cap) {
    hg_table old = *t;
    alloc(t, old.cap * 2);
    for (size_t i = 0; i < old.cap; i++) {
      const hg_table_slot *o = &old.slot[i];
      if (o->key) {
        size_t at = o->hash & (t->cap - 1);  // keys are distinct: the first empty slot is its
        while (t->slot[at].key)
          at = (at + 1) & (t->cap - 1);
        t->slot[at] = *o;
      }
    }
    if (!t->arena)
      free(old.slot);
  }
  hg_table_slot *s = &t->slot[find(t, k, n, (uint32_t)h)];
  if (added)
    *added = !s->key;
  if (!s->key) {
    *s = (hg_table_slot){.key = k, .klen = (uint32_t)n, .hash = (uint32_t)h};
    t->used++;
  }
  return &s->val;
}

size_t *hg_table_get(const hg_table *t, const char *k, size_t n) {
  return t->cap ? hg_table_get_hashed(t, k, n, hg_table_hash(k, n)) : NULL;
}

size_t *hg_table_put(hg_table *t, const char *k, size_t n, bool *added) {
  return hg_table_put_hashed(t, k, n, hg_table_hash(k, n), added);
}

void hg_table_free(hg_table *t) {
  if (!t->arena)
    free(t->slot);
  *t = (hg_table){0};
}
