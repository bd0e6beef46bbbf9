#include "resolve.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "argv.h"
#include "project/summary.h"
#include "scope.h"

const TSLanguage *tree_sitter_python(void);

// Field ids of the grammar, looked up once: ts_node_child_by_field_name compares names each call.
static TSFieldId F_ATTRIBUTE, F_OBJECT, F_FUNCTION, F_ARGUMENTS;
static pthread_once_t fields_once = PTHREAD_ONCE_INIT;
static void fields_init(void) {
  const TSLanguage *l = tree_sitter_python();
  F_ATTRIBUTE = ts_language_field_id_for_name(l, "attribute", 9);
  F_OBJECT = ts_language_field_id_for_name(l, "object", 6);
  F_FUNCTION = ts_language_field_id_for_name(l, "function", 8);
  F_ARGUMENTS = ts_language_field_id_for_name(l, "arguments", 9);
}
static TSNode field(TSNode n, TSFieldId *id) {
  pthread_once(&fields_once, fields_init);
  return ts_node_child_by_field_id(n, *id);
}

static const char *lookup(const struct hg_imports *self, const char *name, size_t len);

typedef struct {
  const char *name;       // the name bound in the file
  const char *qualified;  // what it stands for
} binding;

struct hg_imports {
  hg_arena *arena;
  const char *package;
  HG_VEC(binding) bindings;
  HG_VEC(const char *) modules;  // every module path imported, and every "from M import n" as M.n
};

hg_imports *hg_imports_new(hg_arena *arena, const char *package) {
  hg_imports *self = hg_arena_alloc(arena, sizeof(hg_imports));
  self->arena = arena;
  self->package = package ? package : "";
  return self;
}

// Vectors inside an arena object: their items are heap-allocated, freed with the arena's owner
// through hg_imports_release... To keep one lifetime, items are copied into the arena instead.
#define ARENA_PUSH(arena, v, ...)                                                                   \
  do {                                                                                             \
    if ((v)->len == (v)->cap) {                                                                    \
      size_t cap_ = (v)->cap ? (v)->cap * 2 : 8;                                                   \
      void *items_ = hg_arena_alloc((arena), cap_ * sizeof(*(v)->items));                          \
      if ((v)->len) memcpy(items_, (v)->items, (v)->len * sizeof(*(v)->items));                    \
      (v)->items = items_;                                                                         \
      (v)->cap = cap_;                                                                             \
    }                                                                                              \
    (v)->items[(v)->len++] = (__VA_ARGS__);                                                        \
  } while (0)

static const char *adup(hg_arena *a, const char *s) { return hg_arena_strndup(a, s, strlen(s)); }

static void bind(hg_imports *self, const char *name, const char *qualified) {
  ARENA_PUSH(self->arena, &self->bindings, (binding){adup(self->arena, name), qualified});
}

void hg_imports_add_import(hg_imports *self, const char *module, const char *alias) {
  const char *q = adup(self->arena, module);
  ARENA_PUSH(self->arena, &self->modules, q);
  if (alias) {
    bind(self, alias, q);
  } else {
    // `import a.b.c` binds `a` to the package a.
    const char *dot = strchr(module, '.');
    const char *head = dot ? hg_arena_strndup(self->arena, module, (size_t)(dot - module)) : q;
    bind(self, head, head);
  }
}

// ".x" from package "a.b" is "a.b.x"; "..x" is "a.x"; a module climbing above the root stays as
// written (it cannot match a configured module).
static const char *absolute(hg_imports *self, const char *module) {
  if (module[0] != '.') return adup(self->arena, module);
  size_t dots = 0;
  while (module[dots] == '.') dots++;
  const char *rest = module + dots;
  size_t keep = strlen(self->package);
  for (size_t i = 1; i < dots; i++) {
    const char *p = self->package + keep;
    while (p > self->package && *(p - 1) != '.') p--;
    if (p == self->package && keep == 0) return adup(self->arena, module);
    keep = p > self->package ? (size_t)(p - self->package - 1) : 0;
  }
  hg_buf b = {0};
  hg_buf_add(&b, self->package, keep);
  if (keep && *rest) hg_buf_putc(&b, '.');
  hg_buf_puts(&b, rest);
  const char *out = adup(self->arena, b.data ? b.data : "");
  hg_buf_free(&b);
  return out;
}

void hg_imports_add_from(hg_imports *self, const char *module, const char *name, const char *alias) {
  const char *m = absolute(self, module);
  hg_buf b = {0};
  hg_buf_printf(&b, "%s%s%s", m, *m ? "." : "", name);
  const char *q = adup(self->arena, b.data);
  hg_buf_free(&b);
  ARENA_PUSH(self->arena, &self->modules, m);
  ARENA_PUSH(self->arena, &self->modules, q);
  bind(self, alias ? alias : name, q);
}

const char *hg_imports_lookup(const hg_imports *self, const char *name, size_t len) { return lookup(self, name, len); }

static const char *lookup(const hg_imports *self, const char *name, size_t len) {
  // The last binding wins, as in Python's top-to-bottom execution of a module.
  for (size_t i = self->bindings.len; i-- > 0;) {
    const binding *b = &self->bindings.items[i];
    if (strlen(b->name) == len && memcmp(b->name, name, len) == 0) return b->qualified;
  }
  return NULL;
}

// Null-safe: libtree-sitter 0.20 dereferences a null node (an absent field, e.g. the value of an
// annotation-only `x: int`) in ts_node_type and ts_node_named_child_count.
static bool is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

static bool dotted(TSNode node, const char *src, hg_buf *out, const hg_imports *imports, int depth) {
  if (depth > 256) return false;  // a name that long is no name a rule asks about
  if (is(node, "identifier")) {
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    const char *q = imports ? lookup(imports, src + a, b - a) : NULL;
    if (q)
      hg_buf_puts(out, q);
    else
      hg_buf_add(out, src + a, b - a);
    return true;
  }
  if (is(node, "attribute")) {
    TSNode obj = field(node, &F_OBJECT);
    TSNode attr = field(node, &F_ATTRIBUTE);
    if (ts_node_is_null(obj) || ts_node_is_null(attr) || !dotted(obj, src, out, imports, depth + 1)) return false;
    hg_buf_putc(out, '.');
    hg_buf_add(out, src + ts_node_start_byte(attr), ts_node_end_byte(attr) - ts_node_start_byte(attr));
    return true;
  }
  return false;
}

bool hg_imports_qualify(const hg_imports *self, TSNode node, const char *src, hg_buf *out) {
  out->len = 0;
  hg_buf_add(out, "", 0);
  return dotted(node, src, out, self, 0);
}

bool hg_module_matches(const char *imported, size_t len, const char *configured) {
  size_t n = strlen(configured);
  if (len == n) return memcmp(imported, configured, n) == 0;
  if (len > n) return imported[len - n - 1] == '.' && memcmp(imported + len - n, configured, n) == 0;
  return configured[n - len - 1] == '.' && memcmp(configured + n - len, imported, len) == 0;
}

// Does `path` (a module path or module.name) lie in, or equal, a module matching `configured`?
static bool within_module(const char *path, const char *configured) {
  for (size_t len = strlen(path);; ) {
    if (hg_module_matches(path, len, configured)) return true;
    while (len > 0 && path[len - 1] != '.') len--;
    if (len == 0) return false;
    len--;
  }
}

bool hg_imports_builder_module(const hg_imports *self, const hg_config *config) {
  for (size_t i = 0; i < self->modules.len; i++)
    for (size_t j = 0; j < config->n_builders; j++)
      if (within_module(self->modules.items[i], config->builders[j].module)) return true;
  return false;
}

static const char *dotted_dir(hg_arena *arena, const char *rel) {
  while (rel[0] == '.' && rel[1] == '/') rel += 2;
  const char *slash = strrchr(rel, '/');
  if (!slash || rel[0] == '/' || strncmp(rel, "../", 3) == 0) return "";
  char *pkg = hg_arena_strndup(arena, rel, (size_t)(slash - rel));
  for (char *p = pkg; *p; p++)
    if (*p == '/') *p = '.';
  return pkg;
}

// Lexical normalisation: "a/./b/../c/" is "a/c", "a/.." is ".". Leading ".." are kept.
static char *normalize(hg_arena *arena, const char *path) {
  size_t n = strlen(path);
  char *out = hg_arena_alloc(arena, n + 2);
  size_t len = 0;
  bool absolute = path[0] == '/';
  for (const char *p = path; *p;) {
    while (*p == '/') p++;
    const char *e = p;
    while (*e && *e != '/') e++;
    size_t seg = (size_t)(e - p);
    if (seg == 0 || (seg == 1 && p[0] == '.')) {
      // skip
    } else if (seg == 2 && p[0] == '.' && p[1] == '.' && len > 0 &&
               !(len >= 2 && out[len - 1] == '.' && out[len - 2] == '.' && (len == 2 || out[len - 3] == '/'))) {
      while (len > 0 && out[len - 1] != '/') len--;
      if (len > 0) len--;
    } else {
      if (len > 0 || absolute) out[len++] = '/';
      memcpy(out + len, p, seg);
      len += seg;
    }
    p = e;
  }
  if (len == 0) out[len++] = absolute ? '/' : '.';
  out[len] = '\0';
  return out;
}

