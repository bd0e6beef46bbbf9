/* One file's bytes, read once, and the mapping from byte offsets to the 1-based line and
 * character column that findings report (columns count UTF-8 characters, not bytes). */
#ifndef HG_SOURCE_H
#define HG_SOURCE_H

#include "base/util.h"

typedef struct hg_source {
  const char *path;  // as reached from the argument given; owned unless a view
  char *data;        // the bytes after a UTF-8 BOM, NUL-terminated and padded; owned unless a view
  size_t len;
  char *raw;         // the allocation (data may point 3 bytes into it); NULL for a view
  char *owned_path;  // path's allocation; NULL for a view
  // hg_source_pos's memo of the last position asked (a cache: every constructor zeroes it), so that
  // the positions of a long line's many sites (a minified bundle's) cost the distance between them
  bool pos_known;
  uint32_t pos_offset, pos_line_start, pos_col;
} hg_source;

/** The largest file read: tree-sitter counts bytes in uint32_t. */
#define HG_SOURCE_MAX ((size_t)UINT32_MAX / 2)
/** Zero bytes after the terminator of every source this module makes: vector code that reads a
 *  whole block past the end (pcre2's JIT) stays inside the allocation. */
#define HG_SOURCE_PAD 64

typedef struct {
  uint32_t line, col;  // 1-based; col in characters
} hg_pos;

/** Reads `path`; 0, or -1 with err filled ("path: cannot open: …"). */
int hg_source_read(hg_source *out, const char *path, hg_error *err);

/** A worker's reader: one buffer, reused from file to file, so that reading a file costs an open,
 *  an fstat and one read, and no allocation once the buffer has grown. A file larger than
 *  HG_READER_KEEP gets a mapping of its own, returned to the system at the next read. Not shared
 *  between threads. */
typedef struct hg_reader hg_reader;
#define HG_READER_KEEP ((size_t)1 << 20)

hg_reader *hg_reader_new(void);
void hg_reader_free(hg_reader *self);
/** Reads `path` into the reader's buffer, all of it as fstat sized it, and makes `out` a view of
 *  it: out->path is `path` itself and out->data lives in the buffer, both valid until the next
 *  read or hg_reader_free; hg_source_free on a view releases nothing. Anything but a regular file
 *  is refused without blocking (a FIFO is opened O_NONBLOCK and never read). 0, or -1 with err
 *  filled as hg_source_read fills it ("path: not a regular file", "path: file too large"). */
int hg_reader_read(hg_reader *self, hg_source *out, const char *path, hg_error *err);
/** As hg_reader_read, but a regular file whose size is `limit` bytes or more (0: no limit) is not
 *  read: HG_READ_BIG, with the file closed and nothing in `out` or `err` (a file whose size the
 *  system does not give, of size 0 to fstat, is read as usual). */
#define HG_READ_BIG 1
int hg_reader_read_below(hg_reader *self, hg_source *out, const char *path, size_t limit, hg_error *err);
/** Returns a buffer larger than HG_READER_KEEP to the system now rather than at the next read;
 *  the view the last read made is gone with it. */
void hg_reader_trim(hg_reader *self);
/** Builds a source over a copy of `len` bytes (tests, fuzzing). */
void hg_source_from_bytes(hg_source *out, const char *path, const char *bytes, size_t len);
void hg_source_free(hg_source *self);

/** Position of byte `offset`, given the 0-based row tree-sitter reported for it. */
hg_pos hg_source_pos(const hg_source *self, uint32_t offset, uint32_t row);
/** The text of the line holding `offset`, without its line ending; *len receives its length. */
const char *hg_source_line(const hg_source *self, uint32_t offset, size_t *len);
/** The line holding `offset` as hg_source_line gives it, or, when the line is long (a minified
 *  bundle's), a window of it around `offset` (some 120 bytes before, 400 after, whole characters):
 *  *cut_before / *cut_after say whether it stops short of the line's start / end, *col is the
 *  column of its first character (1 for a line given from its start). Costs the window, not the
 *  line. */
const char *hg_source_window(const hg_source *self, uint32_t offset, size_t *len, bool *cut_before,
                             bool *cut_after, uint32_t *col);

#endif
