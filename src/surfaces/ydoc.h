/* What the YAML surfaces share: a file's YAML document with positions in bytes (libyaml counts
 * characters), nodes selected by dotted paths, the `# hardguard:` marker comments between them,
 * and scalars that hold code embedded for another surface, with each byte of the decoded code
 * mapped back to the file. */
#ifndef HG_YDOC_H
#define HG_YDOC_H

#include <yaml.h>

#include "base/yamldoc.h"
#include "rules/ruleset.h"
#include "surfaces/embed.h"

typedef struct {
  const hg_source *src;
  hg_yaml yaml;  // the document (base/yamldoc.h), loaded or not
  hg_lines lines;
  const hg_yaml_rule *rule; // during hg_ydoc_select_rules: the rule whose selection is being called
} hg_ydoc;

/** Loads the first document of `src`: true, or false with the problem in `out` (syntax_error,
 *  syntax_at, in the arena). Free with hg_ydoc_free either way. */
bool hg_ydoc_load(hg_ydoc *self, const hg_source *src, hg_arena *arena, hg_sites *out);
void hg_ydoc_free(hg_ydoc *self);

/** The byte offset of a libyaml mark. */
uint32_t hg_ydoc_byte(const hg_ydoc *self, yaml_mark_t mark);

/** Calls `fn` for every node at dotted `path` under the root (`*`: any key or list item), with
 *  the key node that names it (NULL for a list item) and the `n` nodes above it, the root first. */
typedef void (*hg_ydoc_fn)(hg_ydoc *doc, yaml_node_t *const *above, size_t n, yaml_node_t *key, yaml_node_t *node,
                           void *ctx);
void hg_ydoc_select(hg_ydoc *self, const char *path, hg_ydoc_fn fn, void *ctx);
/** Calls `fn` for every node the YAML rules of `surface` that read `reads` select in this file
 *  (their `files` globs matched against its path). */
void hg_ydoc_select_rules(hg_ydoc *self, const hg_ruleset *rules, hg_surface_id surface, const char *reads,
                          hg_ydoc_fn fn, void *ctx);

/** Places `site` at `key` (its bytes, lines and columns): a site reported at a mapping key. */
void hg_ydoc_place(const hg_ydoc *self, yaml_node_t *key, hg_site *site);
/** A scalar's decoded text, each byte mapped to the byte of the file it came from. */
void hg_ydoc_embed(hg_ydoc *self, yaml_node_t *scalar, hg_arena *arena, hg_embed *out);

/** The region reported when the file is not valid YAML (`failed` as hg_ydoc_load filled it): the
 *  rest of the line the parser stopped at, as a site that failed to parse (unparsable-site). */
void hg_ydoc_failed_region(const hg_ydoc *self, const hg_sites *failed, hg_site *out);

/** Appends the `# hardguard:` comments of the file that stand outside the byte ranges `[from[i], to[i])`
 *  (embedded code, whose own comments its surface reports). A `#` starts a comment at the start
 *  of a line or after a blank, as in YAML. */
void hg_ydoc_markers(const hg_ydoc *self, hg_arena *arena, const uint32_t *from, const uint32_t *to, size_t n,
                     hg_marker_vec *out);

#endif
