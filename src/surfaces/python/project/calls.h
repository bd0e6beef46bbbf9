/* The calls of one parsed module, by the last name their callee is written with (`f` of `f(...)`
 * and of `x.f(...)`), for the project stage's search of a function's callers (callers.c), whether
 * the module is one the index parsed or the file being checked: the calls the walk of its rules
 * kept, else those one walk of its tree finds. */
#ifndef HG_PROJECT_CALLS_H
#define HG_PROJECT_CALLS_H

#include "surfaces/python/project/index.h"

typedef struct hg_calls hg_calls;

/** Module m's calls: those the walk of its rules kept (m->calls), else found by a walk of its
 *  tree; everything lives in `arena` (and m's source, which must outlive it). */
hg_calls *hg_calls_of(const hg_module *m, hg_arena *arena);
/** The table of `calls` (n, module m's call nodes in pre-order). */
hg_calls *hg_calls_from(const hg_module *m, const TSNode *calls, size_t n, hg_arena *arena);
/** The calls written `name` or `x.name`, in source order: *n of them, or NULL. */
const TSNode *hg_calls_named(const hg_calls *self, const char *name, size_t len, size_t *n);

#endif
