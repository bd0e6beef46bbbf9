#include "surfaces/extract.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"

struct hg_extractor {
  hg_matches *cursor;
  TSParser *sub;  // for embedded code, made when first needed
  unsigned depth; // of code embedded in embedded code
  pcre2_match_data *md;
  hg_buf scratch;
  // hg_extract__types' last answer, for the next file of the same language asking the same types
  const TSLanguage *types_language;
  const char *const *types;
  uint8_t *keep;
};

hg_extractor *hg_extractor_new(void) {
  hg_extractor *self = hg_xcalloc(1, sizeof(hg_extractor));
  self->cursor = hg_matches_new();
  self->md = pcre2_match_data_create(32, NULL);
  if (!self->md)
    abort();
  return self;
}

void hg_extractor_free(hg_extractor *self) {
  if (!self)
    return;
  hg_matches_free(self->cursor);
  if (self->sub)
    ts_parser_delete(self->sub);
  pcre2_match_data_free(self->md);
  hg_buf_free(&self->scratch);
  free(self->keep);
  free(self);
}

pcre2_match_data *hg_extractor_match_data(hg_extractor *self) { return self->md; }
hg_matches *hg_extractor_cursor(hg_extractor *self) { return self->cursor; }

bool hg_extractor_enter(hg_extractor *self) {
  if (self->depth >= HG_EMBED_MAX_DEPTH)
    return false;
  self->depth++;
  return true;
}

void hg_extractor_leave(hg_extractor *self) { self->depth--; }

TSParser *hg_extractor_parser(hg_extractor *self, const TSLanguage *language) {
  if (!self->sub)
    self->sub = ts_parser_new();
  if (ts_parser_language(self->sub) != language && !ts_parser_set_language(self->sub, language))
    abort(); // ABI checked at build (tests load every grammar)
  return self->sub;
}
hg_buf *hg_extractor_scratch(hg_extractor *self) { return &self->scratch; }

bool hg_extract__capture(const TSQueryCapture *c, uint16_t n, uint32_t id, TSNode *out) {
  for (uint16_t i = 0; id != UINT32_MAX && i < n; i++)
    if (c[i].index == id) {
      *out = c[i].node;
      return true;
    }
  return false;
}

