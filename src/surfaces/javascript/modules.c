#include "surfaces/javascript/modules.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "surfaces/javascript/grammar.h"
#include "surfaces/node.h"

// A module bigger than this is a bundle or generated code, not where a constant of flags lives.
#define MAX_MODULE_BYTES ((size_t)1 << 20)
// Modules read in one run at most (each a parse): past them an import is not followed.
enum { MAX_MODULES = 4096 };

typedef struct {
  char *key;          // the path tried
  hg_js_module *module; // NULL: nothing readable there
} entry;

typedef struct {
  pthread_mutex_t lock;
  HG_VEC(entry) entries;
  size_t parsed;
} modules;

void *hg_js_modules_new(const hg_ruleset *rules, const hg_config *config, const char *start) {
  (void)rules, (void)config, (void)start;
  modules *self = hg_xcalloc(1, sizeof(modules));
  pthread_mutex_init(&self->lock, NULL);
  return self;
}

void hg_js_modules_free(void *p) {
  modules *self = p;
  if (!self)
    return;
  for (size_t i = 0; i < self->entries.len; i++) {
    entry *e = &self->entries.items[i];
    if (e->module) {
      hg_tree_delete(e->module->tree);
      hg_source_free(&e->module->source);
      free(e->module);
    }
    free(e->key);
  }
  free(self->entries.items);
  pthread_mutex_destroy(&self->lock);
  free(self);
}

size_t hg_js_modules_parsed(void *p) {
  modules *self = p;
  pthread_mutex_lock(&self->lock);
  size_t n = self->parsed;
  pthread_mutex_unlock(&self->lock);
  return n;
}

// The module at `path`, read and parsed on first use (NULL: not a readable file). Called locked.
static hg_js_module *load(modules *self, const char *path) {
  for (size_t i = 0; i < self->entries.len; i++)
    if (!strcmp(self->entries.items[i].key, path))
      return self->entries.items[i].module;
  if (self->entries.len >= MAX_MODULES)
    return NULL;
  entry e = {.key = hg_xstrdup(path)};
  struct stat st;
  hg_error err;
  hg_source src;
  if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= MAX_MODULE_BYTES &&
      hg_source_read(&src, path, &err) == 0) {
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_tsx());
    TSTree *tree = ts_parser_parse_string(parser, NULL, src.data, (uint32_t)src.len);
    ts_parser_delete(parser);
    if (tree) {
      e.module = hg_xcalloc(1, sizeof(hg_js_module));
      e.module->source = src;
      e.module->tree = tree;
      self->parsed++;
    } else {
      hg_source_free(&src);
    }
  }
  HG_VEC_PUSH(&self->entries, e);
  return e.module;
}

const hg_js_module *hg_js_module_of(void *p, const char *from, const char *spec) {
  modules *self = p;
  if (!self || !spec || !(spec[0] == '.' && (spec[1] == '/' || (spec[1] == '.' && spec[2] == '/'))))
    return NULL;
  // The importer's directory, `./` dropped and each `../` taking off one of its folders (kept when
  // there is none left to take: the path stays as the walk would reach it).
  size_t dir = strrchr(from, '/') ? (size_t)(strrchr(from, '/') - from) : 0;
  for (;;) {
    if (!strncmp(spec, "./", 2)) {
      spec += 2;
    } else if (!strncmp(spec, "../", 3) && dir && strncmp(from, "..", 2) != 0) {
      while (dir && from[dir - 1] != '/') dir--;
      dir = dir ? dir - 1 : 0;
      spec += 3;
    } else {
      break;
    }
  }
  char *base = dir ? hg_xasprintf("%.*s/%s", (int)dir, from, spec) : hg_xstrdup(spec);
  // A TypeScript module imports its sibling by the name it compiles to (`./flags.js` for flags.ts).
  static const char *const SUFFIXES[] = {"", ".ts", ".tsx", ".js", ".mjs", ".cjs", ".mts", ".cts", ".jsx",
                                         "/index.ts", "/index.tsx", "/index.js", "/index.mjs", NULL};
  size_t n = strlen(base);
  bool js = n > 3 && !strcmp(base + n - 3, ".js");
  hg_js_module *found = NULL;
  pthread_mutex_lock(&self->lock);
  for (size_t i = 0; SUFFIXES[i] && !found; i++) {
    char *path = hg_xasprintf("%s%s", base, SUFFIXES[i]);
    found = load(self, path);
    free(path);
  }
  if (!found && js) {
    char *ts = hg_xasprintf("%.*s.ts", (int)(n - 3), base);
    found = load(self, ts);
    free(ts);
  }
  pthread_mutex_unlock(&self->lock);
  free(base);
  return found;
}
