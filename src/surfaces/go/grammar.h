/* The pinned tree-sitter-go grammar's language (built from grammars/, not this repository's code). */
#ifndef HG_GO_GRAMMAR_H
#define HG_GO_GRAMMAR_H

#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_go(void);

#endif
