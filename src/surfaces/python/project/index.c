#include "surfaces/python/project/index.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/path.h"
#include "base/table.h"
#include "rules/ruleset.h"
#include "surfaces/python/facts.h"
#include "surfaces/parse.h"
#include "surfaces/python/project/calls.h"
#include "surfaces/python/project/mentions.h"
#include "surfaces/registry.h"
#include "surfaces/python/row.h"
#include "surfaces/node.h"

// A module bigger than this is generated code, not where a builder or a constant of flags lives;
// it is not read (whatever a site takes from it stays unverifiable).
#define MAX_MODULE_BYTES ((size_t)1 << 20)

typedef struct entry {
  char *path;        // a candidate file
  hg_calls *calls;   // its module's calls by name (in the arena; made on the first question)
  hg_module *module; // NULL: not a file, or not readable as Python
  hg_arena *arena;   // the module's tree-independent data (imports, names)
  char *src;
  TSTree *tree;
} entry;

enum { MAX_ROOTS = 4 };

struct hg_index {
  const hg_ruleset *rules;  // their import facts read a module's imports (NULL: none are read)
  const hg_config *config;
  const hg_policy *policy;      // the rules' policy (NULL without rules)
  char *start;
  pthread_mutex_t lock;
  bool have_roots;
  char *roots[MAX_ROOTS]; // real paths, without duplicates
  size_t n_roots;
  char cwd[PATH_MAX]; // modules under it are named relative to it, as the walk names files
  char real_root[PATH_MAX]; // the config's root, a real path (the candidates' paths are)
  hg_table by_path;           // candidate path -> its entry (a pointer)
  hg_table bases;             // an importer's directory -> its package base (package_base), or NULL
  HG_VEC(char *) base_strs;   // the bases' keys and values, to free
  HG_VEC(entry *) entries;    // every entry, to free
  size_t parsed;
  hg_mentions *mentions; // which files write a name as a call (built on first question)
  pthread_mutex_t mentions_lock; // guards the three below: a question on modules need not wait for it
  hg_mentions_job *mentions_job; // being built, by mentions_readers threads at once
  unsigned mentions_readers;
  pthread_cond_t mentions_made;  // the table is there, a build began, or a worker ran out of files
  char *overlay_real, *overlay; // hg_index_overlay: this file (real path) is read as these bytes
  size_t overlay_len;
};

hg_index *hg_index_new(const hg_ruleset *rules, const hg_config *config, const char *start) {
  hg_index *self = hg_xcalloc(1, sizeof(hg_index));
  self->rules = rules;  // its facts are compiled when a module is first read
  self->config = config;
  self->policy = rules ? hg_ruleset_policy(rules) : NULL;
  self->start = hg_xstrdup(start ? start : ".");
  pthread_mutex_init(&self->lock, NULL);
  pthread_mutex_init(&self->mentions_lock, NULL);
  pthread_cond_init(&self->mentions_made, NULL);
  return self;
}

void hg_index_free(hg_index *self) {
  if (!self)
    return;
  for (size_t i = 0; i < self->entries.len; i++) {
    entry *e = self->entries.items[i];
    if (e->tree)
      hg_tree_delete(e->tree);
    hg_arena_free(e->arena);
    free(e->module);
    free(e->src);
    free(e->path);
    free(e);
  }
  free(self->entries.items);
  hg_table_free(&self->by_path);
  hg_table_free(&self->bases);
  for (size_t i = 0; i < self->base_strs.len; i++)
    free(self->base_strs.items[i]);
  free(self->base_strs.items);
  hg_mentions_free(self->mentions);
  for (size_t i = 0; i < self->n_roots; i++)
    free(self->roots[i]);
  pthread_mutex_destroy(&self->lock);
  pthread_mutex_destroy(&self->mentions_lock);
  pthread_cond_destroy(&self->mentions_made);
  free(self->overlay_real);
  free(self->overlay);
  free(self->start);
  free(self);
}

