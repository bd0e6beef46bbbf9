/* The devcontainer surface's row in the registry: devcontainer.json files. */
#ifndef HG_DEVCONTAINER_ROW_H
#define HG_DEVCONTAINER_ROW_H

#include "model/surface.h"
#include "surfaces/devcontainer/grammar.h"

extern const hg_surface hg_surface_devcontainer;

#endif
