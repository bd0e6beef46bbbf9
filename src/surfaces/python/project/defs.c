#include "surfaces/python/project/defs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/scope.h"

const char *hg_project__printf(hg_arena *a, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return hg_arena_strndup(a, buf, strlen(buf));
}

const char *hg_project__path(const hg_module *m) { return m && m->path ? m->path : "?"; }

// A resolver reading module `m` (no frame: module scope).
hg_resolver hg_project__in_module(const hg_resolver *r, const hg_module *m) {
  hg_resolver mr = *r;
  if (m != r->module) {
    mr.src = m->src;
    mr.imports = m->imports;
    mr.module = m;
    mr.memo = NULL; // the name memo is per file; without one aliases are looked for by walking
  }
  mr.frame = NULL;
  mr.bindings = NULL; // loop variables belong to the expression being read, not to the module
  mr.call_keywords = false;
  mr.params = NULL; // parameters are recorded where the site stands only
  return mr;
}

static bool same_def(const hg_hop *h, const hg_module *m, uint32_t at) {
  for (; h; h = h->prev)
    if (h->at == at &&
        (h->module == m || (h->module && m && !strcmp(hg_project__path(h->module), hg_project__path(m)))))
      return true;
  return false;
}

// Enters a definition: NULL and *why set when it would loop or go too deep.
const char *hg_project__enter(const hg_resolver *r, hg_hop *hop, const hg_module *m, TSNode def) {
  *hop = (hg_hop){
      .module = m, .at = ts_node_start_byte(def), .depth = (r->hops ? r->hops->depth : 0) + 1, .prev = r->hops};
  if (same_def(r->hops, m, hop->at))
    return "a definition that depends on itself (a recursive call or an import cycle)";
  if (hop->depth > HG_SUMMARY_MAX_DEPTH)
    return "a chain of calls and constants deeper than hardguard follows";
  return NULL;
}

// ---- definitions ----------------------------------------------------------------------------------

// The last top-level definition of `name` in module m: a def, a class, or an assignment.
hg_target hg_defs__find(const hg_module *m, const char *name, size_t len) {
  hg_target t = {.kind = HG_DEF_NONE, .module = m};
  TSTreeCursor cur = ts_tree_cursor_new(m->root);
  for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur)) {
    TSNode s = ts_tree_cursor_current_node(&cur), deco = {0};
    if (hg_node_is(s, "decorated_definition")) {
      deco = s;
      s = hg_node_field(s, "definition");
    }
    if (hg_node_is(s, "function_definition") || hg_node_is(s, "class_definition")) {
      if (hg_node_text_eq(hg_node_field(s, "name"), m->src, name, len))
        t = (hg_target){hg_node_is(s, "class_definition") ? HG_DEF_CLASS : HG_DEF_FUNCTION, m, s, deco};
    } else if (hg_node_is(s, "expression_statement") && ts_node_named_child_count(s) > 0) {
      TSNode e = ts_node_named_child(s, 0);
      for (; hg_node_is(e, "assignment"); e = hg_node_field(e, "right")) {
        TSNode left = hg_node_field(e, "left");
        if (hg_node_is(left, "identifier") && hg_node_text_eq(left, m->src, name, len) &&
            !ts_node_is_null(hg_node_field(e, "right")))
          t = (hg_target){.kind = HG_DEF_CONSTANT, .module = m, .node = left};
      }
    }
  }
  ts_tree_cursor_delete(&cur);
  return t;
}

hg_target hg_defs__qualified(const hg_resolver *r, const char *q, int depth);

hg_target hg_defs__nested(const hg_resolver *r, TSNode use) {
  hg_target t = {.kind = HG_DEF_NONE};
  if (!hg_scope_may_nest(r->scopes, use))
    return t;
  const char *name = r->src + ts_node_start_byte(use);
  size_t len = ts_node_end_byte(use) - ts_node_start_byte(use);
  uint32_t at = ts_node_start_byte(use);
  TSNode fn;
  hg_scope_of(r->scopes, use, &fn);
  for (int around = 0; r->module && !ts_node_is_null(fn) && around < HG_SUMMARY_MAX_DEPTH; around++) {
    TSTreeCursor cur = ts_tree_cursor_new(hg_node_field(fn, "body"));
    for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur)) {
      TSNode s = ts_tree_cursor_current_node(&cur);
      if (ts_node_start_byte(s) >= at)
        break;
      TSNode d = hg_node_is(s, "decorated_definition") ? hg_node_field(s, "definition") : s;
      if (hg_node_is(d, "function_definition") && hg_node_text_eq(hg_node_field(d, "name"), r->src, name, len)) {
        t = (hg_target){.kind = HG_DEF_FUNCTION, .module = r->module, .node = d};
        if (!ts_node_eq(s, d))
          t.decorated = s;
      }
    }
    ts_tree_cursor_delete(&cur);
    if (t.kind != HG_DEF_NONE)
      return t;
    hg_scope_of(r->scopes, fn, &fn);
  }
  return t;
}

