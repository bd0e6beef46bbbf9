// The Go surface's names: string literals decoded, the packages a file imports (by the name it
// uses for each), configured builders' packages, and the top-level definitions of a package
// (constants, variables, functions) across its files.
#include "surfaces/go/names.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"

// Children of a node that may be null (libtree-sitter 0.20 dereferences a null node).
static uint32_t kids(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_named_child_count(n); }
static uint32_t all_kids(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_child_count(n); }

const char *hg_go_string(hg_arena *arena, const char *src, TSNode n) {
  if (hg_node_is(n, "raw_string_literal")) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return hg_arena_strndup(arena, src + a + 1, b - a >= 2 ? b - a - 2 : 0);
  }
  if (!hg_node_is(n, "interpreted_string_literal"))
    return NULL;
  uint32_t a = ts_node_start_byte(n) + 1, b = ts_node_end_byte(n);
  if (b > a && src[b - 1] == '"')
    b--;
  hg_buf out = {0};
  for (uint32_t i = a; i < b; i++) {
    char c = src[i];
    if (c == '\\' && i + 1 < b) {
      char d = src[++i];
      c = d == 'n' ? '\n' : d == 't' ? '\t' : d == 'r' ? '\r' : d == '0' ? '\0' : d;
      if (d == 'x' && i + 2 < b) {
        char hex[3] = {src[i + 1], src[i + 2], 0};
        c = (char)strtol(hex, NULL, 16);
        i += 2;
      }
    }
    hg_buf_add(&out, &c, 1);
  }
  const char *s = hg_arena_strndup(arena, out.data ? out.data : "", out.len);
  hg_buf_free(&out);
  return s;
}

// ---- imports -------------------------------------------------------------------------------------

// The name a package is known by in the file: its import's alias, else the last element of its path
// that is not a major version (`.../v2`), without a `go-` prefix or a `.vN` suffix.
static void package_name(const char *path, size_t len, const char **name, size_t *nlen) {
  const char *end = path + len, *slash;
  for (;;) {
    slash = end;
    while (slash > path && slash[-1] != '/') slash--;
    bool version = end - slash >= 2 && *slash == 'v' && strspn(slash + 1, "0123456789") >= (size_t)(end - slash - 1);
    if (!version || slash == path)
      break;
    end = slash - 1;
  }
  const char *dot = memchr(slash, '.', (size_t)(end - slash));
  if (dot)
    end = dot;
  if (end - slash > 3 && !memcmp(slash, "go-", 3))
    slash += 3;
  *name = slash;
  *nlen = (size_t)(end - slash);
}

bool hg_go_each_import(hg_arena *arena, const hg_go_src *f, hg_go_import_fn fn, void *ctx) {
  for (uint32_t i = 0, n = kids(f->root); i < n; i++) {
    TSNode d = ts_node_named_child(f->root, i);
    if (!hg_node_is(d, "import_declaration"))
      continue;
    TSNode specs = ts_node_named_child(d, 0);
    bool list = hg_node_is(specs, "import_spec_list");
    for (uint32_t k = 0, m = list ? kids(specs) : 1; k < m; k++) {
      TSNode spec = list ? ts_node_named_child(specs, k) : specs;
      if (!hg_node_is(spec, "import_spec"))
        continue;
      const char *path = hg_go_string(arena, f->src, hg_node_field(spec, "path"));
      if (!path)
        continue;
      TSNode alias = hg_node_field(spec, "name");
      const char *pn;
      size_t pl;
      if (!ts_node_is_null(alias))
        pn = f->src + ts_node_start_byte(alias), pl = ts_node_end_byte(alias) - ts_node_start_byte(alias);
      else
        package_name(path, strlen(path), &pn, &pl);
      if (fn(ctx, path, pn, pl))
        return true;
    }
  }
  return false;
}

typedef struct {
  const char *name;
  size_t len;
  const char **out;
} named;

