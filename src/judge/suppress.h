/* Named, audited exceptions written in the code:
 *   # hardguard: allow[network-none, ...] -- reason   relaxes those requirements for a site
 *   # hardguard: ignore[weakening-option, ...] -- reason   suppresses findings of those rules
 * A marker applies to the sites that start on its own line, or, when it stands alone on its line,
 * on the next line. A marker that is malformed, names an unknown requirement or rule, or gives no
 * reason is a `bad-suppression` finding; one that changes nothing is an `unused-suppression`
 * finding. Everything lives in the per-file arena. */
#ifndef HG_SUPPRESS_H
#define HG_SUPPRESS_H

#include "model/site.h"
#include "judge/finding.h"
#include "rules/policy.h"
#include "base/source.h"

typedef struct hg_markers hg_markers;

/** Parses the marker comments of one file. */
hg_markers *hg_markers_parse(hg_arena *arena, const hg_source *src, const hg_marker_comment *comments, size_t n,
                             const hg_policy *policy);

/** The requirements the allow[...] markers of a site starting on `line` name (nothing is marked
 *  used: hg_markers_allow does that for what was relaxed). */
uint64_t hg_markers_allowable(const hg_markers *self, uint32_t line);
/** Of the requirements `missing` at a site starting on `line`, those its allow[...] markers relax;
 *  the markers that relax one are marked used, and *reason gets the first one's reason. */
uint64_t hg_markers_allow(hg_markers *self, uint32_t line, uint64_t missing, const char **reason);

/** Do the ignore[...] markers of a site starting on `line` name every rule in `rules` (bit r =
 *  rule r)? If so they are marked used and *reason gets the first one's reason. */
bool hg_markers_ignore(hg_markers *self, uint32_t line, uint32_t rules, const char **reason);

/** Appends a finding for each bad or unused marker. Call after every site was judged. */
void hg_markers_report(const hg_markers *self, const hg_source *src, hg_findings *out);

#endif
