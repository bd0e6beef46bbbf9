#include "surfaces/python/project/mentions.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/table.h"
#include "base/util.h"

// The directories the walk of a run skips (src/app/walk.c), and the build trees of Python packages.
static const char *const SKIP_DIRS[] = {".git", "__pycache__", ".venv", "venv", "node_modules", ".hg", ".svn",
                                        ".tox", ".nox", "site-packages"};

#define MAX_FILE_BYTES ((size_t)1 << 20)
#define MAX_DEPTH 32

typedef HG_VEC(const char *) path_vec;
typedef HG_VEC(size_t) index_vec;

struct hg_mentions {
  hg_arena *arena;
  const char *why; // non-NULL: not built, and why
  path_vec files;
  hg_table by_name;            // name -> index into lists
  HG_VEC(index_vec) lists;     // per name, the files calling it (indexes into files, ascending)
  HG_VEC(path_vec) answers;    // per name, the paths (made on first question)
  hg_table by_path;            // path -> index into files
  HG_VEC(hg_table) imported;   // per file, the words of its import statements
  hg_table by_base;            // a word of a class's bases -> index into subclasses
  HG_VEC(path_vec) subclasses; // ... the names of the classes written with it among their bases
  size_t bytes;
};

static bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Every word followed (after blanks) by `(`: a call, a definition, or text that looks like one.
static void read_words(hg_mentions *self, const char *s, size_t n, size_t file) {
  size_t i = 0;
  while (i < n) {
    if (!word_char(s[i]) || (s[i] >= '0' && s[i] <= '9')) {
      i++;
      continue;
    }
    size_t a = i;
    while (i < n && word_char(s[i]))
      i++;
    size_t b = i, k = i;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
      k++;
    if (k >= n || s[k] != '(')
      continue;
    size_t *slot = hg_table_get(&self->by_name, s + a, b - a);
    if (!slot) {
      // The table keeps the key's bytes: a copy in the arena, not the file's, which is freed.
      slot = hg_table_put(&self->by_name, hg_arena_strndup(self->arena, s + a, b - a), b - a, NULL);
      *slot = self->lists.len;
      HG_VEC_PUSH(&self->lists, (index_vec){0});
    }
    index_vec *l = &self->lists.items[*slot];
    if (!l->len || l->items[l->len - 1] != file)
      HG_VEC_PUSH(l, file);
  }
}

// The words of every line that starts (after blanks) with `import` or `from`: the modules and names
// a file imports, without telling which is which (a filter, not a reading).
static void read_imports(hg_mentions *self, const char *s, size_t n, hg_table *words) {
  hg_table_init(words, self->arena, 0);
  size_t i = 0;
  while (i < n) {
    size_t end = i;
    while (end < n && s[end] != '\n')
      end++;
    size_t k = i;
    while (k < end && (s[k] == ' ' || s[k] == '\t'))
      k++;
    bool import = (end - k > 7 && !memcmp(s + k, "import ", 7)) || (end - k > 5 && !memcmp(s + k, "from ", 5));
    // A parenthesised list of names goes on to the closing parenthesis.
    if (import && memchr(s + k, '(', end - k) && !memchr(s + k, ')', end - k)) {
      const char *close = memchr(s + end, ')', n - end);
      end = close ? (size_t)(close - s) : n;
    }
    while (import && k < end) {
      if (!word_char(s[k])) {
        k++;
        continue;
      }
      size_t a = k;
      while (k < end && word_char(s[k]))
        k++;
      if (!hg_table_get(words, s + a, k - a))
        hg_table_put(words, hg_arena_strndup(self->arena, s + a, k - a), k - a, NULL);
    }
    i = end + 1;
  }
}

// `class Name(Base, mod.Other):` lines: Name under each word of the bases.
static void read_classes(hg_mentions *self, const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t end = i;
    while (end < n && s[end] != '\n')
      end++;
    size_t k = i;
    while (k < end && (s[k] == ' ' || s[k] == '\t'))
      k++;
    if (end - k > 6 && !memcmp(s + k, "class ", 6)) {
      k += 6;
      while (k < end && s[k] == ' ')
        k++;
      size_t a = k;
      while (k < end && word_char(s[k]))
        k++;
      const char *name = k > a ? hg_arena_strndup(self->arena, s + a, k - a) : NULL;
      while (name && k < end && s[k] == ' ')
        k++;
      if (name && k < end && s[k] == '(') {
        while (k < end && s[k] != ')') {
          if (!word_char(s[k])) {
            k++;
            continue;
          }
          size_t b = k;
          while (k < end && word_char(s[k]))
            k++;
          size_t *slot = hg_table_get(&self->by_base, s + b, k - b);
          if (!slot) {
            slot = hg_table_put(&self->by_base, hg_arena_strndup(self->arena, s + b, k - b), k - b, NULL);
            *slot = self->subclasses.len;
            HG_VEC_PUSH(&self->subclasses, (path_vec){0});
          }
          path_vec *l = &self->subclasses.items[*slot];
          if (l->len < 64)
            HG_VEC_PUSH(l, name);
        }
      }
    }
    i = end + 1;
  }
}

