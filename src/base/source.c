#include "base/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
  out->path = out->owned_path = hg_xstrdup(path);
  strip_bom(out);
  return 0;
}

void hg_source_from_bytes(hg_source *out, const char *path, const char *bytes, size_t len) {
  memset(out, 0, sizeof(*out));
  out->raw = hg_xcalloc(1, len + 1 + HG_SOURCE_PAD);
  if (len) memcpy(out->raw, bytes, len);
  out->len = len;
  out->path = out->owned_path = hg_xstrdup(path);
  strip_bom(out);
}

void hg_source_free(hg_source *self) {
  if (!self) return;
  free(self->owned_path);
  free(self->raw);
  memset(self, 0, sizeof(*self));
}

// ---- the reader ---------------------------------------------------------------------------------

struct hg_reader {
  char *buf;
  size_t cap;
  bool mapped;  // buf is a mapping of its own (cap > HG_READER_KEEP), unmapped at the next read
};

hg_reader *hg_reader_new(void) { return hg_xcalloc(1, sizeof(hg_reader)); }

static void release(hg_reader *self) {
  if (self->mapped)
    munmap(self->buf, self->cap);
  else
    free(self->buf);
  self->buf = NULL;
  self->cap = 0;
  self->mapped = false;
}

void hg_reader_free(hg_reader *self) {
  if (!self) return;
  release(self);
  free(self);
}

// Makes room for `need` bytes, keeping the first `keep`.
static void reserve(hg_reader *self, size_t need, size_t keep) {
  if (need <= self->cap) return;
  size_t cap = self->cap ? self->cap : 64 * 1024;
  while (cap < need) cap *= 2;
  if (cap <= HG_READER_KEEP) {
    char *buf = hg_xmalloc(cap);
    if (keep) memcpy(buf, self->buf, keep);
    release(self);
    self->buf = buf;
    self->cap = cap;
    return;
  }
  // Big files are mapped, not malloc'd, so that their memory goes back to the system as soon as
  // the next file is read instead of staying in this thread's malloc arena.
  char *buf = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  bool mapped = buf != MAP_FAILED;
  if (!mapped) buf = hg_xmalloc(cap);  // which aborts when malloc fails too
  if (keep) memcpy(buf, self->buf, keep);
  release(self);
  self->buf = buf;
  self->cap = cap;
  self->mapped = mapped;
}

static int read_error(int fd, hg_error *err, const char *fmt, const char *path, int e) {
  close(fd);
  return hg_error_set(err, fmt, path, strerror(e));
}

void hg_reader_trim(hg_reader *self) {
  if (self->cap > HG_READER_KEEP) release(self);
}

int hg_reader_read(hg_reader *self, hg_source *out, const char *path, hg_error *err) {
  return hg_reader_read_below(self, out, path, 0, err);
}

int hg_reader_read_below(hg_reader *self, hg_source *out, const char *path, size_t limit, hg_error *err) {
  memset(out, 0, sizeof(*out));
  hg_reader_trim(self);
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return hg_error_set(err, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) return read_error(fd, err, "%s: %s", path, errno);
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return hg_error_set(err, "%s: not a regular file", path);
  }
  if ((uintmax_t)st.st_size > HG_SOURCE_MAX) {
    close(fd);
    return hg_error_set(err, "%s: file too large", path);
  }
  if (limit && (size_t)st.st_size >= limit) {
    close(fd);
    return HG_READ_BIG;
  }
  // The size fstat gave is read, no more: one read() for most files. A size of 0 may be a file
  // whose size the system does not know (procfs): read it to its end.
  size_t size = (size_t)st.st_size, len = 0, room = 1 + HG_SOURCE_PAD;
  reserve(self, size + room, 0);
  while (size == 0 || len < size) {
    if (len + room == self->cap) {
      if (len >= HG_SOURCE_MAX) {
        close(fd);
        return hg_error_set(err, "%s: file too large", path);
      }
      reserve(self, self->cap * 2, len);
    }
    size_t want = (size ? size : self->cap - room) - len;
    if (want > self->cap - room - len) want = self->cap - room - len;
    ssize_t n = read(fd, self->buf + len, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return read_error(fd, err, "%s: cannot read: %s", path, errno);
    }
    if (n == 0) {
      // Fewer bytes than fstat counted: the file was truncated or replaced while being read, and
      // what was read is not the file. A file that grows is read as it was at fstat.
      if (size && len < size) {
        close(fd);
        return hg_error_set(err, "%s: changed while being read (ended after %zu of %zu bytes)", path, len, size);
      }
      break;
    }
    len += (size_t)n;
  }
  close(fd);
  memset(self->buf + len, 0, room);
  out->path = path;
  out->raw = NULL;
  out->len = len;
  out->data = self->buf;
  if (len >= 3 && memcmp(self->buf, "\xEF\xBB\xBF", 3) == 0) {
    out->data += 3;
    out->len -= 3;
  }
  return 0;
}

