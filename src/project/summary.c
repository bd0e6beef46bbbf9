#include "project/summary.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "scope.h"

// ---- small helpers ------------------------------------------------------------------------------

static const char *aprintf(hg_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *aprintf(hg_arena *a, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return hg_arena_strndup(a, buf, strlen(buf));
}

static uint32_t line_of(TSNode n) { return ts_node_start_point(n).row + 1; }

static const char *path_of(const hg_module *m) { return m && m->path ? m->path : "?"; }

// A resolver reading module `m` (no frame: module scope).
static hg_resolver in_module(const hg_resolver *r, const hg_module *m) {
  hg_resolver mr = *r;
  if (m != r->module) {
    mr.src = m->src;
    mr.imports = m->imports;
    mr.module = m;
    mr.memo = NULL;  // the name memo is per file; without one aliases are looked for by walking
  }
  mr.frame = NULL;
  return mr;
}

typedef enum { DEF_NONE, DEF_FUNCTION, DEF_CLASS, DEF_CONSTANT, DEF_MODULE } def_kind;

typedef struct {
  def_kind kind;
  const hg_module *module;
  TSNode node;  // FUNCTION, CLASS: the definition; CONSTANT: the assigned identifier
  TSNode decorated;  // the decorated_definition around it, or null
} target;

static bool same_def(const hg_hop *h, const hg_module *m, uint32_t at) {
  for (; h; h = h->prev)
    if (h->at == at && (h->module == m || (h->module && m && !strcmp(path_of(h->module), path_of(m))))) return true;
  return false;
}

// Enters a definition: NULL and *why set when it would loop or go too deep.
static const char *enter(const hg_resolver *r, hg_hop *hop, const hg_module *m, TSNode def) {
  *hop = (hg_hop){.module = m, .at = ts_node_start_byte(def), .depth = (r->hops ? r->hops->depth : 0) + 1,
                  .prev = r->hops};
  if (same_def(r->hops, m, hop->at)) return "a definition that depends on itself (a recursive call or an import cycle)";
  if (hop->depth > HG_SUMMARY_MAX_DEPTH) return "a chain of calls and constants deeper than hardguard follows";
  return NULL;
}

// ---- definitions ----------------------------------------------------------------------------------

// The last top-level definition of `name` in module m: a def, a class, or an assignment.
static target find_def(const hg_module *m, const char *name, size_t len) {
  target t = {.kind = DEF_NONE, .module = m};
  TSTreeCursor cur = ts_tree_cursor_new(m->root);
  for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur)) {
    TSNode s = ts_tree_cursor_current_node(&cur), deco = {0};
    if (hg_node_is(s, "decorated_definition")) {
      deco = s;
      s = hg_node_field(s, "definition");
    }
    if (hg_node_is(s, "function_definition") || hg_node_is(s, "class_definition")) {
      if (hg_node_text_eq(hg_node_field(s, "name"), m->src, name, len))
        t = (target){hg_node_is(s, "class_definition") ? DEF_CLASS : DEF_FUNCTION, m, s, deco};
    } else if (hg_node_is(s, "expression_statement") && ts_node_named_child_count(s) > 0) {
      TSNode e = ts_node_named_child(s, 0);
      for (; hg_node_is(e, "assignment"); e = hg_node_field(e, "right")) {
        TSNode left = hg_node_field(e, "left");
        if (hg_node_is(left, "identifier") && hg_node_text_eq(left, m->src, name, len) &&
            !ts_node_is_null(hg_node_field(e, "right")))
          t = (target){.kind = DEF_CONSTANT, .module = m, .node = left};
      }
    }
  }
  ts_tree_cursor_delete(&cur);
  return t;
}

static target resolve_qualified(const hg_resolver *r, const char *q, int depth);

// `name` as module m binds it: its own definition, else what it imports under that name.
static target lookup_in(const hg_resolver *r, const hg_module *m, const char *name, size_t len, int depth) {
  target t = find_def(m, name, len);
  if (t.kind != DEF_NONE || depth > HG_SUMMARY_MAX_DEPTH) return t;
  const char *q = hg_imports_lookup(m->imports, name, len);
  if (!q) return t;
  hg_resolver mr = in_module(r, m);
  return resolve_qualified(&mr, q, depth + 1);
}

// A method or class attribute `name` of class t, or of a base class defined in the project.
static target find_member(const hg_resolver *r, target cls, const char *name, size_t len, int depth) {
  target none = {.kind = DEF_NONE};
  if (depth > HG_SUMMARY_MAX_DEPTH) return none;
  TSNode body = hg_node_field(cls.node, "body");
  const char *src = cls.module->src;
  target found = none;
  for (uint32_t i = 0, n = ts_node_named_child_count(body); i < n; i++) {
    TSNode s = ts_node_named_child(body, i), deco = {0};
    if (hg_node_is(s, "decorated_definition")) {
      deco = s;
      s = hg_node_field(s, "definition");
    }
    if (hg_node_is(s, "function_definition") && hg_node_text_eq(hg_node_field(s, "name"), src, name, len))
      found = (target){DEF_FUNCTION, cls.module, s, deco};
  }
  if (found.kind != DEF_NONE) return found;
  TSNode bases = hg_node_field(cls.node, "superclasses");
  for (uint32_t i = 0, n = hg_node_arg_count(bases); i < n; i++) {
    TSNode b = hg_node_arg(bases, i);
    if (!hg_node_is(b, "identifier")) continue;
    uint32_t a = ts_node_start_byte(b), e = ts_node_end_byte(b);
    target base = lookup_in(r, cls.module, src + a, e - a, depth + 1);
    if (base.kind == DEF_CLASS) {
      found = find_member(r, base, name, len, depth + 1);
      if (found.kind != DEF_NONE) return found;
    }
  }
  return none;
}

