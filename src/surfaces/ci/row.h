/* The ci surface's row in the registry: CI files (GitHub workflows and composite actions, GitLab CI), read as YAML. */
#ifndef HG_CI_ROW_H
#define HG_CI_ROW_H

#include "model/surface.h"

extern const hg_surface hg_surface_ci;

#endif
