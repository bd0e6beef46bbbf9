/* The CI surface: GitHub Actions workflows, composite actions and .gitlab-ci.yml. The scalars
 * rules/ci/<kind>.yml select (a step's `run:`, a job's `script:` entries) are shell scripts, read by
 * the shell surface's rules; their sites are reported at the file's own lines and columns. */
#ifndef HG_CI_H
#define HG_CI_H

#include "surfaces/python/extract.h"

void hg_ci_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                   const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out);

#endif