static target resolve_qualified(const hg_resolver *r, const char *q, int depth) {
  target none = {.kind = DEF_NONE};
  if (!r->index || depth > HG_SUMMARY_MAX_DEPTH) return none;
  size_t n = strlen(q);
  // The longest prefix that is a module of the project; the rest names what is in it.
  for (size_t len = n; len > 0;) {
    const hg_module *m = hg_index_module(r->index, q, len, r->module ? r->module->path : NULL);
    if (m) {
      if (len == n) return (target){.kind = DEF_MODULE, .module = m};
      const char *rest = q + len + 1, *dot = strchr(rest, '.');
      target t = lookup_in(r, m, rest, dot ? (size_t)(dot - rest) : strlen(rest), depth + 1);
      if (!dot) return t;
      if (t.kind == DEF_CLASS && !strchr(dot + 1, '.')) return find_member(r, t, dot + 1, strlen(dot + 1), depth + 1);
      return none;
    }
    while (len > 0 && q[len - 1] != '.') len--;
    if (len > 0) len--;
  }
  return none;
}

// ---- configured builders --------------------------------------------------------------------------

static bool callable_is(const char *callable, const char *cls, size_t cls_len, const char *fn, size_t fn_len) {
  const char *dot = strchr(callable, '.');
  if (!dot) return !cls && strlen(callable) == fn_len && !memcmp(callable, fn, fn_len);
  return cls && (size_t)(dot - callable) == cls_len && !memcmp(callable, cls, cls_len) && strlen(dot + 1) == fn_len &&
         !memcmp(dot + 1, fn, fn_len);
}

// The configured builder a definition is, with its callable: `fn` of module m, or the method `fn`
// of class `cls` (or of a subclass: `owner` is where the method is defined).
static const hg_builder *configured(const hg_config *c, const hg_module *m, const char *cls, size_t cls_len,
                                    const char *fn, size_t fn_len) {
  for (size_t i = 0; i < c->n_builders; i++) {
    const hg_builder *b = &c->builders[i];
    if (!m->name || !hg_module_matches(m->name, strlen(m->name), b->module)) continue;
    for (size_t k = 0; k < b->n_callables; k++)
      if (callable_is(b->callables[k], cls, cls_len, fn, fn_len)) return b;
  }
  return NULL;
}

// Is the configured builder named by a qualified callee trusted, or known at all?
static const hg_builder *configured_by_name(const hg_config *c, const char *q, bool method, const char *attr,
                                            size_t attr_len) {
  size_t qn = strlen(q);
  for (size_t i = 0; i < c->n_builders; i++) {
    const hg_builder *b = &c->builders[i];
    for (size_t k = 0; k < b->n_callables; k++) {
      const char *callable = b->callables[k], *dot = strchr(callable, '.');
      if (method) {
        // Class.method: q is the class the receiver was made by (module.Class).
        if (!dot || strlen(dot + 1) != attr_len || memcmp(dot + 1, attr, attr_len)) continue;
        size_t cn = (size_t)(dot - callable);
        if (qn > cn + 1 && q[qn - cn - 1] == '.' && !memcmp(q + qn - cn, callable, cn) &&
            hg_module_matches(q, qn - cn - 1, b->module))
          return b;
      } else {
        size_t cn = strlen(callable);
        if (!dot && qn > cn + 1 && q[qn - cn - 1] == '.' && !strcmp(q + qn - cn, callable) &&
            hg_module_matches(q, qn - cn - 1, b->module))
          return b;
      }
    }
  }
  return NULL;
}

// Is `attr` the method name of some configured Class.method builder?
static const char *configured_method(const hg_config *c, const char *attr, size_t len) {
  for (size_t i = 0; i < c->n_builders; i++)
    for (size_t k = 0; k < c->builders[i].n_callables; k++) {
      const char *callable = c->builders[i].callables[k], *dot = strchr(callable, '.');
      if (dot && strlen(dot + 1) == len && !memcmp(dot + 1, attr, len)) return callable;
    }
  return NULL;
}

// ---- values -------------------------------------------------------------------------------------

typedef HG_VEC(hg_value) value_vec;

static hg_value finish(hg_arena *a, hg_value v, value_vec *items) {
  v.n_items = items->len;
  v.items = hg_arena_alloc(a, (items->len ? items->len : 1) * sizeof(hg_value));
  if (items->len) memcpy(v.items, items->items, items->len * sizeof(hg_value));
  free(items->items);
  return v;
}

// What reached a site through a definition says so: the value and each item it holds.
static hg_value stamp(hg_arena *a, hg_value v, const char *via) {
  if (!v.via) v.via = via;
  if (v.kind == HG_VAL_LIST || v.kind == HG_VAL_DICT) {
    hg_value *items = hg_arena_alloc(a, (v.n_items ? v.n_items : 1) * sizeof(hg_value));
    for (size_t i = 0; i < v.n_items; i++) {
      items[i] = v.items[i];
      if (!items[i].via) items[i].via = via;
    }
    v.items = items;
  }
  return v;
}

static hg_value unknown_at(const hg_resolver *r, TSNode n, const char *origin) { return hg_resolve_unknown(r, n, origin); }

// The last value set under `key` among keyed items.
static const hg_value *attribute_of(const hg_value *obj, const char *key, size_t len) {
  for (size_t i = obj->n_items; i-- > 0;) {
    const hg_value *it = &obj->items[i];
    if (it->key && strlen(it->key) == len && !memcmp(it->key, key, len)) return it;
  }
  return NULL;
}

// ---- binding a call's arguments -----------------------------------------------------------------

typedef enum { P_PLAIN, P_STAR, P_DSTAR, P_MARK } param_kind;

typedef struct {
  const char *name;
  size_t len;
  TSNode dflt;
  param_kind kind;
  bool bound;
  hg_value value;
} param;

