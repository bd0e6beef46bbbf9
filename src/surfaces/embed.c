#include "surfaces/embed.h"

#include <stdlib.h>
#include <string.h>

void hg_lines_init(hg_lines *self, const hg_source *src, hg_arena *arena) {
  uint32_t n = 1;
  for (size_t i = 0; i < src->len; i++)
    n += src->data[i] == '\n';
  self->src = src;
  self->start = hg_arena_alloc(arena, n * sizeof(uint32_t));
  self->start[0] = 0;
  for (size_t i = 0, k = 1; i < src->len; i++)
    if (src->data[i] == '\n')
      self->start[k++] = (uint32_t)i + 1;
  self->n = n;
}

uint32_t hg_lines_row(const hg_lines *self, uint32_t byte) {
  uint32_t lo = 0, hi = self->n;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (self->start[mid] <= byte)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

void hg_embed_put(hg_embed_builder *self, const char *s, size_t n, uint32_t from, bool each) {
  hg_buf_add(&self->text, s, n);
  for (size_t i = 0; i < n; i++)
    HG_VEC_PUSH(&self->at, from + (each ? (uint32_t)i : 0));
}

hg_embed hg_embed_finish(hg_embed_builder *self, hg_arena *arena, uint32_t end) {
  uint32_t len = (uint32_t)self->text.len;
  char *text = hg_arena_alloc(arena, len + 1 + HG_SOURCE_PAD);
  if (len)
    memcpy(text, self->text.data, len);
  memset(text + len, 0, 1 + HG_SOURCE_PAD);
  uint32_t *at = hg_arena_alloc(arena, (len + 1) * sizeof(uint32_t));
  if (len)
    memcpy(at, self->at.items, len * sizeof(uint32_t));
  at[len] = end;
  hg_buf_free(&self->text);
  free(self->at.items);
  memset(self, 0, sizeof(*self));
  return (hg_embed){text, len, at};
}

static void place(const hg_lines *lines, uint32_t byte, uint32_t *line, uint32_t *col) {
  hg_pos p = hg_source_pos(lines->src, byte, hg_lines_row(lines, byte));
  *line = p.line;
  *col = p.col;
}

// The file line of line `line` (1-based) of the embedded text.
static uint32_t file_line(const hg_lines *lines, const hg_embed *e, uint32_t line) {
  uint32_t off = 0;
  for (uint32_t l = 1; l < line && off < e->len; off++)
    if (e->text[off] == '\n')
      l++;
  return hg_lines_row(lines, e->at[off < e->len ? off : e->len]) + 1;
}

void hg_embed_place_site(const hg_lines *lines, const hg_embed *e, hg_site *site) {
  uint32_t a = site->start_byte < e->len ? e->at[site->start_byte] : e->at[e->len];
  uint32_t b = site->end_byte > site->start_byte && site->end_byte <= e->len ? e->at[site->end_byte - 1] + 1 : a;
  site->start_byte = a;
  site->end_byte = b;
  place(lines, a, &site->line, &site->col);
  place(lines, b, &site->end_line, &site->end_col);
  for (size_t i = 0; i < site->flags.n_items; i++)
    if (site->flags.items[i].line)
      site->flags.items[i].line = file_line(lines, e, site->flags.items[i].line);
  if (site->flags.line)
    site->flags.line = file_line(lines, e, site->flags.line);
}

void hg_embed_place_marker(const hg_lines *lines, const hg_embed *e, hg_marker_comment *marker) {
  marker->start_byte = marker->start_byte < e->len ? e->at[marker->start_byte] : e->at[e->len];
  place(lines, marker->start_byte, &marker->line, &marker->col);
}
