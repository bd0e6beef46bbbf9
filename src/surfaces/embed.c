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

// A name the shell expands as ${name}: [A-Za-z_][A-Za-z0-9_]*.
static bool shell_name(const char *x) {
  static const char letters[] = "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  return *x && strchr(letters, *x) && x[strspn(x, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")] == '\0';
}

hg_embed_holes hg_embed_name_holes(hg_arena *arena, const char *text, size_t n, const char *const *exprs,
                                   size_t n_exprs, const char *prefix, const char *language) {
  size_t n_holes = 0;
  for (size_t i = 0; i < n; i++)
    n_holes += text[i] == HG_HOLE;
  if (n_holes == 0 || n_holes != n_exprs) {
    const char **one = hg_arena_alloc(arena, sizeof(char *));
    one[0] = hg_arena_printf(arena, "%s_expression", prefix);
    return (hg_embed_holes){one, NULL, 1};
  }
  hg_embed_holes h = {hg_arena_alloc(arena, n_holes * sizeof(char *)), hg_arena_alloc(arena, n_holes * sizeof(char *)),
                      n_holes};
  for (size_t i = 0; i < n_holes; i++) {
    const char *x = exprs[i] ? exprs[i] : "";
    h.names[i] = shell_name(x) ? x : hg_arena_printf(arena, "%s_%zu", prefix, i + 1);
    h.origins[i] = hg_arena_printf(arena, "`%.80s`, a part of the %s string hardguard cannot follow", x, language);
  }
  return h;
}

void hg_embed_put_holes(hg_embed_builder *self, const char *text, size_t n, uint32_t from,
                        const hg_embed_holes *holes, hg_arena *arena) {
  for (size_t i = 0, hole = 0; i < n; i++) {
    if (text[i] != HG_HOLE) {
      hg_embed_put(self, text + i, 1, from, false);
      continue;
    }
    char *var = hg_arena_printf(arena, "${%s}", holes->names[holes->origins ? hole++ : 0]);
    hg_embed_put(self, var, strlen(var), from, false);
  }
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
