/* GitHub Actions job containers (`jobs.<id>.container`) and service containers
 * (`jobs.<id>.services.<name>`), which the runner starts with `docker create`: each a site at its key,
 * its options string, ports and volumes read as that command's words (docs/sites.md). */
#ifndef HG_CI_CONTAINER_H
#define HG_CI_CONTAINER_H

#include "surfaces/extract.h"
#include "surfaces/ydoc.h"

/** The site of a job or service container: `key` names it, `node` is its image (a scalar) or its
 *  mapping; pushed to `sites` with the kind of the rule selecting it. */
void hg_ci_container(hg_ydoc *doc, yaml_node_t *key, yaml_node_t *node, const hg_source *src, hg_arena *arena,
                     hg_site_vec *sites);

#endif
