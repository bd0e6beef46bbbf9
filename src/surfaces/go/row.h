/* The Go surface's row in the registry: *.go files. */
#ifndef HG_GO_ROW_H
#define HG_GO_ROW_H

#include "model/surface.h"
#include "surfaces/go/grammar.h"

extern const hg_surface hg_surface_go;

#endif
