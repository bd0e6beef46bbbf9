/* One Python file's bytes, read once, and the mapping from byte offsets to the 1-based line and
 * character column that findings report (columns count UTF-8 characters, not bytes). */
#ifndef HG_SOURCE_H
#define HG_SOURCE_H

#include "util.h"

typedef struct {
  char *path;       // as reached from the argument given; owned
  char *data;       // the bytes after a UTF-8 BOM, NUL-terminated; owned
  size_t len;
  char *raw;        // the allocation (data may point 3 bytes into it)
} hg_source;

typedef struct {
  uint32_t line, col;  // 1-based; col in characters
} hg_pos;

/** Reads `path`; 0, or -1 with err filled ("path: cannot open: …"). */
int hg_source_read(hg_source *out, const char *path, hg_error *err);
/** Builds a source over a copy of `len` bytes (tests, fuzzing). */
void hg_source_from_bytes(hg_source *out, const char *path, const char *bytes, size_t len);
void hg_source_free(hg_source *self);

/** Position of byte `offset`, given the 0-based row tree-sitter reported for it. */
hg_pos hg_source_pos(const hg_source *self, uint32_t offset, uint32_t row);
/** The text of the line holding `offset`, without its line ending; *len receives its length. */
const char *hg_source_line(const hg_source *self, uint32_t offset, size_t *len);

#endif