const char *hg_package_of(hg_arena *arena, const char *root, const char *path) {
  root = normalize(arena, root);
  path = normalize(arena, path);
  size_t rn = strlen(root);
  if (strcmp(root, ".") == 0) return dotted_dir(arena, path);
  if (strncmp(path, root, rn) == 0 && path[rn] == '/') return dotted_dir(arena, path + rn + 1);
  // Spelled differently ("proj/a/.." for "proj", or an absolute root): compare real paths.
  char rroot[PATH_MAX], rpath[PATH_MAX];
  char *r = hg_arena_strndup(arena, root, rn);
  if (!realpath(r, rroot)) return dotted_dir(arena, path);
  const char *slash = strrchr(path, '/');
  char *dir = slash ? hg_arena_strndup(arena, path, (size_t)(slash - path)) : ".";
  if (!realpath(dir, rpath)) return dotted_dir(arena, path);
  size_t n = strlen(rroot);
  if (strcmp(rpath, rroot) == 0) return "";
  if (strncmp(rpath, rroot, n) != 0 || rpath[n] != '/') return dotted_dir(arena, path);
  hg_buf b = {0};
  hg_buf_printf(&b, "%s/x", rpath + n + 1);
  const char *pkg = dotted_dir(arena, b.data);
  hg_buf_free(&b);
  return pkg;
}

// Q ends with ".<callable>" (or equals it) and the part before lies in a module matching M.
static bool qualified_is_builder(const char *q, const hg_builder *b, const char *callable) {
  size_t qn = strlen(q), cn = strlen(callable);
  if (qn <= cn + 1 || q[qn - cn - 1] != '.' || strcmp(q + qn - cn, callable) != 0) return false;
  return hg_module_matches(q, qn - cn - 1, b->module);
}

bool hg_resolve_is_builder(const hg_resolver *self, TSNode call) {
  if (!is(call, "call")) return false;
  TSNode fn = field(call, &F_FUNCTION);
  if (ts_node_is_null(fn)) return false;
  hg_buf q = {0};
  bool ok = hg_imports_qualify(self->imports, fn, self->src, &q), found = false;
  const hg_config *c = self->config;
  for (size_t i = 0; ok && i < c->n_builders && !found; i++) {
    const hg_builder *b = &c->builders[i];
    for (size_t j = 0; j < b->n_callables && !found; j++) {
      const char *callable = b->callables[j];
      found = qualified_is_builder(q.data, b, callable);
      const char *dot = strchr(callable, '.');
      if (!found && dot && is(fn, "attribute")) {
        // Class.method called on an instance: the method name matches and the class was
        // imported from the builder module (`from M import Class`).
        TSNode attr = field(fn, &F_ATTRIBUTE);
        uint32_t a = ts_node_start_byte(attr), e = ts_node_end_byte(attr);
        if (strlen(dot + 1) == e - a && memcmp(self->src + a, dot + 1, e - a) == 0) {
          hg_buf cls = {0};
          hg_buf_add(&cls, callable, (size_t)(dot - callable));
          for (size_t k = 0; k < self->imports->bindings.len && !found; k++) {
            const char *bq = self->imports->bindings.items[k].qualified;
            size_t bn = strlen(bq);
            found = bn > cls.len && bq[bn - cls.len - 1] == '.' && strcmp(bq + bn - cls.len, cls.data) == 0 &&
                    hg_module_matches(bq, bn - cls.len - 1, b->module);
          }
          hg_buf_free(&cls);
        }
      }
    }
  }
  hg_buf_free(&q);
  return found;
}

// ---- values -------------------------------------------------------------------------------------

enum { MAX_DEPTH = 64 };

static const char *text_of(const hg_resolver *self, TSNode n) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return hg_arena_strndup(self->arena, self->src + a, b - a);
}

static hg_value unknown(const hg_resolver *self, TSNode n, const char *origin) {
  return (hg_value){.kind = HG_VAL_UNKNOWN, .text = text_of(self, n), .origin = origin,
                    .line = ts_node_start_point(n).row + 1};
}

hg_value hg_resolve_unknown(const hg_resolver *self, TSNode node, const char *origin) {
  hg_value v = unknown(self, node, origin);
  if (self->module) v.path = self->module->path;
  return v;
}

typedef hg_value_vec value_vec;

hg_value hg_values_finish(hg_arena *arena, hg_value v, hg_value_vec *items) {
  v.n_items = items->len;
  v.items = hg_arena_alloc(arena, (items->len ? items->len : 1) * sizeof(hg_value));
  if (items->len) memcpy(v.items, items->items, items->len * sizeof(hg_value));
  free(items->items);
  return v;
}

static hg_value finish(const hg_resolver *self, hg_value v, value_vec *items) {
  return hg_values_finish(self->arena, v, items);
}

static hg_value value_at(const hg_resolver *self, TSNode n, int depth);

// Could call `c` be a configured builder: does its callee end in the name of one?
static bool may_be_builder(const hg_resolver *self, TSNode c) {
  TSNode fn = field(c, &F_FUNCTION);
  if (is(fn, "attribute")) fn = field(fn, &F_ATTRIBUTE);
  if (!is(fn, "identifier")) return false;
  uint32_t a = ts_node_start_byte(fn), b = ts_node_end_byte(fn);
  for (size_t i = 0; i < self->config->n_builders; i++)
    for (size_t k = 0; k < self->config->builders[i].n_callables; k++) {
      const char *callable = self->config->builders[i].callables[k], *dot = strrchr(callable, '.');
      const char *last = dot ? dot + 1 : callable;
      if (strlen(last) == b - a && !memcmp(last, self->src + a, b - a)) return true;
    }
  return false;
}

// The first configured builder called inside `n` (down to MAX_DEPTH levels), as its BUILDER value.
// A cursor walk: linear in the nodes, whatever their number.
static bool builder_inside(const hg_resolver *self, TSNode n, hg_value *out) {
  if (!self->config->n_builders) return false;
  TSTreeCursor cur = ts_tree_cursor_new(n);
  bool found = false;
  int depth = 0;
  for (;;) {
    TSNode c = ts_tree_cursor_current_node(&cur);
    if (is(c, "call") && may_be_builder(self, c)) {
      hg_value v = value_at(self, c, 1);
      if (v.kind == HG_VAL_BUILDER) {
        *out = v;
        found = true;
        break;
      }
    }
    if (depth < MAX_DEPTH && ts_tree_cursor_goto_first_child(&cur)) {
      depth++;
    } else {
      while (depth > 0 && !ts_tree_cursor_goto_next_sibling(&cur)) {
        ts_tree_cursor_goto_parent(&cur);
        depth--;
      }
      if (depth == 0) break;
    }
  }
  ts_tree_cursor_delete(&cur);
  return found;
}

// The content of a string or concatenated string; interpolations become HG_HOLE, and each
// interpolation node is reported to `hole` (if given) in order.
static void string_content(const hg_resolver *self, TSNode n, hg_buf *out, value_vec *holes) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (is(c, "string")) {
      string_content(self, c, out, holes);
    } else if (is(c, "string_content")) {
      uint32_t a = ts_node_start_byte(c), b = ts_node_end_byte(c);
      hg_buf_add(out, self->src + a, b - a);
    } else if (is(c, "interpolation")) {
      hg_buf_putc(out, HG_HOLE);
      if (holes) {
        hg_value h = unknown(self, c, "an interpolated expression");
        builder_inside(self, c, &h);
        HG_VEC_PUSH(holes, h);
      }
    }
  }
}

static hg_value value_at(const hg_resolver *self, TSNode n, int depth);

static void push_items(const hg_resolver *self, TSNode seq, value_vec *items, int depth) {
  uint32_t count = ts_node_named_child_count(seq);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(seq, i);
    if (is(c, "comment")) continue;
    if (is(c, "list_splat")) {
      hg_value inner = value_at(self, hg_node_arg(c, 0), depth + 1);
      if (inner.kind == HG_VAL_LIST) {
        for (size_t j = 0; j < inner.n_items; j++) HG_VEC_PUSH(items, inner.items[j]);
      } else {
        inner.splat = true;
        HG_VEC_PUSH(items, inner);
      }
      continue;
    }
    HG_VEC_PUSH(items, value_at(self, c, depth + 1));
  }
}

static void push_entries(const hg_resolver *self, TSNode dict, value_vec *items, int depth);

