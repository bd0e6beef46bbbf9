/* The makefiles a Makefile includes: the names on its `include`, `-include` and `sinclude` lines,
 * as written (a name make computes, `$(DIR)/x.mk`, or a glob, is not followed). The make surface
 * row's `includes`; the walk reads the files named when they are in the tree. */
#ifndef HG_MAKE_INCLUDE_H
#define HG_MAKE_INCLUDE_H

#include "model/surface.h"

void hg_make_includes(const char *data, size_t len, hg_surface_include_fn fn, void *ctx);

#endif
