/* The shell surface's row in the registry: shell scripts (.sh, .bash, or a `#!` line naming a shell). */
#ifndef HG_SHELL_ROW_H
#define HG_SHELL_ROW_H

#include "model/surface.h"

extern const hg_surface hg_surface_shell;
/** The pinned grammar (grammars/), linked in. */
const TSLanguage *tree_sitter_bash(void);

#endif