// A `**x` spread: a dict literal is merged in place; anything else stays one spread item.
static void push_spread(const hg_resolver *self, TSNode expr, value_vec *items, int depth) {
  hg_value inner = value_at(self, expr, depth + 1);
  if (inner.kind == HG_VAL_DICT) {
    for (size_t j = 0; j < inner.n_items; j++) HG_VEC_PUSH(items, inner.items[j]);
    return;
  }
  inner.splat = true;
  inner.key = NULL;
  HG_VEC_PUSH(items, inner);
}

static void push_entries(const hg_resolver *self, TSNode dict, value_vec *items, int depth) {
  uint32_t count = ts_node_named_child_count(dict);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(dict, i);
    if (is(c, "dictionary_splat")) {
      push_spread(self, hg_node_arg(c, 0), items, depth);
    } else if (is(c, "pair")) {
      TSNode k = ts_node_child_by_field_name(c, "key", 3), v = ts_node_child_by_field_name(c, "value", 5);
      hg_value key = value_at(self, k, depth + 1);
      hg_value val = value_at(self, v, depth + 1);
      if (key.kind == HG_VAL_STR && !strchr(key.text, HG_HOLE)) {
        val.key = key.text;
      } else {
        // A computed key may name any keyword: treat the pair as an unknown spread.
        val = unknown(self, c, "a dict entry with a computed key");
        val.splat = true;
      }
      HG_VEC_PUSH(items, val);
    }
  }
}

// ---- following a name through its scope ---------------------------------------------------------

static hg_value value_at(const hg_resolver *self, TSNode n, int depth);

// What a name holds at a point, built from the statements before it: assignments, item
// assignments, update/extend/append/insert/pop calls, += and |=. A change on only some paths
// (inside an if, a loop, an except) is `conditional`: it may not have happened.
typedef struct {
  const hg_resolver *r;
  const char *name;
  size_t len;
  int depth;
  TSNode use, fn;  // where the name is read, and the function around it (null: module scope)
  bool defined;
  bool container;  // the value is a DICT or LIST being built in `items`
  hg_value cur;    // otherwise, the value itself
  value_vec items;
  bool spent;      // the file's budget ran out while following
} follow;

// Charges `n` steps to the file's budget; false (and the follow marked spent) once it is out.
static bool charge(follow *f, size_t n) {
  size_t *b = f->r->budget;
  if (!b) return true;
  if (*b < n) {
    *b = 0;
    f->spent = true;
    return false;
  }
  *b -= n;
  return true;
}

// What a follow that ran out of budget stands for.
static hg_value over_budget(const hg_resolver *self, TSNode use) {
  return unknown(self, use,
                 "a value this file changes more often than hardguard follows (the per-file budget ran out)");
}

static bool is_name(const follow *f, TSNode n) {
  if (ts_node_is_null(n) || !is(n, "identifier")) return false;
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return b - a == f->len && memcmp(f->r->src + a, f->name, f->len) == 0;
}

static hg_value outer_value(const follow *f);

// A change to a name not assigned in this scope changes what it held coming in: a parameter,
// a module-level value, an import.
static void ensure_defined(follow *f) {
  if (f->defined) return;
  f->cur = outer_value(f);
  f->defined = true;
}

static void to_container(follow *f, hg_value_kind kind) {
  ensure_defined(f);
  if (f->container) return;
  f->items.len = 0;
  if (f->defined) {
    hg_value v = f->cur;
    v.splat = true;
    v.key = NULL;
    HG_VEC_PUSH(&f->items, v);
  }
  f->container = true;
  f->cur.kind = kind;
}

// Appends the items of `v` (a container of the same kind), or `v` itself as a spread.
static void add_items(follow *f, hg_value_kind kind, hg_value v, bool cond) {
  to_container(f, kind);
  f->defined = true;
  if (v.kind == kind) {
    for (size_t i = 0; i < v.n_items; i++) {
      hg_value item = v.items[i];
      item.conditional |= cond;
      HG_VEC_PUSH(&f->items, item);
    }
    return;
  }
  v.splat = true;
  v.key = NULL;
  v.conditional |= cond;
  HG_VEC_PUSH(&f->items, v);
}

static void set_value(follow *f, hg_value v, bool cond) {
  if (!cond || !f->defined) {
    f->container = false;
    f->items.len = 0;
    f->defined = true;
    f->cur = v;
    if (v.kind == HG_VAL_DICT || v.kind == HG_VAL_LIST) {
      f->container = true;
      for (size_t i = 0; i < v.n_items; i++) {
        hg_value item = v.items[i];
        item.conditional |= cond;
        HG_VEC_PUSH(&f->items, item);
      }
    } else if (cond) {
      f->cur.conditional = true;
    }
    return;
  }
  // A reassignment on some paths only: neither the old nor the new value is guaranteed.
  hg_value_kind kind = v.kind == HG_VAL_LIST || (f->container && f->cur.kind == HG_VAL_LIST) ? HG_VAL_LIST : HG_VAL_DICT;
  to_container(f, kind);
  for (size_t i = 0; i < f->items.len; i++) f->items.items[i].conditional = true;
  add_items(f, kind, v, true);
}

static hg_value keyword_dict(const hg_resolver *self, TSNode args, int depth);

static void on_call(follow *f, TSNode call, bool cond) {
  TSNode fn = field(call, &F_FUNCTION);
  if (ts_node_is_null(fn) || !is(fn, "attribute") || !is_name(f, ts_node_child_by_field_name(fn, "object", 6))) return;
  TSNode attr = field(fn, &F_ATTRIBUTE);
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  uint32_t a = ts_node_start_byte(attr), b = ts_node_end_byte(attr);
  const char *m = f->r->src + a;
  size_t n = b - a;
#define METHOD(s) (n == sizeof(s) - 1 && memcmp(m, s, n) == 0)
  TSNode arg0 = hg_node_arg_count(args) > 0 ? hg_node_arg(args, 0) : (TSNode){0};
  if (METHOD("update")) {
    add_items(f, HG_VAL_DICT, keyword_dict(f->r, args, f->depth + 1), cond);
  } else if (METHOD("extend") && !ts_node_is_null(arg0)) {
    add_items(f, HG_VAL_LIST, value_at(f->r, arg0, f->depth + 1), cond);
  } else if (METHOD("append") && !ts_node_is_null(arg0)) {
    hg_value item = value_at(f->r, arg0, f->depth + 1);
    to_container(f, HG_VAL_LIST);
    f->defined = true;
    item.conditional |= cond;
    HG_VEC_PUSH(&f->items, item);
  } else if (METHOD("insert") && hg_node_arg_count(args) == 2) {
    hg_value at = value_at(f->r, arg0, f->depth + 1);
    hg_value item = value_at(f->r, hg_node_arg(args, 1), f->depth + 1);
    to_container(f, HG_VAL_LIST);
    f->defined = true;
    long index = at.kind == HG_VAL_NUM ? strtol(at.text, NULL, 10) : -1;
    item.conditional |= cond;
    HG_VEC_PUSH(&f->items, item);
    if (!cond && index >= 0 && (size_t)index < f->items.len - 1) {
      // move the new item into place
      memmove(&f->items.items[index + 1], &f->items.items[index], (f->items.len - 1 - (size_t)index) * sizeof(hg_value));
      f->items.items[index] = item;
    }
  } else if (METHOD("setdefault") || METHOD("pop") || METHOD("popitem") || METHOD("clear") || METHOD("remove")) {
    // setdefault sets only a missing key; pop/clear/remove take options away: either way what
    // the name held is no longer guaranteed.
    hg_value key = ts_node_is_null(arg0) ? (hg_value){0} : value_at(f->r, arg0, f->depth + 1);
    to_container(f, f->container ? f->cur.kind : HG_VAL_DICT);
    f->defined = true;
    if (METHOD("setdefault") && key.kind == HG_VAL_STR && hg_node_arg_count(args) == 2) {
      hg_value item = value_at(f->r, hg_node_arg(args, 1), f->depth + 1);
      item.key = key.text;
      item.conditional = true;
      HG_VEC_PUSH(&f->items, item);
    } else if (METHOD("pop") && key.kind == HG_VAL_STR && f->cur.kind == HG_VAL_DICT) {
      hg_value gone = {.kind = HG_VAL_NONE, .text = "None", .key = key.text, .conditional = cond,
                       .line = ts_node_start_point(call).row + 1};
      HG_VEC_PUSH(&f->items, gone);
    } else {
      for (size_t i = 0; i < f->items.len; i++) f->items.items[i].conditional = true;
    }
  }
#undef METHOD
}

