/* A Makefile that tree-sitter-make fails to parse on one line and then drops the rest of (a valid
 * `\#` inside `$(shell ...)`): its statements that hold an error, and the segments it is read in,
 * each parsed again from the next line that starts a rule or an assignment (segment.c). */
#ifndef HG_MAKE_SEGMENT_H
#define HG_MAKE_SEGMENT_H

#include <tree_sitter/api.h>

#include "base/source.h"
#include "base/util.h"

// One part of the file, [lo, hi), read from `tree` (the file's own parse, or a parse of the file
// from `lo` on).
typedef struct {
  uint32_t lo, hi;
  TSTree *tree;
} hg_make_segment;

typedef HG_VEC(hg_make_segment) hg_make_segment_vec;

// A statement (a child of the root) that failed to parse: its bytes, and its first ERROR or
// MISSING node.
typedef struct {
  uint32_t start, end;
  TSNode error;
} hg_make_broken;

typedef HG_VEC(hg_make_broken) hg_make_broken_vec;

/** The statements of `tree` that hold an error, in order. */
void hg_make__broken_statements(TSTree *tree, hg_make_broken_vec *out);
/** The byte after the logical line holding byte `i` (its `\` continuations included). */
uint32_t hg_make__line_end(const char *d, uint32_t len, uint32_t i);
/** Splits the file into segments (the first is `tree`, the file's own parse; the others are new
 *  trees, the caller's to delete). Bounded: MAX_RECOVERIES segments, REPARSE_FACTOR times the file
 *  parsed again in all. */
void hg_make__segments(const hg_source *src, TSTree *tree, hg_make_segment_vec *out);

#endif
