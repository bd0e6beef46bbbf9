/* Small shared pieces: allocation that aborts on out-of-memory, a growable byte buffer, a typed
 * vector macro, a bump arena for per-file data, and the error record that fallible functions fill. */
#ifndef HG_UTIL_H
#define HG_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HG_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/** The hash of what is stored, 64-bit FNV-1a: hg_hash_add goes on from `h` over `n` more bytes.
 *  Two starts, both kept because what they made is stored by users and must not change:
 *  HG_HASH_SEED, FNV's offset basis (the baseline's fingerprints), and hg_hash's own, one digit
 *  short of it (SARIF's partial fingerprints). */
#define HG_HASH_SEED UINT64_C(14695981039346656037)
uint64_t hg_hash_add(uint64_t h, const void *s, size_t n);
/** hg_hash_add over `n` bytes from 1469598103934665603. */
uint64_t hg_hash(const char *s, size_t n);
/** The hash of what lives in one run, eight bytes a step, going on from `h`: the hash tables' slots
 *  and the built-in rules' check of their seed. Never stored, never printed: it may change. */
uint64_t hg_hash_fast(uint64_t h, const void *s, size_t n);

void *hg_xmalloc(size_t n);
void *hg_xcalloc(size_t count, size_t size);
void *hg_xrealloc(void *p, size_t n);
char *hg_xstrdup(const char *s);
char *hg_xstrndup(const char *s, size_t n);
/** printf into a new heap string; the caller frees it. */
char *hg_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Frees an array of `n` heap strings and the array. */
void hg_strv_free(char **v, size_t n);

/** A growable, always NUL-terminated byte buffer. Zero-initialise, then hg_buf_free. */
typedef struct {
  char *data;
  size_t len, cap;
} hg_buf;

/** Makes room for `extra` more bytes and the NUL (what hg_buf_add and hg_buf_putc call when full). */
void hg_buf_grow(hg_buf *self, size_t extra);
// Inline: the report adds short pieces (a quote, a key, a comma) a million times a run.
static inline void hg_buf_add(hg_buf *self, const char *s, size_t n) {
  if (self->len + n + 1 > self->cap) hg_buf_grow(self, n);
  if (n) memcpy(self->data + self->len, s, n);
  self->len += n;
  self->data[self->len] = '\0';
}
static inline void hg_buf_putc(hg_buf *self, char c) {
  if (self->len + 2 > self->cap) hg_buf_grow(self, 1);
  self->data[self->len++] = c;
  self->data[self->len] = '\0';
}
void hg_buf_puts(hg_buf *self, const char *s);
/** Appends v in decimal, as printf's %lld writes it. */
void hg_buf_put_int(hg_buf *self, long long v);
void hg_buf_printf(hg_buf *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Hands the bytes to the caller (who frees them) and resets the buffer. Never NULL. */
char *hg_buf_detach(hg_buf *self);
void hg_buf_free(hg_buf *self);

/* A typed growable array: HG_VEC(int) v = {0}; HG_VEC_PUSH(&v, 3); free(v.items). */
#define HG_VEC(T)                                                                                  \
  struct {                                                                                         \
    T *items;                                                                                      \
    size_t len, cap;                                                                               \
  }
#define HG_VEC_PUSH(v, ...)                                                                        \
  do {                                                                                             \
    if ((v)->len == (v)->cap) {                                                                    \
      (v)->cap = (v)->cap ? (v)->cap * 2 : 8;                                                      \
      (v)->items = hg_xrealloc((v)->items, (v)->cap * sizeof(*(v)->items));                        \
    }                                                                                              \
    (v)->items[(v)->len++] = (__VA_ARGS__);                                                        \
  } while (0)

/* The same vector with its items in an arena (HG_VEC_PUSH's growth, the old items left to the
 * arena): for vectors inside objects that live and die with an arena. */
#define HG_ARENA_PUSH(arena, v, ...)                                                               \
  do {                                                                                             \
    if ((v)->len == (v)->cap) {                                                                    \
      size_t cap_ = (v)->cap ? (v)->cap * 2 : 8;                                                   \
      void *items_ = hg_arena_alloc((arena), cap_ * sizeof(*(v)->items));                          \
      if ((v)->len)                                                                                \
        memcpy(items_, (v)->items, (v)->len * sizeof(*(v)->items));                                \
      (v)->items = items_;                                                                         \
      (v)->cap = cap_;                                                                             \
    }                                                                                              \
    (v)->items[(v)->len++] = (__VA_ARGS__);                                                        \
  } while (0)

/** A vector of heap strings (paths, words): hg_strvec_free frees each and the array. */
typedef HG_VEC(char *) hg_strvec;
void hg_strvec_free(hg_strvec *self);

/** A bump allocator: everything allocated from it is freed at once by reset or free. */
typedef struct hg_arena hg_arena;
hg_arena *hg_arena_new(void);
void *hg_arena_alloc(hg_arena *self, size_t n);
char *hg_arena_strndup(hg_arena *self, const char *s, size_t n);
/** printf into the arena. */
char *hg_arena_printf(hg_arena *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hg_arena_reset(hg_arena *self);
void hg_arena_free(hg_arena *self);

/** One operational error: `message` is a full line without trailing newline ("file:line:col: …"). */
typedef struct {
  char message[1024];
} hg_error;

/** Fills err and returns -1, so that `return hg_error_set(err, ...)` reads naturally. */
int hg_error_set(hg_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** The last component of a path (what follows its last '/'), inside `path`. */
const char *hg_path_base(const char *path);
/** The directory part of a path ("a/b" -> "a", "b" -> ".", "/b" -> "/"), in a new heap string. */
char *hg_path_dir(const char *path);
/** Reads a whole file into a heap buffer (NUL-terminated); -1 with errno-based message on failure. */
int hg_read_file(char **out, size_t *out_len, const char *path, hg_error *err);
/** Writes all `len` bytes to `fd` (again after EINTR); -1 with errno set on failure. */
int hg_write_all(int fd, const char *data, size_t len);
/** Creates `path` (mode before the umask) and writes `len` bytes to it; fails when it exists
 *  (O_EXCL: not even a file that appeared just now), and removes what it began on failure. */
int hg_write_new_file(const char *path, const char *data, size_t len, unsigned mode, hg_error *err);

/** The first place `needle` (nn bytes) stands in `hay` (hn bytes), or NULL: memmem's answer, for
 *  the short texts of nodes and names the predicates search (glibc's memmem prepares its two-way
 *  search on every call: ~300 instructions for a name of 40 bytes): up to 256 bytes, a first byte
 *  found by memchr and the rest compared; past that, memmem (linear whatever the bytes). */
const char *hg_find(const char *hay, size_t hn, const char *needle, size_t nn);
/** The first place `word` (wn bytes, an identifier) stands in `hay` as a whole word: not touching a
 *  letter, a digit or `_` on either side (`run` in `x.run(`, not in `rerun` or `run_all`); or NULL. */
const char *hg_find_word(const char *hay, size_t hn, const char *word, size_t wn);

/** Is `s` (len bytes) a dotted name: identifiers (letters, digits not first, `_`; any byte of a
 *  non-ASCII UTF-8 sequence counts as a letter, as in `länder.flags`) separated by single dots? */
bool hg_dotted_name(const char *s, size_t len);

#endif
