/* The makefiles a Makefile includes: the names on its `include`, `-include` and `sinclude` lines,
 * as written (a name make computes, `$(DIR)/x.mk`, or a glob, is not followed). The make surface
 * row's `includes`; the walk reads the files named when they are in the tree. */
#ifndef HG_MAKE_INCLUDE_H
#define HG_MAKE_INCLUDE_H

#include "base/source.h"
#include "model/surface.h"
#include "surfaces/make/expand.h"

void hg_make_includes(const char *data, size_t len, hg_surface_include_fn fn, void *ctx);

/** Collects the variables of the makefiles `source` includes into m->vars, before its own (its own
 *  assignments then win): named relative to its directory, below it, bounded in depth, files and
 *  bytes. */
void hg_make__included_vars(hg_makefile *m, const hg_source *source);

#endif
