#include "source.h"

#include <stdlib.h>
#include <string.h>

static void strip_bom(hg_source *self) {
  if (self->len >= 3 && memcmp(self->raw, "\xEF\xBB\xBF", 3) == 0) {
    self->data = self->raw + 3;
    self->len -= 3;
  } else {
    self->data = self->raw;
  }
}

int hg_source_read(hg_source *out, const char *path, hg_error *err) {
  memset(out, 0, sizeof(*out));
  if (hg_read_file(&out->raw, &out->len, path, err) != 0) return -1;
  out->path = hg_xstrdup(path);
  strip_bom(out);
  return 0;
}

void hg_source_from_bytes(hg_source *out, const char *path, const char *bytes, size_t len) {
  memset(out, 0, sizeof(*out));
  out->raw = hg_xstrndup(bytes, len);
  out->len = len;
  out->path = hg_xstrdup(path);
  strip_bom(out);
}

void hg_source_free(hg_source *self) {
  if (!self) return;
  free(self->path);
  free(self->raw);
  memset(self, 0, sizeof(*self));
}

static uint32_t line_start(const hg_source *self, uint32_t offset) {
  while (offset > 0 && self->data[offset - 1] != '\n') offset--;
  return offset;
}

hg_pos hg_source_pos(const hg_source *self, uint32_t offset, uint32_t row) {
  uint32_t col = 1;
  for (uint32_t i = line_start(self, offset); i < offset && i < self->len; i++)
    if (((unsigned char)self->data[i] & 0xC0) != 0x80) col++;  // count UTF-8 lead bytes only
  return (hg_pos){row + 1, col};
}

const char *hg_source_line(const hg_source *self, uint32_t offset, size_t *len) {
  uint32_t start = line_start(self, offset), end = start;
  while (end < self->len && self->data[end] != '\n') end++;
  if (end > start && self->data[end - 1] == '\r') end--;
  *len = end - start;
  return self->data + start;
}
