#include "fix/edit.h"

#include <stdlib.h>
#include <string.h>

void hg_edits_add(hg_edits *self, uint32_t start, uint32_t end, const char *text) {
  HG_VEC_PUSH(self, ((hg_edit){start, end, hg_xstrdup(text)}));
}

void hg_edits_free(hg_edits *self) {
  for (size_t i = 0; i < self->len; i++)
    free(self->items[i].text);
  free(self->items);
  *self = (hg_edits){0};
}

static int cmp_edit(const void *a, const void *b) {
  const hg_edit *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return 0;
}

void hg_edits_sort(hg_edits *self) {
  if (self->len)
    qsort(self->items, self->len, sizeof(hg_edit), cmp_edit);
}

int hg_edits_apply(hg_edits *self, const char *src, size_t len, hg_buf *out) {
  hg_edits_sort(self);
  for (size_t i = 0; i < self->len; i++) {
    const hg_edit *e = &self->items[i];
    if (e->start > e->end || e->end > len)
      return -1;
    if (i) {
      const hg_edit *p = &self->items[i - 1];
      // Overlap: the previous one reaches past this start, or both insert at one offset.
      if (p->end > e->start || (p->start == e->start && p->start == p->end && e->start == e->end))
        return -1;
    }
  }
  size_t at = 0;
  for (size_t i = 0; i < self->len; i++) {
    const hg_edit *e = &self->items[i];
    hg_buf_add(out, src + at, e->start - at);
    hg_buf_puts(out, e->text);
    at = e->end;
  }
  hg_buf_add(out, src + at, len - at);
  return 0;
}

uint32_t hg_edits_map(const hg_edits *self, uint32_t offset) {
  int64_t delta = 0;
  for (size_t i = 0; i < self->len; i++) {
    const hg_edit *e = &self->items[i];
    if (e->start > offset || (e->start == offset && e->end > e->start))
      break;
    if (e->end > offset) // inside a replaced range
      return (uint32_t)(e->start + delta);
    delta += (int64_t)strlen(e->text) - (int64_t)(e->end - e->start);
  }
  return (uint32_t)(offset + delta);
}

const char *hg_text_eol(const char *src, size_t len) {
  const char *nl = memchr(src, '\n', len);
  return nl && nl > src && nl[-1] == '\r' ? "\r\n" : "\n";
}

size_t hg_text_bom(const char *src, size_t len) { return len >= 3 && !memcmp(src, "\xEF\xBB\xBF", 3) ? 3 : 0; }

uint32_t hg_text_offset(const char *src, size_t len, uint32_t line, uint32_t col) {
  size_t i = 0;
  for (uint32_t l = 1; l < line && i < len; i++)
    if (src[i] == '\n')
      l++;
  for (uint32_t c = 1; c < col && i < len && src[i] != '\n'; c++) {
    i++;
    while (i < len && ((unsigned char)src[i] & 0xC0) == 0x80) // continuation bytes
      i++;
  }
  return (uint32_t)(i < len ? i : len);
}
