/* The one hash table: open addressing over keys of bytes (a name, a path, or a struct of integers
 * without padding; the bytes stay the caller's and must outlive the table), each with a size_t
 * value (an index, or a pointer through uintptr_t); kept at most half full, grown by doubling; its
 * arrays in an arena or on the heap. Lookups only: nothing iterates it, so no order leaks out. */
#ifndef HG_TABLE_H
#define HG_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

typedef struct {
  const char **key;  // NULL: an empty slot
  size_t *klen;
  size_t *val;
  size_t cap, used;  // cap: a power of two, or 0
  hg_arena *arena;   // NULL: the heap
} hg_table;

/** An empty table for about `expected` keys (0: none yet), in `arena` (NULL: on the heap). */
void hg_table_init(hg_table *t, hg_arena *arena, size_t expected);
/** The value of key `k` (n bytes), or NULL when the table does not hold it. */
size_t *hg_table_get(const hg_table *t, const char *k, size_t n);
/** The value of key `k`, added with the value 0 when the table did not hold it (*added, when not
 *  NULL, says which). The pointer holds until the next put. */
size_t *hg_table_put(hg_table *t, const char *k, size_t n, bool *added);
/** Frees a heap table's arrays (an arena's go with the arena). */
void hg_table_free(hg_table *t);

#endif