static void on_assignment(follow *f, TSNode asg, bool cond) {
  // a = b = value: the targets are every `left`, the value the innermost `right`
  TSNode value = asg;
  while (is(value, "assignment")) {
    TSNode right = ts_node_child_by_field_name(value, "right", 5);
    if (ts_node_is_null(right)) return;  // an annotation without a value
    value = right;
  }
  for (TSNode t = asg; is(t, "assignment"); t = ts_node_child_by_field_name(t, "right", 5)) {
    TSNode left = ts_node_child_by_field_name(t, "left", 4);
    if (is_name(f, left)) {
      set_value(f, value_at(f->r, value, f->depth + 1), cond);
    } else if (is(left, "subscript") && is_name(f, ts_node_child_by_field_name(left, "value", 5))) {
      TSNode sub = ts_node_child_by_field_name(left, "subscript", 9);
      hg_value key = ts_node_is_null(sub) ? (hg_value){0} : value_at(f->r, sub, f->depth + 1);
      hg_value item = value_at(f->r, value, f->depth + 1);
      to_container(f, HG_VAL_DICT);
      f->defined = true;
      if (key.kind == HG_VAL_STR && !strchr(key.text, HG_HOLE)) {
        item.key = key.text;
      } else {
        item = unknown(f->r, left, "an item set under a computed key");
        item.splat = true;
      }
      item.conditional |= cond;
      HG_VEC_PUSH(&f->items, item);
    } else if (is(left, "pattern_list") || is(left, "tuple_pattern") || is(left, "list_pattern")) {
      uint32_t n = ts_node_named_child_count(left);
      for (uint32_t i = 0; i < n; i++)
        if (is_name(f, ts_node_named_child(left, i)))
          set_value(f, unknown(f->r, value, "a value unpacked from a sequence"), cond);
    }
  }
}

// `del name[key]` takes an option away as pop does; `del name[i]` or a slice, any item; `del name`
// leaves nothing known.
static void on_delete(follow *f, TSNode target, bool cond) {
  if (is(target, "expression_list")) {
    for (uint32_t i = 0, n = ts_node_named_child_count(target); i < n; i++)
      on_delete(f, ts_node_named_child(target, i), cond);
    return;
  }
  if (is_name(f, target)) {
    set_value(f, unknown(f->r, target, "a deleted name"), cond);
    return;
  }
  if (!is(target, "subscript") || !is_name(f, ts_node_child_by_field_name(target, "value", 5))) return;
  TSNode sub = ts_node_child_by_field_name(target, "subscript", 9);
  hg_value key = ts_node_is_null(sub) ? (hg_value){0} : value_at(f->r, sub, f->depth + 1);
  to_container(f, f->container ? f->cur.kind : HG_VAL_DICT);
  f->defined = true;
  if (f->cur.kind == HG_VAL_DICT && key.kind == HG_VAL_STR && !strchr(key.text, HG_HOLE)) {
    hg_value gone = {.kind = HG_VAL_NONE, .text = "None", .key = key.text, .conditional = cond,
                     .line = ts_node_start_point(target).row + 1};
    HG_VEC_PUSH(&f->items, gone);
  } else {
    for (size_t i = 0; i < f->items.len; i++) f->items.items[i].conditional = true;
  }
}

static bool apply_stmt(follow *f, hg_stmt s);

// A statement between a name's creation and its use; each costs one step of the budget, and one
// per item it adds.
static bool on_stmt(void *ctx, hg_stmt s) {
  follow *f = ctx;
  size_t before = f->items.len;
  bool go_on = apply_stmt(f, s);
  return charge(f, 1 + (f->items.len > before ? f->items.len - before : 0)) && go_on;
}

static bool apply_stmt(follow *f, hg_stmt s) {
  if (is(s.stmt, "delete_statement") && ts_node_named_child_count(s.stmt) > 0) {
    on_delete(f, ts_node_named_child(s.stmt, 0), s.conditional);
    return true;
  }
  if (!is(s.stmt, "expression_statement") || ts_node_named_child_count(s.stmt) == 0) return true;
  TSNode e = ts_node_named_child(s.stmt, 0);
  if (is(e, "assignment")) {
    on_assignment(f, e, s.conditional);
  } else if (is(e, "augmented_assignment")) {
    TSNode left = ts_node_child_by_field_name(e, "left", 4), right = ts_node_child_by_field_name(e, "right", 5);
    TSNode op = ts_node_child_by_field_name(e, "operator", 8);
    if (!is_name(f, left) || ts_node_is_null(right) || ts_node_is_null(op)) return true;
    const char *o = f->r->src + ts_node_start_byte(op);
    hg_value v = value_at(f->r, right, f->depth + 1);
    if (!strncmp(o, "+=", 2))
      add_items(f, HG_VAL_LIST, v, s.conditional);
    else if (!strncmp(o, "|=", 2))
      add_items(f, HG_VAL_DICT, v, s.conditional);
    else
      set_value(f, unknown(f->r, e, "an augmented assignment"), s.conditional);
  } else if (is(e, "call")) {
    on_call(f, e, s.conditional);
  }
  return true;
}

static hg_value followed(follow *f, TSNode use) {
  if (f->spent) {
    free(f->items.items);
    return over_budget(f->r, use);
  }
  hg_value v = f->cur;
  if (f->container) {
    v = (hg_value){.kind = f->cur.kind, .text = text_of(f->r, use), .line = ts_node_start_point(use).row + 1};
    return finish(f->r, v, &f->items);
  }
  free(f->items.items);
  return v;
}

static const char *origin(const hg_resolver *self, const char *fmt, TSNode name_node, uint32_t line) {
  char buf[256];
  uint32_t a = ts_node_start_byte(name_node), b = ts_node_end_byte(name_node);
  snprintf(buf, sizeof(buf), fmt, (int)(b - a > 80 ? 80 : b - a), self->src + a, line);
  return hg_arena_strndup(self->arena, buf, strlen(buf));
}

// What a name held before its scope changed it: a parameter, else (in a function) what the
// module's statements left in it, else an import.
static void walk(const follow *f, TSNode scope, TSNode point);

static hg_value outer_value(const follow *f) {
  const hg_resolver *self = f->r;
  TSNode use = f->use, fn = f->fn;
  if (!ts_node_is_null(fn)) {
    hg_value bound;
    if (hg_summary_bound(self, fn, f->name, f->len, &bound)) return bound;
    if (hg_scope_is_parameter(fn, self->src, f->name, f->len)) {
      TSNode fname = ts_node_child_by_field_name(fn, "name", 4);
      return unknown(self, use, origin(self, "a parameter of %.*s() at line %u", fname, ts_node_start_point(fn).row + 1));
    }
    // A module-level name read inside a function: the module ran to its end before the call.
    TSNode module = fn;
    while (!ts_node_is_null(ts_node_parent(module))) module = ts_node_parent(module);
    follow m = {.r = self, .name = f->name, .len = f->len, .depth = f->depth + 1, .use = use};
    if (m.depth <= MAX_DEPTH) walk(&m, module, (TSNode){0});
    if (m.defined || m.spent) return followed(&m, use);
    free(m.items.items);
  }
  const char *q = lookup(self->imports, f->name, f->len);
  if (q) return hg_summary_imported(self, q, use, f->depth + 1);
  return unknown(self, use, "a name not assigned in this file");
}

// Walks `scope` for a follow; inside a function being evaluated, conditions with known values
// decide which branches run.
static void walk(const follow *f, TSNode scope, TSNode point) {
  hg_scope_walk_deciding(scope, point, on_stmt, f->r->frame ? hg_summary_decide : NULL, (void *)f);
}

hg_value hg_resolve_global(const hg_resolver *self, TSNode name, int depth) {
  TSNode module = name;
  while (!ts_node_is_null(ts_node_parent(module))) module = ts_node_parent(module);
  uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
  follow m = {.r = self, .name = self->src + a, .len = b - a, .depth = depth, .use = name};
  if (m.depth <= MAX_DEPTH) walk(&m, module, (TSNode){0});
  if (m.defined || m.spent) return followed(&m, name);
  free(m.items.items);
  return unknown(self, name, "a name not assigned in this file");
}

// The value of identifier `use` where it stands: the statements of its scope before it, else
// what it held coming into the scope.
static hg_value resolve_name(const hg_resolver *self, TSNode use, int depth) {
  TSNode fn;
  TSNode scope = hg_scope_of(use, &fn);
  uint32_t a = ts_node_start_byte(use), b = ts_node_end_byte(use);
  follow f = {.r = self, .name = self->src + a, .len = b - a, .depth = depth, .use = use, .fn = fn};
  walk(&f, scope, use);
  if (f.defined || f.spent) return followed(&f, use);
  free(f.items.items);
  return outer_value(&f);
}

// A `name=value` argument as a keyed item.
static void push_keyword(const hg_resolver *self, TSNode kwarg, value_vec *items, int depth) {
  TSNode k = ts_node_child_by_field_name(kwarg, "name", 4), v = ts_node_child_by_field_name(kwarg, "value", 5);
  if (ts_node_is_null(k) || ts_node_is_null(v)) return;
  hg_value val = value_at(self, v, depth + 1);
  val.key = text_of(self, k);
  HG_VEC_PUSH(items, val);
}

