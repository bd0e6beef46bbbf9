#include "surfaces/python/row.h"

#include "surfaces/python/fix.h"
#include "surfaces/python/extract.h"

static const char *const EXT[] = {".py", NULL};
static const char *const INTERP[] = {"python", "python3", "python2", NULL};
static const char *const NONE[] = {NULL};
static const char *const BLOCKS[] = {"module", "block", NULL};
// Measured on the bench's hook files and left out: attribute, import_from_statement and
// exec_statement nodes, whose slower matching outweighed their quicker compile.
static const char *const PYTHON_WILDCARDS[] = {"call function:", "call arguments:", NULL};

const hg_surface hg_surface_python = {.id = "python",
                                    .grammar = "tree-sitter-python",
                                    .extensions = EXT,
                                    .names = NONE,
                                    .paths = NONE,
                                    .interpreters = INTERP,
                                    .language = tree_sitter_python,
                                    .fix = &hg_python_fix,
                                    .extract = hg_extract,
                                    .blocks = BLOCKS,
                                    .narrowed = true,
                                    .bracket_limit = true,
                                    .wildcards = PYTHON_WILDCARDS};
