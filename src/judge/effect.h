/* What reached a site, requirement by requirement: what decided it and where it came from (the
 * audit's "where each flag came from"), and how a message writes an option or value as the site's
 * language would. */
#ifndef HG_EFFECT_H
#define HG_EFFECT_H

#include "judge/finding.h"
#include "judge/options.h"

/** Per requirement what decided it and where it came from, then the forbidden options set, in one
 *  heap block (the array, then its strings): n entries. `relaxed`: the requirements relaxed at
 *  the site (allow). */
hg_effect *hg_effects_of(const hg_judge *j, const hg_site *site, uint64_t relaxed, size_t *n);

/** A mapping name as Python indexes it: HostConfig.CapDrop -> ["HostConfig"]["CapDrop"]. */
void hg_put_path(hg_buf *b, const char *name, bool dotted);
/** What stands between a mapping name and its value in a message: "=" after a subscript, ": " after a
 *  dotted name. */
const char *hg_path_sep(bool dotted);
/** An expression as the user wrote it (an f-string with its interpolations); `with_key`: as
 *  `key=value`. */
void hg_put_expr(hg_buf *b, const hg_value *v, bool with_key);

#endif
