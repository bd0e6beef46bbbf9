#include "surfaces/python/project/defs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "surfaces/node.h"
#include "surfaces/python/scope.h"

// The last value set under `key` among keyed items.
const hg_value *hg_object__attribute(const hg_value *obj, const char *key, size_t len) {
  for (size_t i = obj->n_items; i-- > 0;) {
    const hg_value *it = &obj->items[i];
    if (it->key && strlen(it->key) == len && !memcmp(it->key, key, len))
      return it;
  }
  return NULL;
}

// Does the class take its annotated fields as constructor arguments (policy `classes:`)?
static bool dataclass_like(const hg_policy *p, const hg_module *m, hg_target cls) {
  if (hg_defs__decorated(m, cls.decorated, p->field_decorators, p->n_field_decorators))
    return true;
  TSNode bases = hg_node_field(cls.node, "superclasses");
  for (uint32_t i = 0, n = hg_node_arg_count(bases); i < n; i++)
    if (hg_defs__named_in(hg_node_arg(bases, i), m->src, p->field_bases, p->n_field_bases))
      return true;
  return false;
}

typedef HG_VEC(const char *) name_vec;

// What a dataclass field's default_factory makes: a lambda's body, an empty list, dict or set for
// the builtins, what a function of the project returns when called without arguments.
static hg_value factory(const hg_resolver *r, TSNode f, int depth) {
  if (hg_node_is(f, "lambda")) {
    TSNode params = hg_node_field(f, "parameters"), body = hg_node_field(f, "body");
    if (ts_node_is_null(body) || hg_node_arg_count(params) > 0)
      return hg_resolve_unknown(r, f, "a default_factory that takes arguments");
    return hg_resolve_value_at(r, body, depth + 1);
  }
  static const char *const empty[] = {"list", "dict", "set", "tuple"};
  for (size_t i = 0; i < 4; i++)
    if (hg_node_is(f, "identifier") && hg_node_text_eq(f, r->src, empty[i], strlen(empty[i])) &&
        !hg_imports_lookup(r->imports, empty[i], strlen(empty[i])) &&
        hg_defs__find(r->module, empty[i], strlen(empty[i])).kind == HG_DEF_NONE)
      return (hg_value){.kind = i == 1 ? HG_VAL_DICT : HG_VAL_LIST, .text = hg_node_text(f, r->src, r->arena),
                        .line = line_of(f)};
  return r->engine->factory(r, f, depth + 1);
}

// `x: T = v`, `x = v`, `x: T = field(default=v)` in the body of class `cls` and of its project
// bases (first); names with an annotation are the fields a dataclass constructor takes, in order.
static void class_fields(const hg_resolver *r, hg_target cls, hg_value_vec *fields, name_vec *order, bool *dataclass,
                         int depth) {
  if (depth > HG_SUMMARY_MAX_DEPTH)
    return;
  const hg_module *m = cls.module;
  hg_resolver mr = hg_project__in_module(r, m);
  *dataclass |= dataclass_like(r->policy, m, cls);
  hg_target bases[HG_DEFS_MAX_BASES];
  for (size_t i = 0, n = hg_defs__bases(r, cls, bases, depth); i < n; i++)
    class_fields(r, bases[i], fields, order, dataclass, depth + 1);
  TSNode body = hg_node_field(cls.node, "body");
  for (uint32_t i = 0, n = ts_node_named_child_count(body); i < n; i++) {
    TSNode s = ts_node_named_child(body, i);
    if (!hg_node_is(s, "expression_statement") || !ts_node_named_child_count(s))
      continue;
    TSNode e = ts_node_named_child(s, 0);
    if (!hg_node_is(e, "assignment"))
      continue;
    TSNode left = hg_node_field(e, "left"), right = hg_node_field(e, "right"), type = hg_node_field(e, "type");
    if (!hg_node_is(left, "identifier"))
      continue;
    const char *name = hg_node_text(left, m->src, r->arena);
    if (!ts_node_is_null(type))
      HG_VEC_PUSH(order, name);
    if (ts_node_is_null(right))
      continue;
    hg_value v;
    TSNode fn = hg_node_is(right, "call") ? hg_node_field(right, "function") : (TSNode){0};
    if (hg_defs__named_in(fn, m->src, r->policy->field_calls, r->policy->n_field_calls)) {
      v = hg_resolve_unknown(&mr, right, "a field without a default");
      TSNode args = hg_node_field(right, "arguments");
      for (uint32_t k = 0, na = hg_node_arg_count(args); k < na; k++) {
        TSNode a = hg_node_arg(args, k);
        if (!hg_node_is(a, "keyword_argument"))
          continue;
        TSNode kw = hg_node_field(a, "name"), value = hg_node_field(a, "value");
        if (hg_node_text_eq(kw, m->src, "default", 7))
          v = hg_resolve_value_at(&mr, value, depth + 1);
        else if (hg_node_text_eq(kw, m->src, "default_factory", 15))
          v = factory(&mr, value, depth);
      }
    } else {
      v = hg_resolve_value_at(&mr, right, depth + 1);
    }
    if (!v.path)
      v.path = hg_project__path(m);
    v.key = name;
    HG_VEC_PUSH(fields, v);
  }
}

