/* Query text tried before libtree-sitter 0.20.7 compiles it in this process: the library hangs,
 * aborts or crashes on some malformed queries, so a rules directory the user gave is compiled in a
 * child first, and a quantifier on a quantifier is refused outright. */
#ifndef HG_QUERYPROBE_H
#define HG_QUERYPROBE_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/util.h"

/** Where in query text `text` a quantifier (?, *, +) directly follows another (`)??`, `)*?`),
 *  outside strings and comments; `len` when none does. libtree-sitter 0.20.7 hangs or crashes compiling one
 *  (`(identifier)**`), so such a query is refused before it gets there. */
size_t hg_query_stacked_quantifier(const char *text, size_t len);

/** Compiles query text in a child process that has `seconds` to finish: 0 when the library
 *  survives it (the query may still be invalid: ts_query_new says how), else -1 with err saying
 *  whether it crashed or ran out of time. Call it before other threads exist. */
int hg_query_probe(const TSLanguage *language, const char *text, uint32_t len, unsigned seconds, hg_error *err);

#endif
