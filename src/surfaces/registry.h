/* The registry's names for the surfaces: each one's index in hg_surfaces (model/surface.h). Only
 * the surfaces' own code names a surface; every other stage works from the rows. */
#ifndef HG_REGISTRY_H
#define HG_REGISTRY_H

#include "model/surface.h"

typedef enum {
  HG_SURFACE_PYTHON,
  HG_SURFACE_SHELL,
  HG_SURFACE_MAKE,
  HG_SURFACE_CI,
  HG_SURFACE_COMPOSE,
  HG_SURFACE_DEVCONTAINER,
  HG_SURFACE_QUADLET,
  HG_SURFACE_GO,
  HG_SURFACE_JAVASCRIPT,
  HG_SURFACE_COUNT,
} hg_surface_ids;

#endif