typedef struct {
  const hg_resolver *r; // first: hg_summary_decide reads it
  const char *self;
  size_t self_len;
  hg_value_vec *fields;
} init_scan;

// `self.x = value` in __init__: the attribute x.
static bool on_init_stmt(void *ctx, hg_stmt s) {
  init_scan *is = ctx;
  if (!hg_node_is(s.stmt, "expression_statement") || !ts_node_named_child_count(s.stmt))
    return true;
  TSNode e = ts_node_named_child(s.stmt, 0);
  if (!hg_node_is(e, "assignment"))
    return true;
  TSNode left = hg_node_field(e, "left"), right = hg_node_field(e, "right");
  if (!hg_node_is(left, "attribute") || ts_node_is_null(right) ||
      !hg_node_text_eq(hg_node_field(left, "object"), is->r->src, is->self, is->self_len))
    return true;
  hg_value v = hg_resolve_value_at(is->r, right, 1);
  if (!v.path)
    v.path = hg_project__path(is->r->module);
  v.key = hg_node_text(hg_node_field(left, "attribute"), is->r->src, is->r->arena);
  v.conditional |= s.conditional;
  HG_VEC_PUSH(is->fields, v);
  return true;
}

// Runs `method` (__init__, __post_init__) with `args`, `self` the object as `fields` hold it so
// far: each `self.x = value` it makes is pushed onto fields.
static void run_method(const hg_resolver *rr, hg_target method, TSNode args, hg_value obj, hg_value_vec *fields,
                       int depth) {
  hg_value self = obj;
  self.items = hg_arena_alloc(rr->arena, (fields->len ? fields->len : 1) * sizeof(hg_value));
  if (fields->len)
    memcpy(self.items, fields->items, fields->len * sizeof(hg_value));
  self.n_items = fields->len;
  hg_frame frame;
  hg_bind__call(rr, method.module, method.node, args, &self, &frame, depth);
  hg_hop ihop;
  const char *why = hg_project__enter(rr, &ihop, method.module, method.node);
  if (why || frame.n == 0)
    return;
  hg_resolver fr = hg_project__in_module(rr, method.module);
  fr.frame = &frame;
  fr.hops = &ihop;
  init_scan is = {.r = &fr, .self = frame.names[0], .self_len = strlen(frame.names[0]), .fields = fields};
  hg_scope_walk_deciding(fr.scopes, hg_node_field(method.node, "body"), (TSNode){0}, on_init_stmt, hg_summary_decide, &is);
}

