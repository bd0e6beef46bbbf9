/* Code embedded in a file of another surface (a CI step's script, a Makefile recipe, a Python
 * `sh -c` string): its text as the other surface's parser reads it, with each byte mapped to the
 * byte of the file it came from, so that what is found in it is reported at the file's own lines
 * and columns. */
#ifndef HG_EMBED_H
#define HG_EMBED_H

#include "surfaces/extract.h"

/** The start of each line of a file, for positions of byte offsets without a parse tree. */
typedef struct {
  const hg_source *src;
  uint32_t *start; // in the arena; start[0] == 0
  uint32_t n;
} hg_lines;

void hg_lines_init(hg_lines *self, const hg_source *src, hg_arena *arena);
/** The 0-based row of a byte offset. */
uint32_t hg_lines_row(const hg_lines *self, uint32_t byte);

typedef struct {
  const char *text; // in the arena, NUL-terminated and padded like an hg_source
  uint32_t len;
  uint32_t *at; // len + 1 entries: the file byte of each text byte, then the end
} hg_embed;

/** Builds an hg_embed piece by piece. */
typedef struct {
  hg_buf text;
  HG_VEC(uint32_t) at;
} hg_embed_builder;

/** Appends `n` bytes of `s`; byte i came from file byte `from + i` when `each`, else all from `from`. */
void hg_embed_put(hg_embed_builder *self, const char *s, size_t n, uint32_t from, bool each);
/** The parts of a string of another language (Python, JavaScript) that hardguard cannot follow,
 *  the HG_HOLE bytes of its text, as the shell code built from it names them: hole i is the
 *  variable names[i] — the expression that makes it when that is a shell name (`${image}`), else
 *  <prefix>_<i+1> — and origins[i] says which expression it is. Without a name for each hole,
 *  every hole is the one variable names[0], <prefix>_expression, and origins is NULL. */
typedef struct {
  const char **names;
  const char **origins;
  size_t n;
} hg_embed_holes;

/** Names the holes of `text` (n bytes) by `exprs`, the expression of each hole in order (NULL:
 *  its text unknown); origins read "`expression`, a part of the <language> string hardguard
 *  cannot follow". */
hg_embed_holes hg_embed_name_holes(hg_arena *arena, const char *text, size_t n, const char *const *exprs,
                                   size_t n_exprs, const char *prefix, const char *language);
/** Appends `text` (n bytes), every byte from file byte `from`, each hole written `${name}`. */
void hg_embed_put_holes(hg_embed_builder *self, const char *text, size_t n, uint32_t from,
                        const hg_embed_holes *holes, hg_arena *arena);
/** The embed, copied into the arena (`end`: the file byte after the last one); frees the builder. */
hg_embed hg_embed_finish(hg_embed_builder *self, hg_arena *arena, uint32_t end);

/** Moves a site or marker found in embedded code (its bytes relative to `e->text`) to the file:
 *  bytes, lines, columns, and the lines of its flags' words. */
void hg_embed_place_site(const hg_lines *lines, const hg_embed *e, hg_site *site);
void hg_embed_place_marker(const hg_lines *lines, const hg_embed *e, hg_marker_comment *marker);

#endif
