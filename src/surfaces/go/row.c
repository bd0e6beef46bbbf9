#include "surfaces/go/row.h"

#include "surfaces/go/go.h"
#include "surfaces/go/package.h"

// Every .go file, tests too (a `_test.go` file starts containers like any other; a user who does
// not want them judged excludes them in .hardguard.yml).
static const char *const EXTENSIONS[] = {".go", NULL};
static const char *const NONE[] = {NULL};
static const char *const BLOCKS[] = {"source_file", "block", NULL};

const hg_surface hg_surface_go = {.id = "go",
                                  .grammar = "tree-sitter-go",
                                  .extensions = EXTENSIONS,
                                  .names = NONE,
                                  .paths = NONE,
                                  .interpreters = NONE,
                                  .language = tree_sitter_go,
                                  .extract = hg_go_extract,
                                  .project_new = hg_go_packages_new,
                                  .project_free = hg_go_packages_free,
                                  .project_parsed = hg_go_packages_parsed,
                                  .project_has_module = hg_go_packages_has_module,
                                  .blocks = BLOCKS};