const hg_config *hg_index_config(const hg_index *self) { return self->config; }

void hg_index_overlay(hg_index *self, const char *path, const char *bytes, size_t len) {
  char real[PATH_MAX];
  if (!realpath(path, real))
    return;
  free(self->overlay_real);
  free(self->overlay);
  self->overlay_real = hg_xstrdup(real);
  self->overlay = hg_xmalloc(len ? len : 1);
  memcpy(self->overlay, bytes, len);
  self->overlay_len = len;
}

const hg_policy *hg_index_policy(const hg_index *self) { return self->policy; }

size_t hg_index_parsed(const hg_index *self) { return self ? self->parsed : 0; }

static void add_root(hg_index *self, const char *dir) {
  char real[PATH_MAX];
  if (self->n_roots == MAX_ROOTS || !realpath(dir, real))
    return;
  for (size_t i = 0; i < self->n_roots; i++)
    if (!strcmp(self->roots[i], real))
      return;
  self->roots[self->n_roots++] = hg_xstrdup(real);
}

static void find_roots(hg_index *self) {
  self->have_roots = true;
  if (!getcwd(self->cwd, sizeof(self->cwd)))
    self->cwd[0] = '\0';
  const char *croot = self->config->root && *self->config->root ? self->config->root : ".";
  if (!realpath(croot, self->real_root))
    snprintf(self->real_root, sizeof(self->real_root), "%s", croot);
  char *src = hg_xasprintf("%s/src", croot);
  add_root(self, croot);
  add_root(self, src);
  free(src);
  char *top = hg_path_git_top(self->start);
  if (top) {
    src = hg_xasprintf("%s/src", top);
    add_root(self, top);
    add_root(self, src);
    free(src);
    free(top);
  }
}

// Is `held` (a module the caller holds parsed) of the file whose real path is `real`?
static bool held_file(const hg_module *held, const char *real) {
  char other[PATH_MAX];
  return held && held->src && !ts_node_is_null(held->root) && held->len <= MAX_MODULE_BYTES && realpath(held->path, other) &&
         !strcmp(other, real);
}

