#include "surfaces/quadlet/row.h"

#include "surfaces/quadlet/quadlet.h"

static const char *const EXTENSIONS[] = {".container", NULL};
static const char *const NONE[] = {NULL};
static const char *const READS[] = {"command", NULL}; // the section's podman run, as words

const hg_surface hg_surface_quadlet = {.id = "quadlet",
                                     .grammar = "systemd unit syntax (its own reader)",
                                     .extensions = EXTENSIONS,
                                     .names = NONE,
                                     .paths = NONE,
                                     .interpreters = NONE,
                                     .yaml_reads = READS,
                                     .extract = hg_quadlet_extract,
                                     .blocks = NONE};
