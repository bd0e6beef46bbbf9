/* The devcontainer surface: a devcontainer.json (JSON with comments) is the `docker run` the Dev
 * Containers CLI builds from it — its own properties (`privileged`, `capAdd`, `securityOpt`,
 * `init`, `mounts`, `workspaceMount`, `appPort`) as the flags the CLI passes, then `runArgs` as
 * written, then the image — one site of kind `devcontainer`, read as those words (reading mode
 * `command`) and judged by the policy's cli spellings. A devcontainer built from compose files
 * (`dockerComposeFile`) is not a site: the compose surface judges its services. */
#ifndef HG_DEVCONTAINER_H
#define HG_DEVCONTAINER_H

#include "rules/config.h"
#include "surfaces/extract.h"

void hg_devcontainer_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                             const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out);

#endif