hg_value hg_object__make(const hg_resolver *r, hg_target cls, TSNode call, int depth) {
  hg_hop hop;
  const char *why = hg_project__enter(r, &hop, cls.module, cls.node);
  if (why)
    return hg_resolve_unknown(r, call, why);
  hg_resolver rr = *r;
  rr.hops = &hop;
  hg_value_vec fields = {0};
  name_vec order = {0};
  bool dataclass = false;
  class_fields(&rr, cls, &fields, &order, &dataclass, 0);
  hg_def *def = hg_arena_alloc(r->arena, sizeof(hg_def));
  *def = (hg_def){cls.module, cls.node};
  hg_value obj = {
      .kind = HG_VAL_OBJECT, .text = hg_node_text(call, r->src, r->arena), .line = line_of(call), .def = def};
  hg_target init = hg_defs__member(&rr, cls, "__init__", 8, 0);
  TSNode args = hg_node_field(call, "arguments");
  if (init.kind == HG_DEF_FUNCTION) {
    run_method(&rr, init, args, obj, &fields, depth);
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
        for (size_t f = 0; f < fields.len; f++)
          fields.items[f].conditional = true;
        continue;
      } else {
        if (next >= order.len)
          continue;
        v = hg_resolve_value_at(r, a, depth + 1);
        v.key = order.items[next++];
      }
      HG_VEC_PUSH(&fields, v);
    }
  }
  // A dataclass's __post_init__ runs after its fields are set: `self.x = ...` there set x.
  hg_target post = init.kind == HG_DEF_FUNCTION || !dataclass ? (hg_target){.kind = HG_DEF_NONE}
                                                              : hg_defs__member(&rr, cls, "__post_init__", 13, 0);
  if (post.kind == HG_DEF_FUNCTION)
    run_method(&rr, post, (TSNode){0}, obj, &fields, depth);
  free(order.items);
  return hg_values_finish(r->arena, obj, &fields);
}

// Is `self.name` assigned in class `cls` outside the method `init` (a null node: anywhere)? Read
// in the class's text: `self.name =`, `self.name: T =`, `self.name +=` (not `==`), any spacing.
static bool assigned_outside(const char *src, TSNode cls, TSNode init, const char *name, size_t len) {
  uint32_t from = ts_node_start_byte(cls), to = ts_node_end_byte(cls);
  uint32_t ia = ts_node_is_null(init) ? 0 : ts_node_start_byte(init), ib = ts_node_is_null(init) ? 0 : ts_node_end_byte(init);
  for (uint32_t at = from; at < to;) {
    const char *hit = hg_find_word(src + at, to - at, "self", 4);
    if (!hit)
      return false;
    uint32_t k = (uint32_t)(hit - src), j = k + 5 + (uint32_t)len;
    at = k + 4;
    // `self.name` and no longer name (the byte after it, when there is one, is looked at too)
    if (j > to || src[k + 4] != '.' || hg_find_word(src + k + 5, len + (j < to), name, len) != src + k + 5)
      continue;
    while (j < to && (src[j] == ' ' || src[j] == '\t'))
      j++;
    bool assigns = j < to && (src[j] == ':' || (src[j] == '=' && (j + 1 >= to || src[j + 1] != '=')) ||
                              (j + 1 < to && src[j + 1] == '=' && strchr("+-*/|&^%@", src[j])));
    if (assigns && !(k >= ia && k < ib))
      return true;
  }
  return false;
}

hg_value hg_object__self_state(const hg_resolver *r, TSNode attribute, bool held) {
  enum { MAX_CHAIN = 8 };
  TSNode chain[MAX_CHAIN], head = attribute;
  size_t n = 0;
  while (hg_node_is(head, "attribute") && n < MAX_CHAIN) {
    chain[n++] = head;
    head = hg_node_field(head, "object");
  }
  TSNode cls = r->module && !r->frame && hg_node_is(head, "identifier") ? hg_defs__self_class(r, head) : (TSNode){0};
  if (ts_node_is_null(cls))
    return hg_resolve_unknown(r, attribute, "an attribute");
  hg_target t = {.kind = HG_DEF_CLASS, .module = r->module, .node = cls};
  if (held) {
    // Only what the constructor leaves and no other method of the class replaces.
    TSNode first = hg_node_field(chain[n - 1], "attribute");
    hg_target init = hg_defs__member(r, t, "__init__", 8, 0);
    TSNode own = init.kind == HG_DEF_FUNCTION && init.module == r->module ? init.node : (TSNode){0};
    if (assigned_outside(r->src, cls, own, r->src + ts_node_start_byte(first),
                         ts_node_end_byte(first) - ts_node_start_byte(first)))
      return hg_resolve_unknown(r, attribute, "an attribute");
  }
  TSNode around = ts_node_parent(cls);
  if (hg_node_is(around, "decorated_definition"))
    t.decorated = around;
  hg_value v = hg_object__make(r, t, head, 1);
  for (size_t i = n; i-- > 0;) {  // chain[n - 1] is self's own attribute, chain[0] the whole
    TSNode attr = hg_node_field(chain[i], "attribute");
    const hg_value *field = v.kind == HG_VAL_OBJECT ? hg_object__attribute(&v, r->src + ts_node_start_byte(attr),
                                                                             ts_node_end_byte(attr) - ts_node_start_byte(attr))
                                                    : NULL;
    if (!field)
      return hg_resolve_unknown(r, attribute, "an attribute");
    v = *field;
    v.key = NULL;
  }
  return v;
}

