/* The quadlet surface's row in the registry: Podman Quadlet units. */
#ifndef HG_QUADLET_ROW_H
#define HG_QUADLET_ROW_H

#include "model/surface.h"

extern const hg_surface hg_surface_quadlet;

#endif