// A dict built from a call's arguments: positional mappings spread in, then keywords (dict(...),
// .update(...)).
static hg_value keyword_dict(const hg_resolver *self, TSNode args, int depth) {
  value_vec items = {0};
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (is(c, "keyword_argument")) {
      push_keyword(self, c, &items, depth);
    } else if (is(c, "dictionary_splat")) {
      push_spread(self, hg_node_arg(c, 0), &items, depth);
    } else if (!is(c, "comment")) {
      push_spread(self, c, &items, depth);
    }
  }
  return finish(self, (hg_value){.kind = HG_VAL_DICT, .text = text_of(self, args),
                                 .line = ts_node_start_point(args).row + 1}, &items);
}

// a + b of lists, a | b of dicts; anything else cannot be followed.
static hg_value binary(const hg_resolver *self, TSNode n, int depth) {
  TSNode op = ts_node_child_by_field_name(n, "operator", 8);
  char o = ts_node_is_null(op) ? 0 : self->src[ts_node_start_byte(op)];
  hg_value_kind kind = o == '+' ? HG_VAL_LIST : o == '|' ? HG_VAL_DICT : HG_VAL_UNKNOWN;
  if (kind == HG_VAL_UNKNOWN) return unknown(self, n, "an expression");
  hg_value l = value_at(self, ts_node_child_by_field_name(n, "left", 4), depth + 1);
  hg_value r = value_at(self, ts_node_child_by_field_name(n, "right", 5), depth + 1);
  if (kind == HG_VAL_LIST && ((l.kind != HG_VAL_LIST && l.kind != HG_VAL_UNKNOWN) || (r.kind != HG_VAL_LIST && r.kind != HG_VAL_UNKNOWN)))
    return unknown(self, n, "an expression");
  value_vec items = {0};
  const hg_value *sides[2] = {&l, &r};
  for (int s = 0; s < 2; s++) {
    const hg_value *v = sides[s];
    if (v->kind == kind) {
      for (size_t i = 0; i < v->n_items; i++) HG_VEC_PUSH(&items, v->items[i]);
    } else {
      hg_value spread = *v;
      spread.splat = true;
      HG_VEC_PUSH(&items, spread);
    }
  }
  return finish(self, (hg_value){.kind = kind, .text = text_of(self, n), .line = ts_node_start_point(n).row + 1}, &items);
}

static bool callee_is(const hg_resolver *self, TSNode call, const char *name) {
  TSNode fn = field(call, &F_FUNCTION);
  if (ts_node_is_null(fn) || !is(fn, "identifier")) return false;
  uint32_t a = ts_node_start_byte(fn), b = ts_node_end_byte(fn);
  return strlen(name) == b - a && memcmp(self->src + a, name, b - a) == 0;
}

static hg_value value_of(const hg_resolver *self, TSNode n, int depth) {
  if (depth > MAX_DEPTH) return unknown(self, n, "an expression nested too deeply");
  const char *type = ts_node_type(n);
  uint32_t line = ts_node_start_point(n).row + 1;
  if (!strcmp(type, "string") || !strcmp(type, "concatenated_string")) {
    hg_buf b = {0};
    string_content(self, n, &b, NULL);
    hg_value v = {.kind = HG_VAL_STR, .text = hg_arena_strndup(self->arena, b.data ? b.data : "", b.len),
                  .line = line, .origin = b.data && strchr(b.data, HG_HOLE) ? "an f-string" : NULL};
    hg_buf_free(&b);
    return v;
  }
  if (!strcmp(type, "integer") || !strcmp(type, "float"))
    return (hg_value){.kind = HG_VAL_NUM, .text = text_of(self, n), .line = line};
  if (!strcmp(type, "unary_operator")) {
    hg_value v = value_at(self, ts_node_child_by_field_name(n, "argument", 8), depth + 1);
    if (v.kind == HG_VAL_NUM) return (hg_value){.kind = HG_VAL_NUM, .text = text_of(self, n), .line = line};
    return unknown(self, n, "an expression");
  }
  if (!strcmp(type, "true")) return (hg_value){.kind = HG_VAL_TRUE, .text = "True", .line = line};
  if (!strcmp(type, "false")) return (hg_value){.kind = HG_VAL_FALSE, .text = "False", .line = line};
  if (!strcmp(type, "none")) return (hg_value){.kind = HG_VAL_NONE, .text = "None", .line = line};
  if (!strcmp(type, "parenthesized_expression") && hg_node_arg_count(n) == 1)
    return value_at(self, hg_node_arg(n, 0), depth + 1);
  if (!strcmp(type, "list") || !strcmp(type, "tuple") || !strcmp(type, "set")) {
    value_vec items = {0};
    push_items(self, n, &items, depth);
    return finish(self, (hg_value){.kind = HG_VAL_LIST, .text = text_of(self, n), .line = line}, &items);
  }
  if (!strcmp(type, "dictionary")) {
    value_vec items = {0};
    push_entries(self, n, &items, depth);
    return finish(self, (hg_value){.kind = HG_VAL_DICT, .text = text_of(self, n), .line = line}, &items);
  }
  if (!strcmp(type, "call")) {
    TSNode args = field(n, &F_ARGUMENTS);
    if (!ts_node_is_null(args) && callee_is(self, n, "dict") && !lookup(self->imports, "dict", 4))
      return keyword_dict(self, args, depth);
    if (!ts_node_is_null(args) && (callee_is(self, n, "list") || callee_is(self, n, "tuple")) &&
        hg_node_arg_count(args) == 1) {
      hg_value inner = value_at(self, hg_node_arg(args, 0), depth + 1);
      if (inner.kind == HG_VAL_LIST) return inner;
    }
    if (!ts_node_is_null(args) && callee_is(self, n, "str") && !lookup(self->imports, "str", 3) &&
        hg_node_arg_count(args) == 1) {
      // str() of a known number or string: "--pids-limit", str(self.pids_limit)
      hg_value inner = value_at(self, hg_node_arg(args, 0), depth + 1);
      if ((inner.kind == HG_VAL_NUM || inner.kind == HG_VAL_STR) && !inner.conditional) {
        inner.kind = HG_VAL_STR;
        return inner;
      }
    }
    return hg_summary_call(self, n, depth);
  }
  if (!strcmp(type, "binary_operator")) return binary(self, n, depth);
  if (!strcmp(type, "identifier")) return resolve_name(self, n, depth);
  if (!strcmp(type, "attribute")) return hg_summary_attribute(self, n, depth);
  return unknown(self, n, "an expression");
}

// Every value says which file it stands in (values from other modules of the project keep theirs).
static hg_value value_at(const hg_resolver *self, TSNode n, int depth) {
  hg_value v = value_of(self, n, depth);
  if (!v.path && self->module) v.path = self->module->path;
  return v;
}

hg_value hg_resolve_value_at(const hg_resolver *self, TSNode node, int depth) { return value_at(self, node, depth); }

hg_value hg_resolve_value(const hg_resolver *self, TSNode node) { return value_at(self, node, 0); }

static TSNode alias_of(const hg_resolver *self, TSNode use);

hg_value hg_resolve_kwargs(const hg_resolver *self, TSNode args) {
  value_vec items = {0};
  uint32_t group = 0;
  if (!is(args, "argument_list")) {
    // The keywords of the call an expression stands for: host_config=api.create_host_config(...)
    // or a name assigned from such a call.
    TSNode call = hg_resolve_call(self, args);
    TSNode inner = ts_node_is_null(call) ? call : ts_node_child_by_field_name(call, "arguments", 9);
    if (ts_node_is_null(inner) || !is(inner, "argument_list")) {
      hg_value u = value_at(self, args, 1);
      u.splat = true;
      HG_VEC_PUSH(&items, u);
      return finish(self, (hg_value){.kind = HG_VAL_DICT, .text = text_of(self, args),
                                     .line = ts_node_start_point(args).row + 1}, &items);
    }
    args = inner;
  }
  // functools.partial(client.containers.run, **defaults), called directly or through a name: its
  // bound keywords come first.
  TSNode call = ts_node_parent(args), fn = field(call, &F_FUNCTION), none = {0};
  TSNode alias = ts_node_is_null(fn) ? none : is(fn, "call") ? fn : is(fn, "identifier") ? alias_of(self, fn) : none;
  if (!ts_node_is_null(alias) && is(alias, "call")) {
    hg_buf q = {0};
    TSNode pfn = ts_node_child_by_field_name(alias, "function", 8), pargs = ts_node_child_by_field_name(alias, "arguments", 9);
    if (!ts_node_is_null(pfn) && !ts_node_is_null(pargs) && hg_resolve_qualify(self, pfn, &q) &&
        (!strcmp(q.data, "functools.partial") || !strcmp(q.data, "partial"))) {
      uint32_t n = ts_node_named_child_count(pargs);
      for (uint32_t i = 0; i < n; i++) {  // the bound keywords; the positional callee is skipped
        TSNode c = ts_node_named_child(pargs, i);
        if (is(c, "dictionary_splat"))
          push_spread(self, hg_node_arg(c, 0), &items, 1);
        else if (is(c, "keyword_argument"))
          push_keyword(self, c, &items, 0);
      }
    }
    hg_buf_free(&q);
  }
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (is(c, "keyword_argument")) {
      push_keyword(self, c, &items, 0);
    } else if (is(c, "dictionary_splat")) {
      // Entries of one `**{...}` literal are merged by the dict, where a later key silently
      // replaces an earlier one; across the call's own keywords a repeated key is a TypeError.
      hg_value inner = value_at(self, hg_node_arg(c, 0), 1);
      if (inner.kind == HG_VAL_DICT) {
        group++;
        for (size_t k = 0; k < inner.n_items; k++) {
          inner.items[k].group = group;
          HG_VEC_PUSH(&items, inner.items[k]);
        }
      } else {
        inner.splat = true;
        HG_VEC_PUSH(&items, inner);
      }
    }
    // Positional arguments (image, command) and `*args` carry no docker-py keywords.
  }
  return finish(self, (hg_value){.kind = HG_VAL_DICT, .text = text_of(self, args),
                                 .line = ts_node_start_point(args).row + 1}, &items);
}

