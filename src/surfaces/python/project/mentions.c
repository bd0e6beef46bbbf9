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

// The texts (paths, class names) filed under one word, each once. Most words of a project are
// written by one file only (on corpus A, some 60,000 of 86,000): its text is kept in the list,
// and an array is made for a second one, grown from two.
typedef struct {
  union {
    const char **items; // cap > 0
    const char *one;    // cap == 0 and len == 1
  };
  size_t len, cap;
} text_list;

// A word and the texts filed under it.
typedef struct {
  hg_table index;        // word -> index into lists
  HG_VEC(text_list) lists;
} multimap;

struct hg_mentions {
  hg_arena *arena;    // words, class names
  char *paths;        // the listed paths, in walk order: a list of files is in the order of their addresses
  const char *why;    // non-NULL: not built, and why
  size_t files, bytes;
  hg_table taken;     // the path of each file taken -> its place in `paths`
  multimap calls;     // a word written as a call -> the files writing it so
  multimap bases;     // a word of a class's bases -> the classes written with it
  multimap importers; // a word of an import statement -> the files writing it so
};

static bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static const char *const *texts_of(const text_list *l) { return l->cap ? l->items : &l->one; }

// Files `text` under the word s[0..n) (hash h; the table keeps a copy of the word: the file's bytes
// are freed), unless it is already the last text there or the word holds `max` texts.
static void file_under(hg_mentions *self, multimap *m, const char *s, size_t n, uint64_t h, const char *text,
                       size_t max) {
  size_t *slot = hg_table_get_hashed(&m->index, s, n, h);
  if (!slot) {
    slot = hg_table_put_hashed(&m->index, hg_arena_strndup(self->arena, s, n), n, h, NULL);
    *slot = m->lists.len;
    HG_VEC_PUSH(&m->lists, (text_list){0});
  }
  text_list *l = &m->lists.items[*slot];
  if ((l->len && texts_of(l)[l->len - 1] == text) || l->len >= max)
    return;
  if (!l->len) {
    l->one = text;
  } else if (!l->cap) {  // a second text: the first moves into an array
    const char *first = l->one;
    l->items = hg_xmalloc(2 * sizeof(const char *));
    l->items[0] = first;
    l->items[1] = text;
    l->cap = 2;
  } else {
    if (l->len == l->cap) {
      l->cap *= 2;
      l->items = hg_xrealloc(l->items, l->cap * sizeof(const char *));
    }
    l->items[l->len] = text;
  }
  l->len++;
}

static const char *const *filed(const multimap *m, const char *word, size_t len, size_t *n) {
  const size_t *at = hg_table_get(&m->index, word, len);
  *n = at ? m->lists.items[*at].len : 0;
  return at ? texts_of(&m->lists.items[*at]) : NULL;
}

