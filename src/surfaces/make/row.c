#include "surfaces/make/row.h"

#include "surfaces/make/include.h"
#include "surfaces/make/make.h"

static const char *const NAMES[] = {"Makefile", "makefile", "GNUmakefile", "*.mk", "*.makefile", NULL};
static const char *const NONE[] = {NULL};
static const char *const BLOCKS[] = {"makefile", "recipe", NULL};

const hg_surface hg_surface_make = {.id = "make",
                                  .grammar = "tree-sitter-make",
                                  .extensions = NONE,
                                  .names = NAMES,
                                  .paths = NONE,
                                  .interpreters = NONE,
                                  .includes = hg_make_includes,
                                  .language = tree_sitter_make,
                                  .extract = hg_make_extract,
                                  .blocks = BLOCKS};
