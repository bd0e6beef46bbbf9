/* Parsing a file with libtree-sitter 0.20.7 and tree-sitter-python within bounds it does not keep
 * itself: a parse gets a time budget in proportion to the file (the grammar's parser takes time
 * quadratic in some inputs: 20,000 comment lines opening a block take 18 s), and a run of comment
 * lines longer than the parser survives is found before parsing (65,535 comments after an opening
 * bracket abort the process inside ts_parser_parse; a few fewer make it hang). A file refused
 * either way is reported, never passed. */
#ifndef HG_PARSE_H
#define HG_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

/** The longest run of comment lines a file may hold (blank lines between them count in the run). */
enum { HG_COMMENT_RUN_MAX = 60000 };

/** The time a parse of `len` bytes may take: 2 s, and 5 s more per MB (the bare parse rate on two
 *  cores of the benchmark's machine is 5–10 MB/s: a file within it is far inside its budget). */
uint64_t hg_parse_budget_us(size_t len);
/** Parses `len` bytes with `parser`, giving up after `budget_us` (0: hg_parse_budget_us(len)):
 *  NULL when it gave up. */
TSTree *hg_parse(TSParser *parser, const char *src, size_t len, uint64_t budget_us);
/** The line (1-based) where a run of more than `limit` comment lines starts — lines whose first
 *  character after blanks is `#`, with only blank lines between them — or 0 when none is. */
uint32_t hg_comment_run(const char *src, size_t len, uint32_t limit);

#endif
