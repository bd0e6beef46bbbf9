/* What every tree-sitter surface's extraction shares: the per-worker extractor (query cursor,
 * match data, scratch, a parser for embedded code), the sites and markers of one file, and the
 * helpers that turn captures into sites (position, markers, regions that failed to parse). */
#ifndef HG_SURFACES_EXTRACT_H
#define HG_SURFACES_EXTRACT_H

#include <tree_sitter/api.h>

#include "base/source.h"
#include "rules/matches.h"
#include "rules/ruleset.h"
#include "model/surface.h"

typedef struct hg_extractor hg_extractor;

/** Per-worker state: query cursor, match data, scratch. */
hg_extractor *hg_extractor_new(void);
void hg_extractor_free(hg_extractor *self);

/** Where the first syntax error is, if any: false when the tree has none. */
bool hg_extract_first_error(TSTree *tree, const hg_source *source, hg_pos *out);

pcre2_match_data *hg_extractor_match_data(hg_extractor *self);
/** The extractor's query cursor and scratch buffer, for a surface's own extract function. */
hg_matches *hg_extractor_cursor(hg_extractor *self);
/** A parser for code embedded in a file (a CI step's script), set to `language`; owned by the
 *  extractor. */
TSParser *hg_extractor_parser(hg_extractor *self, const TSLanguage *language);
/** Code embedded in embedded code (`bash -c "sh -c '...'"`) is read this deep, no deeper. */
#define HG_EMBED_MAX_DEPTH 4
/** Enters one level of embedded code: false (and nothing entered) when that is too deep. */
bool hg_extractor_enter(hg_extractor *self);
void hg_extractor_leave(hg_extractor *self);
hg_buf *hg_extractor_scratch(hg_extractor *self);

// ---- for the surfaces' extract functions ---------------------------------------------------------

typedef HG_VEC(hg_site) hg_site_vec;
typedef HG_VEC(hg_marker_comment) hg_marker_vec;

/** The node of capture `id` in a match's captures (false when the match lacks it). */
bool hg_extract__capture(const TSQueryCapture *c, uint16_t n, uint32_t id, TSNode *out);
/** Sets the site's bytes, lines and columns to those of `node`. */
void hg_extract__position(hg_site *site, const hg_source *src, TSNode node);
/** Sets the site's bytes to [start, end) (one byte at least), and its lines and columns, `row_start`
 *  and `row_end` being the 0-based rows of those bytes: a site read without tree-sitter (a YAML
 *  key, a unit's section header). */
void hg_extract__span(hg_site *site, const hg_source *src, uint32_t start, uint32_t end, uint32_t row_start,
                      uint32_t row_end);
/** The text of `node`, copied into the arena. */
const char *hg_extract__text(hg_arena *a, const char *src, TSNode node);
/** Records a marker comment. */
void hg_extract__marker(hg_marker_vec *markers, hg_arena *arena, const hg_source *source, TSNode comment);
/** Appends to `sites` the regions that failed to parse and mention a trigger word of `surface`'s
 *  prefilter outside every site found: they may hide a site (unparsable-site). */
void hg_extract__error_regions(hg_extractor *self, const hg_ruleset *rules, hg_surface_id surface,
                               const hg_source *src, TSNode root, hg_site_vec *sites);
/** A surface's reading of region [a, b) of the source, which failed to parse (`region` is its
 *  ERROR or MISSING node) and mentions a trigger word outside every site found: appends the sites
 *  it can read there to `sites`, and returns whether the region must still be reported (it may
 *  hide a site it could not read). */
typedef bool (*hg_region_fn)(void *ctx, TSNode region, uint32_t a, uint32_t b, hg_site_vec *sites);
/** hg_extract__error_regions, each region first handed to `read` (NULL: none). */
void hg_extract__error_regions_read(hg_extractor *self, const hg_ruleset *rules, hg_surface_id surface,
                                    const hg_source *src, TSNode root, hg_site_vec *sites, hg_region_fn read,
                                    void *ctx);
/** One site match of a surface's query, handed on by hg_extract_matches: its pattern and @site. */
typedef void (*hg_extract_site_fn)(void *ctx, const hg_pattern *p, const TSQueryMatch *m, TSNode site);
/** The query loop a tree-sitter surface shares: runs surface `s`'s rule query over `root`, keeps
 *  the matches whose predicates hold (a surface without names: none are answered), records the
 *  marker comments into `markers`, and hands each site match with its @site to `fn`. */
void hg_extract_matches(hg_extractor *self, const hg_ruleset *rules, hg_surface_id s, const hg_source *source,
                        TSNode root, hg_arena *arena, hg_marker_vec *markers, hg_extract_site_fn fn, void *ctx);
/** A flag per symbol of `language`, set for the named node types `types` (NULL-ended, a static
 *  array): what a walk is to keep (hg_matches_exec_keeping). The extractor's, valid until it is
 *  asked for other types or freed; worked out once for the files asking the same. */
const uint8_t *hg_extract__types(hg_extractor *self, const TSLanguage *language, const char *const *types);
/** Called once the walk is done, before the matches are handed on, with the nodes of the types it
 *  was asked to keep, in pre-order (NULL: the reference engine found the matches; none were kept). */
typedef void (*hg_extract_walked_fn)(void *ctx, const TSNode *kept, size_t n);
/** hg_extract_matches, the walk also keeping the nodes of the named types `keep` (NULL-ended) for
 *  `walked`. */
void hg_extract_matches_keeping(hg_extractor *self, const hg_ruleset *rules, hg_surface_id s,
                                const hg_source *source, TSNode root, hg_arena *arena, hg_marker_vec *markers,
                                const char *const *keep, hg_extract_walked_fn walked, hg_extract_site_fn fn,
                                void *ctx);
/** Appends `v` to a command's words (a file read as the command a tool builds from it: a
 *  devcontainer, a Quadlet unit), at most `max` of them: the first past that is an unknown that
 *  may stand for any flags, its origin `origin` (the budget), and the rest are dropped. */
void hg_extract__push_word(hg_value_vec *words, hg_value v, size_t max, const char *origin);
/** Copies the sites and markers into the arena as `out`, and frees the vectors' arrays. */
void hg_extract__finish(hg_sites *out, hg_arena *arena, hg_site_vec *sites, hg_marker_vec *markers);

#endif
