#include "surfaces/python/project/mentions.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/path.h"
#include "base/source.h"
#include "base/table.h"
#include "base/util.h"

#define MAX_FILE_BYTES ((size_t)1 << 20)
#define MAX_DEPTH 32
#define MAX_SUBCLASSES 64
// The walk lists at most this many .py files (some are not taken: past 1 MiB, not regular, not
// readable), so that a tree past the budget is not listed to its end before the table says so.
#define MAX_LISTED (4 * (size_t)HG_MENTIONS_MAX_FILES)
static const char PAST_BUDGET[] = "the project's Python files are past hardguard's budget for finding calls";

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

// What reading a file found, in the order the table takes it in (one reading, whichever thread
// does it; the table is made from the readings in walk order): a word written as a call ('c'), the
// name of a class whose bases follow ('k'), a word of those bases ('b'), a word of an import
// statement ('i'). Each is its kind, its length (4 bytes) and its bytes.
static void note(hg_buf *ev, char kind, const char *s, size_t n) {
  uint32_t len = (uint32_t)n;
  hg_buf_putc(ev, kind);
  hg_buf_add(ev, (const char *)&len, sizeof len);
  hg_buf_add(ev, s, n);
}

// Every word followed (after blanks) by `(`: a call, a definition, or text that looks like one.
// Found from each `(` backwards: most bytes of a file are no `(`, and memchr passes them quickly.
static void read_calls(hg_buf *ev, const char *s, size_t n) {
  for (const char *p = s, *end = s + n; p < end && (p = memchr(p, '(', (size_t)(end - p))); p++) {
    const char *b = p;
    while (b > s && (b[-1] == ' ' || b[-1] == '\t'))
      b--;
    const char *e = b;
    while (b > s && word_char(b[-1]))
      b--;
    if (b < e && !(*b >= '0' && *b <= '9'))
      note(ev, 'c', b, (size_t)(e - b));
  }
}

// The lines that start (after blanks) with `import`, `from` or `class`: the words a file imports
// (modules and names alike: a filter, not a reading; a parenthesised list goes on to its `)`), and
// each `class Name(Base, mod.Other):` with the words of its bases.
static void read_lines(hg_buf *ev, const char *s, size_t n) {
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
    bool bases = false;
    if (cls) {
      k += 6;
      while (k < end && s[k] == ' ')
        k++;
      size_t a = k;
      k = word_end(s, k, end);
      size_t name_end = k;
      while (k < end && s[k] == ' ')
        k++;
      bases = name_end > a && k < end && s[k] == '(';
      if (bases)
        note(ev, 'k', s + a, name_end - a);
    }
    while ((import || bases) && k < end && !(bases && s[k] == ')')) {
      if (!word_char(s[k])) {
        k++;
        continue;
      }
      size_t a = k;
      k = word_end(s, k, end);
      note(ev, bases ? 'b' : 'i', s + a, k - a);
    }
    i = end + 1;
  }
}

// Takes one file's reading into the table: each word under the file `path` (or, for bases, the
// class), each once.
static void take(hg_mentions *self, const hg_buf *ev, const char *path) {
  hg_buf key = {0};
  const char *cls = NULL;
  for (size_t at = 0; at < ev->len;) {
    char kind = ev->data[at];
    uint32_t n;
    memcpy(&n, ev->data + at + 1, sizeof n);
    const char *w = ev->data + at + 1 + sizeof n;
    at += 1 + sizeof n + n;
    if (kind == 'c') {
      file_under(self, &self->calls, w, n, path, SIZE_MAX);
    } else if (kind == 'k') {
      cls = hg_arena_strndup(self->arena, w, n);
    } else if (kind == 'b') {
      file_under(self, &self->bases, w, n, cls, MAX_SUBCLASSES);
    } else {
      key.len = 0;  // "word\x1fpath", put together by hand: a printf per word was 2 % of a run
      hg_buf_add(&key, w, n);
      hg_buf_putc(&key, '\x1f');
      hg_buf_puts(&key, path);
      if (!hg_table_get(&self->imports, key.data, key.len)) {
        hg_table_put(&self->imports, hg_arena_strndup(self->arena, key.data, key.len), key.len, NULL);
        file_under(self, &self->importers, w, n, path, SIZE_MAX);
      }
    }
  }
  hg_buf_free(&key);
}

static bool skipped(const char *name) {
  return (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) || hg_path_skipped_dir(name);
}

// One file of the walk: its path and, once read, its reading.
typedef struct {
  char *path;
  hg_buf ev;
  size_t len;          // bytes read
  bool read;           // a regular file of at most MAX_FILE_BYTES, read whole
  atomic_bool done;    // its reading is there (or there is none to have)
} walked;

