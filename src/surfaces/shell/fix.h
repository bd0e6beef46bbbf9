/* The edit that adds the missing hardening flags to a docker / podman / nerdctl command of a shell
 * script (a shell script has no builder to apply): the policy's `set:` words for the command line,
 * inserted right before the image, where docker's last-value-wins gives them the final word. */
#ifndef HG_FIX_SHELL_H
#define HG_FIX_SHELL_H

#include "fix/plan.h"

/** The `command` node spanning bytes [start, end) of a tree-sitter-bash tree (or holding the node
 *  that does), or a null node. */
TSNode hg_fix_shell_command(const hg_fix_text *t, uint32_t start, uint32_t end);

/** The flags of the requirements `missing` (n ids) as the policy's `set:` for dialect `dialect`
 *  writes them, quoted for the shell and separated by spaces; NULL when one has none. */
char *hg_fix_shell_flags(const hg_policy *policy, int dialect, const char *const *missing, size_t n);

/** Appends the edit inserting `flags` right before the image of `command`. 0, or -1 with the
 *  reason in `why`. */
int hg_fix_plan_command(const hg_fix_text *t, TSNode command, const char *flags, const hg_policy *policy,
                        hg_edits *edits, hg_buf *why);

/** The shell surface's planner (its row's `fix`): adds the missing flags. */
extern const hg_fix_planner hg_shell_fix;

#endif
