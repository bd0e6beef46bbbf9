/* The Makefile surface (tree-sitter-make): each recipe line is a command line make hands to the
 * shell, read by the shell surface's rules after make's own expansion: `$$` is `$`, a `\`
 * continuation keeps its line break, `@`/`-`/`+` prefixes go, and `$(VAR)`/`${VAR}` take the
 * value the Makefile assigns (=, :=, ::=, ?=, +=); a variable it does not assign is unverifiable. */
#ifndef HG_MAKE_H
#define HG_MAKE_H

#include "surfaces/python/extract.h"

void hg_make_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                     const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out);

#endif