// Reads and parses one candidate file; the entry keeps whatever it found (nothing, when the file
// does not exist or is not a readable module). The file `held` was made from (the one being
// checked, already read and parsed) gives its bytes and a copy of its tree instead.
static void load(hg_index *self, entry *e, const char *dotted, size_t len, const hg_module *held) {
  struct stat st;
  if (stat(e->path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_MODULE_BYTES)
    return;
  size_t n;
  hg_error err;
  char real[PATH_MAX];
  bool have_real = (self->overlay_real || held) && realpath(e->path, real);
  if (have_real && self->overlay_real && !strcmp(real, self->overlay_real)) {
    e->src = hg_xmalloc(self->overlay_len + 1);
    memcpy(e->src, self->overlay, self->overlay_len);
    e->src[n = self->overlay_len] = '\0';
  } else if (have_real && held_file(held, real)) {
    e->src = hg_xmalloc(held->len + 1);
    memcpy(e->src, held->src, held->len);
    e->src[n = held->len] = '\0';
    e->tree = ts_tree_copy(held->root.tree);  // parsed from these very bytes (its comment runs checked then)
  } else if (hg_read_file(&e->src, &n, e->path, &err) != 0) {
    return;
  }
  if (!e->tree) {
    if (hg_comment_run(e->src, n, HG_COMMENT_RUN_MAX))
      return; // not parsed (the run aborts the parser): read as a module not found; checked, the file says why
    TSParser *parser = ts_parser_new();
    if (!ts_parser_set_language(parser, tree_sitter_python()))
      abort(); // ABI checked at build
    e->tree = ts_parser_parse_string(parser, NULL, e->src, (uint32_t)n);
    ts_parser_delete(parser);
  }
  if (!e->tree)
    return;
  e->arena = hg_arena_new();
  // (the real root: a candidate's path is real, so its package is told without a realpath of its own)
  hg_imports *imports = hg_imports_new(e->arena, hg_package_of(e->arena, self->real_root, e->path));
  if (self->rules)
    hg_python_read_imports(hg_ruleset_query_for(self->rules, HG_SURFACE_PYTHON, 0), e->src, e->tree, imports, e->arena);
  e->module = hg_xcalloc(1, sizeof(hg_module));
  size_t cn = strlen(self->cwd);
  // Shown relative to the working directory, as the walk names files (from "/" too).
  const char *below = !strcmp(self->cwd, "/") && e->path[0] == '/' && e->path[1] ? e->path + 1
                      : cn ? hg_path_below(e->path, self->cwd, cn) : NULL;
  const char *shown = below ? below : e->path;
  *e->module = (hg_module){.path = shown,
                           .name = hg_arena_strndup(e->arena, dotted, len),
                           .src = e->src,
                           .len = n,
                           .root = ts_tree_root_node(e->tree),
                           .imports = imports};
  self->parsed++;
}

// The entry for a candidate path, created (and its file read) on first use. Called locked.
static const hg_module *candidate(hg_index *self, const char *path, const char *dotted, size_t len,
                                  const hg_module *held) {
  const size_t *known = hg_table_get(&self->by_path, path, strlen(path));
  if (known)
    return ((const entry *)(uintptr_t)*known)->module;
  entry *e = hg_xcalloc(1, sizeof(entry));
  e->path = hg_xstrdup(path);
  *hg_table_put(&self->by_path, e->path, strlen(e->path), NULL) = (size_t)(uintptr_t)e;
  HG_VEC_PUSH(&self->entries, e);
  load(self, e, dotted, len, held);
  return e->module;
}

// dir/a/b for module a.b, into p; returns its length.
static size_t stem_of(hg_buf *p, const char *dir, const char *dotted, size_t len) {
  hg_buf_printf(p, "%s/", dir);
  for (size_t i = 0; i < len; i++)
    hg_buf_putc(p, dotted[i] == '.' ? '/' : dotted[i]);
  return p->len;
}

// dir/a/b.py, then dir/a/b/__init__.py.
static const hg_module *under(hg_index *self, const char *dir, const char *dotted, size_t len, const hg_module *held) {
  hg_buf p = {0};
  size_t stem = stem_of(&p, dir, dotted, len);
  hg_buf_puts(&p, ".py");
  const hg_module *m = candidate(self, p.data, dotted, len, held);
  if (!m) {
    p.len = stem;
    hg_buf_puts(&p, "/__init__.py");
    m = candidate(self, p.data, dotted, len, held);
  }
  hg_buf_free(&p);
  return m;
}

static bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

// The directory above the topmost package holding directory `dir` (each package a directory with an
// __init__.py): where the package is imported from when it is run, as Python's path and pytest's
// rootdir find it (a monorepo's server/app/... imported as `app....`); NULL when `dir` is no
// package. Asked once a directory.
static const char *package_base(hg_index *self, const char *dir) {
  size_t n = strlen(dir);
  const size_t *known = hg_table_get(&self->bases, dir, n);
  if (known)
    return (const char *)(uintptr_t)*known;
  char *key = hg_xstrdup(dir), *base = NULL;
  HG_VEC_PUSH(&self->base_strs, key);
  hg_buf p = {0};
  for (size_t len = n; len > 0;) {
    p.len = 0;
    hg_buf_printf(&p, "%.*s/__init__.py", (int)len, dir);
    if (!is_file(p.data))
      break;
    while (len > 0 && dir[len - 1] != '/')
      len--;
    if (len > 0)
      len--;  // the parent, without its slash
    free(base);
    base = len ? hg_xstrndup(dir, len) : hg_xstrdup(dir[0] == '/' ? "/" : ".");
  }
  hg_buf_free(&p);
  if (base)
    HG_VEC_PUSH(&self->base_strs, base);
  *hg_table_put(&self->bases, key, n, NULL) = (size_t)(uintptr_t)base;
  return base;
}

const hg_module *hg_index_module(hg_index *self, const char *dotted, size_t len, const char *from_path,
                                 const hg_module *held) {
  if (!self || !hg_dotted_name(dotted, len))
    return NULL;
  pthread_mutex_lock(&self->lock);
  if (!self->have_roots)
    find_roots(self);
  const hg_module *m = NULL;
  for (size_t i = 0; i < self->n_roots && !m; i++)
    m = under(self, self->roots[i], dotted, len, held);
  if (!m && from_path) {
    // A script run from its directory imports its neighbours by their bare names.
    const char *slash = strrchr(from_path, '/');
    char *dir = slash ? hg_xstrndup(from_path, (size_t)(slash - from_path)) : hg_xstrdup(".");
    m = under(self, dir, dotted, len, held);
    // A package below the roots imports its modules by names from above its topmost package.
    const char *base = m ? NULL : package_base(self, dir);
    if (base)
      m = under(self, base, dotted, len, held);
    free(dir);
  }
  pthread_mutex_unlock(&self->lock);
  return m;
}

bool hg_index_has_module(hg_index *self, const char *dotted, size_t len) {
  if (!self || !hg_dotted_name(dotted, len))
    return false;
  pthread_mutex_lock(&self->lock);
  if (!self->have_roots)
    find_roots(self);
  bool found = false;
  hg_buf p = {0};
  for (size_t i = 0; i < self->n_roots && !found; i++) {
    p.len = 0;
    size_t stem = stem_of(&p, self->roots[i], dotted, len);
    hg_buf_puts(&p, ".py");
    found = is_file(p.data);
    p.len = stem;
    hg_buf_puts(&p, "/__init__.py");
    found = found || is_file(p.data);
  }
  hg_buf_free(&p);
  pthread_mutex_unlock(&self->lock);
  return found;
}

const char *hg_module_name(hg_arena *arena, const char *package, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 3 && !strcmp(base + n - 3, ".py"))
    n -= 3;
  hg_buf b = {0};
  if (n == 8 && !memcmp(base, "__init__", 8))
    hg_buf_puts(&b, package);
  else
    hg_buf_printf(&b, "%s%s%.*s", package, *package ? "." : "", (int)n, base);
  const char *out = hg_arena_strndup(arena, b.data ? b.data : "", b.len);
  hg_buf_free(&b);
  return out;
}