static bool is_named(void *ctx, const char *path, const char *name, size_t len) {
  named *n = ctx;
  if (len != n->len || memcmp(name, n->name, len) != 0)
    return false;
  *n->out = path;
  return true;
}

bool hg_go_import(hg_arena *arena, const hg_go_src *f, const char *name, size_t len, const char **out) {
  named n = {name, len, out};
  return hg_go_each_import(arena, f, is_named, &n);
}

bool hg_go_builder_package(const hg_config *config, const char *path, size_t *builder) {
  size_t pl = strlen(path);
  for (size_t i = 0; config && i < config->n_builders; i++) {
    const char *m = config->builders[i].module;
    size_t ml = strlen(m);
    if (ml > pl)
      continue;
    // The module, its dots read as slashes, ends the import path at an element boundary.
    const char *tail = path + pl - ml;
    bool same = tail == path || tail[-1] == '/';
    for (size_t k = 0; k < ml && same; k++)
      same = tail[k] == m[k] || (m[k] == '.' && tail[k] == '/');
    if (same) {
      *builder = i;
      return true;
    }
  }
  return false;
}

// ---- definitions --------------------------------------------------------------------------------

// The directory of `path` ("." when it has none), in the arena.
const char *hg_go_dir_of(hg_arena *arena, const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? hg_arena_strndup(arena, path, (size_t)(slash - path)) : ".";
}

bool hg_go_same_file(const char *a, const char *b) {
  while (a[0] == '.' && a[1] == '/') a += 2;
  while (b[0] == '.' && b[1] == '/') b += 2;
  return !strcmp(a, b);
}

// A top-level definition of `name` in file f: a constant, a variable, or (functions) a function.
static bool find_in_file(const hg_go_src *f, const char *name, size_t len, bool functions, hg_go_definition *out) {
  for (uint32_t i = 0, n = kids(f->root); i < n; i++) {
    TSNode d = ts_node_named_child(f->root, i);
    if (functions) {
      if (hg_node_is(d, "function_declaration") && hg_node_text_eq(hg_node_field(d, "name"), f->src, name, len)) {
        *out = (hg_go_definition){*f, d, 0};
        return true;
      }
      continue;
    }
    if (!hg_node_is(d, "const_declaration") && !hg_node_is(d, "var_declaration"))
      continue;
    for (uint32_t k = 0, m = kids(d); k < m; k++) {
      TSNode spec = ts_node_named_child(d, k);
      uint32_t specs = 1;
      TSNode list = spec;
      if (hg_node_is(spec, "var_spec_list"))
        specs = kids(list);
      for (uint32_t s = 0; s < specs; s++) {
        TSNode one = hg_node_is(spec, "var_spec_list") ? ts_node_named_child(list, s) : spec;
        if (!hg_node_is(one, "const_spec") && !hg_node_is(one, "var_spec"))
          continue;
        uint32_t index = 0;
        for (uint32_t c = 0, cn = all_kids(one); c < cn; c++) {
          const char *field = ts_node_field_name_for_child(one, c);
          if (!field || strcmp(field, "name") != 0)
            continue;
          TSNode nm = ts_node_child(one, c);
          if (hg_node_text_eq(nm, f->src, name, len)) {
            *out = (hg_go_definition){*f, one, index};
            return true;
          }
          index++;
        }
      }
    }
  }
  return false;
}

// `name` defined at the top level of the package in directory `dir` (the file `f` first).
bool hg_go_find(hg_go_packages *packages, const hg_go_src *f, const char *dir, const char *name, size_t len,
                bool functions, hg_go_definition *out) {
  if (f && find_in_file(f, name, len, functions, out))
    return true;
  size_t n;
  const hg_go_file *files = hg_go_package_files(packages, dir, &n);
  for (size_t i = 0; i < n; i++) {
    if (f && hg_go_same_file(files[i].path, f->path))
      continue;
    hg_go_src g = {files[i].path, files[i].src, files[i].len, ts_tree_root_node(files[i].tree)};
    if (find_in_file(&g, name, len, functions, out))
      return true;
  }
  return false;
}

