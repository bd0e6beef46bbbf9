/* Small blocks without malloc's header, for tree-sitter's trees (base/grammar_alloc.h hands them
 * out). A parse asks for a block or more per node, almost all of them 80 to 111 bytes (a node's
 * children and its data in one block); malloc adds 8 bytes to each and rounds it to 16, some 12 %
 * of a tree (the 1.5 MB file of literals whose tree is corpus A's peak: 44.4 MiB of malloc's
 * blocks for 39.4 MiB asked for). Here blocks of 8 to HG_SLAB_MAX bytes, in steps of 8, are carved
 * from chunks of HG_SLAB_CHUNK bytes, each chunk holding blocks of one size, which a table of one
 * byte a chunk says: a block needs no header. The chunks lie in one range of addresses reserved at
 * the first request (made usable as it fills), which tells a block of the slab from malloc's.
 *
 * A thread keeps the blocks it frees, one list per size, and hands them to its next requests of
 * that size; it carves new ones from chunks of its own. A block may be freed by any thread (it
 * then serves that thread's requests). hg_slab_trim gives the system back the memory of the
 * calling thread's chunks whose every block it holds freed (after a big tree is deleted, so that
 * the next one, on another thread, does not add to it; grammar_alloc.c calls it at a thread's end
 * too).
 *
 * Off (every request NULL, hg_slab_owns false) under valgrind and AddressSanitizer, which then see
 * each block as malloc's, where the range cannot be reserved or a limit on the process's addresses
 * (RLIMIT_AS) is less than four times it, and with HG_SLAB=off in the environment; HG_SLAB=on
 * keeps it on under valgrind (to count a run's instructions as it runs). */
#ifndef HG_SLAB_H
#define HG_SLAB_H

#include <stdbool.h>
#include <stddef.h>

#define HG_SLAB_MAX 256                     // the biggest block, in bytes
#define HG_SLAB_CHUNK ((size_t)64 << 10)    // a chunk's bytes, its header included

/** A block of at least n bytes (1 <= n <= HG_SLAB_MAX), 8-byte aligned; NULL when the slab is off
 *  or its range is full (malloc's then). */
void *hg_slab_alloc(size_t n);

/** Is p a block of the slab? (Inline: every free asks.) */
static inline bool hg_slab_owns(const void *p);

/** The bytes a block of the slab holds (its size's). */
size_t hg_slab_size(const void *p);

/** Keeps a block of the slab for the calling thread's next requests of its size. */
void hg_slab_free(void *p);

/** Returns to the system the memory of the calling thread's chunks none of whose blocks is in use
 *  (every one it carved is on this thread's lists); those blocks leave the lists. The number of
 *  chunks given back. */
size_t hg_slab_trim(void);

/** Is the slab on (not under valgrind or ASan, its range reserved)? Reserves it if not done. */
bool hg_slab_on(void);

/** Chunks carved and not given back, over all threads; blocks on the calling thread's lists, counted
 *  (for the tests). */
size_t hg_slab_chunks(void);
size_t hg_slab_kept(void);

// ---- inline --------------------------------------------------------------------------------------
#include <stdatomic.h>
#include <stdint.h>

#define HG_SLAB_RANGE ((size_t)4 << 30)  // the addresses reserved (none of them used yet)
extern char *_Atomic hg_slab__base;        // the reserved range; NULL: the slab is off

static inline bool hg_slab_owns(const void *p) {
  // A block of the slab reached this thread after the range was reserved, and with it the range.
  char *b = atomic_load_explicit(&hg_slab__base, memory_order_relaxed);
  return b && (uintptr_t)p - (uintptr_t)b < HG_SLAB_RANGE;
}

#endif
