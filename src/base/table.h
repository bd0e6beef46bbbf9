/* The one hash table: open addressing over keys of bytes (a name, a path, or a struct of integers
 * without padding; the bytes stay the caller's and must outlive the table), each with a size_t
 * value (an index, or a pointer through uintptr_t); kept at most half full, grown by doubling; its
 * slots in an arena or on the heap. A slot keeps its key's hash, so that a probe compares bytes
 * only when the hashes agree and growing hashes no key again; a caller that has a key's hash
 * (hg_table_hash, worked out where it is cheaper: in a thread of its own, or once for several
 * tables) hands it in. Lookups only: nothing iterates it, so no order leaks out. */
#ifndef HG_TABLE_H
#define HG_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

typedef struct {
  const char *key;  // NULL: an empty slot
  size_t val;
  uint32_t klen;
  uint32_t hash;    // the low 32 bits of the key's hg_table_hash
} hg_table_slot;

typedef struct {
  hg_table_slot *slot;
  size_t cap, used;  // cap: a power of two, or 0
  hg_arena *arena;   // NULL: the heap
} hg_table;

/** An empty table for about `expected` keys (0: none yet), in `arena` (NULL: on the heap). */
void hg_table_init(hg_table *t, hg_arena *arena, size_t expected);
/** The value of key `k` (n bytes, under 4 GiB), or NULL when the table does not hold it. */
size_t *hg_table_get(const hg_table *t, const char *k, size_t n);
/** The value of key `k`, added with the value 0 when the table did not hold it (*added, when not
 *  NULL, says which). The pointer holds until the next put. */
size_t *hg_table_put(hg_table *t, const char *k, size_t n, bool *added);
/** The hash the table files key `k` (n bytes) under. */
uint64_t hg_table_hash(const char *k, size_t n);
/** hg_table_get and hg_table_put of a key whose hg_table_hash is `h`. */
size_t *hg_table_get_hashed(const hg_table *t, const char *k, size_t n, uint64_t h);
size_t *hg_table_put_hashed(hg_table *t, const char *k, size_t n, uint64_t h, bool *added);
/** Frees a heap table's slots (an arena's go with the arena). */
void hg_table_free(hg_table *t);

#endif
