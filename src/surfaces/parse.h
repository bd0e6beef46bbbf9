/* What libtree-sitter 0.20.7 with tree-sitter-python cannot parse, found before parsing: a run of
 * comment lines longer than the parser survives (65,535 comments after an opening bracket abort the
 * process inside ts_parser_parse). A file refused is reported, never passed. (Comment lines inside
 * an indented block take the parser time quadratic in their run: 10,000 take 3–4 s, 20,000 18 s;
 * not bounded here: a wall-clock budget refused legitimate files under valgrind.) */
#ifndef HG_PARSE_H
#define HG_PARSE_H

#include <stddef.h>
#include <stdint.h>

/** The longest run of comment lines a file may hold (blank lines between them count in the run). */
enum { HG_COMMENT_RUN_MAX = 60000 };

/** The line (1-based) where a run of more than `limit` comment lines starts — lines whose first
 *  character after blanks is `#`, with only blank lines between them — or 0 when none is. */
uint32_t hg_comment_run(const char *src, size_t len, uint32_t limit);

#endif
