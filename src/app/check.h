/* The check of one file that passed the prefilter: parse it, extract its sites, judge each one and
 * append owned findings (and a syntax-error note) for the caller. Per-worker state: a TSParser,
 * the extractor and an arena reset after every file. */
#ifndef HG_CHECK_H
#define HG_CHECK_H

#include "rules/config.h"
#include "judge/finding.h"
#include "rules/ruleset.h"
#include "base/source.h"
#include "model/surface.h"

typedef struct hg_checker hg_checker;

hg_checker *hg_checker_new(void);
void hg_checker_free(hg_checker *self);
/** The checker's pcre2 match data, for the caller's own matching on this thread. */
pcre2_match_data *hg_checker_match_data(hg_checker *self);

/** Parses and judges `src`; appends one finding per site to `findings` and file problems to
 *  `errors`. Rewrites lone CR line endings in src->data as LF, in place (same length). */

/** `src` is a file of `surface`; `project` (NULL: none) is the surface's project state, where
 *  values are followed into the project's other files (app/project.h). */
void hg_check_source(hg_checker *self, hg_surface_id surface, const hg_ruleset *rules, const hg_config *config,
                     void *project, hg_source *src, hg_findings *findings, hg_file_errors *errors);

#endif
