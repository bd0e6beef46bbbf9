#include "surfaces/devcontainer/row.h"

#include "surfaces/devcontainer/devcontainer.h"

// Where the specification looks for the file: .devcontainer/devcontainer.json,
// .devcontainer/<folder>/devcontainer.json, and .devcontainer.json at the root.
static const char *const NAMES[] = {".devcontainer.json", NULL};
static const char *const PATHS[] = {".devcontainer/devcontainer.json", ".devcontainer/*/devcontainer.json", NULL};
static const char *const NONE[] = {NULL};
static const char *const BLOCKS[] = {"document", "object", "array", NULL};

const hg_surface hg_surface_devcontainer = {.id = "devcontainer",
                                          .grammar = "tree-sitter-json",
                                          .extensions = NONE,
                                          .names = NAMES,
                                          .paths = PATHS,
                                          .interpreters = NONE,
                                          .language = tree_sitter_json,
                                          .extract = hg_devcontainer_extract,
                                          .blocks = BLOCKS};
