/* The pinned tree-sitter-typescript package's TSX grammar's language (built from grammars/, not this
 * repository's code): it parses JavaScript, JSX, TypeScript and TSX alike. */
#ifndef HG_JAVASCRIPT_GRAMMAR_H
#define HG_JAVASCRIPT_GRAMMAR_H

#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_tsx(void);

#endif