// `name` as module m binds it: its own definition, else what it imports under that name.
hg_target hg_defs__lookup(const hg_resolver *r, const hg_module *m, const char *name, size_t len, int depth) {
  hg_target t = hg_defs__find(m, name, len);
  if (t.kind != HG_DEF_NONE || depth > HG_SUMMARY_MAX_DEPTH)
    return t;
  const char *q = hg_imports_lookup(m->imports, name, len);
  if (!q)
    return t;
  hg_resolver mr = hg_project__in_module(r, m);
  return hg_defs__qualified(&mr, q, depth + 1);
}

// A method or class attribute `name` of class t, or of a base class defined in the project.
size_t hg_defs__bases(const hg_resolver *r, hg_target cls, hg_target *out, int depth) {
  TSNode bases = hg_node_field(cls.node, "superclasses");
  size_t n = 0;
  for (uint32_t i = 0, k = hg_node_arg_count(bases); i < k && n < HG_DEFS_MAX_BASES; i++) {
    TSNode b = hg_node_arg(bases, i);
    if (!hg_node_is(b, "identifier"))
      continue; // Generic[T], metaclass=..., a module.Class (not followed)
    uint32_t a = ts_node_start_byte(b), e = ts_node_end_byte(b);
    hg_target base = hg_defs__lookup(r, cls.module, cls.module->src + a, e - a, depth + 1);
    if (base.kind == HG_DEF_CLASS && !ts_node_eq(base.node, cls.node))
      out[n++] = base;
  }
  return n;
}

static hg_target member(const hg_resolver *r, hg_target cls, const char *name, size_t len, int depth);

// Asked again and again of one class while a method is evaluated (each `self.x` of each condition):
// kept in the file's cache, by the class's module and place and the name.
hg_target hg_defs__member(const hg_resolver *r, hg_target cls, const char *name, size_t len, int depth) {
  hg_table *memo = depth == 0 && r->cache ? &r->cache->members : NULL;
  enum { HEAD = sizeof(const hg_module *) + sizeof(uint32_t), MAX_NAME = 256 };
  char key[HEAD + MAX_NAME];
  size_t kn = 0;
  if (memo && len <= MAX_NAME && !ts_node_is_null(cls.node)) {
    uint32_t at = ts_node_start_byte(cls.node);
    memcpy(key, &cls.module, sizeof(const hg_module *));
    memcpy(key + sizeof(const hg_module *), &at, sizeof at);
    memcpy(key + HEAD, name, len);
    kn = HEAD + len;
    size_t *v = hg_table_get(memo, key, kn);
    if (v)
      return *(const hg_target *)(uintptr_t)*v;
  }
  hg_target t = member(r, cls, name, len, depth);
  if (kn) {
    char *kept = hg_arena_alloc(r->arena, kn);
    memcpy(kept, key, kn);
    hg_target *answer = hg_arena_alloc(r->arena, sizeof(hg_target));
    *answer = t;
    *hg_table_put(memo, kept, kn, NULL) = (uintptr_t)answer;
  }
  return t;
}

static hg_target member(const hg_resolver *r, hg_target cls, const char *name, size_t len, int depth) {
  hg_target none = {.kind = HG_DEF_NONE};
  if (depth > HG_SUMMARY_MAX_DEPTH)
    return none;
  TSNode body = hg_node_field(cls.node, "body");
  const char *src = cls.module->src;
  hg_target found = none;
  if (ts_node_is_null(body))
    return none;
  // One cursor over the body: ts_node_named_child(i) walks from the first child each time, and a
  // class of hundreds of members (traitlets' configurables) made each lookup quadratic.
  TSTreeCursor cur = ts_tree_cursor_new(body);
  for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur)) {
    TSNode s = ts_tree_cursor_current_node(&cur), deco = {0};
    if (hg_node_is(s, "decorated_definition")) {
      deco = s;
      s = hg_node_field(s, "definition");
    }
    if (hg_node_is(s, "function_definition") && hg_node_text_eq(hg_node_field(s, "name"), src, name, len))
      found = (hg_target){HG_DEF_FUNCTION, cls.module, s, deco};
  }
  ts_tree_cursor_delete(&cur);
  if (found.kind != HG_DEF_NONE)
    return found;
  hg_target bases[HG_DEFS_MAX_BASES];
  for (size_t i = 0, n = hg_defs__bases(r, cls, bases, depth); i < n; i++) {
    found = hg_defs__member(r, bases[i], name, len, depth + 1);
    if (found.kind != HG_DEF_NONE)
      return found;
  }
  return none;
}

