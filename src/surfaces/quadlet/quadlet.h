/* The quadlet surface: a Podman Quadlet `.container` unit is the `podman run` the Quadlet generator
 * writes into its service (docs/sites.md): one site of kind `quadlet-container` at its
 * `[Container]` header, read as those words (reading mode `command`) and judged by the policy's
 * cli spellings. Read with its own reader of the systemd unit syntax (unit.h), no tree-sitter. */
#ifndef HG_QUADLET_H
#define HG_QUADLET_H

#include "rules/config.h"
#include "surfaces/extract.h"

void hg_quadlet_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                        const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out);

#endif
