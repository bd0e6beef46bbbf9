/* The registry: one line a surface (universal-ctags' parser list). A new surface adds its row here
 * and its name in registry.h. */
#include "surfaces/registry.h"

#include "surfaces/ci/row.h"
#include "surfaces/compose/row.h"
#include "surfaces/devcontainer/row.h"
#include "surfaces/go/row.h"
#include "surfaces/javascript/row.h"
#include "surfaces/make/row.h"
#include "surfaces/python/row.h"
#include "surfaces/quadlet/row.h"
#include "surfaces/shell/row.h"

_Static_assert(HG_SURFACE_COUNT <= HG_SURFACE_MAX, "HG_SURFACE_MAX holds every surface");

const hg_surface *const hg_surfaces[HG_SURFACE_MAX] = {
    [HG_SURFACE_PYTHON] = &hg_surface_python,
    [HG_SURFACE_SHELL] = &hg_surface_shell,
    [HG_SURFACE_MAKE] = &hg_surface_make,
    [HG_SURFACE_CI] = &hg_surface_ci,
    [HG_SURFACE_COMPOSE] = &hg_surface_compose,
    [HG_SURFACE_DEVCONTAINER] = &hg_surface_devcontainer,
    [HG_SURFACE_QUADLET] = &hg_surface_quadlet,
    [HG_SURFACE_GO] = &hg_surface_go,
    [HG_SURFACE_JAVASCRIPT] = &hg_surface_javascript,
};
const int hg_surface_count = HG_SURFACE_COUNT;
