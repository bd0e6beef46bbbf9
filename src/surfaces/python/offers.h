/* What the configured builders yield, read by the value model from their definitions in the
 * project (offers.c): for the fix line and for --fix. */
#ifndef HG_PYTHON_OFFERS_H
#define HG_PYTHON_OFFERS_H

#include "model/site.h"
#include "rules/config.h"
#include "surfaces/python/project/index.h"

/** What callable `callable` of builder `b` yields when called without arguments, read in the
 *  project `index` as imported from `from_path`: a BUILDER holding it (no item: `trust: true` and
 *  not in the project), an UNKNOWN saying why, or NONE for a Class.method (not read). In `arena`. */
hg_value hg_python_builder_value(hg_index *index, hg_arena *arena, const hg_builder *b, const char *callable,
                                 const char *from_path);

/** hg_python_builder_value of every configured callable, in the config's order (*n of them), for
 *  hg_site.offers. */
const hg_value *hg_python_builder_offers(hg_index *index, hg_arena *arena, const hg_config *config,
                                         const char *from_path, size_t *n);

/** The option keys `v` (a builder's value) yields in any alternative (heap, free with
 *  hg_strv_free); false when some cannot be told (a spread of an unknown value). */
bool hg_python_builder_keys(const hg_value *v, char ***keys, size_t *n);

#endif
