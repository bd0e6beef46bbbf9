/* The pinned tree-sitter-json grammar's language (built from grammars/, not this repository's code). */
#ifndef HG_DEVCONTAINER_GRAMMAR_H
#define HG_DEVCONTAINER_GRAMMAR_H

#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_json(void);

#endif
