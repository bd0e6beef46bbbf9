/* The edits that apply a hardening builder at one Python site, read from the file's tree: a keyword
 * call gets `**builder()` merged last (dropping the keywords the builder also yields, which Python
 * would refuse twice), an argv list gets `*builder()` spliced right before the image, and the file
 * gets the import in the form it already uses. Never touches the disk. */
#ifndef HG_PYTHON_FIX_H
#define HG_PYTHON_FIX_H

#include <tree_sitter/api.h>

#include "fix/plan.h"

/** The node spanning bytes [start, end) exactly (the innermost of several), and what it is. */
hg_fix_site_kind hg_fix_site(const hg_fix_text *t, uint32_t start, uint32_t end, TSNode *out);

/** The edit (if any) that makes `names` (n, function names or Class.method) of `module` callable
 *  in the file; appends it to `edits`, and for each name how the file calls it (the local name, or
 *  `alias.name` when the file imports the module itself) to `calls` (heap strings the caller
 *  frees). A name already imported costs no edit. The import goes into the file's `from module
 *  import ...` when it has one, else on a line of its own after the last top-level import before
 *  `before` (the first site), else after the module docstring and `from __future__` imports. */
void hg_fix_plan_import(const hg_fix_text *t, const char *module, char *const *names, size_t n, uint32_t before,
                        hg_edits *edits, char **calls);

/** The byte offset where a new import line goes (the start of a line), as hg_fix_plan_import
 *  places it. Exposed for tests. */
uint32_t hg_fix_import_point(const hg_fix_text *t, uint32_t before);

/** Appends the edits merging `**call` last into the keyword call `site`. `yielded` (n_yielded
 *  keywords, or NULL when unknown) is what the builder yields: a keyword the call passes too is
 *  dropped, and named in `note` ("replaced network_mode=\"bridge\""). `policy_names` (NULL-
 *  terminated) are the options the policy reads in the site's dialect: with `yielded` unknown, a
 *  call passing one of them is not fixed. 0, or -1 with the reason in `why`. */
int hg_fix_plan_kwargs(const hg_fix_text *t, TSNode site, const char *call, char *const *yielded, size_t n_yielded,
                       const char *const *policy_names, hg_edits *edits, hg_buf *note, hg_buf *why);

/** Appends the edit splicing `*call` into the argv list `site` right before its image operand
 *  (after the program, its subcommand words and their options, as `policy` reads a command line).
 *  0, or -1 with the reason in `why`. */
int hg_fix_plan_argv(const hg_fix_text *t, TSNode site, const char *call, const hg_policy *policy, hg_edits *edits,
                     hg_buf *why);


/** The Python surface's planner (its row's `fix`): applies a configured builder. */
extern const hg_fix_planner hg_python_fix;

#endif
