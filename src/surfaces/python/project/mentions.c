#include "surfaces/python/project/mentions.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/path.h"
#include "base/table.h"
#include "base/util.h"

#define MAX_FILE_BYTES ((size_t)1 << 20)
#define MAX_DEPTH 32
#define MAX_SUBCLASSES 64

typedef HG_VEC(const char *) text_vec;

// A word and the texts (paths, class names) filed under it, each once.
typedef struct {
  hg_table index;        // word -> index into lists
  HG_VEC(text_vec) lists;
} multimap;

struct hg_mentions {
  hg_arena *arena;  // words, paths, class names
  const char *why;  // non-NULL: not built, and why
  size_t files, bytes;
  multimap calls;   // a word written as a call -> the files writing it so
  multimap bases;   // a word of a class's bases -> the classes written with it
  hg_table imports; // "word\x1fpath" for each word of each file's import statements
  multimap importers; // a word of an import statement -> the files writing it so
};

static bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Files `text` under the word s[0..n) (the table keeps a copy of the word: the file's bytes are
// freed), unless it is already the last text there or the word holds `max` texts.
static void file_under(hg_mentions *self, multimap *m, const char *s, size_t n, const char *text, size_t max) {
  size_t *slot = hg_table_get(&m->index, s, n);
  if (!slot) {
    slot = hg_table_put(&m->index, hg_arena_strndup(self->arena, s, n), n, NULL);
    *slot = m->lists.len;
    HG_VEC_PUSH(&m->lists, (text_vec){0});
  }
  text_vec *l = &m->lists.items[*slot];
  if ((!l->len || l->items[l->len - 1] != text) && l->len < max)
    HG_VEC_PUSH(l, text);
}

static const char *const *filed(const multimap *m, const char *word, size_t len, size_t *n) {
  const size_t *at = hg_table_get(&m->index, word, len);
  *n = at ? m->lists.items[*at].len : 0;
  return at ? (const char *const *)m->lists.items[*at].items : NULL;
}

static void multimap_free(multimap *m) {
  for (size_t i = 0; i < m->lists.len; i++)
    free(m->lists.items[i].items);
  free(m->lists.items);
  hg_table_free(&m->index);
}

// The end of the word starting at s[a] (a word character), within n.
static size_t word_end(const char *s, size_t a, size_t n) {
  while (a < n && word_char(s[a]))
    a++;
  return a;
}

// Every word followed (after blanks) by `(`: a call, a definition, or text that looks like one.
// Found from each `(` backwards: most bytes of a file are no `(`, and memchr passes them quickly.
static void read_calls(hg_mentions *self, const char *s, size_t n, const char *path) {
  for (const char *p = s, *end = s + n; p < end && (p = memchr(p, '(', (size_t)(end - p))); p++) {
    const char *b = p;
    while (b > s && (b[-1] == ' ' || b[-1] == '\t'))
      b--;
    const char *e = b;
    while (b > s && word_char(b[-1]))
      b--;
    if (b < e && !(*b >= '0' && *b <= '9'))
      file_under(self, &self->calls, b, (size_t)(e - b), path, SIZE_MAX);
  }
}

// The lines that start (after blanks) with `import`, `from` or `class`: the words a file imports
// (modules and names alike: a filter, not a reading; a parenthesised list goes on to its `)`), and
// each `class Name(Base, mod.Other):` under the words of its bases.
static void read_lines(hg_mentions *self, const char *s, size_t n, const char *path) {
  hg_buf key = {0};
  for (size_t i = 0; i < n;) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t end = nl ? (size_t)(nl - s) : n;
    size_t k = i;
    while (k < end && (s[k] == ' ' || s[k] == '\t'))
      k++;
    bool import = (end - k > 7 && !memcmp(s + k, "import ", 7)) || (end - k > 5 && !memcmp(s + k, "from ", 5));
    bool cls = end - k > 6 && !memcmp(s + k, "class ", 6);
    if (import && memchr(s + k, '(', end - k) && !memchr(s + k, ')', end - k)) {
      const char *close = memchr(s + end, ')', n - end);
      end = close ? (size_t)(close - s) : n;
    }
    const char *name = NULL;
    if (cls) {
      k += 6;
      while (k < end && s[k] == ' ')
        k++;
      size_t a = k;
      k = word_end(s, k, end);
      name = k > a ? hg_arena_strndup(self->arena, s + a, k - a) : NULL;
      while (k < end && s[k] == ' ')
        k++;
      if (!name || k >= end || s[k] != '(')
        name = NULL;
    }
    while ((import || name) && k < end && !(name && s[k] == ')')) {
      if (!word_char(s[k])) {
        k++;
        continue;
      }
      size_t a = k;
      k = word_end(s, k, end);
      if (name) {
        file_under(self, &self->bases, s + a, k - a, name, MAX_SUBCLASSES);
        continue;
      }
      key.len = 0;  // "word\x1fpath", put together by hand: a printf per word was 2 % of a run
      hg_buf_add(&key, s + a, k - a);
      hg_buf_putc(&key, '\x1f');
      hg_buf_puts(&key, path);
      if (!hg_table_get(&self->imports, key.data, key.len)) {
        hg_table_put(&self->imports, hg_arena_strndup(self->arena, key.data, key.len), key.len, NULL);
        file_under(self, &self->importers, s + a, k - a, path, SIZE_MAX);
      }
    }
    i = end + 1;
  }
  hg_buf_free(&key);
}

