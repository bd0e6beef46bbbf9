/* The matches of a surface's rules in a syntax tree: found by the walk (walk.h), or, in a ruleset
 * told to (hg_ruleset_reference), by libtree-sitter's query engine, which the soundness tests hold
 * the walk equal to. One cursor per thread, reused from file to file. */
#ifndef HG_MATCHES_H
#define HG_MATCHES_H

#include <tree_sitter/api.h>

#include "rules/ruleset.h"

typedef struct hg_matches hg_matches;

hg_matches *hg_matches_new(void);
void hg_matches_free(hg_matches *self);

/** Finds the matches of query `q`'s patterns (those of its units, with the facts) under `root`;
 *  with `pctx` (NULL: none), not those a predicate rules out before they are made (walk.h's gate:
 *  hg_predicates_may_hold, asked of what pctx knows), which hg_predicates_eval would drop. */
void hg_matches_exec(hg_matches *self, const hg_rules_query *q, TSNode root, hg_predctx *pctx);
/** ... and every node whose type `keep` flags (keep[symbol]; NULL: none) under root, in pre-order,
 *  which the walk passes anyway (a surface's table of its calls then costs no walk of its own): *n
 *  of them, valid until the next exec; NULL when no walk found the matches (the reference engine),
 *  and they were not kept. */
const TSNode *hg_matches_exec_keeping(hg_matches *self, const hg_rules_query *q, TSNode root, const uint8_t *keep,
                                     hg_predctx *pctx, size_t *n);
/** The next of them; its captures stay valid until the next hg_matches_exec. */
bool hg_matches_next(hg_matches *self, TSQueryMatch *m);

#endif
