/* The Python surface's extraction: runs the rule query over one parsed file and turns its captures
 * into hg_sites: predicates are evaluated (after the file's imports are known), duplicates
 * dropped, flags resolved by the pattern's reading mode, and regions that failed to parse but may
 * hold a site reported. */
#ifndef HG_PYTHON_EXTRACT_H
#define HG_PYTHON_EXTRACT_H

#include "rules/config.h"
#include "surfaces/extract.h"

/** The sites of one file, allocated in `arena`. `source` must have been parsed into `tree`. With
 *  a `project` (the surface's: an hg_index), values are followed into the other modules of the
 *  project (NULL: this file only). */
void hg_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out);

#endif