// Does `n` (a statement) mention identifier `name`, optionally only inside arguments of a call that
// runs a process?
static bool mentions(const follow *f, TSNode n, bool in_process_call, int depth) {
  if (depth > MAX_DEPTH || ts_node_is_null(n)) return false;
  if (!in_process_call && is_name(f, n)) return true;
  if (in_process_call && is(n, "call")) {
    TSNode fn = field(n, &F_FUNCTION);
    hg_buf q = {0};
    bool proc = !ts_node_is_null(fn) && hg_imports_qualify(f->r->imports, fn, f->r->src, &q) &&
                hg_policy_is_process_call(f->r->policy, q.data);
    hg_buf_free(&q);
    if (proc && mentions(f, field(n, &F_ARGUMENTS), false, depth + 1)) return true;
  }
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++)
    if (mentions(f, ts_node_named_child(n, i), in_process_call, depth + 1)) return true;
  return false;
}

typedef struct {
  follow f;
  uint32_t after;  // the assignment that created the list ends here
} argv_follow;

// After `name = [...]`: what is added to the list until it is handed to a process call, returned,
// or the name is bound to something else.
static bool after_creation(void *ctx, hg_stmt s) {
  argv_follow *a = ctx;
  if (ts_node_start_byte(s.stmt) < a->after) return true;
  if (is(s.stmt, "return_statement")) return !mentions(&a->f, s.stmt, false, 0);
  if (mentions(&a->f, s.stmt, true, 0)) return false;
  TSNode e = ts_node_named_child_count(s.stmt) ? ts_node_named_child(s.stmt, 0) : (TSNode){0};
  // `name = other` rebinds the name; an annotation alone (`name: list`) does not.
  TSNode right = is(e, "assignment") ? ts_node_child_by_field_name(e, "right", 5) : (TSNode){0};
  if (!ts_node_is_null(right) && is_name(&a->f, ts_node_child_by_field_name(e, "left", 4)) &&
      !mentions(&a->f, right, false, 0))
    return false;  // rebound to something else
  return on_stmt(&a->f, s);
}

hg_value hg_resolve_argv(const hg_resolver *self, TSNode list) {
  hg_value v = value_at(self, list, 0);
  // ["docker", "run"] + flags + [image]: the site is the literal, its value the whole sum.
  TSNode top = list;
  for (TSNode p = ts_node_parent(top); !ts_node_is_null(p); p = ts_node_parent(top)) {
    if (is(p, "parenthesized_expression")) {
      top = p;
      continue;
    }
    TSNode op = ts_node_child_by_field_name(p, "operator", 8);
    if (!is(p, "binary_operator") || ts_node_is_null(op) || self->src[ts_node_start_byte(op)] != '+') break;
    hg_value sum = binary(self, p, 0);
    if (sum.kind != HG_VAL_LIST) break;
    v = sum;
    top = p;
  }
  TSNode asg = ts_node_parent(top);
  if (ts_node_is_null(asg) || !is(asg, "assignment") || !hg_node_contains(ts_node_child_by_field_name(asg, "right", 5), top))
    return v;
  TSNode target = ts_node_child_by_field_name(asg, "left", 4), stmt = ts_node_parent(asg);
  if (!is(target, "identifier") || ts_node_is_null(stmt) || !is(stmt, "expression_statement")) return v;
  uint32_t a = ts_node_start_byte(target), b = ts_node_end_byte(target);
  argv_follow af = {.f = {.r = self, .name = self->src + a, .len = b - a, .use = target, .defined = true,
                          .container = true, .cur = {.kind = HG_VAL_LIST}},
                    .after = ts_node_end_byte(stmt)};
  for (size_t i = 0; i < v.n_items; i++) HG_VEC_PUSH(&af.f.items, v.items[i]);
  hg_scope_walk(ts_node_parent(stmt), (TSNode){0}, after_creation, &af);
  if (af.f.spent) {
    hg_value u = over_budget(self, target);
    u.splat = true;
    HG_VEC_PUSH(&af.f.items, u);
  }
  hg_value out = {.kind = HG_VAL_LIST, .text = v.text, .line = v.line};
  return finish(self, out, &af.f.items);
}

// An expression joined into a shell command: one hole, a builder's when it calls one.
static void shell_hole(const hg_resolver *self, TSNode n, hg_buf *out, value_vec *holes, const char *origin) {
  hg_buf_putc(out, HG_HOLE);
  hg_value h = unknown(self, n, origin);
  builder_inside(self, n, &h);
  HG_VEC_PUSH(holes, h);
}

// The text of `fmt` formatted with `args`: each %-conversion ('%' style) or replacement field
// ('{' style, str.format) becomes a hole standing for args; %% and {{ }} are the characters.
static void formatted(const hg_resolver *self, TSNode fmt, TSNode args, char style, hg_buf *out, value_vec *holes,
                      int depth);

// The text of a shell command built from string literals: "a" "b", "a" + x, "... %s" % x,
// "... {}".format(x), f"...{x}". What is not a literal becomes a hole.
static void shell_text(const hg_resolver *self, TSNode n, hg_buf *out, value_vec *holes, int depth) {
  if (depth > MAX_DEPTH) {
    shell_hole(self, n, out, holes, "an expression joined into the command");
    return;
  }
  if (is(n, "string") || is(n, "concatenated_string")) {
    string_content(self, n, out, holes);
  } else if (is(n, "parenthesized_expression") && hg_node_arg_count(n) == 1) {
    shell_text(self, hg_node_arg(n, 0), out, holes, depth + 1);
  } else if (is(n, "binary_operator")) {
    TSNode op = ts_node_child_by_field_name(n, "operator", 8), left = ts_node_child_by_field_name(n, "left", 4),
           right = ts_node_child_by_field_name(n, "right", 5);
    char c = ts_node_is_null(op) ? 0 : self->src[ts_node_start_byte(op)];
    if (c == '+') {
      shell_text(self, left, out, holes, depth + 1);
      shell_text(self, right, out, holes, depth + 1);
    } else if (c == '%' && (is(left, "string") || is(left, "concatenated_string"))) {
      formatted(self, left, right, '%', out, holes, depth);
    } else {
      shell_hole(self, n, out, holes, "an expression joined into the command");
    }
  } else if (is(n, "call")) {
    TSNode fn = ts_node_child_by_field_name(n, "function", 8), args = ts_node_child_by_field_name(n, "arguments", 9);
    TSNode obj = is(fn, "attribute") ? ts_node_child_by_field_name(fn, "object", 6) : (TSNode){0};
    TSNode attr = is(fn, "attribute") ? ts_node_child_by_field_name(fn, "attribute", 9) : (TSNode){0};
    bool format = !ts_node_is_null(attr) && ts_node_end_byte(attr) - ts_node_start_byte(attr) == 6 &&
                  !memcmp(self->src + ts_node_start_byte(attr), "format", 6);
    if ((is(obj, "string") || is(obj, "concatenated_string")) && format)
      formatted(self, obj, args, '{', out, holes, depth);
    else
      shell_hole(self, n, out, holes, "an expression joined into the command");
  } else {
    // A name bound to a string literal (a module constant of flags) is its text.
    hg_value v = is(n, "identifier") ? value_at(self, n, depth + 1) : (hg_value){0};
    if (v.kind == HG_VAL_STR && !v.conditional && !strchr(v.text, HG_HOLE))
      hg_buf_puts(out, v.text);
    else
      shell_hole(self, n, out, holes, "an expression joined into the command");
  }
}

// The arguments a format string's placeholders stand for, read once with a cursor: the
// positional ones in order and the keywords, up to MAX_FORMAT_ARGS (a placeholder past them, or
// after a * or ** spread, stands for all of `all`).
enum { MAX_FORMAT_ARGS = 256 };
typedef struct {
  TSNode all;
  TSNode pos[MAX_FORMAT_ARGS], key[MAX_FORMAT_ARGS], value[MAX_FORMAT_ARGS];
  uint32_t n_pos, n_key;
  hg_value all_hole;  // format_hole's, once worked out
  bool have_all_hole;
} format_args;