const char *hg_module_name_of(hg_arena *arena, const char *root, const char *path) {
  return hg_module_name(arena, hg_package_of(arena, root, path), path);
}

// Reads files with the table's build under way, beside the threads already reading; the last to
// finish makes the table. Called and returns with mentions_lock held, the table made.
static void read_with_build(hg_index *self) {
  hg_mentions_job *job = self->mentions_job;
  self->mentions_readers++;
  pthread_mutex_unlock(&self->mentions_lock);
  hg_mentions_read(job);
  pthread_mutex_lock(&self->mentions_lock);
  if (--self->mentions_readers == 0) {
    self->mentions = hg_mentions_end(job);
    self->mentions_job = NULL;
    pthread_cond_broadcast(&self->mentions_made);
  }
  while (!self->mentions) pthread_cond_wait(&self->mentions_made, &self->mentions_lock);
}

// The table of calls, built on the first question (reading every Python file of the project: the
// other workers' questions on modules go on meanwhile, under the index's own lock). A worker that
// asks while it is being built reads files beside the one that began it, instead of waiting for
// it, and so does a worker out of files (hg_index_lend).
static const hg_mentions *mentions_of(hg_index *self) {
  pthread_mutex_lock(&self->mentions_lock);
  if (!self->mentions && !self->mentions_job) {
    char real[PATH_MAX];
    const char *croot = self->config->root && *self->config->root ? self->config->root : ".";
    self->mentions_job = hg_mentions_begin(realpath(croot, real) ? real : croot);
    pthread_cond_broadcast(&self->mentions_made);  // a build to lend a hand to
  }
  if (!self->mentions)
    read_with_build(self);
  const hg_mentions *m = self->mentions;
  pthread_mutex_unlock(&self->mentions_lock);
  return m;
}