static void multimap_free(multimap *m) {
  for (size_t i = 0; i < m->lists.len; i++)
    if (m->lists.items[i].cap)
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

// A word of a file where the reading found it, with its hash.
typedef struct {
  uint64_t hash;
  uint32_t at, len;
} word_at;
typedef HG_VEC(word_at) words_at;

// What reading a file found, in the order the table takes it in (one reading, whichever thread
// does it; the table is made from the readings in walk order): in the file's order, the name of
// each class whose bases follow ('k') and the words of those bases ('b'); then each word written as
// a call ('c') and each word of an import statement ('i'), once each. Each is its kind, its hash
// and its length (4 bytes each) and its bytes. The hashes are worked out by the reading's thread,
// not by the one taking the reading into the table, which the threads do in turn.
typedef struct {
  hg_buf ev;
  words_at calls, imports;  // found, noted each once when the file is read whole
} reading;

static void note(hg_buf *ev, char kind, const char *s, size_t n, uint64_t hash) {
  uint32_t head[2] = {(uint32_t)hash, (uint32_t)n};
  hg_buf_putc(ev, kind);
  hg_buf_add(ev, (const char *)head, sizeof head);
  hg_buf_add(ev, s, n);
}

static void found(words_at *w, const char *s, size_t a, size_t b) {
  HG_VEC_PUSH(w, ((word_at){.hash = hg_table_hash(s + a, b - a), .at = (uint32_t)a, .len = (uint32_t)(b - a)}));
}

// Notes each word of `w` once, in the order the file first writes it: a file writes `self.x(` many
// times, and the table takes it once.
static void note_each_once(hg_buf *ev, char kind, words_at *w, const char *s) {
  if (!w->len)
    return;  // no word of that kind (a file without imports): no table to make
  hg_table seen;
  hg_table_init(&seen, NULL, w->len);
  for (size_t i = 0; i < w->len; i++) {
    bool added;
    hg_table_put_hashed(&seen, s + w->items[i].at, w->items[i].len, w->items[i].hash, &added);
    if (added)
      note(ev, kind, s + w->items[i].at, w->items[i].len, w->items[i].hash);
  }
  hg_table_free(&seen);
  w->len = 0;
}

// Every word followed (after blanks) by `(`: a call, a definition, or text that looks like one.
// Found from each `(` backwards: most bytes of a file are no `(`, and memchr passes them quickly.
static void read_calls(reading *r, const char *s, size_t n) {
  for (const char *p = s, *end = s + n; p < end && (p = memchr(p, '(', (size_t)(end - p))); p++) {
    const char *b = p;
    while (b > s && (b[-1] == ' ' || b[-1] == '\t'))
      b--;
    const char *e = b;
    while (b > s && word_char(b[-1]))
      b--;
    if (b < e && !(*b >= '0' && *b <= '9'))
      found(&r->calls, s, (size_t)(b - s), (size_t)(e - s));
  }
}

// The lines that start (after blanks) with `import`, `from` or `class`: the words a file imports
// (modules and names alike: a filter, not a reading; a parenthesised list goes on to its `)`), and
// each `class Name(Base, mod.Other):` with the words of its bases.
static void read_lines(reading *r, const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t end = nl ? (size_t)(nl - s) : n;
    size_t k = i;
    // Its indentation: eight bytes at a time while they are spaces (most of a file's lines are
    // indented, and few start with one of the three words).
    for (uint64_t w; k + 8 <= end && (memcpy(&w, s + k, 8), w == UINT64_C(0x2020202020202020));)
      k += 8;
    while (k < end && (s[k] == ' ' || s[k] == '\t'))
      k++;
    char c = k < end ? s[k] : '\0';
    bool import = (c == 'i' && end - k > 7 && !memcmp(s + k, "import ", 7)) ||
                  (c == 'f' && end - k > 5 && !memcmp(s + k, "from ", 5));
    bool cls = c == 'c' && end - k > 6 && !memcmp(s + k, "class ", 6);
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
        note(&r->ev, 'k', s + a, name_end - a, 0);
    }
    while ((import || bases) && k < end && !(bases && s[k] == ')')) {
      if (!word_char(s[k])) {
        k++;
        continue;
      }
      size_t a = k;
      k = word_end(s, k, end);
      if (bases)
        note(&r->ev, 'b', s + a, k - a, hg_table_hash(s + a, k - a));
      else
        found(&r->imports, s, a, k);
    }
    i = end + 1;
  }
}

// Takes one file's reading into the table: each word under the file `path` (or, for bases, the
// class).
static void take(hg_mentions *self, const hg_buf *ev, const char *path) {
  const char *cls = NULL;
  for (size_t at = 0; at < ev->len;) {
    char kind = ev->data[at];
    uint32_t head[2];
    memcpy(head, ev->data + at + 1, sizeof head);
    const char *w = ev->data + at + 1 + sizeof head;
    at += 1 + sizeof head + head[1];
    if (kind == 'c')
      file_under(self, &self->calls, w, head[1], head[0], path, SIZE_MAX);
    else if (kind == 'i')
      file_under(self, &self->importers, w, head[1], head[0], path, SIZE_MAX);
    else if (kind == 'k')
      cls = hg_arena_strndup(self->arena, w, head[1]);
    else
      file_under(self, &self->bases, w, head[1], head[0], cls, MAX_SUBCLASSES);
  }
}