static void format_args_read(format_args *fa, TSNode args) {
  fa->all = args;
  fa->n_pos = fa->n_key = 0;
  fa->have_all_hole = false;
  TSNode seq = args;
  if (is(seq, "parenthesized_expression") && hg_node_arg_count(seq) == 1) seq = hg_node_arg(seq, 0);
  if (!is(seq, "tuple") && !is(seq, "argument_list")) return;
  TSTreeCursor cur = ts_tree_cursor_new(seq);
  bool more = ts_tree_cursor_goto_first_child(&cur);
  for (; more && fa->n_pos < MAX_FORMAT_ARGS && fa->n_key < MAX_FORMAT_ARGS; more = ts_tree_cursor_goto_next_sibling(&cur)) {
    TSNode c = ts_tree_cursor_current_node(&cur);
    if (!ts_node_is_named(c) || is(c, "comment")) continue;
    if (is(c, "list_splat") || is(c, "dictionary_splat")) break;  // positions unknown from here
    if (is(c, "keyword_argument")) {
      TSNode k = ts_node_child_by_field_name(c, "name", 4), v = ts_node_child_by_field_name(c, "value", 5);
      if (!ts_node_is_null(k) && !ts_node_is_null(v)) {
        fa->key[fa->n_key] = k;
        fa->value[fa->n_key++] = v;
      }
    } else {
      fa->pos[fa->n_pos++] = c;
    }
  }
  ts_tree_cursor_delete(&cur);
}

// A placeholder's hole; the one standing for all the arguments is worked out once.
static void format_hole(const hg_resolver *self, format_args *fa, TSNode arg, hg_buf *out, value_vec *holes) {
  if (!ts_node_eq(arg, fa->all)) {
    shell_hole(self, arg, out, holes, "a value formatted into the command");
    return;
  }
  if (!fa->have_all_hole) {
    value_vec one = {0};
    hg_buf ignored = {0};
    shell_hole(self, arg, &ignored, &one, "a value formatted into the command");
    fa->all_hole = one.items[0];
    fa->have_all_hole = true;
    free(one.items);
    hg_buf_free(&ignored);
  }
  hg_buf_putc(out, HG_HOLE);
  HG_VEC_PUSH(holes, fa->all_hole);
}

// The argument a placeholder stands for: the `index`-th positional one, or the keyword `name`
// (len > 0) of str.format; all of them when it cannot be told.
static TSNode format_arg(const hg_resolver *self, const format_args *fa, uint32_t index, const char *name, size_t len) {
  if (!len) return index < fa->n_pos ? fa->pos[index] : fa->all;
  for (uint32_t i = 0; i < fa->n_key; i++) {
    TSNode k = fa->key[i];
    if (ts_node_end_byte(k) - ts_node_start_byte(k) == len && !memcmp(self->src + ts_node_start_byte(k), name, len))
      return fa->value[i];
  }
  return fa->all;
}

static void formatted(const hg_resolver *self, TSNode fmt, TSNode args, char style, hg_buf *out, value_vec *holes,
                      int depth) {
  uint32_t auto_index = 0;
  format_args *fa = hg_xmalloc(sizeof(format_args));
  format_args_read(fa, args);
  hg_buf text = {0};
  value_vec inner = {0};
  shell_text(self, fmt, &text, &inner, depth + 1);
  size_t next = 0;
  for (size_t i = 0; i < text.len; i++) {
    char c = text.data[i];
    if (c == HG_HOLE) {
      if (next < inner.len) HG_VEC_PUSH(holes, inner.items[next++]);
      hg_buf_putc(out, c);
    } else if (style == '%' && c == '%') {
      if (i + 1 < text.len && text.data[i + 1] == '%') {
        hg_buf_putc(out, '%');
        i++;
        continue;
      }
      // %[(name)][flags][width][.precision][length]conversion; a (name) takes from a mapping.
      size_t j = i + 1;
      bool named = j < text.len && text.data[j] == '(';
      if (named)
        while (j < text.len && text.data[j] != ')') j++;
      while (j < text.len && strchr("()#0- +*.0123456789hlL", text.data[j]) && text.data[j]) j++;
      i = j < text.len ? j : text.len - 1;
      TSNode arg = named ? args : format_arg(self, fa, auto_index++, NULL, 0);
      format_hole(self, fa, arg, out, holes);
    } else if (style == '{' && (c == '{' || c == '}') && i + 1 < text.len && text.data[i + 1] == c) {
      hg_buf_putc(out, c);
      i++;
    } else if (style == '{' && c == '{') {
      // {}, {0}, {name}, each with an optional .attr, [key], !conversion or :spec after it.
      size_t start = ++i;
      while (i < text.len && text.data[i] != '}') i++;
      size_t len = strcspn(text.data + start, ".[!:}");
      if (len > i - start) len = i - start;
      TSNode arg;
      if (len == 0) {
        arg = format_arg(self, fa, auto_index++, NULL, 0);
      } else if (strspn(text.data + start, "0123456789") >= len) {
        arg = format_arg(self, fa, (uint32_t)strtoul(text.data + start, NULL, 10), NULL, 0);
      } else {
        arg = format_arg(self, fa, 0, text.data + start, len);
      }
      format_hole(self, fa, arg, out, holes);
    } else {
      hg_buf_putc(out, c);
    }
  }
  free(inner.items);
  hg_buf_free(&text);
  free(fa);
}

hg_value hg_resolve_shell(const hg_resolver *self, TSNode command) {
  hg_buf content = {0};
  value_vec holes = {0}, words = {0};
  shell_text(self, command, &content, &holes, 0);
  hg_argv_words w = {0};
  hg_argv_split(&w, content.data ? content.data : "");
  size_t hole = 0;
  for (size_t i = 0; i < w.len; i++) {
    const char *word = w.items[i];
    size_t nholes = 0;
    for (const char *p = word; *p; p++) nholes += *p == HG_HOLE;
    hg_value v = {.kind = HG_VAL_STR, .text = adup(self->arena, word), .line = ts_node_start_point(command).row + 1};
    if (nholes == 1 && word[0] == HG_HOLE && word[1] == '\0' && hole < holes.len &&
        holes.items[hole].kind == HG_VAL_BUILDER) {
      v = holes.items[hole];
      v.splat = true;
    }
    hole += nholes;
    HG_VEC_PUSH(&words, v);
  }
  hg_argv_words_free(&w);
  hg_buf_free(&content);
  free(holes.items);
  return finish(self, (hg_value){.kind = HG_VAL_LIST, .text = text_of(self, command),
                                 .line = ts_node_start_point(command).row + 1}, &words);
}

// ---- aliases ------------------------------------------------------------------------------------

typedef struct {
  const char *src;
  const char *name;
  size_t len;
  TSNode value;    // the right side of the last assignment seen
  bool ambiguous;  // assigned on some paths only: no single alias
} alias_scan;

static bool alias_stmt(void *ctx, hg_stmt s) {
  alias_scan *a = ctx;
  if (!is(s.stmt, "expression_statement") || ts_node_named_child_count(s.stmt) == 0) return true;
  TSNode e = ts_node_named_child(s.stmt, 0);
  if (!is(e, "assignment")) return true;
  TSNode left = ts_node_child_by_field_name(e, "left", 4), right = ts_node_child_by_field_name(e, "right", 5);
  if (ts_node_is_null(left) || ts_node_is_null(right) || !is(left, "identifier")) return true;
  uint32_t x = ts_node_start_byte(left), y = ts_node_end_byte(left);
  if (y - x != a->len || memcmp(a->src + x, a->name, a->len) != 0) return true;
  if (s.conditional) a->ambiguous = true;
  a->value = right;
  return true;
}

// Which names the file's text assigns (`name = ...` as a statement), collected in one pass over
// the bytes the first time it is asked: an alias of a callee needs an assignment, and most names
// a callee is made of (self, print, len) never get one, so the scope walk is skipped for them.
typedef struct rhs_span {
  const char *text;  // the rest of the statement after `name =`
  size_t len;
  bool cut;          // the statement went on past MAX_SPAN_LINES: any word may be in it
  struct rhs_span *next;
} rhs_span;

// Lines an assignment is followed over while a bracket stays open (a bracket in a string or a
// comment counts too, so a span can be longer than its statement, never shorter).
enum { MAX_SPAN_LINES = 64 };

struct hg_name_memo {
  bool built;
  size_t cap, used;
  struct {
    const char *name;
    uint32_t len;
    rhs_span *rhs;
  } *slot;
};

struct hg_name_memo *hg_name_memo_new(hg_arena *arena) { return hg_arena_alloc(arena, sizeof(struct hg_name_memo)); }

static bool word_char(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

static uint32_t name_hash(const char *name, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)name[i]) * 16777619u;
  return h;
}