static TSNode param_name(TSNode p) {
  if (hg_node_is(p, "identifier")) return p;
  TSNode id = hg_node_field(p, "name");
  if (ts_node_is_null(id)) id = ts_node_named_child_count(p) ? ts_node_named_child(p, 0) : (TSNode){0};
  for (int k = 0; k < 2 && !ts_node_is_null(id) && !hg_node_is(id, "identifier"); k++)
    id = ts_node_named_child_count(id) ? ts_node_named_child(id, 0) : (TSNode){0};
  return hg_node_is(id, "identifier") ? id : (TSNode){0};
}

static size_t read_params(const hg_module *m, TSNode fn, param *out, size_t max) {
  TSNode params = hg_node_field(fn, "parameters");
  size_t n = 0;
  for (uint32_t i = 0, k = ts_node_named_child_count(params); i < k && n < max; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (hg_node_is(p, "comment")) continue;
    param q = {.kind = P_PLAIN};
    TSNode inner = p;
    if (hg_node_is(p, "typed_parameter") && ts_node_named_child_count(p)) inner = ts_node_named_child(p, 0);
    if (hg_node_is(inner, "list_splat_pattern")) q.kind = P_STAR;
    else if (hg_node_is(inner, "dictionary_splat_pattern")) q.kind = P_DSTAR;
    else if (hg_node_is(p, "keyword_separator") || hg_node_is(p, "positional_separator")) q.kind = P_MARK;
    TSNode id = q.kind == P_MARK ? (TSNode){0} : param_name(inner);
    if (q.kind != P_MARK && ts_node_is_null(id)) continue;
    if (!ts_node_is_null(id)) {
      q.name = m->src + ts_node_start_byte(id);
      q.len = ts_node_end_byte(id) - ts_node_start_byte(id);
    }
    q.dflt = hg_node_field(p, "value");
    out[n++] = q;
  }
  return n;
}

enum { MAX_PARAMS = 64 };

static param *param_named(param *ps, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (ps[i].kind == P_PLAIN && ps[i].len == len && !memcmp(ps[i].name, name, len)) return &ps[i];
  return NULL;
}

// Binds `args` (an argument_list of the caller's, or a null node) to the parameters of `fn` in
// module m, with `self` (when given) as the first; values are the caller's. Unbound parameters
// take their defaults, read in the definition's module.
static void bind(const hg_resolver *caller, const hg_module *m, TSNode fn, TSNode args, const hg_value *self,
                 hg_frame *out, int depth) {
  param ps[MAX_PARAMS];
  size_t n = read_params(m, fn, ps, MAX_PARAMS), next = 0;
  param *star = NULL, *dstar = NULL;
  for (size_t i = 0; i < n; i++) {
    if (ps[i].kind == P_STAR) star = &ps[i];
    if (ps[i].kind == P_DSTAR) dstar = &ps[i];
  }
  if (self && n > 0 && ps[0].kind == P_PLAIN) {
    ps[0].bound = true;
    ps[0].value = *self;
    next = 1;
  }
  value_vec extra_pos = {0}, extra_kw = {0};
  const char *lost = NULL;  // a *args or **kwargs argument hid which parameters it fills
  TSNode lost_at = args;
  for (uint32_t i = 0, k = hg_node_arg_count(args); i < k; i++) {
    TSNode a = hg_node_arg(args, i);
    if (hg_node_is(a, "keyword_argument")) {
      TSNode name = hg_node_field(a, "name");
      uint32_t s = ts_node_start_byte(name), e = ts_node_end_byte(name);
      hg_value v = hg_resolve_value_at(caller, hg_node_field(a, "value"), depth + 1);
      param *p = param_named(ps, n, caller->src + s, e - s);
      if (p) {
        p->bound = true;
        p->value = v;
      } else {
        v.key = hg_arena_strndup(caller->arena, caller->src + s, e - s);
        HG_VEC_PUSH(&extra_kw, v);
      }
    } else if (hg_node_is(a, "dictionary_splat")) {
      hg_value v = hg_resolve_value_at(caller, hg_node_arg(a, 0), depth + 1);
      for (size_t j = 0; v.kind == HG_VAL_DICT && j < v.n_items; j++) {
        param *p = v.items[j].key ? param_named(ps, n, v.items[j].key, strlen(v.items[j].key)) : NULL;
        if (p && !v.items[j].conditional) {
          p->bound = true;
          p->value = v.items[j];
          p->value.key = NULL;
        } else if (!p) {
          HG_VEC_PUSH(&extra_kw, v.items[j]);
        } else {
          lost = "a value passed on some paths only";
          lost_at = a;
        }
      }
      if (v.kind != HG_VAL_DICT) {
        lost = "a **mapping argument hardguard cannot follow";
        lost_at = a;
        v.splat = true;
        HG_VEC_PUSH(&extra_kw, v);
      }
    } else if (hg_node_is(a, "list_splat")) {
      hg_value v = hg_resolve_value_at(caller, hg_node_arg(a, 0), depth + 1);
      if (v.kind == HG_VAL_LIST) {
        for (size_t j = 0; j < v.n_items; j++) {
          while (next < n && ps[next].kind != P_PLAIN) next = ps[next].kind == P_STAR ? n : next + 1;
          if (next < n) {
            ps[next].bound = true;
            ps[next++].value = v.items[j];
          } else {
            HG_VEC_PUSH(&extra_pos, v.items[j]);
          }
        }
      } else {
        lost = "a *sequence argument hardguard cannot follow";
        lost_at = a;
        next = n;
      }
    } else {
      hg_value v = hg_resolve_value_at(caller, a, depth + 1);
      while (next < n && ps[next].kind != P_PLAIN) next = ps[next].kind == P_STAR ? n : next + 1;
      if (next < n) {
        ps[next].bound = true;
        ps[next++].value = v;
      } else {
        HG_VEC_PUSH(&extra_pos, v);
      }
    }
  }
  hg_resolver def_scope = in_module(caller, m);
  hg_frame *f = out;
  f->fn = fn;
  f->n = 0;
  f->names = hg_arena_alloc(caller->arena, (n ? n : 1) * sizeof(char *));
  hg_value *values = hg_arena_alloc(caller->arena, (n ? n : 1) * sizeof(hg_value));
  f->values = values;
  for (size_t i = 0; i < n; i++) {
    param *p = &ps[i];
    if (p->kind == P_MARK) continue;
    hg_value v;
    if (p == star) {
      v = finish(caller->arena, (hg_value){.kind = HG_VAL_LIST, .text = "*args", .line = line_of(fn)}, &extra_pos);
      extra_pos = (value_vec){0};
    } else if (p == dstar) {
      v = finish(caller->arena, (hg_value){.kind = HG_VAL_DICT, .text = "**kwargs", .line = line_of(fn)}, &extra_kw);
      extra_kw = (value_vec){0};
    } else if (p->bound) {
      v = p->value;
    } else if (lost) {
      v = unknown_at(caller, lost_at, lost);
    } else if (!ts_node_is_null(p->dflt)) {
      v = hg_resolve_value_at(&def_scope, p->dflt, depth + 1);
    } else {
      v = unknown_at(&def_scope, fn, aprintf(caller->arena, "parameter `%.*s` not given at the call", (int)p->len, p->name));
    }
    f->names[f->n] = hg_arena_strndup(caller->arena, p->name, p->len);
    values[f->n++] = v;
  }
  free(extra_pos.items);
  free(extra_kw.items);
}