hg_target hg_object__callee(const hg_resolver *r, TSNode fn, int depth, hg_value *recv) {
  hg_target t = {.kind = HG_DEF_NONE};
  *recv = (hg_value){0};
  if (hg_node_is(fn, "identifier")) {
    uint32_t a = ts_node_start_byte(fn), e = ts_node_end_byte(fn);
    if (r->module)
      t = hg_defs__nested(r, fn);
    if (r->module && t.kind == HG_DEF_NONE)
      t = hg_defs__lookup(r, r->module, r->src + a, e - a, 0);
    return t;
  }
  if (!hg_node_is(fn, "attribute"))
    return t;
  TSNode obj = hg_node_field(fn, "object"), attr = hg_node_field(fn, "attribute");
  uint32_t a = ts_node_start_byte(attr), e = ts_node_end_byte(attr);
  TSNode head = obj;
  while (hg_node_is(head, "attribute"))
    head = hg_node_field(head, "object");
  hg_buf q = {0};
  if (hg_node_is(head, "identifier") &&
      hg_imports_lookup(r->imports, r->src + ts_node_start_byte(head),
                        ts_node_end_byte(head) - ts_node_start_byte(head)) &&
      hg_imports_qualify(r->imports, fn, r->src, &q)) {
    t = hg_defs__qualified(r, q.data, 0); // module.function, module.Class.method
  }
  hg_buf_free(&q);
  if (t.kind == HG_DEF_NONE) {
    *recv = hg_resolve_value_at(r, obj, depth + 1);
    // self.api.create(...) in a method read where it stands: the object its constructor leaves in
    // self.api, when no other method of the class replaces it.
    if (recv->kind == HG_VAL_UNKNOWN && hg_node_is(obj, "attribute") && r->module && !r->frame) {
      hg_value held = hg_object__self_state(r, obj, true);
      if (held.kind == HG_VAL_OBJECT)
        *recv = held;
    }
    if (recv->kind == HG_VAL_OBJECT && recv->def) {
      hg_target c = {.kind = HG_DEF_CLASS, .module = recv->def->module, .node = recv->def->node};
      t = hg_defs__member(r, c, r->src + a, e - a, 0);
    } else if (r->module && hg_node_is(obj, "identifier")) {
      // self.method(...) in a method read where it stands (no object made it): the method of the
      // class around it, self bound to an instance of that class whose attributes are unknown.
      TSNode cls = hg_defs__self_class(r, obj);
      if (!ts_node_is_null(cls)) {
        hg_target c = {.kind = HG_DEF_CLASS, .module = r->module, .node = cls};
        t = hg_defs__member(r, c, r->src + a, e - a, 0);
        if (t.kind == HG_DEF_FUNCTION) {
          hg_def *def = hg_arena_alloc(r->arena, sizeof(hg_def));
          *def = (hg_def){r->module, cls};
          *recv = (hg_value){.kind = HG_VAL_OBJECT, .text = hg_node_text(obj, r->src, r->arena), .line = line_of(obj),
                             .def = def};
        }
      }
    }
  }
  return t;
}