static void memo_insert(struct hg_name_memo *m, hg_arena *arena, const char *name, size_t len, rhs_span *rhs) {
  if (m->used * 2 >= m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 256, old_cap = m->cap;
    __typeof__(m->slot) old = m->slot;
    m->slot = hg_arena_alloc(arena, cap * sizeof(*m->slot));
    m->cap = cap;
    m->used = 0;
    for (size_t i = 0; i < old_cap; i++)
      if (old[i].name) memo_insert(m, arena, old[i].name, old[i].len, old[i].rhs);
  }
  for (size_t at = name_hash(name, len) % m->cap;; at = (at + 1) % m->cap) {
    if (!m->slot[at].name) {
      m->slot[at].name = name;
      m->slot[at].len = (uint32_t)len;
      m->slot[at].rhs = rhs;
      m->used++;
      return;
    }
    if (m->slot[at].len == len && memcmp(m->slot[at].name, name, len) == 0) {
      rhs_span *last = rhs;
      while (last && last->next) last = last->next;
      if (last) {
        last->next = m->slot[at].rhs;
        m->slot[at].rhs = rhs;
      }
      return;
    }
  }
}

// An alias is a statement: `name = ...` or `name: T = ...` at the start of a line (after its
// indentation, or after a `;`).
static void memo_build(struct hg_name_memo *m, hg_arena *arena, const char *src) {
  m->built = true;
  for (const char *p = src; *p;) {
    while (*p == ' ' || *p == '\t' || *p == ';') p++;
    const char *b = p;
    while (word_char(*p)) p++;
    const char *e = p;
    while (*p == ' ' || *p == '\t') p++;
    const char *rest = p;
    while (*p && *p != '\n' && *p != ';') p++;
    if (e > b && ((rest[0] == '=' && rest[1] != '=') || rest[0] == ':')) {
      // The span runs to the end of the statement: a bracket left open or a backslash carries it
      // over the line end (black wraps `run = functools.partial(` before its arguments). The
      // scan goes on from the next line all the same, so no statement start is skipped.
      rhs_span *span = hg_arena_alloc(arena, sizeof(rhs_span));
      const char *q = rest;
      unsigned lines = 0;
      for (int depth = 0; *q && (depth != 0 || (*q != '\n' && *q != ';')); q++) {
        if (*q == '(' || *q == '[' || *q == '{') depth++;
        else if ((*q == ')' || *q == ']' || *q == '}') && depth > 0) depth--;
        else if (*q == '\\' && q[1] == '\n' && depth == 0) depth = -1;  // one more line
        else if (*q == '\n' && depth < 0) depth = 0;
        if (*q == '\n' && ++lines > MAX_SPAN_LINES) {
          span->cut = true;
          break;
        }
      }
      span->text = rest;
      span->len = (size_t)(q - rest);
      memo_insert(m, arena, b, (size_t)(e - b), span);
    }
    if (*p) p++;
  }
}

// Is `name` assigned as a statement somewhere, with `word` (if given) in the assignment?
static bool assigned_with(const hg_resolver *self, const char *name, size_t len, const char *word, size_t wlen) {
  struct hg_name_memo *m = self->memo;
  if (!m) return true;
  if (!m->built) memo_build(m, self->arena, self->src);
  if (!m->cap) return false;
  for (size_t at = name_hash(name, len) % m->cap; m->slot[at].name; at = (at + 1) % m->cap) {
    if (m->slot[at].len != len || memcmp(m->slot[at].name, name, len) != 0) continue;
    if (!word) return true;
    for (const rhs_span *s = m->slot[at].rhs; s; s = s->next)
      if (s->cut || memmem(s->text, s->len, word, wlen)) return true;
    return false;
  }
  return false;
}

static bool assigned_somewhere(const hg_resolver *self, const char *name, size_t len) {
  return assigned_with(self, name, len, NULL, 0);
}

// The expression `name` (an identifier) was last assigned from, before it is read at `use`.
static TSNode alias_of(const hg_resolver *self, TSNode use) {
  TSNode fn, none = {0};
  // Most names a callee is made of (self, print, client) are never assigned an alias: skip the walk.
  if (!assigned_somewhere(self, self->src + ts_node_start_byte(use), ts_node_end_byte(use) - ts_node_start_byte(use)))
    return none;
  TSNode scope = hg_scope_of(use, &fn);
  uint32_t a = ts_node_start_byte(use), b = ts_node_end_byte(use);
  alias_scan s = {.src = self->src, .name = self->src + a, .len = b - a};
  hg_scope_walk(scope, use, alias_stmt, &s);
  if (ts_node_is_null(s.value) && !ts_node_is_null(fn) && !hg_scope_is_parameter(fn, self->src, s.name, s.len)) {
    TSNode module = fn;
    while (!ts_node_is_null(ts_node_parent(module))) module = ts_node_parent(module);
    hg_scope_walk(module, none, alias_stmt, &s);
  }
  return s.ambiguous ? none : s.value;
}

static bool string_arg(const hg_resolver *self, TSNode n, hg_buf *out) {
  if (!is(n, "string")) return false;
  hg_value v = value_at(self, n, MAX_DEPTH);
  if (v.kind != HG_VAL_STR || strchr(v.text, HG_HOLE)) return false;
  hg_buf_puts(out, v.text);
  return true;
}

static bool qualify(const hg_resolver *self, TSNode n, hg_buf *out, int depth) {
  if (depth > MAX_DEPTH || ts_node_is_null(n)) return false;
  if (is(n, "identifier")) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    TSNode alias = alias_of(self, n);
    if (!ts_node_is_null(alias) && (is(alias, "identifier") || is(alias, "attribute") || is(alias, "call")))
      return qualify(self, alias, out, depth + 1);
    const char *q = lookup(self->imports, self->src + a, b - a);
    if (q)
      hg_buf_puts(out, q);
    else
      hg_buf_add(out, self->src + a, b - a);
    return true;
  }
  if (is(n, "attribute")) {
    TSNode attr = field(n, &F_ATTRIBUTE);
    if (ts_node_is_null(attr) || !qualify(self, field(n, &F_OBJECT), out, depth + 1)) return false;
    hg_buf_putc(out, '.');
    hg_buf_add(out, self->src + ts_node_start_byte(attr), ts_node_end_byte(attr) - ts_node_start_byte(attr));
    return true;
  }
  if (is(n, "call")) {
    TSNode fn = field(n, &F_FUNCTION), args = field(n, &F_ARGUMENTS);
    hg_buf name = {0};
    bool ok = qualify(self, fn, &name, depth + 1);
    uint32_t nargs = ts_node_is_null(args) ? 0 : hg_node_arg_count(args);
    if (ok && !strcmp(name.data, "getattr") && nargs >= 2) {
      // getattr(obj, "attr") is obj.attr
      ok = qualify(self, hg_node_arg(args, 0), out, depth + 1);
      hg_buf_putc(out, '.');
      ok = ok && string_arg(self, hg_node_arg(args, 1), out);
    } else if (ok && (!strcmp(name.data, "__import__") || !strcmp(name.data, "importlib.import_module")) && nargs >= 1) {
      // __import__("docker") and importlib.import_module("docker") are the module itself
      ok = string_arg(self, hg_node_arg(args, 0), out);
    } else if (ok && (!strcmp(name.data, "functools.partial") || !strcmp(name.data, "partial")) && nargs >= 1) {
      ok = qualify(self, hg_node_arg(args, 0), out, depth + 1);  // partial(f, ...) calls f
    } else if (ok) {
      hg_buf_add(out, name.data, name.len);
      hg_buf_puts(out, "()");
    }
    hg_buf_free(&name);
    return ok;
  }
  return false;
}

bool hg_resolve_qualify(const hg_resolver *self, TSNode node, hg_buf *out) {
  out->len = 0;
  hg_buf_add(out, "", 0);
  return qualify(self, node, out, 0);
}

TSNode hg_resolve_call(const hg_resolver *self, TSNode node) {
  for (int depth = 0; depth < MAX_DEPTH && !ts_node_is_null(node); depth++) {
    if (is(node, "call")) return node;
    if (is(node, "parenthesized_expression") && hg_node_arg_count(node) == 1)
      node = hg_node_arg(node, 0);
    else if (is(node, "identifier"))
      node = alias_of(self, node);
    else
      break;
  }
  return (TSNode){0};
}

bool hg_resolve_may_end_in(const hg_resolver *self, TSNode callee, const char *last, size_t len) {
  TSNode id = callee;
  if (is(callee, "attribute")) id = field(callee, &F_ATTRIBUTE);
  else if (is(callee, "call")) return true;
  if (ts_node_is_null(id) || !is(id, "identifier")) return false;
  uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
  if (b - a == len && memcmp(self->src + a, last, len) == 0) return true;
  // A bare name: bound by an import, or an alias whose assignment mentions the last name
  // (run = client.containers.run).
  return is(callee, "identifier") &&
         (lookup(self->imports, self->src + a, b - a) || assigned_with(self, self->src + a, b - a, last, len));
}