struct hg_mentions_job {
  hg_mentions *m;
  HG_VEC(walked) files;  // in walk order
  atomic_size_t next;    // the next file to read
  atomic_bool stop;      // past the budget: read no more
  pthread_mutex_t merge; // held while readings are taken into the table, in walk order
  size_t taken;          // readings taken so far
};

// Lists the .py files under `dir` as the walk reads them: a directory's files in readdir's order,
// then its subdirectories'. A link is not followed; what the directory does not type is stat'ed.
static void list(hg_mentions_job *job, const char *dir, int depth) {
  if (job->m->why || depth > MAX_DEPTH)
    return;
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  HG_VEC(char *) subdirs = {0};
  while (!job->m->why && (e = readdir(d))) {
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
    } else if (job->files.len >= MAX_LISTED) {
      job->m->why = PAST_BUDGET;
      free(path);
    } else {
      HG_VEC_PUSH(&job->files, ((walked){.path = path}));
    }
  }
  closedir(d);
  for (size_t i = 0; i < subdirs.len; i++) {
    list(job, subdirs.items[i], depth + 1);
    free(subdirs.items[i]);
  }
  free(subdirs.items);
}

// Reads file i of the job with the thread's reader (base/source.h, the scan's own: one buffer
// reused from file to file, the size taken from the descriptor before the bytes are read, anything
// but a regular file refused, a UTF-8 byte-order mark dropped as the scan drops it); a file past
// 1 MiB is not read.
static void read_one(hg_mentions_job *job, size_t i, hg_reader *reader) {
  walked *f = &job->files.items[i];
  hg_source src;
  hg_error err;
  if (hg_reader_read_below(reader, &src, f->path, MAX_FILE_BYTES + 1, &err) != 0)
    return;
  f->read = true;
  f->len = src.len;
  read_calls(&f->ev, src.data, src.len);
  read_lines(&f->ev, src.data, src.len);
}

// Takes the readings that are there, in walk order, up to the first that is not: by one thread at
// a time (another that finds the lock held leaves them to it, or to hg_mentions_end).
static void take_ready(hg_mentions_job *job, bool wait) {
  if (wait)
    pthread_mutex_lock(&job->merge);
  else if (pthread_mutex_trylock(&job->merge) != 0)
    return;
  hg_mentions *m = job->m;
  for (; job->taken < job->files.len &&
         atomic_load_explicit(&job->files.items[job->taken].done, memory_order_acquire);
       job->taken++) {
    walked *f = &job->files.items[job->taken];
    if (f->read && !m->why) {
      if (m->files >= HG_MENTIONS_MAX_FILES || m->bytes + f->len > HG_MENTIONS_MAX_BYTES) {
        m->why = PAST_BUDGET;
        atomic_store(&job->stop, true);
      } else {
        const char *kept = hg_arena_strndup(m->arena, f->path, strlen(f->path));
        m->files++;
        m->bytes += f->len;
        take(m, &f->ev, kept);
      }
    }
    hg_buf_free(&f->ev);
  }
  pthread_mutex_unlock(&job->merge);
}

hg_mentions_job *hg_mentions_begin(const char *root) {
  hg_mentions_job *job = hg_xcalloc(1, sizeof(hg_mentions_job));
  hg_mentions *self = job->m = hg_xcalloc(1, sizeof(hg_mentions));
  self->arena = hg_arena_new();
  hg_table_init(&self->calls.index, NULL, 0);
  hg_table_init(&self->bases.index, NULL, 0);
  hg_table_init(&self->imports, NULL, 0);
  hg_table_init(&self->importers.index, NULL, 0);
  pthread_mutex_init(&job->merge, NULL);
  list(job, root && *root ? root : ".", 0);
  if (self->why)
    atomic_store(&job->stop, true);
  return job;
}

void hg_mentions_read(hg_mentions_job *job) {
  hg_reader *reader = hg_reader_new();
  for (size_t i; (i = atomic_fetch_add(&job->next, 1)) < job->files.len;) {
    if (!atomic_load(&job->stop))
      read_one(job, i, reader);
    atomic_store_explicit(&job->files.items[i].done, true, memory_order_release);
    take_ready(job, false);
  }
  hg_reader_free(reader);
}

hg_mentions *hg_mentions_end(hg_mentions_job *job) {
  take_ready(job, true);  // every reader has returned: every reading is there, and taken (freed)
  hg_mentions *m = job->m;
  for (size_t i = 0; i < job->files.len; i++)
    free(job->files.items[i].path);
  free(job->files.items);
  pthread_mutex_destroy(&job->merge);
  free(job);
  return m;
}

hg_mentions *hg_mentions_build(const char *root) {
  hg_mentions_job *job = hg_mentions_begin(root);
  hg_mentions_read(job);
  return hg_mentions_end(job);
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