hg_target hg_defs__qualified(const hg_resolver *r, const char *q, int depth) {
  hg_target none = {.kind = HG_DEF_NONE};
  if (!r->index || depth > HG_SUMMARY_MAX_DEPTH)
    return none;
  size_t n = strlen(q);
  // The longest prefix that is a module of the project; the rest names what is in it.
  for (size_t len = n; len > 0;) {
    const hg_module *m = hg_index_module(r->index, q, len, r->module ? r->module->path : NULL, r->module);
    if (m) {
      if (len == n)
        return (hg_target){.kind = HG_DEF_MODULE, .module = m};
      const char *rest = q + len + 1, *dot = strchr(rest, '.');
      hg_target t = hg_defs__lookup(r, m, rest, dot ? (size_t)(dot - rest) : strlen(rest), depth + 1);
      if (!dot)
        return t;
      if (t.kind == HG_DEF_CLASS && !strchr(dot + 1, '.'))
        return hg_defs__member(r, t, dot + 1, strlen(dot + 1), depth + 1);
      return none;
    }
    while (len > 0 && q[len - 1] != '.')
      len--;
    if (len > 0)
      len--;
  }
  return none;
}

TSNode hg_defs__class_of_method(TSNode fn) {
  TSNode p = ts_node_parent(fn);
  if (hg_node_is(p, "decorated_definition"))
    p = ts_node_parent(p);
  p = hg_node_is(p, "block") ? ts_node_parent(p) : (TSNode){0};
  return hg_node_is(p, "class_definition") ? p : (TSNode){0};
}

TSNode hg_defs__self_class(const hg_resolver *r, TSNode name) {
  TSNode fn;
  hg_scope_of(r->scopes, name, &fn);
  TSNode cls = ts_node_is_null(fn) ? fn : hg_defs__class_of_method(fn);
  TSNode params = ts_node_is_null(cls) ? cls : hg_node_field(fn, "parameters");
  TSNode first = ts_node_is_null(params) ? params : hg_node_arg(params, 0);
  if (!hg_node_is(first, "identifier") ||
      !hg_node_text_eq(name, r->src, r->src + ts_node_start_byte(first),
                       ts_node_end_byte(first) - ts_node_start_byte(first)))
    return (TSNode){0};
  // A @staticmethod's first parameter is not the instance; a @classmethod's is the class.
  static char *const not_bound[] = {"staticmethod", "classmethod"};
  TSNode deco = ts_node_parent(fn);
  if (hg_node_is(deco, "decorated_definition") && hg_defs__decorated(r->module, deco, not_bound, 2))
    return (TSNode){0};
  return cls;
}

// ---- decorators ---------------------------------------------------------------------------------

// A decorator's name as written, without its call: `dataclass(frozen=True)` is `dataclass`.
static TSNode decorator_name(TSNode decorator) {
  TSNode e = ts_node_named_child_count(decorator) ? ts_node_named_child(decorator, 0) : (TSNode){0};
  return hg_node_is(e, "call") ? hg_node_field(e, "function") : e;
}

bool hg_defs__named_in(TSNode n, const char *src, char *const *list, size_t count) {
  if (ts_node_is_null(n))
    return false;
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return hg_policy_list_has(list, count, src + a, b - a);
}

bool hg_defs__decorated(const hg_module *m, TSNode decorated, char *const *list, size_t count) {
  for (uint32_t i = 0, n = ts_node_is_null(decorated) ? 0 : ts_node_named_child_count(decorated); i < n; i++) {
    TSNode d = ts_node_named_child(decorated, i);
    if (hg_node_is(d, "decorator") && hg_defs__named_in(decorator_name(d), m->src, list, count))
      return true;
  }
  return false;
}
