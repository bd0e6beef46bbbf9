/* The pinned tree-sitter-make grammar's language (built from grammars/, not this repository's code). */
#ifndef HG_MAKE_GRAMMAR_H
#define HG_MAKE_GRAMMAR_H

#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_make(void);

#endif
