#include "surfaces/ci/row.h"

#include "surfaces/ci/ci.h"

static const char *const NAMES[] = {".gitlab-ci.yml", "action.yml", "action.yaml", NULL};
static const char *const PATHS[] = {".github/workflows/*.yml", ".github/workflows/*.yaml", NULL};
static const char *const NONE[] = {NULL};
// each step's script, read as shell; a job's or service's container, read as `docker create` words
static const char *const YAML_READS[] = {"script", "command", NULL};

const hg_surface hg_surface_ci = {.id = "ci",
                                .grammar = "libyaml",
                                .extensions = NONE,
                                .names = NAMES,
                                .paths = PATHS,
                                .interpreters = NONE,
                                .yaml_reads = YAML_READS,
                                .extract = hg_ci_extract,
                                .blocks = NONE};
