/* The allocator the grammars' external scanners are built with: grammars/fetch.cmake includes this
 * header before each grammar source, and the grammars' own tree_sitter/alloc.h keeps the ts_malloc
 * and the others defined here (without it they are malloc's, and nothing is kept).
 *
 * tree-sitter-python's scanner frees its two stacks and allocates one again each time the parser
 * hands it its state, hundreds of thousands of times a run. The last small blocks it frees are kept
 * by the thread, a few, and handed back to its next allocation that fits; every other request goes
 * to malloc. A thread's kept blocks are freed when it ends. */
#ifndef HG_GRAMMAR_ALLOC_H
#define HG_GRAMMAR_ALLOC_H

#include <stddef.h>

void *hg_grammar_malloc(size_t n);
void *hg_grammar_calloc(size_t count, size_t size);
void *hg_grammar_realloc(void *p, size_t n);
void hg_grammar_free(void *p);

/** How many blocks the calling thread keeps (for the tests). */
size_t hg_grammar_kept(void);

#define ts_malloc hg_grammar_malloc
#define ts_calloc hg_grammar_calloc
#define ts_realloc hg_grammar_realloc
#define ts_free hg_grammar_free

#endif
