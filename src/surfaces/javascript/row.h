/* The javascript surface's row in the registry: JavaScript and TypeScript sources. */
#ifndef HG_JAVASCRIPT_ROW_H
#define HG_JAVASCRIPT_ROW_H

#include "model/surface.h"
#include "surfaces/javascript/grammar.h"

extern const hg_surface hg_surface_javascript;

#endif
