#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void oom(void) {
  fputs("hardguard: out of memory\n", stderr);
  abort();
}

void *hg_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) oom();
  return p;
}

void *hg_xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) oom();
  return p;
}

void *hg_xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) oom();
  return p;
}

char *hg_xstrdup(const char *s) { return hg_xstrndup(s, strlen(s)); }

char *hg_xstrndup(const char *s, size_t n) {
  char *p = hg_xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *hg_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = hg_xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void hg_strv_free(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

void hg_strvec_free(hg_strvec *self) {
  hg_strv_free(self->items, self->len);
  self->items = NULL;
  self->len = self->cap = 0;
}

void hg_buf_grow(hg_buf *self, size_t extra) {
  if (self->len + extra + 1 <= self->cap) return;
  size_t cap = self->cap ? self->cap : 64;
  while (cap < self->len + extra + 1) cap *= 2;
  self->data = hg_xrealloc(self->data, cap);
  self->cap = cap;
}

void hg_buf_puts(hg_buf *self, const char *s) { hg_buf_add(self, s, strlen(s)); }

void hg_buf_put_int(hg_buf *self, long long v) {
  char d[24], *e = d + sizeof(d), *p = e;
  unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
  do *--p = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0) *--p = '-';
  hg_buf_add(self, p, (size_t)(e - p));
}

// Is every conversion of `fmt` a plain %s, %u, %d or %%? Most of the messages' formats are: those
// are put together here, vsnprintf's own way (a NULL %s as "(null)"), in a tenth of its time.
static bool plain_format(const char *fmt) {
  for (const char *p = fmt; (p = strchr(p, '%')); p += 2)
    if (p[1] != 's' && p[1] != 'u' && p[1] != 'd' && p[1] != '%') return false;
  return true;
}

static void put_plain(hg_buf *self, const char *fmt, va_list ap) {
  for (const char *p = fmt;;) {
    const char *q = strchr(p, '%');
    hg_buf_add(self, p, q ? (size_t)(q - p) : strlen(p));
    if (!q) break;
    switch (q[1]) {
    case 's': {
      const char *s = va_arg(ap, const char *);
      hg_buf_puts(self, s ? s : "(null)");
      break;
    }
    case 'u':
      hg_buf_put_int(self, va_arg(ap, unsigned));
      break;
    case 'd':
      hg_buf_put_int(self, va_arg(ap, int));
      break;
    default:  // '%'
      hg_buf_putc(self, '%');
    }
    p = q + 2;
  }
}

// Formats once into the room the buffer has (at least 64 bytes); only a longer text is formatted
// again, into the room it then knows it needs.
void hg_buf_printf(hg_buf *self, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (plain_format(fmt)) {
    put_plain(self, fmt, ap);  // ends in a NUL: its last piece is added even when empty
    va_end(ap);
    return;
  }
  hg_buf_grow(self, 64);
  size_t room = self->cap - self->len;
  int n = vsnprintf(self->data + self->len, room, fmt, ap);
  va_end(ap);
  if (n < 0) {  // an encoding error: nothing is added
    self->data[self->len] = '\0';
    return;
  }
  if ((size_t)n >= room) {
    hg_buf_grow(self, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(self->data + self->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  self->len += (size_t)n;
}

char *hg_buf_detach(hg_buf *self) {
  char *p = self->data ? self->data : hg_xstrdup("");
  self->data = NULL;
  self->len = self->cap = 0;
  return p;
}

void hg_buf_free(hg_buf *self) {
  free(self->data);
  self->data = NULL;
  self->len = self->cap = 0;
}

typedef struct chunk {
  struct chunk *next;
  size_t used, size;
  max_align_t data[];
} chunk;

struct hg_arena {
  chunk *head;
};

hg_arena *hg_arena_new(void) { return hg_xcalloc(1, sizeof(hg_arena)); }

void *hg_arena_alloc(hg_arena *self, size_t n) {
  n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  chunk *c = self->head;
  if (!c || c->size - c->used < n) {
    size_t size = n > 64 * 1024 ? n : 64 * 1024;
    c = hg_xmalloc(sizeof(chunk) + size);
    c->size = size;
    c->used = 0;
    c->next = self->head;
    self->head = c;
  }
  void *p = (char *)c->data + c->used;
  c->used += n;
  memset(p, 0, n);
  return p;
}

char *hg_arena_strndup(hg_arena *self, const char *s, size_t n) {
  char *p = hg_arena_alloc(self, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *hg_arena_printf(hg_arena *self, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = hg_arena_alloc(self, (size_t)(n < 0 ? 0 : n) + 1);
  vsnprintf(p, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

void hg_arena_reset(hg_arena *self) {
  if (!self || !self->head) return;
  // Keep the newest chunk for reuse, free the rest.
  chunk *keep = self->head, *c = keep->next;
  while (c) {
    chunk *next = c->next;
    free(c);
    c = next;
  }
  keep->next = NULL;
  keep->used = 0;
}

void hg_arena_free(hg_arena *self) {
  if (!self) return;
  for (chunk *c = self->head; c;) {
    chunk *next = c->next;
    free(c);
    c = next;
  }
  free(self);
}

int hg_error_set(hg_error *err, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
  }
  return -1;
}

int hg_write_all(int fd, const char *data, size_t len) {
  for (size_t done = 0; done < len;) {
    ssize_t n = write(fd, data + done, len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return -1;
    }
    done += (size_t)n;
  }
  return 0;
}

int hg_write_new_file(const char *path, const char *data, size_t len, unsigned mode, hg_error *err) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (mode_t)mode);
  if (fd < 0) return hg_error_set(err, "%s: cannot create: %s", path, strerror(errno));
  int rc = hg_write_all(fd, data, len), e = errno;
  if (close(fd) != 0 && rc == 0) rc = -1, e = errno;
  if (rc == 0) return 0;
  unlink(path);
  return hg_error_set(err, "%s: cannot write: %s", path, strerror(e));
}

int hg_read_file(char **out, size_t *out_len, const char *path, hg_error *err) {
  *out = NULL;
  *out_len = 0;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return hg_error_set(err, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    int e = errno;
    close(fd);
    return hg_error_set(err, "%s: %s", path, S_ISREG(st.st_mode) ? strerror(e) : "not a regular file");
  }
  size_t cap = (size_t)st.st_size + 1, len = 0;
  char *data = hg_xmalloc(cap);
  for (;;) {
    if (len + 1 == cap) {
      cap *= 2;
      data = hg_xrealloc(data, cap);
    }
    ssize_t n = read(fd, data + len, cap - len - 1);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      free(data);
      close(fd);
      return hg_error_set(err, "%s: cannot read: %s", path, strerror(e));
    }
    if (n == 0) break;
    len += (size_t)n;
  }
  close(fd);
  data[len] = '\0';
  *out = data;
  *out_len = len;
  return 0;
}

const char *hg_find(const char *hay, size_t hn, const char *needle, size_t nn) {
  if (nn == 0) return hay;
  if (nn > hn) return NULL;
  if (hn > 256) return memmem(hay, hn, needle, nn);  // linear whatever the bytes (two-way)
  const char *last = hay + (hn - nn);  // the last place it may start
  for (const char *p = hay; p <= last; p++) {
    p = memchr(p, needle[0], (size_t)(last - p) + 1);
    if (!p) return NULL;
    if (!memcmp(p + 1, needle + 1, nn - 1)) return p;
  }
  return NULL;
}

static bool word_byte(char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }

const char *hg_find_word(const char *hay, size_t hn, const char *word, size_t wn) {
  const char *end = hay + hn;
  for (const char *at = hay; wn && at + wn <= end;) {
    const char *hit = hg_find(at, (size_t)(end - at), word, wn);
    if (!hit)
      return NULL;
    if ((hit == hay || !word_byte(hit[-1])) && (hit + wn == end || !word_byte(hit[wn])))
      return hit;
    at = hit + 1;
  }
  return NULL;
}

bool hg_dotted_name(const char *s, size_t len) {
  if (len == 0) return false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    bool start = i == 0 || s[i - 1] == '.';
    if (c == '.') {
      if (start || i + 1 == len) return false;
    } else if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (unsigned char)c >= 0x80 ||
                 (!start && c >= '0' && c <= '9'))) {
      return false;
    }
  }
  return true;
}

const char *hg_path_base(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

char *hg_path_dir(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return hg_xstrdup(".");
  if (slash == path) return hg_xstrdup("/");
  return hg_xstrndup(path, (size_t)(slash - path));
}

uint64_t hg_hash_add(uint64_t h, const void *s, size_t n) {
  const unsigned char *p = s;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * UINT64_C(1099511628211);
  return h;
}

uint64_t hg_hash(const char *s, size_t n) { return hg_hash_add(UINT64_C(1469598103934665603), s, n); }

uint64_t hg_hash_fast(uint64_t h, const void *s, size_t n) {
  const char *k = s;
  uint64_t w;
  h ^= UINT64_C(0x9E3779B97F4A7C15) ^ n;
  for (; n >= 8; k += 8, n -= 8) {
    memcpy(&w, k, 8);
    h = (h ^ w) * UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 31;
  }
  w = 0;
  memcpy(&w, k, n);
  h = (h ^ w) * UINT64_C(0x94D049BB133111EB);
  return h ^ h >> 32;
}
