#include "surfaces/go/package.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "surfaces/go/grammar.h"
#include "surfaces/node.h"

// A file bigger than this is generated code, not where a builder or a constant of flags lives.
#define MAX_FILE_BYTES ((size_t)1 << 20)
// A package of more files than this is read no further.
enum { MAX_FILES = 256 };

typedef struct {
  char *dir;
  hg_go_file *files;
  size_t n;
} package;

// A directory asked for its go.mod: the module path that file declares, or NULL (none there).
typedef struct {
  char *dir;
  char *module;
} gomod;

struct hg_go_packages {
  pthread_mutex_t lock;
  char *root;        // the config's root: no go.mod above it is read
  HG_VEC(gomod) mods;
  HG_VEC(package *) packages;
  size_t parsed;
};

void *hg_go_packages_new(const hg_ruleset *rules, const hg_config *config, const char *start) {
  (void)rules, (void)start;
  hg_go_packages *self = hg_xcalloc(1, sizeof(hg_go_packages));
  self->root = hg_xstrdup(config && config->root ? config->root : ".");
  pthread_mutex_init(&self->lock, NULL);
  return self;
}

void hg_go_packages_free(void *p) {
  hg_go_packages *self = p;
  if (!self)
    return;
  for (size_t i = 0; i < self->packages.len; i++) {
    package *k = self->packages.items[i];
    for (size_t f = 0; f < k->n; f++) {
      hg_tree_delete(k->files[f].tree);
      free((char *)k->files[f].src);
      free((char *)k->files[f].path);
    }
    free(k->files);
    free(k->dir);
    free(k);
  }
  free(self->packages.items);
  for (size_t i = 0; i < self->mods.len; i++) {
    free(self->mods.items[i].dir);
    free(self->mods.items[i].module);
  }
  free(self->mods.items);
  free(self->root);
  pthread_mutex_destroy(&self->lock);
  free(self);
}

size_t hg_go_packages_parsed(void *p) {
  hg_go_packages *self = p;
  pthread_mutex_lock(&self->lock);
  size_t n = self->parsed;
  pthread_mutex_unlock(&self->lock);
  return n;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// Reads and parses the package in `dir`. Called locked.
static package *load(hg_go_packages *self, const char *dir) {
  package *k = hg_xcalloc(1, sizeof(package));
  k->dir = hg_xstrdup(dir);
  HG_VEC_PUSH(&self->packages, k);
  DIR *d = opendir(dir);
  if (!d)
    return k;
  HG_VEC(char *) names = {0};
  for (struct dirent *e; (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    if (n > 3 && !strcmp(e->d_name + n - 3, ".go") && e->d_name[0] != '.' && names.len < MAX_FILES)
      HG_VEC_PUSH(&names, hg_xstrdup(e->d_name));
  }
  closedir(d);
  qsort(names.items, names.len, sizeof(char *), by_name); // the same order on every machine
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_go());
  k->files = hg_xcalloc(names.len ? names.len : 1, sizeof(hg_go_file));
  for (size_t i = 0; i < names.len; i++) {
    char *path = !strcmp(dir, ".") ? hg_xstrdup(names.items[i]) : hg_xasprintf("%s/%s", dir, names.items[i]);
    free(names.items[i]);
    char *src;
    size_t len;
    hg_error err;
    if (hg_read_file(&src, &len, path, &err) != 0 || len > MAX_FILE_BYTES) {
      if (len > MAX_FILE_BYTES)
        free(src);
      free(path);
      continue;
    }
    TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)len);
    if (!tree) {
      free(src);
      free(path);
      continue;
    }
    k->files[k->n++] = (hg_go_file){.path = path, .src = src, .len = len, .tree = tree};
    self->parsed++;
  }
  ts_parser_delete(parser);
  free(names.items);
  return k;
}

const hg_go_file *hg_go_package_files(hg_go_packages *self, const char *dir, size_t *n) {
  *n = 0;
  if (!self)
    return NULL;
  pthread_mutex_lock(&self->lock);
  package *k = NULL;
  for (size_t i = 0; i < self->packages.len && !k; i++)
    if (!strcmp(self->packages.items[i]->dir, dir))
      k = self->packages.items[i];
  if (!k)
    k = load(self, dir);
  pthread_mutex_unlock(&self->lock);
  *n = k->n;
  return k->files;
}