static bool skipped(const char *name) {
  if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
    return true;
  for (size_t i = 0; i < sizeof SKIP_DIRS / sizeof *SKIP_DIRS; i++)
    if (!strcmp(name, SKIP_DIRS[i]))
      return true;
  return false;
}

static void walk(hg_mentions *self, const char *dir, int depth) {
  if (self->why || depth > MAX_DEPTH)
    return;
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  path_vec subdirs = {0};
  while (!self->why && (e = readdir(d))) {
    if (skipped(e->d_name))
      continue;
    char *path = strcmp(dir, ".") ? hg_xasprintf("%s/%s", dir, e->d_name) : hg_xstrdup(e->d_name);
    struct stat st;
    if (lstat(path, &st) != 0 || S_ISLNK(st.st_mode)) {
      free(path);
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      HG_VEC_PUSH(&subdirs, path);
      continue;
    }
    size_t n = strlen(e->d_name);
    if (!S_ISREG(st.st_mode) || n < 4 || strcmp(e->d_name + n - 3, ".py") || (size_t)st.st_size > MAX_FILE_BYTES) {
      free(path);
      continue;
    }
    if (self->files.len >= HG_MENTIONS_MAX_FILES || self->bytes + (size_t)st.st_size > HG_MENTIONS_MAX_BYTES) {
      self->why = "the project's Python files are past hardguard's budget for finding calls";
      free(path);
      break;
    }
    char *src;
    size_t len;
    hg_error err;
    if (hg_read_file(&src, &len, path, &err) == 0) {
      size_t file = self->files.len;
      const char *kept = hg_arena_strndup(self->arena, path, strlen(path));
      HG_VEC_PUSH(&self->files, kept);
      *hg_table_put(&self->by_path, kept, strlen(kept), NULL) = file;
      self->bytes += len;
      read_words(self, src, len, file);
      read_classes(self, src, len);
      HG_VEC_PUSH(&self->imported, (hg_table){0});
      read_imports(self, src, len, &self->imported.items[file]);
      free(src);
    }
    free(path);
  }
  closedir(d);
  for (size_t i = 0; i < subdirs.len; i++) {
    walk(self, subdirs.items[i], depth + 1);
    free((char *)subdirs.items[i]);
  }
  free(subdirs.items);
}

hg_mentions *hg_mentions_build(const char *root) {
  hg_mentions *self = hg_xcalloc(1, sizeof(hg_mentions));
  self->arena = hg_arena_new();
  hg_table_init(&self->by_name, NULL, 0);
  hg_table_init(&self->by_path, NULL, 0);
  hg_table_init(&self->by_base, NULL, 0);
  walk(self, root && *root ? root : ".", 0);
  for (size_t i = 0; !self->why && i < self->lists.len; i++) {
    path_vec paths = {0};
    for (size_t k = 0; k < self->lists.items[i].len; k++)
      HG_VEC_PUSH(&paths, self->files.items[self->lists.items[i].items[k]]);
    HG_VEC_PUSH(&self->answers, paths);
  }
  return self;
}

void hg_mentions_free(hg_mentions *self) {
  if (!self)
    return;
  for (size_t i = 0; i < self->lists.len; i++)
    free(self->lists.items[i].items);
  free(self->lists.items);
  for (size_t i = 0; i < self->answers.len; i++)
    free(self->answers.items[i].items);
  free(self->answers.items);
  free(self->files.items);
  free(self->imported.items); // their arrays are in the arena
  hg_table_free(&self->by_name);
  hg_table_free(&self->by_path);
  hg_table_free(&self->by_base);
  for (size_t i = 0; i < self->subclasses.len; i++)
    free(self->subclasses.items[i].items);
  free(self->subclasses.items);
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
  const size_t *at = hg_table_get(&self->by_name, name, len);
  if (!at)
    return (const char *const *)self->files.items; // an empty answer: *n is 0
  const index_vec *l = &self->lists.items[*at];
  *n = l->len;
  return (const char *const *)self->answers.items[*at].items;
}

bool hg_mentions_imports(const hg_mentions *self, const char *path, const char *word, size_t len) {
  const size_t *file = hg_table_get(&self->by_path, path, strlen(path));
  return file && hg_table_get(&self->imported.items[*file], word, len) != NULL;
}

const char *const *hg_mentions_subclasses(const hg_mentions *self, const char *base, size_t len, size_t *n) {
  *n = 0;
  const size_t *at = self->why ? NULL : hg_table_get(&self->by_base, base, len);
  if (!at)
    return NULL;
  *n = self->subclasses.items[*at].len;
  return (const char *const *)self->subclasses.items[*at].items;
}
