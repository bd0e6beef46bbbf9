/* The Go surface: a parsed .go file in, its sites (ContainerCreate bodies, docker command lines run
 * through os/exec, Docker clients) and marker comments out. */
#ifndef HG_GO_H
#define HG_GO_H

#include "rules/config.h"
#include "surfaces/extract.h"

void hg_go_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                   const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out);

#endif
