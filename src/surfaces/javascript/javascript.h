/* The javascript surface: JavaScript and TypeScript modules (one grammar, TSX, for .js .mjs .cjs
 * .jsx .ts .mts .cts .tsx) read into sites:
 * - dockerode: `docker.createContainer(options)` and `docker.run(image, cmd, stream, createOptions)`
 *   on a dockerode client, the options being the Engine API's create body (reading mode `body`,
 *   dialect dockerode); `new Docker(...)` itself a `client`;
 * - testcontainers-node: a `new GenericContainer(image)` builder chain, read as a mapping of its
 *   methods' names to their arguments (`body`, dialect testcontainers-node);
 * - child_process (and execa): `spawn("docker", ["run", ...])` as the argv it runs (`argv`), and a
 *   command string given to a shell (`exec("docker run ...")`) as shell code, whose commands the
 *   shell surface reads (`script`).
 * Values come from the module's own evaluator (eval.h). */
#ifndef HG_JAVASCRIPT_H
#define HG_JAVASCRIPT_H

#include "rules/config.h"
#include "surfaces/extract.h"

void hg_javascript_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                           const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out);

#endif
