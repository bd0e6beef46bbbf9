#include "surfaces/compose/row.h"

#include "surfaces/compose/claim.h"
#include "surfaces/compose/compose.h"

static const char *const NAMES[] = {
    "compose.yaml",  "compose.yml", "docker-compose*.yaml", "docker-compose*.yml", "compose.*.yaml",
    "compose.*.yml", NULL};
static const char *const NONE[] = {NULL};
// Any other YAML file is one when its content says so (claim.h).
static const char *const YAML[] = {"*.yml", "*.yaml", NULL};
static const char *const YAML_READS[] = {"compose", NULL};  // each service's mapping

const hg_surface hg_surface_compose = {.id = "compose",
                                     .grammar = "libyaml",
                                     .extensions = NONE,
                                     .names = NAMES,
                                     .paths = NONE,
                                     .interpreters = NONE,
                                     .claim_names = YAML,
                                     .claims = hg_compose_claims,
                                     .yaml_reads = YAML_READS,
                                     .extract = hg_compose_extract,
                                     .blocks = NONE};
