#include "surfaces/ydoc.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/extract.h"

// Aliases make a YAML document a graph: paths are followed at most this deep.
enum { MAX_DEPTH = 64 };

bool hg_ydoc_load(hg_ydoc *self, const hg_source *src, hg_arena *arena, hg_sites *out) {
  memset(self, 0, sizeof(*self));
  self->src = src;
  hg_lines_init(&self->lines, src, arena);
  hg_yaml_problem why;
  if (hg_yaml_parse(&self->yaml, src->path, src->data, src->len, &why) == 0)
    return true;
  out->syntax_error = hg_arena_printf(arena, "invalid YAML at %zu:%zu: %s%s%s; no site in it was judged", why.line,
                                      why.column, why.problem, why.context ? " " : "", why.context ? why.context : "");
  out->syntax_at = (hg_pos){(uint32_t)why.line, (uint32_t)why.column};
  return false;
}

void hg_ydoc_free(hg_ydoc *self) { hg_yaml_free(&self->yaml); }

void hg_ydoc_place(const hg_ydoc *self, yaml_node_t *key, hg_site *site) {
  uint32_t a = hg_ydoc_byte(self, key->start_mark), b = hg_ydoc_byte(self, key->end_mark);
  hg_extract__span(site, self->src, a, b, hg_lines_row(&self->lines, a), hg_lines_row(&self->lines, b > a ? b : a + 1));
}

uint32_t hg_ydoc_byte(const hg_ydoc *self, yaml_mark_t mark) {
  if (mark.line >= self->lines.n)
    return (uint32_t)self->src->len;
  uint32_t b = self->lines.start[mark.line];
  const unsigned char *d = (const unsigned char *)self->src->data;
  // libyaml's column counts characters: step over as many UTF-8 lead bytes.
  for (size_t c = 0; c < mark.column && b < self->src->len && d[b] != '\n'; c++) {
    b++;
    while (b < self->src->len && (d[b] & 0xC0) == 0x80)
      b++;
  }
  return b;
}

static void select_from(hg_ydoc *self, yaml_node_t **above, size_t depth, yaml_node_t *key, yaml_node_t *node,
                        const char *path, hg_ydoc_fn fn, void *ctx) {
  if (!node || depth >= MAX_DEPTH)
    return;
  if (!*path) {
    fn(self, above, depth, key, node, ctx);
    return;
  }
  above[depth] = node;
  const char *dot = strchr(path, '.');
  size_t n = dot ? (size_t)(dot - path) : strlen(path);
  const char *rest = dot ? dot + 1 : path + n;
  bool any = n == 1 && path[0] == '*';
  if (node->type == YAML_MAPPING_NODE) {
    for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
      yaml_node_t *k = hg_yaml_node(&self->yaml, p->key);
      if (!k || k->type != YAML_SCALAR_NODE)
        continue;
      if (any || (k->data.scalar.length == n && !memcmp(k->data.scalar.value, path, n)))
        select_from(self, above, depth + 1, k, hg_yaml_node(&self->yaml, p->value), rest, fn, ctx);
    }
  } else if (node->type == YAML_SEQUENCE_NODE && any) {
    for (yaml_node_item_t *i = node->data.sequence.items.start; i < node->data.sequence.items.top; i++)
      select_from(self, above, depth + 1, NULL, hg_yaml_node(&self->yaml, *i), rest, fn, ctx);
  }
}

void hg_ydoc_select(hg_ydoc *self, const char *path, hg_ydoc_fn fn, void *ctx) {
  if (!self->yaml.loaded)
    return;
  yaml_node_t *above[MAX_DEPTH];
  select_from(self, above, 0, NULL, hg_yaml_root(&self->yaml), path, fn, ctx);
}

void hg_ydoc_select_rules(hg_ydoc *self, const hg_ruleset *rules, hg_surface_id surface, const char *reads,
                          hg_ydoc_fn fn, void *ctx) {
  size_t n;
  const hg_yaml_rule *r = hg_ruleset_yaml_rules(rules, surface, &n);
  for (size_t i = 0; i < n; i++) {
    if (strcmp(r[i].reads, reads))
      continue;
    self->rule = &r[i];
    for (size_t k = 0; k < r[i].n_select; k++) {
      const hg_yaml_select *sel = &r[i].select[k];
      bool ours = sel->n_files == 0;
      for (size_t f = 0; f < sel->n_files && !ours; f++)
        ours = hg_surface_path_matches(sel->files[f], self->src->path);
      for (size_t p = 0; ours && p < sel->n_paths; p++)
        hg_ydoc_select(self, sel->paths[p], fn, ctx);
    }
  }
  self->rule = NULL;
}

