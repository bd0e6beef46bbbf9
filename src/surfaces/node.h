/* Tree-sitter node helpers shared by every reader of Python trees: null-safe type tests (libtree-
 * sitter 0.20 dereferences a null node in ts_node_type), a node's text compared or copied, and the
 * arguments of a call with comments left out. Pure; allocate nothing unless they say so. */
#ifndef HG_NODE_H
#define HG_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "base/util.h"

/** Is `n` a node of this type? False for a null node. */
bool hg_node_is(TSNode n, const char *type);
/** Is the text of `n` in `src` exactly `s` (len bytes)? False for a null node. */
bool hg_node_text_eq(TSNode n, const char *src, const char *s, size_t len);
/** Do the bytes of `n` in `src` hold `s` (len bytes) anywhere? A node that names an identifier
 *  holds its bytes, so one that does not hold them cannot name it. False for a null node. */
bool hg_node_text_has(TSNode n, const char *src, const char *s, size_t len);
/** The text of `n`, copied into the arena. */
const char *hg_node_text(TSNode n, const char *src, hg_arena *arena);
/** The child in field `name` (a null node when absent or when `n` is null). */
TSNode hg_node_field(TSNode n, const char *name);

/** Fields read on every call site, by ids looked up once (ts_node_child_by_field_name compares
 *  names on each call). */
typedef enum { HG_FIELD_ATTRIBUTE, HG_FIELD_OBJECT, HG_FIELD_FUNCTION, HG_FIELD_ARGUMENTS, HG_FIELD_COUNT } hg_field;
/** The child in field `f` (a null node when absent or when `n` is null). Thread-safe. */
TSNode hg_node_child(TSNode n, hg_field f);

/** The root of the tree `n` is in (`n` itself when null). */
TSNode hg_node_root(TSNode n);
/** The ancestors of `n`, its parent first, up to the root: at most `cap` of them into out, their
 *  number returned (more than cap: only the first cap were written). Found in one descent from the
 *  root by `n`'s bytes (libtree-sitter 0.20's ts_node_parent descends from the root again at each
 *  step), or by ts_node_parent where the bytes do not lead to `n` (an empty node at a child's end).
 *  The descent starts below the root where the calling thread's last one allows (hg_tree_delete). */
size_t hg_node_ancestors(TSNode n, TSNode *out, size_t cap);

/** A node's ancestors, nearest first, to be read in order: the first HG_ANCESTORS_KEPT found in one
 *  descent (hg_node_ancestors), the ones past them parent by parent as they are asked for. */
enum { HG_ANCESTORS_KEPT = 64 };
typedef struct {
  TSNode node[HG_ANCESTORS_KEPT];
  size_t n;     // how many the node has
  TSNode far;   // past the kept ones: the last one asked for, at index far_i
  size_t far_i;
} hg_ancestors;
void hg_ancestors_of(hg_ancestors *up, TSNode n);
/** Ancestor i (0: the parent), a null node past the root; past the kept ones, i must not go back. */
TSNode hg_ancestor(hg_ancestors *up, size_t i);

/** Deletes a tree. Every tree is deleted by it, never by ts_tree_delete: hg_node_ancestors keeps the
 *  path of its last descent, which must not be trusted once the tree is gone (the next tree's nodes
 *  can have its nodes' addresses). Thread-safe. */
void hg_tree_delete(TSTree *tree);
/** How many nodes of the calling thread's last descent in `tree` are kept to start the next one from
 *  (0 once any tree has been deleted since; for the tests). */
size_t hg_node_kept_path(const TSTree *tree);
#ifndef HG_NODE_DELETES_TREES
#pragma GCC poison ts_tree_delete
#endif

/** Does `outer` contain `inner` (by byte range)? */
bool hg_node_contains(TSNode outer, TSNode inner);

/** Steps `cur` to the next node in pre-order: into its first child when `descend`, else to the next
 *  sibling of it or of its nearest ancestor that has one, never above the node the cursor was made
 *  on; false when none is left. */
bool hg_cursor_next(TSTreeCursor *cur, bool descend);

/** A node's bytes and symbol: its key in a table of one tree's nodes (no padding). */
typedef struct {
  uint32_t start, end, symbol;
} hg_node_key;
static inline hg_node_key hg_node_key_of(TSNode n) {
  return (hg_node_key){ts_node_start_byte(n), ts_node_end_byte(n), ts_node_symbol(n)};
}

/** The named children of `n` that are not comments (a comment may stand between any two tokens),
 *  counted and indexed: an argument list's arguments, a parenthesized or splatted expression. A
 *  null node has none; an index past the end gives a null node. */
uint32_t hg_node_arg_count(TSNode n);
TSNode hg_node_arg(TSNode n, uint32_t index);

#endif
