/* Tree-sitter node helpers shared by every reader of Python trees: null-safe type tests (libtree-
 * sitter 0.20 dereferences a null node in ts_node_type), a node's text compared or copied, and the
 * arguments of a call with comments left out. Pure; allocate nothing unless they say so. */
#ifndef HG_NODE_H
#define HG_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "util.h"

/** Is `n` a node of this type? False for a null node. */
bool hg_node_is(TSNode n, const char *type);
/** Is the text of `n` in `src` exactly `s` (len bytes)? False for a null node. */
bool hg_node_text_eq(TSNode n, const char *src, const char *s, size_t len);
/** The text of `n`, copied into the arena. */
const char *hg_node_text(TSNode n, const char *src, hg_arena *arena);
/** The child in field `name` (a null node when absent or when `n` is null). */
TSNode hg_node_field(TSNode n, const char *name);

#endif
