/* The compose surface's row in the registry: compose files, read as YAML. */
#ifndef HG_COMPOSE_ROW_H
#define HG_COMPOSE_ROW_H

#include "model/surface.h"

extern const hg_surface hg_surface_compose;

#endif