void hg_ydoc_embed(hg_ydoc *self, yaml_node_t *scalar, hg_arena *arena, hg_embed *out) {
  uint32_t len = (uint32_t)scalar->data.scalar.length;
  // The decoded text, padded with zeros like every hg_source (pcre2's JIT may read a block past the end).
  char *text = hg_arena_alloc(arena, len + 1 + HG_SOURCE_PAD);
  memcpy(text, scalar->data.scalar.value, len);
  memset(text + len, 0, 1 + HG_SOURCE_PAD);
  uint32_t *at = hg_arena_alloc(arena, (len + 1) * sizeof(uint32_t));
  uint32_t b = hg_ydoc_byte(self, scalar->start_mark), end = hg_ydoc_byte(self, scalar->end_mark);
  yaml_scalar_style_t style = scalar->data.scalar.style;
  // A block scalar's text starts on the line after its indicator (which may carry a comment).
  if ((style == YAML_LITERAL_SCALAR_STYLE || style == YAML_FOLDED_SCALAR_STYLE) &&
      scalar->start_mark.line + 1 < self->lines.n)
    b = self->lines.start[scalar->start_mark.line + 1];
  else if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE || style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
    b++;
  // Each decoded byte is the next equal byte of the raw text: what decoding drops (indentation,
  // quotes doubled, escapes, folded line breaks) is stepped over.
  const char *raw = self->src->data;
  uint32_t j = b;
  for (uint32_t i = 0; i < len; i++) {
    uint32_t k = j;
    while (k < end && raw[k] != text[i])
      k++;
    if (k < end) {
      at[i] = k;
      j = k + 1;
    } else {
      at[i] = i ? at[i - 1] : b; // an escape decoded to a byte the raw text lacks
    }
  }
  at[len] = j > end ? end : j;
  *out = (hg_embed){text, len, at};
}

void hg_ydoc_markers(const hg_ydoc *self, hg_arena *arena, const uint32_t *from, const uint32_t *to, size_t n,
                     hg_marker_vec *out) {
  const char *d = self->src->data;
  for (uint32_t row = 0; row < self->lines.n; row++) {
    uint32_t a = self->lines.start[row],
             b = row + 1 < self->lines.n ? self->lines.start[row + 1] : (uint32_t)self->src->len;
    for (uint32_t i = a; i < b; i++) {
      if (d[i] != '#' || (i > a && d[i - 1] != ' ' && d[i - 1] != '\t'))
        continue;
      uint32_t k = i + 1;
      while (k < b && (d[k] == ' ' || d[k] == '\t'))
        k++;
      if (b - k < 10 || memcmp(d + k, "hardguard:", 10))
        break; // a comment runs to the end of the line
      bool inside = false;
      for (size_t r = 0; r < n && !inside; r++)
        inside = i >= from[r] && i < to[r];
      if (!inside) {
        uint32_t end = b;
        while (end > i && (d[end - 1] == '\n' || d[end - 1] == '\r'))
          end--;
        hg_pos p = hg_source_pos(self->src, i, row);
        HG_VEC_PUSH(out, ((hg_marker_comment){i, p.line, p.col, hg_arena_strndup(arena, d + i, end - i)}));
      }
      break;
    }
  }
}

void hg_ydoc_failed_region(const hg_ydoc *self, const hg_sites *failed, hg_site *out) {
  const hg_source *source = self->src;
  hg_site s = {.path = source->path, .kind = "unknown", .reads = HG_READS_CLIENT, .has_error = true, .region = true};
  yaml_mark_t m = {.line = failed->syntax_at.line - 1, .column = failed->syntax_at.col - 1};
  s.start_byte = s.end_byte = hg_ydoc_byte(self, m);
  while (s.end_byte < source->len && source->data[s.end_byte] != '\n')
    s.end_byte++;
  if (s.end_byte == s.start_byte && s.start_byte > 0)
    s.start_byte--; // an empty rest of line: the character before
  uint32_t row = hg_lines_row(&self->lines, s.start_byte);
  hg_pos a = hg_source_pos(source, s.start_byte, row), b = hg_source_pos(source, s.end_byte, row);
  s.line = a.line;
  s.col = a.col;
  s.end_line = b.line;
  s.end_col = b.col;
  *out = s;
}
