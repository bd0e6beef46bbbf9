/* The parts of a verdict's message that name values (explain.c), for verdict.c. */
#ifndef HG_JUDGE_EXPLAIN_H
#define HG_JUDGE_EXPLAIN_H

#include "judge/options.h"
#include "model/site.h"

/** A word as the site's language writes it: a shell command's words bare, others as expressions. */
void hg_explain_word(hg_buf *b, const hg_value *v, hg_reads reads);
/** Where a value stands: "line 7" in the site's file, else "path:7", and what it came through. */
void hg_explain_where(hg_buf *b, const hg_site *site, const hg_value *v);
/** The requirements of `missing`, comma-separated. */
void hg_explain_missing(const hg_policy *p, uint64_t missing, hg_buf *b);
/** The same, each with the alternative that lacks it: "network-none (when `not strict`)". */
void hg_explain_missing_where(const hg_judge *j, uint64_t missing, hg_buf *b);
/** "; `pids_limit=-1` (line 4) means no limit to Docker", for each missing requirement so left. */
void hg_explain_unlimited(hg_buf *msg, const hg_judge *j, const hg_policy *policy, const hg_site *site,
                          uint64_t missing);
/** "; `security_opt` (line 5): podman-py passes ...", for each SDK trap the site falls in. */
void hg_explain_traps(hg_buf *msg, const hg_judge *j, const hg_site *site);
/** "; cap-drop-all is added only when ... is true, and it is False", for missing requirements a
 *  builder's skipped branch mentions. */
void hg_explain_skipped(hg_buf *msg, const hg_policy *p, size_t dialect, const hg_site *site, uint64_t missing);
/** "; cannot be verified: memory-limit (`x` at line 13: an attribute)". */
void hg_explain_unsure(hg_buf *msg, const hg_judge *j, const hg_site *site, uint64_t unsure);

#endif