bool hg_summary_bound(const hg_resolver *r, TSNode fn, const char *name, size_t len, hg_value *out) {
  const hg_frame *f = r->frame;
  if (!f || !ts_node_eq(f->fn, fn)) return false;
  for (size_t i = 0; i < f->n; i++)
    if (strlen(f->names[i]) == len && !memcmp(f->names[i], name, len)) {
      *out = f->values[i];
      return true;
    }
  return false;
}

// ---- deciding conditions ------------------------------------------------------------------------

static int truth_of(const hg_value *v) {
  if (v->conditional) return -1;
  switch (v->kind) {
  case HG_VAL_TRUE: return 1;
  case HG_VAL_FALSE:
  case HG_VAL_NONE: return 0;
  case HG_VAL_NUM: return strtod(v->text, NULL) != 0.0;
  case HG_VAL_STR: return strchr(v->text, HG_HOLE) ? -1 : v->text[0] != '\0';
  case HG_VAL_OBJECT: return 1;
  case HG_VAL_LIST:
  case HG_VAL_DICT: {
    if (v->n_items == 0) return 0;
    for (size_t i = 0; i < v->n_items; i++)
      if (!v->items[i].splat && !v->items[i].conditional) return 1;
    return -1;
  }
  default: return -1;
  }
}

static bool literal(const hg_value *v) {
  return !v->conditional && (v->kind == HG_VAL_TRUE || v->kind == HG_VAL_FALSE || v->kind == HG_VAL_NONE ||
                             v->kind == HG_VAL_NUM || (v->kind == HG_VAL_STR && !strchr(v->text, HG_HOLE)));
}

static int truth(const hg_resolver *r, TSNode n, const hg_value **why, int depth) {
  if (depth > 16 || ts_node_is_null(n)) return -1;
  if (hg_node_is(n, "parenthesized_expression") && hg_node_arg_count(n) == 1)
    return truth(r, hg_node_arg(n, 0), why, depth + 1);
  if (hg_node_is(n, "not_operator")) {
    int t = truth(r, hg_node_field(n, "argument"), why, depth + 1);
    return t < 0 ? -1 : !t;
  }
  if (hg_node_is(n, "boolean_operator")) {
    TSNode op = hg_node_field(n, "operator");
    bool is_and = hg_node_text_eq(op, r->src, "and", 3);
    const hg_value *wl = NULL, *wr = NULL;
    int l = truth(r, hg_node_field(n, "left"), &wl, depth + 1), rt = truth(r, hg_node_field(n, "right"), &wr, depth + 1);
    if (is_and ? (l == 0 || rt == 0) : (l == 1 || rt == 1)) {
      *why = (is_and ? l == 0 : l == 1) ? wl : wr;
      return is_and ? 0 : 1;
    }
    if (l >= 0 && rt >= 0) return is_and ? 1 : 0;
    return -1;
  }
  if (hg_node_is(n, "comparison_operator") && ts_node_named_child_count(n) == 2) {
    TSNode a = ts_node_named_child(n, 0), b = ts_node_named_child(n, 1);
    // The operator is the unnamed text between the operands.
    uint32_t s = ts_node_end_byte(a), e = ts_node_start_byte(b);
    char op[16] = {0};
    size_t k = 0;
    for (uint32_t i = s; i < e && k + 1 < sizeof(op); i++)
      if (r->src[i] != ' ' && r->src[i] != '\t' && r->src[i] != '\n' && r->src[i] != '\\') op[k++] = r->src[i];
    bool eq = !strcmp(op, "==") || !strcmp(op, "is"), ne = !strcmp(op, "!=") || !strcmp(op, "isnot");
    if (!eq && !ne) return -1;
    hg_value va = hg_resolve_value_at(r, a, 1), vb = hg_resolve_value_at(r, b, 1);
    if (!literal(&va) || !literal(&vb)) return -1;
    bool same = va.kind == vb.kind && (va.kind != HG_VAL_STR || !strcmp(va.text, vb.text)) &&
                (va.kind != HG_VAL_NUM || strtod(va.text, NULL) == strtod(vb.text, NULL));
    if (!same && va.kind != vb.kind && va.kind != HG_VAL_NONE && vb.kind != HG_VAL_NONE) return -1;
    *why = NULL;  // a comparison: the note shows the condition itself
    return eq ? same : !same;
  }
  hg_value v = hg_resolve_value_at(r, n, 1);
  int t = truth_of(&v);
  if (t >= 0) {
    hg_value *keep = hg_arena_alloc(r->arena, sizeof(hg_value));
    *keep = v;
    *why = keep;
  }
  return t;
}

