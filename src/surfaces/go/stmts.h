/* What a Go function's statements say (stmts.c), for the value reader (eval.c). */
#ifndef HG_GO_STMTS_H
#define HG_GO_STMTS_H

#include <tree_sitter/api.h>

#include "base/util.h"
#include "surfaces/go/names.h"

/** The function (declaration, method or literal) holding `n`, or a null node. */
TSNode hg_go_enclosing_function(TSNode n);
/** Is `name` a parameter (or the receiver) of function `fn`? */
bool hg_go_is_param(const hg_go_src *f, TSNode fn, const char *name, size_t len);
/** What selects statement `stmt` within function body `body` when the site `at` is not inside the
 *  same block ("not c" for an else, "the loop runs", a case); NULL when every path to `at` runs it. */
const char *hg_go_condition_of(hg_arena *arena, const hg_go_src *f, TSNode stmt, TSNode body, TSNode at);
/** Does return statement `ret` (its results `list`) surely hold an error in its last result? */
bool hg_go_surely_fails(const hg_go_src *g, TSNode ret, TSNode list);

#endif
