/* The python surface's row in the registry: Python source files (.py, or a `#!` line naming python). */
#ifndef HG_PYTHON_ROW_H
#define HG_PYTHON_ROW_H

#include "model/surface.h"

extern const hg_surface hg_surface_python;
/** The pinned grammar (grammars/), linked in. */
const TSLanguage *tree_sitter_python(void);

#endif