const char *hg_extract__text(hg_arena *a, const char *src, TSNode n) {
  return hg_arena_strndup(a, src + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

void hg_extract__span(hg_site *site, const hg_source *src, uint32_t start, uint32_t end, uint32_t row_start,
                      uint32_t row_end) {
  site->start_byte = start;
  site->end_byte = end > start ? end : start + 1;
  hg_pos a = hg_source_pos(src, site->start_byte, row_start);
  hg_pos b = hg_source_pos(src, site->end_byte, row_end);
  site->line = a.line;
  site->col = a.col;
  site->end_line = b.line;
  site->end_col = b.col;
}

void hg_extract__position(hg_site *site, const hg_source *src, TSNode node) {
  hg_extract__span(site, src, ts_node_start_byte(node), ts_node_end_byte(node), ts_node_start_point(node).row,
                   ts_node_end_point(node).row);
}

// libtree-sitter 0.20 has no ts_node_is_error: ERROR nodes are named "ERROR".
static bool is_error(TSNode n) { return strcmp(ts_node_type(n), "ERROR") == 0; }

// The text a failed parse may have hidden a site in: an ERROR or MISSING node inside an
// expression broke the statement around it (`api.create_container("img", host_config=)` leaves
// the call unmatched and only `host_config=` in error), so the region is that statement; one
// standing in a block or the module is itself the region.
static void error_span(const hg_surface *surface, TSNode n, uint32_t *a, uint32_t *b) {
  TSNode r = n;
  for (TSNode p = ts_node_parent(r); !ts_node_is_null(p); p = ts_node_parent(r)) {
    const char *type = ts_node_type(p);
    bool block = is_error(p);
    for (const char *const *k = surface->blocks; *k && !block; k++)
      block = !strcmp(type, *k);
    if (block)
      break;
    r = p;
    size_t len = strlen(type);
    if (len > 10 && !strcmp(type + len - 10, "_statement"))
      break;
  }
  *a = ts_node_start_byte(r);
  *b = ts_node_end_byte(r);
}

// Regions that failed to parse: an ERROR or MISSING node whose statement mentions a trigger
// word outside every site already found may hide a site, so it is reported rather than skipped.
void hg_extract__error_regions(hg_extractor *self, const hg_ruleset *rules, hg_surface_id surface, const hg_source *src,
                               TSNode root, hg_site_vec *sites) {
  hg_extract__error_regions_read(self, rules, surface, src, root, sites, NULL, NULL);
}

void hg_extract__error_regions_read(hg_extractor *self, const hg_ruleset *rules, hg_surface_id surface,
                                    const hg_source *src, TSNode root, hg_site_vec *sites, hg_region_fn read,
                                    void *ctx) {
  const pcre2_code *pre = hg_ruleset_prefilter(rules, surface);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  size_t found = sites->len;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    bool descend = ts_node_has_error(n);
    if (is_error(n) || ts_node_is_missing(n)) {
      descend = false;
      uint32_t a, b;
      error_span(hg_surface_get(surface), n, &a, &b);
      // The region's trigger words must lie outside the sites already judged.
      bool hit = false;
      PCRE2_SIZE off = a;
      while (!hit && off < b) {
        if (pre && pcre2_match(pre, (PCRE2_SPTR)src->data, b, off, 0, self->md, NULL) < 0)
          break;
        PCRE2_SIZE *ov = pre ? pcre2_get_ovector_pointer(self->md) : NULL;
        PCRE2_SIZE ms = ov ? ov[0] : a, me = ov ? ov[1] : b;
        bool inside = false;
        for (size_t i = 0; i < found && !inside; i++)
          inside = ms >= sites->items[i].start_byte && ms < sites->items[i].end_byte;
        // A word in a comment the parser still recognised is no site either.
        if (!inside && pre)
          inside = hg_node_is(ts_node_descendant_for_byte_range(n, (uint32_t)ms, (uint32_t)me), "comment");
        hit = !inside;
        if (!pre)
          break;
        off = me > ms ? me : ms + 1;
      }
      // The surface reads the region's text itself: the sites it finds there are judged, and the
      // region is reported only when it may still hide one.
      if (hit && read)
        hit = read(ctx, n, a, b, sites);
      if (hit) {
        hg_site s = {.kind = "unknown", .reads = HG_READS_CLIENT, .has_error = true, .region = true};
        hg_extract__position(&s, src, n);
        HG_VEC_PUSH(sites, s);
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&cur))
      continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur)) {
        ts_tree_cursor_delete(&cur);
        return;
      }
  }
}

void hg_extract__finish(hg_sites *out, hg_arena *arena, hg_site_vec *sites, hg_marker_vec *markers) {
  out->syntax_error = NULL;
  out->errors_read = false;
  out->len = sites->len;
  out->items = hg_arena_alloc(arena, (sites->len ? sites->len : 1) * sizeof(hg_site));
  if (sites->len)
    memcpy(out->items, sites->items, sites->len * sizeof(hg_site));
  free(sites->items);
  out->n_markers = markers->len;
  out->markers = hg_arena_alloc(arena, (markers->len ? markers->len : 1) * sizeof(hg_marker_comment));
  if (markers->len)
    memcpy(out->markers, markers->items, markers->len * sizeof(hg_marker_comment));
  free(markers->items);
}

void hg_extract__push_word(hg_value_vec *words, hg_value v, size_t max, const char *origin) {
  if (words->len < max) {
    HG_VEC_PUSH(words, v);
  } else if (words->len == max) {
    hg_value u = {.kind = HG_VAL_UNKNOWN, .text = "...", .line = v.line, .splat = true, .origin = origin};
    HG_VEC_PUSH(words, u);
  }
}

