/* A unified diff (3 lines of context) of a text and the same text with an edit list applied,
 * computed from the edits rather than by comparing lines, for `--fix --show-fixes`. Pure. */
#ifndef HG_FIX_DIFF_H
#define HG_FIX_DIFF_H

#include "fix/edit.h"

/** Appends the diff of `src` (`len` bytes) and its edited form to `out`, under "--- a/PATH" and
 *  "+++ b/PATH" headers; nothing when there are no edits. The edits must be sorted and must not
 *  overlap (hg_edits_apply succeeded on them). */
void hg_diff_unified(hg_buf *out, const char *path, const char *src, size_t len, const hg_edits *edits);

#endif