int hg_summary_decide(void *ctx, TSNode condition, TSNode branch) {
  const hg_resolver *r = *(const hg_resolver *const *)ctx;
  const hg_value *why = NULL;
  int t = truth(r, condition, &why, 0);
  if (t == 0 && r->notes) {
    const char *where = "";
    if (why && why->path) where = aprintf(r->arena, " (%s:%u)", why->path, why->line);
    hg_note note = {.condition = hg_node_text(condition, r->src, r->arena),
                    .why = why ? aprintf(r->arena, "%s%s", why->text, where) : "false",
                    .branch = hg_node_text(branch, r->src, r->arena), .path = path_of(r->module),
                    .line = line_of(condition)};
    HG_VEC_PUSH(r->notes, note);
  }
  return t;
}

// ---- evaluating a function ----------------------------------------------------------------------

typedef struct {
  const hg_resolver *r;  // first: hg_summary_decide reads it
  HG_VEC(hg_stmt) returns;
} return_scan;

static bool on_return(void *ctx, hg_stmt s) {
  return_scan *rs = ctx;
  if (!hg_node_is(s.stmt, "return_statement")) return true;
  HG_VEC_PUSH(&rs->returns, s);
  return s.conditional;  // an unconditional return ends the function
}

// Several returns: what each may give. None of them is guaranteed, so every item is conditional
// (it can fall short or weaken, never satisfy); one return is the value itself.
static hg_value combine(hg_arena *a, const hg_value *vals, const bool *cond, size_t n, TSNode fn) {
  if (n == 1 && !cond[0]) return vals[0];
  hg_value_kind kind = HG_VAL_UNKNOWN;
  for (size_t i = 0; i < n; i++)
    if (vals[i].kind == HG_VAL_DICT || vals[i].kind == HG_VAL_LIST) kind = vals[i].kind;
  if (kind == HG_VAL_UNKNOWN) {
    hg_value v = n ? vals[n - 1] : (hg_value){.kind = HG_VAL_NONE, .text = "None", .line = line_of(fn)};
    v.conditional = n > 1 || (n == 1 && cond[0]);
    return v;
  }
  value_vec items = {0};
  for (size_t i = 0; i < n; i++) {
    const hg_value *v = &vals[i];
    if (v->kind == kind) {
      for (size_t j = 0; j < v->n_items; j++) {
        hg_value it = v->items[j];
        it.conditional = true;
        HG_VEC_PUSH(&items, it);
      }
    } else if (v->kind != HG_VAL_NONE) {
      hg_value it = *v;
      it.splat = true;
      it.key = NULL;
      it.conditional = true;
      HG_VEC_PUSH(&items, it);
    }
  }
  return finish(a, (hg_value){.kind = kind, .text = "(one of several returns)", .line = line_of(fn)}, &items);
}

enum { MAX_RETURNS = 16 };

// The value function `fn` of module m returns for the arguments at `call` (self bound when given).
static hg_value evaluate(const hg_resolver *r, const hg_module *m, TSNode fn, TSNode call, const hg_value *self,
                         int depth) {
  hg_hop hop;
  const char *why = enter(r, &hop, m, fn);
  if (why) return unknown_at(r, call, why);
  hg_frame frame;
  bind(r, m, fn, hg_node_field(call, "arguments"), self, &frame, depth);
  hg_resolver fr = in_module(r, m);
  fr.frame = &frame;
  fr.hops = &hop;
  return_scan rs = {.r = &fr};
  hg_scope_walk_deciding(hg_node_field(fn, "body"), (TSNode){0}, on_return, hg_summary_decide, &rs);
  size_t n = rs.returns.len < MAX_RETURNS ? rs.returns.len : MAX_RETURNS;
  hg_value vals[MAX_RETURNS];
  bool cond[MAX_RETURNS];
  for (size_t i = 0; i < n; i++) {
    TSNode stmt = rs.returns.items[i].stmt;
    TSNode e = hg_node_arg(stmt, 0);
    vals[i] = ts_node_is_null(e) ? (hg_value){.kind = HG_VAL_NONE, .text = "None", .line = line_of(stmt)}
                                 : hg_resolve_value_at(&fr, e, 1);
    if (!vals[i].path) vals[i].path = path_of(m);
    cond[i] = rs.returns.items[i].conditional;
  }
  free(rs.returns.items);
  if (rs.returns.len > MAX_RETURNS) return unknown_at(r, call, "a function with more returns than hardguard follows");
  if (n == 0) return (hg_value){.kind = HG_VAL_NONE, .text = "None", .line = line_of(fn), .path = path_of(m)};
  return combine(r->arena, vals, cond, n, fn);
}

// ---- objects ------------------------------------------------------------------------------------

static bool dataclass_like(const hg_module *m, target cls) {
  if (!ts_node_is_null(cls.decorated)) {
    for (uint32_t i = 0, n = ts_node_named_child_count(cls.decorated); i < n; i++) {
      TSNode d = ts_node_named_child(cls.decorated, i);
      if (!hg_node_is(d, "decorator")) continue;
      uint32_t a = ts_node_start_byte(d), b = ts_node_end_byte(d);
      if (memmem(m->src + a, b - a, "dataclass", 9) || memmem(m->src + a, b - a, "attr", 4)) return true;
    }
  }
  TSNode bases = hg_node_field(cls.node, "superclasses");
  if (ts_node_is_null(bases)) return false;
  uint32_t a = ts_node_start_byte(bases), b = ts_node_end_byte(bases);
  return memmem(m->src + a, b - a, "NamedTuple", 10) || memmem(m->src + a, b - a, "BaseModel", 9);
}

typedef HG_VEC(const char *) name_vec;