void hg_index_lend(hg_index *self, bool (*busy)(void *ctx), void *ctx) {
  pthread_mutex_lock(&self->mentions_lock);
  while (!self->mentions) {
    if (self->mentions_job)
      read_with_build(self);
    else if (busy(ctx))
      pthread_cond_wait(&self->mentions_made, &self->mentions_lock);
    else
      break;
  }
  pthread_mutex_unlock(&self->mentions_lock);
}

void hg_index_wake(hg_index *self) {
  pthread_mutex_lock(&self->mentions_lock);
  pthread_cond_broadcast(&self->mentions_made);
  pthread_mutex_unlock(&self->mentions_lock);
}

const char *const *hg_index_calling(hg_index *self, const char *name, size_t len, size_t *n, const char **why) {
  *n = 0;
  if (!self) {
    *why = "no project to look for calls in";
    return NULL;
  }
  return hg_mentions_files(mentions_of(self), name, len, n, why);
}

const char *const *hg_index_importers(hg_index *self, const char *word, size_t len, size_t *n) {
  *n = 0;
  return self ? hg_mentions_importers(mentions_of(self), word, len, n) : NULL;
}

const char *const *hg_index_subclasses(hg_index *self, const char *name, size_t len, size_t *n) {
  *n = 0;
  return self ? hg_mentions_subclasses(mentions_of(self), name, len, n) : NULL;
}

const hg_module *hg_index_module_at(hg_index *self, const char *path) {
  if (!self)
    return NULL;
  // The entry is read under the lock: another thread's put may grow (move) the table.
  pthread_mutex_lock(&self->lock);
  const size_t *known = hg_table_get(&self->by_path, path, strlen(path));
  const entry *e = known ? (const entry *)(uintptr_t)*known : NULL;
  pthread_mutex_unlock(&self->lock);
  if (e)
    return e->module;
  hg_arena *names = hg_arena_new();
  const char *croot = self->config->root && *self->config->root ? self->config->root : ".";
  char real[PATH_MAX];
  const char *dotted = hg_module_name_of(names, realpath(croot, real) ? real : croot, path);
  pthread_mutex_lock(&self->lock);
  if (!self->have_roots)
    find_roots(self);
  const hg_module *m = candidate(self, path, dotted, strlen(dotted), NULL);  // r's own file is never asked for here
  pthread_mutex_unlock(&self->lock);
  hg_arena_free(names);
  return m;
}

bool hg_index_calls(hg_index *self, const hg_module *m, const char *name, size_t len, const TSNode **calls,
                    size_t *n) {
  *calls = NULL;
  *n = 0;
  if (!self || !m)
    return false;
  pthread_mutex_lock(&self->lock);
  entry *found = NULL;
  for (size_t i = 0; i < self->entries.len && !found; i++)
    if (self->entries.items[i]->module == m)
      found = self->entries.items[i];
  if (found && !found->calls)
    found->calls = hg_calls_of(found->module, found->arena);
  pthread_mutex_unlock(&self->lock);
  if (found)
    *calls = hg_calls_named(found->calls, name, len, n);
  return found != NULL;
}

bool hg_index_imports(hg_index *self, const char *path, const char *word, size_t len) {
  pthread_mutex_lock(&self->mentions_lock);
  while (!self->mentions && self->mentions_job)  // being built: its answer, as when the build held the lock
    pthread_cond_wait(&self->mentions_made, &self->mentions_lock);
  const hg_mentions *m = self->mentions;
  pthread_mutex_unlock(&self->mentions_lock);
  return m && hg_mentions_imports(m, path, word, len);
}
