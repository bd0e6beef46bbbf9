/* The make surface's row in the registry: Makefiles. */
#ifndef HG_MAKE_ROW_H
#define HG_MAKE_ROW_H

#include "model/surface.h"

extern const hg_surface hg_surface_make;
/** The pinned grammar (grammars/), linked in. */
const TSLanguage *tree_sitter_make(void);

#endif