static bool skipped(const char *name) {
  return (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) || hg_path_skipped_dir(name);
}

// A file's bytes, read into the walk's buffer (*buf, *cap: reused from file to file) from `fd`, at
// most `size` of them (what fstat said: a file that grows meanwhile is read as it was, one that
// shrinks as far as it goes). False on a read error.
static bool read_fd(int fd, size_t size, char **buf, size_t *cap, size_t *len) {
  if (size + 1 > *cap) {
    free(*buf);
    *cap = size + 1 > 64 * 1024 ? size + 1 : 64 * 1024;
    *buf = hg_xmalloc(*cap);
  }
  *len = 0;
  while (*len < size) {
    ssize_t n = read(fd, *buf + *len, size - *len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return false;
    if (n == 0)
      break;
    *len += (size_t)n;
  }
  (*buf)[*len] = '\0';
  return true;
}

static void walk(hg_mentions *self, const char *dir, int depth, char **buf, size_t *cap) {
  if (self->why || depth > MAX_DEPTH)
    return;
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  text_vec subdirs = {0};
  while (!self->why && (e = readdir(d))) {
    if (skipped(e->d_name))
      continue;
    size_t n = strlen(e->d_name);
    bool py = n >= 4 && !strcmp(e->d_name + n - 3, ".py");
    // What the directory says an entry is spares a stat: a link, or a file that is no module, is passed
    // by its name alone; a directory is walked. An entry it does not type is stat'ed (not followed).
    if (e->d_type != DT_UNKNOWN && e->d_type != DT_DIR && (e->d_type != DT_REG || !py))
      continue;
    struct stat st;
    if (e->d_type == DT_UNKNOWN && (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
                                    (!S_ISDIR(st.st_mode) && (!S_ISREG(st.st_mode) || !py))))
      continue;
    char *path = strcmp(dir, ".") ? hg_xasprintf("%s/%s", dir, e->d_name) : hg_xstrdup(e->d_name);
    if (e->d_type == DT_DIR || (e->d_type == DT_UNKNOWN && S_ISDIR(st.st_mode))) {
      HG_VEC_PUSH(&subdirs, path);
      continue;
    }
    // A .py file: opened by its name in the open directory, a link not followed (ELOOP), its size
    // read from the descriptor before its bytes are: one path lookup and one stat a file.
    int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_FILE_BYTES) {
      if (fd >= 0)
        close(fd);
      free(path);
      continue;
    }
    if (self->files >= HG_MENTIONS_MAX_FILES || self->bytes + (size_t)st.st_size > HG_MENTIONS_MAX_BYTES) {
      self->why = "the project's Python files are past hardguard's budget for finding calls";
      close(fd);
      free(path);
      break;
    }
    size_t len;
    if (read_fd(fd, (size_t)st.st_size, buf, cap, &len)) {
      const char *kept = hg_arena_strndup(self->arena, path, strlen(path));
      self->files++;
      self->bytes += len;
      read_calls(self, *buf, len, kept);
      read_lines(self, *buf, len, kept);
    }
    close(fd);
    free(path);
  }
  closedir(d);
  for (size_t i = 0; i < subdirs.len; i++) {
    walk(self, subdirs.items[i], depth + 1, buf, cap);
    free((char *)subdirs.items[i]);
  }
  free(subdirs.items);
}

hg_mentions *hg_mentions_build(const char *root) {
  hg_mentions *self = hg_xcalloc(1, sizeof(hg_mentions));
  self->arena = hg_arena_new();
  hg_table_init(&self->calls.index, NULL, 0);
  hg_table_init(&self->bases.index, NULL, 0);
  hg_table_init(&self->imports, NULL, 0);
  hg_table_init(&self->importers.index, NULL, 0);
  char *buf = NULL;
  size_t cap = 0;
  walk(self, root && *root ? root : ".", 0, &buf, &cap);
  free(buf);
  return self;
}

void hg_mentions_free(hg_mentions *self) {
  if (!self)
    return;
  multimap_free(&self->calls);
  multimap_free(&self->bases);
  hg_table_free(&self->imports);
  multimap_free(&self->importers);
  hg_arena_free(self->arena);
  free(self);
}

const char *const *hg_mentions_files(const hg_mentions *self, const char *name, size_t len, size_t *n,
                                     const char **why) {
  *n = 0;
  if (self->why) {
    *why = self->why;
    return NULL;
  }
  static const char *const none[1] = {NULL};
  const char *const *files = filed(&self->calls, name, len, n);
  return files ? files : none; // an empty answer: *n is 0
}

const char *const *hg_mentions_importers(const hg_mentions *self, const char *word, size_t len, size_t *n) {
  *n = 0;
  return self->why ? NULL : filed(&self->importers, word, len, n);
}

bool hg_mentions_imports(const hg_mentions *self, const char *path, const char *word, size_t len) {
  hg_buf key = {0};
  hg_buf_printf(&key, "%.*s\x1f%s", (int)len, word, path);
  bool found = hg_table_get(&self->imports, key.data, key.len) != NULL;
  hg_buf_free(&key);
  return found;
}

const char *const *hg_mentions_subclasses(const hg_mentions *self, const char *base, size_t len, size_t *n) {
  *n = 0;
  return self->why ? NULL : filed(&self->bases, base, len, n);
}