static bool skipped(const char *name) {
  return (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) || hg_path_skipped_dir(name);
}

// One file of the walk: its path and, once read, its reading.
typedef struct {
  char *path;          // in the table's `paths` once the walk is over
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
static void read_one(hg_mentions_job *job, size_t i, hg_reader *reader, reading *r) {
  walked *f = &job->files.items[i];
  hg_source src;
  hg_error err;
  if (hg_reader_read_below(reader, &src, f->path, MAX_FILE_BYTES + 1, &err) != 0)
    return;
  f->read = true;
  f->len = src.len;
  read_calls(r, src.data, src.len);
  read_lines(r, src.data, src.len);
  note_each_once(&r->ev, 'c', &r->calls, src.data);
  note_each_once(&r->ev, 'i', &r->imports, src.data);
  f->ev = r->ev;
  r->ev = (hg_buf){0};
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
        m->files++;
        m->bytes += f->len;
        *hg_table_put(&m->taken, f->path, strlen(f->path), NULL) = (uintptr_t)f->path;
        take(m, &f->ev, f->path);
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
  hg_table_init(&self->taken, NULL, 0);
  hg_table_init(&self->calls.index, NULL, 0);
  hg_table_init(&self->bases.index, NULL, 0);
  hg_table_init(&self->importers.index, NULL, 0);
  pthread_mutex_init(&job->merge, NULL);
  list(job, root && *root ? root : ".", 0);
  // The paths, moved into one block in walk order: the table's lists of files are then in the
  // order of their addresses, and hg_mentions_imports finds a file in one by halves.
  size_t total = 0;
  for (size_t i = 0; i < job->files.len; i++)
    total += strlen(job->files.items[i].path) + 1;
  char *at = self->paths = hg_xmalloc(total ? total : 1);
  for (size_t i = 0; i < job->files.len; i++) {
    walked *f = &job->files.items[i];
    size_t n = strlen(f->path) + 1;
    memcpy(at, f->path, n);
    free(f->path);
    f->path = at;
    at += n;
  }
  if (self->why)
    atomic_store(&job->stop, true);
  return job;
}

void hg_mentions_read(hg_mentions_job *job) {
  hg_reader *reader = hg_reader_new();
  reading r = {0};
  for (size_t i; (i = atomic_fetch_add(&job->next, 1)) < job->files.len;) {
    if (!atomic_load(&job->stop))
      read_one(job, i, reader, &r);
    atomic_store_explicit(&job->files.items[i].done, true, memory_order_release);
    take_ready(job, false);
  }
  free(r.calls.items);
  free(r.imports.items);
  hg_reader_free(reader);
}

hg_mentions *hg_mentions_end(hg_mentions_job *job) {
  take_ready(job, true);  // every reader has returned: every reading is there, and taken (freed)
  hg_mentions *m = job->m;
  free(job->files.items);  // their paths are the table's
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
  multimap_free(&self->importers);
  hg_table_free(&self->taken);
  hg_arena_free(self->arena);
  free(self->paths);
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
  const size_t *at = hg_table_get(&self->taken, path, strlen(path));
  size_t n;
  const char *const *files = at ? filed(&self->importers, word, len, &n) : NULL;
  // The importers are in walk order, which is the order of their paths' addresses.
  for (size_t lo = 0, hi = files ? n : 0; lo < hi;) {
    size_t mid = lo + (hi - lo) / 2;
    if ((uintptr_t)files[mid] == *at)
      return true;
    if ((uintptr_t)files[mid] < *at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

const char *const *hg_mentions_subclasses(const hg_mentions *self, const char *base, size_t len, size_t *n) {
  *n = 0;
  return self->why ? NULL : filed(&self->bases, base, len, n);
}
