/* Finding the shapes (shape.h) in a syntax tree in one walk: each node is looked up in a table of
 * the patterns that can start at its type (dispatch.h), plus those whose root is a wildcard, and
 * only those are tried, at that node, that the gate admits. A walker is one thread's: it holds the
 * matches of its last walk and a tree cursor. */
#ifndef HG_RULES_WALK_H
#define HG_RULES_WALK_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "rules/dispatch.h"
#include "rules/shape.h"

typedef struct hg_walker hg_walker;

hg_walker *hg_walker_new(void);
void hg_walker_free(hg_walker *self);

/** A test a pattern's match must pass at the node it is tried at, asked before the pattern is
 *  matched there, of the nodes in `place` (at least one must pass), or, `file`, of the file (asked
 *  once a walk). `test` is the gate's own number for it. Checks of one `key` (below
 *  the gate's n_keys) are the same test of the same place, whatever their patterns: asked once a
 *  node. Checks of one `place_id` (below the gate's n_places; a file's check has none) have the same
 *  place: its nodes are found once a node, for every test asked of them. */
typedef struct {
  hg_walk_place place;
  bool file;
  uint32_t test;
  uint32_t key;
  uint32_t place_id;
} hg_walk_check;

/** The checks of a set of patterns (checks.h builds them from their predicates). */
typedef struct {
  // Per pattern p (and one more): its checks, in the order they are asked, are
  // checks[first[p] .. first[p + 1]).
  uint32_t *first;
  hg_walk_check *checks;
  uint32_t n_keys;    // the distinct tests
  uint32_t n_places;  // the distinct places
} hg_checks;

/** What leaves a pattern untried at a node: its checks, each asked of admits (a file's, of the node
 *  it is tried at); one that no node in its place passes leaves the pattern out there. */
typedef struct {
  bool (*admits)(void *ctx, uint32_t pattern, uint32_t test, TSNode node);
  void *ctx;
  const hg_checks *checks;
} hg_walk_gate;

/** Walks the tree under `root` once and keeps every match of the patterns `enabled` says to try
 *  (enabled[i] for pattern i; NULL: every pattern) that `gate` admits (NULL: each), in the order of
 *  their nodes (pre-order), then of their patterns; and every node whose type `keep` flags
 *  (keep[symbol], for each symbol of the language; NULL: none), in pre-order (hg_walker_kept). */
void hg_walker_exec(hg_walker *self, const hg_dispatch *dispatch, const uint8_t *enabled, const hg_walk_gate *gate,
                    TSNode root, const uint8_t *keep);
/** The nodes the last walk kept: *n of them (valid until the next walk). */
const TSNode *hg_walker_kept(const hg_walker *self, size_t *n);
/** The next match of the last walk (its captures stay valid until the next hg_walker_exec). */
bool hg_walker_next_match(hg_walker *self, TSQueryMatch *match);

#endif
