/* Finding the shapes (shape.h) in a syntax tree in one walk: each node is looked up in a table of
 * the patterns that can start at its type (built once per compiled rules: hg_dispatch_new), plus
 * those whose root is a wildcard, and only those are tried, at that node. A walker is one
 * thread's: it holds the matches of its last walk and a tree cursor. */
#ifndef HG_RULES_WALK_H
#define HG_RULES_WALK_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "rules/shape.h"

typedef struct hg_dispatch hg_dispatch;
typedef struct hg_walker hg_walker;

/** The dispatch table of `shapes` (which it points to and must outlive it). */
hg_dispatch *hg_dispatch_new(const hg_shapes *shapes);
void hg_dispatch_free(hg_dispatch *self);

hg_walker *hg_walker_new(void);
void hg_walker_free(hg_walker *self);

/** Walks the tree under `root` once and keeps every match of the patterns `enabled` says to try
 *  (enabled[i] for pattern i; NULL: every pattern), in the order of their nodes (pre-order), then
 *  of their patterns; and every node of type `keep` (0: none), in pre-order (hg_walker_kept). */
void hg_walker_exec(hg_walker *self, const hg_dispatch *dispatch, const uint8_t *enabled, TSNode root, TSSymbol keep);
/** The nodes of type `keep` the last walk passed: *n of them (valid until the next walk). */
const TSNode *hg_walker_kept(const hg_walker *self, size_t *n);
/** The next match of the last walk (its captures stay valid until the next hg_walker_exec). */
bool hg_walker_next_match(hg_walker *self, TSQueryMatch *match);

#endif
