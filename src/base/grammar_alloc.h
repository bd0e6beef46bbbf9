/* The allocator tree-sitter allocates through in hardguard: the grammars' external scanners are
 * built with it (grammars/fetch.cmake includes this header before each grammar source, and the
 * grammars' own tree_sitter/alloc.h keeps the ts_malloc and the others defined here), and main()
 * hands it to libtree-sitter (ts_set_allocator) before anything is parsed.
 *
 * A parse allocates a block or more per node and a tree's deletion frees them all: hundreds of
 * thousands a run, most of them small (tree-sitter-python's scanner also frees its two stacks and
 * allocates one again each time the parser hands it its state). Requests of up to HG_SLAB_MAX
 * bytes are the slab's (base/slab.h: blocks without malloc's header, kept by the thread that frees
 * them for its next requests of their size), a tree's nodes among them. Bigger ones, and all of
 * them where the slab is off (valgrind, ASan), are malloc's: malloc keeps seven freed blocks of a
 * size per thread, and past that each free and the next malloc go through its bins (on corpus B,
 * 6 % of a run's instructions), so a thread keeps the ones it frees (malloc's usable sizes up to
 * 1,016 bytes: 16 c + 8 for c from 1 below 64), up to 8 MB in all, one list per size, and hands
 * them back to its next requests of that size, a growing array's included (realloc). Any thread
 * may free a block and realloc moves one; a thread's kept blocks of malloc go back to malloc when
 * it ends, and its slab's chunks none of whose blocks is in use to the system. */
#ifndef HG_GRAMMAR_ALLOC_H
#define HG_GRAMMAR_ALLOC_H

#include <stddef.h>

/** malloc, calloc, realloc and free as tree-sitter expects them: a request that cannot be met
 *  aborts with a message (calloc's count * size overflowing gives NULL). */
void *hg_grammar_malloc(size_t n);
void *hg_grammar_calloc(size_t count, size_t size);
void *hg_grammar_realloc(void *p, size_t n);
void hg_grammar_free(void *p);

/** Gives the system back the memory of the calling thread's slab chunks none of whose blocks is in
 *  use (after a big tree is deleted: the next big one may be another thread's). The number of
 *  chunks (HG_SLAB_CHUNK bytes each) given back. */
size_t hg_grammar_trim(void);

/** How many blocks of malloc's, and how many bytes in them, the calling thread keeps, and how many
 *  allocations it asked for (for the tests). */
size_t hg_grammar_kept(void);
size_t hg_grammar_kept_bytes(void);
size_t hg_grammar_requests(void);
/** The most a thread keeps, in usable bytes. */
#define HG_GRAMMAR_KEEP_BYTES ((size_t)8 << 20)

#define ts_malloc hg_grammar_malloc
#define ts_calloc hg_grammar_calloc
#define ts_realloc hg_grammar_realloc
#define ts_free hg_grammar_free

#endif
