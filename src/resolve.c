#include "resolve.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "argv.h"

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

static const char *lookup(const hg_imports *self, const char *name, size_t len) {
  // The last binding wins, as in Python's top-to-bottom execution of a module.
  for (size_t i = self->bindings.len; i-- > 0;) {
    const binding *b = &self->bindings.items[i];
    if (strlen(b->name) == len && memcmp(b->name, name, len) == 0) return b->qualified;
  }
  return NULL;
}

static bool is(TSNode n, const char *type) { return strcmp(ts_node_type(n), type) == 0; }

static bool dotted(TSNode node, const char *src, hg_buf *out, const hg_imports *imports) {
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
    TSNode obj = ts_node_child_by_field_name(node, "object", 6);
    TSNode attr = ts_node_child_by_field_name(node, "attribute", 9);
    if (ts_node_is_null(obj) || ts_node_is_null(attr) || !dotted(obj, src, out, imports)) return false;
    hg_buf_putc(out, '.');
    hg_buf_add(out, src + ts_node_start_byte(attr), ts_node_end_byte(attr) - ts_node_start_byte(attr));
    return true;
  }
  return false;
}

bool hg_imports_qualify(const hg_imports *self, TSNode node, const char *src, hg_buf *out) {
  out->len = 0;
  hg_buf_add(out, "", 0);
  return dotted(node, src, out, self);
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
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
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
        TSNode attr = ts_node_child_by_field_name(fn, "attribute", 9);
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

typedef HG_VEC(hg_value) value_vec;

static hg_value finish(const hg_resolver *self, hg_value v, value_vec *items) {
  v.n_items = items->len;
  v.items = hg_arena_alloc(self->arena, (items->len ? items->len : 1) * sizeof(hg_value));
  if (items->len) memcpy(v.items, items->items, items->len * sizeof(hg_value));
  free(items->items);
  return v;
}

static bool contains_builder_call(const hg_resolver *self, TSNode n, int depth) {
  if (depth > MAX_DEPTH) return false;
  if (hg_resolve_is_builder(self, n)) return true;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++)
    if (contains_builder_call(self, ts_node_named_child(n, i), depth + 1)) return true;
  return false;
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
        if (contains_builder_call(self, c, 0)) h.kind = HG_VAL_BUILDER;
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
      hg_value inner = value_at(self, ts_node_named_child(c, 0), depth + 1);
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
      push_spread(self, ts_node_named_child(c, 0), items, depth);
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

static hg_value value_at(const hg_resolver *self, TSNode n, int depth) {
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
  if (!strcmp(type, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
    return value_at(self, ts_node_named_child(n, 0), depth + 1);
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
    if (hg_resolve_is_builder(self, n))
      return (hg_value){.kind = HG_VAL_BUILDER, .text = text_of(self, n), .line = line};
    return unknown(self, n, "a call that is not a configured hardening builder");
  }
  if (!strcmp(type, "identifier")) return unknown(self, n, "a name hardguard does not follow yet");
  if (!strcmp(type, "attribute")) return unknown(self, n, "an attribute");
  return unknown(self, n, "an expression");
}

hg_value hg_resolve_value(const hg_resolver *self, TSNode node) { return value_at(self, node, 0); }

hg_value hg_resolve_kwargs(const hg_resolver *self, TSNode args) {
  value_vec items = {0};
  uint32_t count = ts_node_named_child_count(args), group = 0;
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (is(c, "keyword_argument")) {
      TSNode k = ts_node_child_by_field_name(c, "name", 4), v = ts_node_child_by_field_name(c, "value", 5);
      if (ts_node_is_null(k) || ts_node_is_null(v)) continue;
      hg_value val = value_at(self, v, 1);
      val.key = text_of(self, k);
      HG_VEC_PUSH(&items, val);
    } else if (is(c, "dictionary_splat")) {
      // Entries of one `**{...}` literal are merged by the dict, where a later key silently
      // replaces an earlier one; across the call's own keywords a repeated key is a TypeError.
      hg_value inner = value_at(self, ts_node_named_child(c, 0), 1);
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

hg_value hg_resolve_argv(const hg_resolver *self, TSNode list) { return value_at(self, list, 0); }

hg_value hg_resolve_shell(const hg_resolver *self, TSNode string) {
  hg_buf content = {0};
  value_vec holes = {0}, words = {0};
  string_content(self, string, &content, &holes);
  hg_argv_words w = {0};
  hg_argv_split(&w, content.data ? content.data : "");
  size_t hole = 0;
  for (size_t i = 0; i < w.len; i++) {
    const char *word = w.items[i];
    size_t nholes = 0;
    for (const char *p = word; *p; p++) nholes += *p == HG_HOLE;
    hg_value v = {.kind = HG_VAL_STR, .text = adup(self->arena, word), .line = ts_node_start_point(string).row + 1};
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
  return finish(self, (hg_value){.kind = HG_VAL_LIST, .text = text_of(self, string),
                                 .line = ts_node_start_point(string).row + 1}, &words);
}
