/* Which configured builders the fix line offers at a site: only those that, as the site's surface
 * read them (hg_site.offers), yield every requirement in the site's shape — a builder that yields
 * three of seven is named as not offered, with what it lacks. */
#ifndef HG_JUDGE_OFFER_H
#define HG_JUDGE_OFFER_H

#include "judge/options.h"
#include "model/site.h"
#include "rules/config.h"

/** Writes "apply `<apply>name<apply_end>` from module" (one callable) or "apply a hardening builder
 *  (module: a, b; ...)" (several) for the callables offered at `site` into `b`, and "`name()`
 *  lacks X, Y" / "what `name()` yields cannot be read (why)" for those not offered into `not_offered`
 *  ("; "-separated). `flags`: the site reads command-line words (a builder must yield a list), else
 *  keywords (a dict). Returns how many callables were offered. */
size_t hg_offer_builders(hg_buf *b, hg_buf *not_offered, const hg_judge *j, const hg_config *c, const hg_site *site,
                         bool flags, const char *apply, const char *apply_end);

#endif
