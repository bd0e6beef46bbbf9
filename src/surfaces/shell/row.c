#include "surfaces/shell/row.h"

#include "surfaces/shell/fix.h"
#include "surfaces/shell/shell.h"

static const char *const EXT[] = {".sh", ".bash", NULL};
static const char *const INTERP[] = {"sh", "bash", "dash", "zsh", "ksh", NULL};
static const char *const NONE[] = {NULL};
static const char *const BLOCKS[] = {"program", "compound_statement", "do_group", "subshell", NULL};

const hg_surface hg_surface_shell = {.id = "shell",
                                   .grammar = "tree-sitter-bash",
                                   .extensions = EXT,
                                   .names = NONE,
                                   .paths = NONE,
                                   .interpreters = INTERP,
                                   .language = tree_sitter_bash,
                                   .fix = &hg_shell_fix,
                                    .extract = hg_shell_extract,
                                   .blocks = BLOCKS};