// The `module` line of go.mod in `dir`: the module path, or NULL (no go.mod, or none there). Each
// directory is read once. Called locked.
static const char *module_in(hg_go_packages *self, const char *dir) {
  for (size_t i = 0; i < self->mods.len; i++)
    if (!strcmp(self->mods.items[i].dir, dir))
      return self->mods.items[i].module;
  char *path = !strcmp(dir, ".") ? hg_xstrdup("go.mod") : hg_xasprintf("%s/go.mod", dir);
  char *src, *module = NULL;
  size_t len;
  hg_error err;
  if (hg_read_file(&src, &len, path, &err) == 0) {
    for (const char *l = src; l && l < src + len;) {
      const char *end = memchr(l, '\n', (size_t)(src + len - l));
      size_t n = end ? (size_t)(end - l) : (size_t)(src + len - l);
      if (n > 7 && !memcmp(l, "module", 6) && (l[6] == ' ' || l[6] == '\t')) {
        const char *a = l + 7, *b = l + n;
        while (a < b && (*a == ' ' || *a == '\t' || *a == '"' || *a == '`')) a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r' || b[-1] == '"' || b[-1] == '`')) b--;
        if (b > a)
          module = hg_xstrndup(a, (size_t)(b - a));
        break;
      }
      l = end ? end + 1 : NULL;
    }
    free(src);
  }
  free(path);
  HG_VEC_PUSH(&self->mods, ((gomod){hg_xstrdup(dir), module}));
  return module;
}

// The directory of the nearest go.mod holding file `from` (its own directory, then each one up to
// the config root, not above it), with its module path in *module; NULL when none. Called locked.
static char *module_dir(hg_go_packages *self, const char *from, const char **module) {
  char *dir = hg_xstrdup(from);
  for (int depth = 0; depth < 64; depth++) {
    char *slash = strrchr(dir, '/');
    if (slash == dir)
      slash[1] = '\0';  // "/x": "/"
    else if (slash)
      *slash = '\0';
    else
      strcpy(dir, ".");
    if ((*module = module_in(self, dir)))
      return dir;
    if (!strcmp(dir, self->root) || !strcmp(dir, ".") || !strcmp(dir, "/"))
      break;
  }
  free(dir);
  *module = !strcmp(self->root, ".") ? NULL : module_in(self, self->root);  // a root spelled otherwise
  return *module ? hg_xstrdup(self->root) : NULL;
}

const char *hg_go_package_dir(hg_go_packages *self, const char *from, const char *import_path, size_t len) {
  if (!self)
    return NULL;
  pthread_mutex_lock(&self->lock);
  const char *m = NULL;
  char *root = from ? module_dir(self, from, &m) : NULL;
  size_t ml = m ? strlen(m) : 0;
  char *dir = NULL;
  if (m && len > ml && !memcmp(import_path, m, ml) && import_path[ml] == '/') {
    const char *rest = import_path + ml + 1;
    size_t rl = len - ml - 1;
    dir = !strcmp(root, ".") ? hg_xstrndup(rest, rl) : hg_xasprintf("%s/%.*s", root, (int)rl, rest);
  } else if (m && len == ml && !memcmp(import_path, m, ml)) {
    dir = hg_xstrdup(root);
  }
  free(root);
  const char *kept = NULL;
  if (dir) {
    // Kept for the state's lifetime, as a package entry's name (loaded lazily by the caller).
    for (size_t i = 0; i < self->packages.len && !kept; i++)
      if (!strcmp(self->packages.items[i]->dir, dir))
        kept = self->packages.items[i]->dir;
    if (!kept)
      kept = load(self, dir)->dir;
    free(dir);
  }
  pthread_mutex_unlock(&self->lock);
  return kept;
}

bool hg_go_packages_has_module(void *p, const char *module) {
  hg_go_packages *self = p;
  char *rel = hg_xstrdup(module);
  if (!strchr(rel, '/'))
    for (char *c = rel; *c; c++)
      if (*c == '.')
        *c = '/';
  char *dir = !strcmp(self->root, ".") ? hg_xstrdup(rel) : hg_xasprintf("%s/%s", self->root, rel);
  size_t n;
  hg_go_package_files(self, dir, &n);
  free(dir);
  free(rel);
  return n > 0;
}