// `x: T = v`, `x = v`, `x: T = field(default=v)` in the body of class `cls` and of its project
// bases (first); names with an annotation are the fields a dataclass constructor takes, in order.
static void class_fields(const hg_resolver *r, target cls, value_vec *fields, name_vec *order, bool *dataclass,
                         int depth) {
  if (depth > HG_SUMMARY_MAX_DEPTH) return;
  const hg_module *m = cls.module;
  hg_resolver mr = in_module(r, m);
  *dataclass |= dataclass_like(m, cls);
  TSNode bases = hg_node_field(cls.node, "superclasses");
  for (uint32_t i = 0, n = hg_node_arg_count(bases); i < n; i++) {
    TSNode b = hg_node_arg(bases, i);
    if (!hg_node_is(b, "identifier")) continue;
    uint32_t a = ts_node_start_byte(b), e = ts_node_end_byte(b);
    target base = lookup_in(r, m, m->src + a, e - a, depth + 1);
    if (base.kind == DEF_CLASS && !ts_node_eq(base.node, cls.node)) class_fields(r, base, fields, order, dataclass, depth + 1);
  }
  TSNode body = hg_node_field(cls.node, "body");
  for (uint32_t i = 0, n = ts_node_named_child_count(body); i < n; i++) {
    TSNode s = ts_node_named_child(body, i);
    if (!hg_node_is(s, "expression_statement") || !ts_node_named_child_count(s)) continue;
    TSNode e = ts_node_named_child(s, 0);
    if (!hg_node_is(e, "assignment")) continue;
    TSNode left = hg_node_field(e, "left"), right = hg_node_field(e, "right"), type = hg_node_field(e, "type");
    if (!hg_node_is(left, "identifier")) continue;
    const char *name = hg_node_text(left, m->src, r->arena);
    if (!ts_node_is_null(type)) HG_VEC_PUSH(order, name);
    if (ts_node_is_null(right)) continue;
    hg_value v;
    TSNode fn = hg_node_is(right, "call") ? hg_node_field(right, "function") : (TSNode){0};
    if (hg_node_text_eq(fn, m->src, "field", 5) || hg_node_text_eq(fn, m->src, "dataclasses.field", 17)) {
      v = unknown_at(&mr, right, "a field without a default");
      TSNode args = hg_node_field(right, "arguments");
      for (uint32_t k = 0, na = hg_node_arg_count(args); k < na; k++) {
        TSNode a = hg_node_arg(args, k);
        if (hg_node_is(a, "keyword_argument") && hg_node_text_eq(hg_node_field(a, "name"), m->src, "default", 7))
          v = hg_resolve_value_at(&mr, hg_node_field(a, "value"), depth + 1);
      }
    } else {
      v = hg_resolve_value_at(&mr, right, depth + 1);
    }
    if (!v.path) v.path = path_of(m);
    v.key = name;
    HG_VEC_PUSH(fields, v);
  }
}

typedef struct {
  const hg_resolver *r;  // first: hg_summary_decide reads it
  const char *self;
  size_t self_len;
  value_vec *fields;
} init_scan;

// `self.x = value` in __init__: the attribute x.
static bool on_init_stmt(void *ctx, hg_stmt s) {
  init_scan *is = ctx;
  if (!hg_node_is(s.stmt, "expression_statement") || !ts_node_named_child_count(s.stmt)) return true;
  TSNode e = ts_node_named_child(s.stmt, 0);
  if (!hg_node_is(e, "assignment")) return true;
  TSNode left = hg_node_field(e, "left"), right = hg_node_field(e, "right");
  if (!hg_node_is(left, "attribute") || ts_node_is_null(right) ||
      !hg_node_text_eq(hg_node_field(left, "object"), is->r->src, is->self, is->self_len))
    return true;
  hg_value v = hg_resolve_value_at(is->r, right, 1);
  if (!v.path) v.path = path_of(is->r->module);
  v.key = hg_node_text(hg_node_field(left, "attribute"), is->r->src, is->r->arena);
  v.conditional |= s.conditional;
  HG_VEC_PUSH(is->fields, v);
  return true;
}

static hg_value make_object(const hg_resolver *r, target cls, TSNode call, int depth) {
  hg_hop hop;
  const char *why = enter(r, &hop, cls.module, cls.node);
  if (why) return unknown_at(r, call, why);
  hg_resolver rr = *r;
  rr.hops = &hop;
  value_vec fields = {0};
  name_vec order = {0};
  bool dataclass = false;
  class_fields(&rr, cls, &fields, &order, &dataclass, 0);
  hg_def *def = hg_arena_alloc(r->arena, sizeof(hg_def));
  *def = (hg_def){cls.module, cls.node};
  hg_value obj = {.kind = HG_VAL_OBJECT, .text = hg_node_text(call, r->src, r->arena), .line = line_of(call),
                  .def = def};
  target init = find_member(&rr, cls, "__init__", 8, 0);
  TSNode args = hg_node_field(call, "arguments");
  if (init.kind == DEF_FUNCTION) {
    // `self` inside __init__: the object as the class body left it.
    hg_value self = obj;
    self.items = hg_arena_alloc(r->arena, (fields.len ? fields.len : 1) * sizeof(hg_value));
    if (fields.len) memcpy(self.items, fields.items, fields.len * sizeof(hg_value));
    self.n_items = fields.len;
    hg_frame frame;
    bind(&rr, init.module, init.node, args, &self, &frame, depth);
    hg_hop ihop;
    const char *iwhy = enter(&rr, &ihop, init.module, init.node);
    if (!iwhy && frame.n > 0) {
      hg_resolver fr = in_module(&rr, init.module);
      fr.frame = &frame;
      fr.hops = &ihop;
      init_scan is = {.r = &fr, .self = frame.names[0], .self_len = strlen(frame.names[0]), .fields = &fields};
      hg_scope_walk_deciding(hg_node_field(init.node, "body"), (TSNode){0}, on_init_stmt, hg_summary_decide, &is);
    }
  } else if (dataclass) {
    size_t next = 0;
    for (uint32_t i = 0, k = hg_node_arg_count(args); i < k; i++) {
      TSNode a = hg_node_arg(args, i);
      hg_value v;
      if (hg_node_is(a, "keyword_argument")) {
        v = hg_resolve_value_at(r, hg_node_field(a, "value"), depth + 1);
        v.key = hg_node_text(hg_node_field(a, "name"), r->src, r->arena);
      } else if (hg_node_is(a, "list_splat") || hg_node_is(a, "dictionary_splat")) {
        // Which fields it fills cannot be told: none of them is known any more.
        for (size_t f = 0; f < fields.len; f++) fields.items[f].conditional = true;
        continue;
      } else {
        if (next >= order.len) continue;
        v = hg_resolve_value_at(r, a, depth + 1);
        v.key = order.items[next++];
      }
      HG_VEC_PUSH(&fields, v);
    }
  }
  free(order.items);
  return finish(r->arena, obj, &fields);
}

