/* The compose surface: compose.yaml, docker-compose*.yml and override files. Each service the
 * rules select (rules/compose/compose-service.yml: `services.*`) is a site, reported at its key and
 * judged by the compose spellings of the policy (src/surfaces/compose/service.c builds its value). */
#ifndef HG_COMPOSE_H
#define HG_COMPOSE_H

#include "surfaces/python/extract.h"

void hg_compose_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                        const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out);

#endif
