/* The dispatch table of a set of shapes, built once per compiled rules and read by the walk
 * (walk.h): the patterns that can start at each node type, those whose root is a wildcard, which
 * patterns share one shape (matched once a node), and where a capture stands in every match
 * before its pattern is matched (for the walk's gate). */
#ifndef HG_RULES_DISPATCH_H
#define HG_RULES_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "rules/shape.h"

typedef struct hg_dispatch hg_dispatch;

/** The dispatch table of `shapes` (which it points to and must outlive it). */
hg_dispatch *hg_dispatch_new(const hg_shapes *shapes);
void hg_dispatch_free(hg_dispatch *self);

enum { HG_WALK_PLACE_MAX = 4 };

/** A place in a pattern's matches known before the pattern is matched: the node it is tried at
 *  (depth 0), or a node reached from it in `depth` steps, each to a named child in `field` (0: in
 *  any) of type `symbol` (0: of any). */
typedef struct {
  uint8_t depth;
  struct {
    TSFieldId field;
    TSSymbol symbol;
  } step[HG_WALK_PLACE_MAX];
} hg_walk_place;

/** Where capture `capture` of pattern `pattern` stands in every match, when that is one node in a
 *  place known before the pattern is matched (every item on the way to it taken exactly once, not
 *  in one alternative only). False when it is not (optional, repeated, in a branch, or named more
 *  than once). */
bool hg_dispatch_capture_place(const hg_dispatch *dispatch, uint32_t pattern, uint32_t capture, hg_walk_place *place);

/** The table itself, read by the walk (walk.c) alone. */
struct hg_dispatch {
  const hg_shapes *shapes;
  uint32_t n_symbols;
  uint32_t *offsets;  // n_symbols + 1: the patterns starting at symbol s are ids[offsets[s] .. offsets[s + 1])
  uint32_t *ids;
  uint32_t *wild;  // patterns whose root (or one of its alternatives) is a wildcard, ascending
  uint32_t n_wild;
  TSFieldId *wild_field;  // per wildcard pattern: a field its root must have (0: none to check cheaply)
  bool *fixed;            // per pattern: each capture once in every match, or never (none optional or repeated)
  // Per pattern: the first pattern of the same shape (its items the same, each capture of one
  // standing where a capture of the other does, one to one: sdk-run's patterns differ in their
  // predicates and the names of their captures), else itself: its shape. At a node where a
  // pattern of that shape was tried, this one's matches are that one's, their captures renamed
  // (to_shape: a capture id of the pattern -> the shape's; from_shape: back; NULL: the same ids):
  // the shape is matched once, whichever of its patterns are enabled.
  uint32_t *same;
  uint16_t **to_shape, **from_shape;
};

#endif