// ---- calls --------------------------------------------------------------------------------------

static const char *def_name(const hg_module *m, TSNode def, hg_arena *a) {
  return hg_node_text(hg_node_field(def, "name"), m->src, a);
}

// "hardening_kwargs() (pkg/h.py:22)"
static const char *via_of(const hg_resolver *r, const hg_module *m, TSNode def, const char *cls) {
  return aprintf(r->arena, "%s%s%s() (%s:%u)", cls ? cls : "", cls ? "." : "", def_name(m, def, r->arena), path_of(m),
                 line_of(def));
}

static hg_value builder_value(const hg_resolver *r, TSNode call, const hg_value *yields, const hg_def *def,
                              const char *via) {
  hg_value b = {.kind = HG_VAL_BUILDER, .text = hg_node_text(call, r->src, r->arena), .line = line_of(call),
                .via = via, .def = def};
  if (yields) {
    b.items = hg_arena_alloc(r->arena, sizeof(hg_value));
    b.items[0] = *yields;
    b.n_items = 1;
  }
  return b;
}

// A call whose callee was not found in the project: a configured builder (trusted, or failing
// closed), or a call that cannot be followed.
static hg_value not_found(const hg_resolver *r, TSNode call, TSNode fn, int depth) {
  const hg_config *c = r->config;
  hg_buf q = {0};
  hg_value out;
  if (hg_node_is(fn, "attribute")) {
    TSNode obj = hg_node_field(fn, "object"), attr = hg_node_field(fn, "attribute");
    uint32_t a = ts_node_start_byte(attr), e = ts_node_end_byte(attr);
    const char *callable = configured_method(c, r->src + a, e - a);
    if (callable) {
      // Class.method: the receiver must be known to be made by the configured class.
      TSNode made = hg_resolve_call(r, obj);
      TSNode ctor = hg_node_field(made, "function");
      const hg_builder *b = !ts_node_is_null(ctor) && hg_resolve_qualify(r, ctor, &q)
                                ? configured_by_name(c, q.data, true, r->src + a, e - a)
                                : NULL;
      if (b && b->trust) {
        out = builder_value(r, call, NULL, NULL, NULL);
      } else if (b) {
        out = unknown_at(r, call, aprintf(r->arena,
                                          "the configured builder %s is not defined in this project, so what it "
                                          "yields cannot be checked (mark it `trust: true` if it comes from an "
                                          "installed package)",
                                          callable));
      } else {
        hg_value recv = hg_resolve_value_at(r, obj, depth + 1);
        out = unknown_at(r, call, aprintf(r->arena,
                                          "`%s` (%s) is not known to be a %.*s, so `.%.*s()` cannot be checked",
                                          hg_node_text(obj, r->src, r->arena),
                                          recv.origin ? recv.origin : "not a project object",
                                          (int)(strchr(callable, '.') - callable), callable, (int)(e - a), r->src + a));
      }
      hg_buf_free(&q);
      out.of_builder = out.kind == HG_VAL_UNKNOWN;
      return out;
    }
  }
  if (hg_imports_qualify(r->imports, fn, r->src, &q)) {
    const hg_builder *b = configured_by_name(c, q.data, false, NULL, 0);
    if (b) {
      out = b->trust ? builder_value(r, call, NULL, NULL, NULL)
                     : unknown_at(r, call, aprintf(r->arena,
                                                   "the configured builder %s is not defined in this project, so "
                                                   "what it yields cannot be checked (mark it `trust: true` if it "
                                                   "comes from an installed package)",
                                                   q.data));
      hg_buf_free(&q);
      out.of_builder = out.kind == HG_VAL_UNKNOWN;
      return out;
    }
  }
  hg_buf_free(&q);
  return unknown_at(r, call, "a call that hardguard cannot follow to a definition in this project");
}