void hg_extract__marker(hg_marker_vec *markers, hg_arena *arena, const hg_source *source, TSNode comment) {
  uint32_t start = ts_node_start_byte(comment);
  hg_pos pos = hg_source_pos(source, start, ts_node_start_point(comment).row);
  HG_VEC_PUSH(markers, ((hg_marker_comment){start, pos.line, pos.col, hg_extract__text(arena, source->data, comment)}));
}

bool hg_extract_first_error(TSTree *tree, const hg_source *source, hg_pos *out) {
  TSNode root = ts_tree_root_node(tree);
  if (!ts_node_has_error(root))
    return false;
  TSTreeCursor cur = ts_tree_cursor_new(root);
  bool found = false;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (is_error(n) || ts_node_is_missing(n)) {
      *out = hg_source_pos(source, ts_node_start_byte(n), ts_node_start_point(n).row);
      found = true;
      break;
    }
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&cur))
      continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cur)))
      if (!ts_tree_cursor_goto_parent(&cur))
        break;
    if (!moved)
      break;
  }
  ts_tree_cursor_delete(&cur);
  if (!found)
    *out = (hg_pos){1, 1};
  return true;
}

const uint8_t *hg_extract__types(hg_extractor *self, const TSLanguage *language, const char *const *types) {
  if (self->keep && self->types_language == language && self->types == types)
    return self->keep;  // each file asked for them (a lookup by name compares it with every symbol's)
  uint32_t n = ts_language_symbol_count(language);
  free(self->keep);
  self->keep = hg_xcalloc(n ? n : 1, 1);
  self->types_language = language;
  self->types = types;
  for (size_t i = 0; types[i]; i++) {
    TSSymbol sym = ts_language_symbol_for_name(language, types[i], (uint32_t)strlen(types[i]), true);
    if (sym && sym < n)
      self->keep[sym] = 1;
  }
  return self->keep;
}

void hg_extract_matches(hg_extractor *self, const hg_ruleset *rules, hg_surface_id s, const hg_source *source,
                        TSNode root, hg_arena *arena, hg_marker_vec *markers, hg_extract_site_fn fn, void *ctx) {
  hg_extract_matches_keeping(self, rules, s, source, root, arena, markers, NULL, NULL, fn, ctx);
}

void hg_extract_matches_keeping(hg_extractor *self, const hg_ruleset *rules, hg_surface_id s,
                                const hg_source *source, TSNode root, hg_arena *arena, hg_marker_vec *markers,
                                const char *const *keep, hg_extract_walked_fn walked, hg_extract_site_fn fn,
                                void *ctx) {
  const hg_rules_query *q = hg_ruleset_query_for(rules, s, HG_UNITS_ALL);
  const hg_captures *c = &q->captures;
  hg_predctx pctx = {.src = source->data, .len = source->len, .md = self->md, .scratch = &self->scratch};
  size_t n_kept;
  const TSNode *kept = hg_matches_exec_keeping(
      self->cursor, q, root, keep ? hg_extract__types(self, ts_tree_language(root.tree), keep) : NULL, &pctx,
      &n_kept);
  if (walked)
    walked(ctx, kept, n_kept);
  TSQueryMatch m;
  while (hg_matches_next(self->cursor, &m)) {
    const hg_pattern *p = &q->patterns[m.pattern_index];
    if (!hg_predicates_eval(p->predicates, &m, &pctx))
      continue;
    TSNode node;
    if (p->role == HG_PATTERN_MARKER) {
      if (hg_extract__capture(m.captures, m.capture_count, c->marker, &node))
        hg_extract__marker(markers, arena, source, node);
    } else if (p->role == HG_PATTERN_SITE && hg_extract__capture(m.captures, m.capture_count, c->site, &node)) {
      fn(ctx, p, &m, node);
    }
  }
}