static uint32_t line_start(const hg_source *self, uint32_t offset) {
  while (offset > 0 && self->data[offset - 1] != '\n') offset--;
  return offset;
}

// UTF-8 lead bytes (characters) in [a, b).
static uint32_t chars(const char *data, uint32_t a, uint32_t b) {
  uint32_t n = 0;
  for (uint32_t i = a; i < b; i++) n += ((unsigned char)data[i] & 0xC0) != 0x80;
  return n;
}

hg_pos hg_source_pos(const hg_source *self, uint32_t offset, uint32_t row) {
  if (offset > self->len)
    offset = (uint32_t)self->len;
  hg_source *memo = (hg_source *)self; // its memo only: the bytes are not touched
  uint32_t col;
  if (memo->pos_known && offset >= memo->pos_offset &&
      !memchr(self->data + memo->pos_offset, '\n', offset - memo->pos_offset)) {
    col = memo->pos_col + chars(self->data, memo->pos_offset, offset);
  } else if (memo->pos_known && offset < memo->pos_offset && offset >= memo->pos_line_start) {
    col = memo->pos_col - chars(self->data, offset, memo->pos_offset);
  } else {
    memo->pos_line_start = line_start(self, offset);
    col = 1 + chars(self->data, memo->pos_line_start, offset);
  }
  memo->pos_known = true;
  memo->pos_offset = offset;
  memo->pos_col = col;
  return (hg_pos){row + 1, col};
}

const char *hg_source_window(const hg_source *self, uint32_t offset, size_t *len, bool *cut_before,
                             bool *cut_after, uint32_t *col) {
  enum { BEFORE = 120, AFTER = 400, LONG = 1024 };
  if (offset > self->len)
    offset = (uint32_t)self->len;
  uint32_t start = offset, end = offset;
  while (start > 0 && self->data[start - 1] != '\n' && offset - start < BEFORE) start--;
  *cut_before = start > 0 && self->data[start - 1] != '\n';
  while (end < self->len && self->data[end] != '\n' && end - start < LONG) end++;
  *cut_after = end < self->len && self->data[end] != '\n';
  if (*cut_after && end - offset > AFTER)
    end = offset + AFTER;
  // Whole characters only.
  while (*cut_before && start < offset && ((unsigned char)self->data[start] & 0xC0) == 0x80) start++;
  while (*cut_after && end > offset && ((unsigned char)self->data[end] & 0xC0) == 0x80) end--;
  if (!*cut_after && end > start && self->data[end - 1] == '\r')
    end--;
  *col = *cut_before ? hg_source_pos(self, start, 0).col : 1;
  *len = end - start;
  return self->data + start;
}

const char *hg_source_line(const hg_source *self, uint32_t offset, size_t *len) {
  uint32_t start = line_start(self, offset), end = start;
  while (end < self->len && self->data[end] != '\n') end++;
  if (end > start && self->data[end - 1] == '\r') end--;
  *len = end - start;
  return self->data + start;
}