hg_value hg_summary_call(const hg_resolver *r, TSNode call, int depth) {
  TSNode fn = hg_node_field(call, "function");
  if (!r->index) {
    if (hg_resolve_is_builder(r, call)) return builder_value(r, call, NULL, NULL, NULL);
    return unknown_at(r, call, "a call that is not a configured hardening builder");
  }
  target t = {.kind = DEF_NONE};
  hg_value recv = {0};
  bool has_recv = false;
  const char *cls = NULL;
  size_t cls_len = 0;
  if (hg_node_is(fn, "identifier")) {
    uint32_t a = ts_node_start_byte(fn), e = ts_node_end_byte(fn);
    if (r->module) t = lookup_in(r, r->module, r->src + a, e - a, 0);
  } else if (hg_node_is(fn, "attribute")) {
    TSNode obj = hg_node_field(fn, "object"), attr = hg_node_field(fn, "attribute");
    uint32_t a = ts_node_start_byte(attr), e = ts_node_end_byte(attr);
    TSNode head = obj;
    while (hg_node_is(head, "attribute")) head = hg_node_field(head, "object");
    hg_buf q = {0};
    if (hg_node_is(head, "identifier") &&
        hg_imports_lookup(r->imports, r->src + ts_node_start_byte(head), ts_node_end_byte(head) - ts_node_start_byte(head)) &&
        hg_imports_qualify(r->imports, fn, r->src, &q)) {
      t = resolve_qualified(r, q.data, 0);  // module.function, module.Class.method
    }
    hg_buf_free(&q);
    if (t.kind == DEF_NONE) {
      recv = hg_resolve_value_at(r, obj, depth + 1);
      if (recv.kind == HG_VAL_OBJECT && recv.def) {
        target c = {.kind = DEF_CLASS, .module = recv.def->module, .node = recv.def->node};
        t = find_member(r, c, r->src + a, e - a, 0);
        has_recv = t.kind == DEF_FUNCTION;
        // The class the method is judged as: the receiver's (a subclass inherits the builder).
        cls = hg_node_text(hg_node_field(recv.def->node, "name"), recv.def->module->src, r->arena);
        cls_len = strlen(cls);
      }
    }
  }
  if (t.kind == DEF_CLASS) return make_object(r, t, call, depth);
  if (t.kind != DEF_FUNCTION) return not_found(r, call, fn, depth);
  uint32_t fa = ts_node_start_byte(hg_node_field(t.node, "name")), fe = ts_node_end_byte(hg_node_field(t.node, "name"));
  const hg_builder *b = NULL;
  if (has_recv) {
    // The method counts for the receiver's class or any class it inherits it from.
    b = configured(r->config, recv.def->module, cls, cls_len, t.module->src + fa, fe - fa);
    if (!b) {
      TSNode owner = ts_node_parent(ts_node_parent(t.node));
      if (hg_node_is(owner, "decorated_definition")) owner = ts_node_parent(ts_node_parent(owner));
      if (hg_node_is(owner, "class_definition")) {
        const char *oc = hg_node_text(hg_node_field(owner, "name"), t.module->src, r->arena);
        b = configured(r->config, t.module, oc, strlen(oc), t.module->src + fa, fe - fa);
      }
    }
  } else {
    b = configured(r->config, t.module, NULL, 0, t.module->src + fa, fe - fa);
  }
  hg_value v = evaluate(r, t.module, t.node, call, has_recv ? &recv : NULL, depth);
  // A function that returns a builder's result yields what that builder yields.
  while (v.kind == HG_VAL_BUILDER && v.n_items == 1 && !v.conditional) v = v.items[0];
  const char *via = via_of(r, t.module, t.node, has_recv ? cls : NULL);
  v = stamp(r->arena, v, via);
  if (!b) return v;
  hg_def *def = hg_arena_alloc(r->arena, sizeof(hg_def));
  *def = (hg_def){t.module, t.node};
  return builder_value(r, call, &v, def, via);
}

// ---- names and attributes -----------------------------------------------------------------------

static hg_value constant(const hg_resolver *r, target t, TSNode use, int depth) {
  hg_hop hop;
  const char *why = enter(r, &hop, t.module, t.node);
  if (why) return unknown_at(r, use, why);
  hg_resolver mr = in_module(r, t.module);
  mr.hops = &hop;
  hg_value v = hg_resolve_global(&mr, t.node, depth + 1);
  if (!v.path) v.path = path_of(t.module);
  return stamp(r->arena, v,
               aprintf(r->arena, "%s (%s:%u)", hg_node_text(t.node, t.module->src, r->arena), path_of(t.module),
                       line_of(t.node)));
}

hg_value hg_summary_imported(const hg_resolver *r, const char *qualified, TSNode use, int depth) {
  target t = resolve_qualified(r, qualified, 0);
  if (t.kind == DEF_CONSTANT) return constant(r, t, use, depth);
  return unknown_at(r, use, aprintf(r->arena, "imported as %s", qualified));
}

hg_value hg_summary_attribute(const hg_resolver *r, TSNode attribute, int depth) {
  TSNode obj = hg_node_field(attribute, "object"), attr = hg_node_field(attribute, "attribute");
  uint32_t a = ts_node_start_byte(attr), e = ts_node_end_byte(attr);
  if (r->index) {
    TSNode head = obj;
    while (hg_node_is(head, "attribute")) head = hg_node_field(head, "object");
    if (hg_node_is(head, "identifier") &&
        hg_imports_lookup(r->imports, r->src + ts_node_start_byte(head), ts_node_end_byte(head) - ts_node_start_byte(head))) {
      hg_buf q = {0};
      target t = {.kind = DEF_NONE};
      if (hg_imports_qualify(r->imports, attribute, r->src, &q)) t = resolve_qualified(r, q.data, 0);
      hg_buf_free(&q);
      if (t.kind == DEF_CONSTANT) return constant(r, t, attribute, depth);
    }
  }
  // `self` outside a method being evaluated is the method's parameter: nothing to follow.
  if (!r->frame && hg_node_text_eq(obj, r->src, "self", 4)) return unknown_at(r, attribute, "an attribute");
  hg_value recv = hg_resolve_value_at(r, obj, depth + 1);
  if (recv.kind == HG_VAL_OBJECT) {
    const hg_value *v = attribute_of(&recv, r->src + a, e - a);
    if (v) {
      hg_value out = *v;
      out.key = NULL;
      return out;
    }
    if (recv.def && r->index) {
      // A @property: its getter's return value.
      target c = {.kind = DEF_CLASS, .module = recv.def->module, .node = recv.def->node};
      target m = find_member(r, c, r->src + a, e - a, 0);
      if (m.kind == DEF_FUNCTION && !ts_node_is_null(m.decorated)) {
        uint32_t da = ts_node_start_byte(m.decorated), de = ts_node_start_byte(m.node);
        if (memmem(m.module->src + da, de - da, "property", 8)) {
          hg_value v2 = evaluate(r, m.module, m.node, attribute, &recv, depth);
          return stamp(r->arena, v2, via_of(r, m.module, m.node, NULL));
        }
      }
    }
  }
  return unknown_at(r, attribute, "an attribute");
}
