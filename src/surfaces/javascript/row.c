#include "surfaces/javascript/row.h"

#include "surfaces/javascript/javascript.h"
#include "surfaces/javascript/modules.h"

// Every JavaScript and TypeScript module, JSX and TSX too: the TSX grammar reads them all (but an
// old-style `<T>value` assertion in a .ts file, grammars/tree-sitter-tsx.cmake).
static const char *const EXTENSIONS[] = {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", NULL};
static const char *const INTERPRETERS[] = {"node", "nodejs", "deno", "bun", "ts-node", "tsx", NULL};
static const char *const NONE[] = {NULL};
static const char *const BLOCKS[] = {"program", "statement_block", "class_body", "switch_case", "switch_default", NULL};

const hg_surface hg_surface_javascript = {.id = "javascript",
                                          .grammar = "tree-sitter-typescript (tsx)",
                                          .extensions = EXTENSIONS,
                                          .names = NONE,
                                          .paths = NONE,
                                          .interpreters = INTERPRETERS,
                                          .language = tree_sitter_tsx,
                                          .extract = hg_javascript_extract,
                                          .project_new = hg_js_modules_new,
                                          .project_free = hg_js_modules_free,
                                          .project_parsed = hg_js_modules_parsed,
                                          .blocks = BLOCKS};
