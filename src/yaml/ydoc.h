/* What the YAML surfaces share: a file's YAML document with positions in bytes (libyaml counts
 * characters), nodes selected by dotted paths, the `# hardguard:` marker comments between them,
 * and scalars that hold code embedded for another surface, with each byte of the decoded code
 * mapped back to the file. */
#ifndef HG_YDOC_H
#define HG_YDOC_H

#include <yaml.h>

#include "extract.h"

typedef struct {
  const hg_source *src;
  yaml_document_t doc;
  bool loaded;
  uint32_t *line_start; // byte offset of each line (0-based rows)
  uint32_t n_lines;
} hg_ydoc;

/** Loads the first document of `src`: true, or false with the problem in `out` (syntax_error,
 *  syntax_at, in the arena). Free with hg_ydoc_free either way. */
bool hg_ydoc_load(hg_ydoc *self, const hg_source *src, hg_arena *arena, hg_sites *out);
void hg_ydoc_free(hg_ydoc *self);

/** The byte offset of a libyaml mark, and the 0-based row of a byte offset. */
uint32_t hg_ydoc_byte(const hg_ydoc *self, yaml_mark_t mark);
uint32_t hg_ydoc_row(const hg_ydoc *self, uint32_t byte);

/** Calls `fn` for every node at dotted `path` under the root (`*`: any key or list item), with
 *  the key node that names it (NULL for a list item). */
typedef void (*hg_ydoc_fn)(hg_ydoc *doc, yaml_node_t *key, yaml_node_t *node, void *ctx);
void hg_ydoc_select(hg_ydoc *self, const char *path, hg_ydoc_fn fn, void *ctx);

/** A scalar's decoded text, and for each byte of it the byte of the file it came from. */
typedef struct {
  const char *text; // in the arena, NUL-terminated
  uint32_t len;
  uint32_t *at; // len + 1 entries (the last: the scalar's end)
} hg_yembed;

void hg_ydoc_embed(hg_ydoc *self, yaml_node_t *scalar, hg_arena *arena, hg_yembed *out);

/** Moves a site found in embedded code (positions relative to `e->text`) to the file: bytes,
 *  lines, columns, and the lines of its flags' words. */
void hg_ydoc_place_site(const hg_ydoc *self, const hg_yembed *e, hg_site *site);
void hg_ydoc_place_marker(const hg_ydoc *self, const hg_yembed *e, hg_marker_comment *marker);

/** Appends the `# hardguard:` comments of the file that stand outside the byte ranges `[from[i], to[i])`
 *  (embedded code, whose own comments its surface reports). A `#` starts a comment at the start
 *  of a line or after a blank, as in YAML. */
void hg_ydoc_markers(const hg_ydoc *self, hg_arena *arena, const uint32_t *from, const uint32_t *to, size_t n,
                     hg_marker_vec *out);

#endif
