/* Statements of a scope in execution order, for following a name through a file: the scope
 * around a node, a walk of its simple statements (never into nested functions or classes) that
 * says whether each runs on every path to a given point, and a function's parameters. Reads the
 * tree only; allocates nothing but a memo's statements, in its arena. */
#ifndef HG_SCOPE_H
#define HG_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "base/util.h"
#include "surfaces/node.h"

typedef struct {
  TSNode stmt;      // a simple statement: expression_statement, return_statement, delete_statement…
  bool conditional; // inside a branch or loop that may not run on the way to the point
} hg_stmt;

/** The statements of blocks, read once for a file's walks (a function's body is walked again for
 *  each name read in it, and a cursor's step costs some 500 instructions). Its memory is
 *  `arena`'s; it keeps the blocks of `tree` only (one of another tree is read each time). */
typedef struct hg_scope_memo hg_scope_memo;
hg_scope_memo *hg_scope_memo_new(hg_arena *arena, const TSTree *tree);

/** Hands the memo the `n` function definitions of its tree in pre-order (the walk of the rules
 *  keeps them; `defs` non-NULL even when there are none): hg_scope_of then finds a node's among
 *  them instead of by a descent from the root. A NULL `defs` tells nothing. */
void hg_scope_memo_functions(hg_scope_memo *memo, const TSNode *defs, size_t n);

/** May a function be defined inside another in `node`'s tree? False only when the memo knows
 *  that tree's definitions and none is. */
bool hg_scope_may_nest(const hg_scope_memo *memo, TSNode node);

/** The function definitions of `in`'s tree (whose bytes are `src`) named `name` (len bytes), up to
 *  `max` in `out`; their count, or SIZE_MAX with no memo or more than `max`. From the definitions a
 *  walk kept when the memo's tree is that one, else by one pass over the tree. */
size_t hg_scope_functions_named(const hg_scope_memo *memo, TSNode in, const char *src, const char *name, size_t len,
                                TSNode *out, size_t max);

/** The block (or module) whose statements `node` runs among; *function receives the enclosing
 *  function_definition, or a null node at module scope. `memo` (NULL: none) may know its tree's
 *  definitions. */
TSNode hg_scope_of(hg_scope_memo *memo, TSNode node, TSNode *function);

/** Calls fn for each simple statement of `scope` in order until fn returns false. With a
 *  non-null `point`, statements are those on the way to it: branches that hold the point are
 *  walked as they run, branches beside them (elif, else, other cases) are skipped, and the walk
 *  ends at the statement holding the point. `memo` (NULL: none) keeps the blocks' statements. */
void hg_scope_walk(hg_scope_memo *memo, TSNode scope, TSNode point, bool (*fn)(void *ctx, hg_stmt s), void *ctx);

/** Decides an `if` or `elif` condition on the way: 1 known true, 0 known false, -1 unknown.
 *  `branch` is the block it guards. */
typedef int (*hg_scope_cond)(void *ctx, TSNode condition, TSNode branch);

/** As hg_scope_walk, but the conditions of if/elif statements that do not hold the point are
 *  put to `cond` first (function summaries, where parameters and attributes have known values). */
void hg_scope_walk_deciding(hg_scope_memo *memo, TSNode scope, TSNode point, bool (*fn)(void *ctx, hg_stmt s),
                            hg_scope_cond cond, void *ctx);

/** Offered each compound statement (if, try, for, while, with) that does not hold the point before
 *  it is walked, and whether it is itself on some paths only: true when the callee read it itself
 *  (it is then not walked). */
typedef bool (*hg_scope_compound)(void *ctx, TSNode stmt, bool conditional);

/** As hg_scope_walk_deciding, with `compound` (may be NULL) offered each compound statement. */
void hg_scope_walk_full(hg_scope_memo *memo, TSNode scope, TSNode point, bool (*fn)(void *ctx, hg_stmt s),
                        hg_scope_cond cond, hg_scope_compound compound, void *ctx);

/** Is `name` a parameter of `function`? */
bool hg_scope_is_parameter(TSNode function, const char *src, const char *name, size_t len);

#endif
