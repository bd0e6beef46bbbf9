/* The make surface's row in the registry: Makefiles. */
#ifndef HG_MAKE_ROW_H
#define HG_MAKE_ROW_H

#include "model/surface.h"
#include "surfaces/make/grammar.h"

extern const hg_surface hg_surface_make;

#endif
