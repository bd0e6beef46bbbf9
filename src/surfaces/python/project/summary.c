#include "surfaces/python/project/summary.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/project/calls.h"
#include "surfaces/python/project/defs.h"
#include "surfaces/python/scope.h"

// What reached a site through a definition says so: the value and each item it holds (each
// alternative's items too).
static hg_value stamp(hg_arena *a, hg_value v, const char *via) {
  if (!v.via)
    v.via = via;
  if (v.kind == HG_VAL_LIST || v.kind == HG_VAL_DICT || v.kind == HG_VAL_ALT) {
    hg_value *items = hg_arena_alloc(a, (v.n_items ? v.n_items : 1) * sizeof(hg_value));
    for (size_t i = 0; i < v.n_items; i++) {
      items[i] = v.kind == HG_VAL_ALT ? stamp(a, v.items[i], via) : v.items[i];
      if (!items[i].via)
        items[i].via = via;
    }
    v.items = items;
  }
  return v;
}

// ---- evaluating a function ----------------------------------------------------------------------

typedef struct {
  const hg_resolver *r; // first: hg_summary_decide reads it
  HG_VEC(hg_stmt) returns;
} return_scan;

static bool on_return(void *ctx, hg_stmt s) {
  return_scan *rs = ctx;
  if (!hg_node_is(s.stmt, "return_statement"))
    return true;
  HG_VEC_PUSH(&rs->returns, s);
  return s.conditional; // an unconditional return ends the function
}

// What selects return statement `ret` in function body `body`, as written, for messages: the
// conditions of the if, elif and else arms around it, the outer first ("a and not b"); NULL when
// none is, or a loop, a try or a match is around it.
static const char *selected_by(const hg_resolver *r, TSNode body, TSNode ret) {
  const char *conds[8];
  size_t n = 0;
  for (TSNode at = ret, p = ts_node_parent(ret); !ts_node_is_null(p) && !ts_node_eq(at, body) && n < 8;
       at = p, p = ts_node_parent(p)) {
    if (hg_node_is(p, "for_statement") || hg_node_is(p, "while_statement") || hg_node_is(p, "try_statement") ||
        hg_node_is(p, "except_clause") || hg_node_is(p, "match_statement"))
      return NULL;  // how often it runs, or whether it raises, selects it
    if (!hg_node_is(at, "block"))
      continue;
    TSNode cond = {0};
    bool negate = false;
    if (hg_node_is(p, "if_statement") || hg_node_is(p, "elif_clause")) {
      cond = hg_node_field(p, "condition");
    } else if (hg_node_is(p, "else_clause") && hg_node_is(ts_node_parent(p), "if_statement")) {
      TSNode owner = ts_node_parent(p);
      bool elif = false;
      for (uint32_t i = 0, k = ts_node_named_child_count(owner); i < k; i++)
        elif |= hg_node_is(ts_node_named_child(owner, i), "elif_clause");
      if (elif)
        return NULL;  // else after elif: what selects it is not one condition
      cond = hg_node_field(owner, "condition");
      negate = true;
    }
    if (ts_node_is_null(cond))
      continue;
    conds[n++] = hg_resolve_condition(r, negate ? "not " : NULL, hg_node_text(cond, r->src, r->arena));
  }
  if (!n)
    return NULL;
  const char *out = conds[n - 1];
  for (size_t i = n - 1; i-- > 0;)
    out = hg_project__printf(r->arena, "%s and %s", out, conds[i]);
  return out;
}

// Does a function body (or an arm's block) end in a return or a raise on every path through it:
// its last statement one, or an if with an else whose every arm ends so (nested at most `depth`
// deep: deeper, it may not)?
static TSNode last_block(TSNode n) {
  // (by its children, not by field name: a field looked up by name costs a search of the names)
  for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
    if (hg_node_is(ts_node_named_child(n, i), "block"))
      return ts_node_named_child(n, i);
  return (TSNode){0};
}

static bool ends_in_return(TSNode block, int depth) {
  if (depth <= 0)
    return false;
  TSNode last = {0};
  for (uint32_t i = ts_node_named_child_count(block); i-- > 0 && ts_node_is_null(last);)
    if (!hg_node_is(ts_node_named_child(block, i), "comment"))
      last = ts_node_named_child(block, i);
  if (hg_node_is(last, "return_statement") || hg_node_is(last, "raise_statement"))
    return true;
  if (!hg_node_is(last, "if_statement") || !ends_in_return(last_block(last), depth - 1))
    return false;  // (an if's only block of its own is its consequence; its arms are clauses)
  bool otherwise = false;
  for (uint32_t i = 0, k = ts_node_named_child_count(last); i < k; i++) {
    TSNode arm = ts_node_named_child(last, i);
    bool elif = hg_node_is(arm, "elif_clause"), els = hg_node_is(arm, "else_clause");
    if ((elif || els) && !ends_in_return(last_block(arm), depth - 1))
      return false;
    otherwise |= els;
  }
  return otherwise;
}

// Returns of which every path that does not raise reaches one (`every_path`): the value is the one
// return, or one of several (the resolver's alternatives, hg_resolve_alt), each named by what
// selects its return (`sel`). Otherwise, one return on some paths or several: what each may give,
// none guaranteed, so every item is conditional (it can fall short or weaken, never satisfy).
// (r: the function's module's resolver, whose text `first`, its first return, is in.)
static hg_value combine(const hg_resolver *r, const hg_value *vals, const bool *cond, const char *const *sel, size_t n,
                        bool every_path, TSNode fn, TSNode first) {
  hg_arena *a = r->arena;
  if (n == 1 && (!cond[0] || every_path))
    return vals[0];  // the one return, or the one every path that does not raise reaches
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += vals[i].kind == HG_VAL_ALT ? vals[i].n_items : 1;
  if (n >= 2 && every_path && total <= HG_ALT_MAX) {
    hg_value alt = hg_resolve_alt(r, first, vals, sel, n);
    alt.text = "(one of several returns)";
    alt.line = line_of(fn);
    return alt;
  }
  hg_value_kind kind = HG_VAL_UNKNOWN;
  for (size_t i = 0; i < n; i++)
    if (vals[i].kind == HG_VAL_DICT || vals[i].kind == HG_VAL_LIST)
      kind = vals[i].kind;
  if (kind == HG_VAL_UNKNOWN) {
    hg_value v = n ? vals[n - 1] : (hg_value){.kind = HG_VAL_NONE, .text = "None", .line = line_of(fn)};
    v.conditional = n > 1 || (n == 1 && cond[0]);
    return v;
  }
  hg_value_vec items = {0};
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
  return hg_values_finish(a, (hg_value){.kind = kind, .text = "(one of several returns)", .line = line_of(fn)}, &items);
}

enum { MAX_RETURNS = 16 };

static hg_value evaluate_anew(const hg_resolver *r, const hg_module *m, TSNode fn, TSNode call, const hg_value *self,
                              int depth);

// What a call returns depends on where it is read: the frame it stands in (by the binding's id, as
// a frame on the stack may take the place of another), the loop variables, how deep, and the site's
// reading, whose notes its first evaluation records. Kept so, a call read again in one place is not
// evaluated again (each name read in a method walks it anew, deciding its conditions: buildbot's
// worker evaluated `self._getDockerClient(...)` 218 times for one context).
typedef struct {
  const hg_module *m, *from;
  const void *notes, *bindings;
  uint64_t frame, read;
  uint32_t fn, call, depth, pad;
} return_key;

// The value function `fn` of module m returns for the arguments at `call` (self bound when given).
static hg_value evaluate(const hg_resolver *r, const hg_module *m, TSNode fn, TSNode call, const hg_value *self,
                        int depth) {
  hg_summary_cache *c = r->cache;
  // A reading that records the parameters it reads (the search for callers) must read them itself.
  if (!c || r->params)
    return evaluate_anew(r, m, fn, call, self, depth);
  return_key k;
  memset(&k, 0, sizeof k);
  k.m = m, k.from = r->module, k.notes = r->notes, k.bindings = r->bindings;
  k.frame = r->frame ? r->frame->id : 0;
  k.read = c->reads;  // notes of one site's reading are recorded once, for that reading
  k.fn = ts_node_start_byte(fn), k.call = ts_node_start_byte(call);
  k.depth = (uint32_t)depth + (r->hops ? (uint32_t)r->hops->depth << 8 : 0);
  k.pad = r->call_keywords;  // its returns read as a call's keywords (host_config=helper(api))
  size_t *kept = hg_table_get(&c->returns, (const char *)&k, sizeof k);
  if (kept)
    return *(const hg_value *)(uintptr_t)*kept;
  hg_value v = evaluate_anew(r, m, fn, call, self, depth);
  return_key *key = hg_arena_alloc(c->arena, sizeof k);
  *key = k;
  hg_value *val = hg_arena_alloc(c->arena, sizeof v);
  *val = v;
  *hg_table_put(&c->returns, (const char *)key, sizeof k, NULL) = (uintptr_t)val;
  return v;
}

static hg_value evaluate_anew(const hg_resolver *r, const hg_module *m, TSNode fn, TSNode call, const hg_value *self,
                              int depth) {
  hg_hop hop;
  const char *why = hg_project__enter(r, &hop, m, fn);
  if (why)
    return hg_resolve_unknown(r, call, why);
  hg_frame frame;
  hg_resolver caller = *r;
  caller.call_keywords = false;  // the arguments are values, whatever the returns are read as
  hg_bind__call(&caller, m, fn, hg_node_field(call, "arguments"), self, &frame, depth);
  hg_resolver fr = hg_project__in_module(r, m);
  fr.call_keywords = r->call_keywords;  // host_config=helper(api): what it returns, read as a call's keywords
  fr.frame = &frame;
  fr.hops = &hop;
  return_scan rs = {.r = &fr};
  hg_scope_walk_deciding(fr.scopes, hg_node_field(fn, "body"), (TSNode){0}, on_return, hg_summary_decide, &rs);
  size_t n = rs.returns.len < MAX_RETURNS ? rs.returns.len : MAX_RETURNS;
  hg_value vals[MAX_RETURNS];
  bool cond[MAX_RETURNS];
  const char *sel[MAX_RETURNS];
  TSNode body = hg_node_field(fn, "body");
  for (size_t i = 0; i < n; i++) {
    TSNode stmt = rs.returns.items[i].stmt;
    TSNode e = hg_node_arg(stmt, 0);
    vals[i] = ts_node_is_null(e) ? (hg_value){.kind = HG_VAL_NONE, .text = "None", .line = line_of(stmt)}
                                 : hg_resolve_value_at(&fr, e, 1);
    if (!vals[i].path)
      vals[i].path = hg_project__path(m);
    cond[i] = rs.returns.items[i].conditional;
  }
  bool every_path = n > 0 && (!cond[n - 1] || ends_in_return(body, 32));
  // What selects each of several returns, named only when they are alternatives (combine): the
  // last return, on every path, is taken when none before it is.
  for (size_t i = 0; i < n && n >= 2 && every_path; i++)
    sel[i] = cond[i] ? selected_by(&fr, body, rs.returns.items[i].stmt) : NULL;
  if (n == 2 && every_path && !cond[1] && sel[0])
    sel[1] = hg_resolve_condition(r, "not ", sel[0]);
  for (size_t i = 0; i < n && n >= 2 && every_path; i++)
    if (!sel[i])
      sel[i] = cond[i] ? hg_project__printf(r->arena, "the return at line %u", line_of(rs.returns.items[i].stmt))
                       : hg_project__printf(r->arena, "none of the returns before line %u",
                                            line_of(rs.returns.items[i].stmt));
  TSNode first = n ? rs.returns.items[0].stmt : fn;
  free(rs.returns.items);
  if (rs.returns.len > MAX_RETURNS)
    return hg_resolve_unknown(r, call, "a function with more returns than hardguard follows");
  if (n == 0)
    return (hg_value){.kind = HG_VAL_NONE, .text = "None", .line = line_of(fn), .path = hg_project__path(m)};
  return combine(&fr, vals, cond, sel, n, every_path, fn, first);
}

// ---- the per-file cache of summaries ------------------------------------------------------------

struct hg_summary_entry {
  const char *name; // the callee's name when it is a bare name (NULL otherwise)
  const char *path; // the definition's module and start byte
  uint32_t at;
  const hg_builder *builder; // the configured builder it is, or NULL
  const hg_def *def;
  hg_value value; // what it yields, stamped with `via`
  const char *via;
  const hg_note *notes; // the branches its reading skipped, replayed for each site that calls it
  size_t n_notes;
};
typedef struct hg_summary_entry summary_entry;

const hg_calls *hg_summary__calls(const hg_resolver *r, const hg_module *m) {
  hg_summary_cache *c = r->cache;
  if (c && c->calls_module == m)
    return c->calls;
  hg_calls *calls = hg_calls_of(m, r->arena);
  if (c)
    c->calls_module = m, c->calls = calls;
  return calls;
}

void hg_summary_cache_next_read(hg_summary_cache *c) {
  if (c)
    c->reads++;
}

hg_summary_cache *hg_summary_cache_new(hg_arena *arena) {
  hg_summary_cache *c = hg_arena_alloc(arena, sizeof(hg_summary_cache));
  *c = (hg_summary_cache){.arena = arena};
  hg_table_init(&c->members, arena, 0);
  hg_table_init(&c->returns, arena, 0);
  return c;
}

// A bare callee's name stands for the same definition anywhere in the file.
static const summary_entry *cache_find_name(const hg_summary_cache *c, const char *name, size_t len) {
  for (size_t i = 0; i < c->len; i++)
    if (c->items[i].name && strlen(c->items[i].name) == len && !memcmp(c->items[i].name, name, len))
      return &c->items[i];
  return NULL;
}

static const summary_entry *cache_find(const hg_summary_cache *c, hg_target t) {
  uint32_t at = ts_node_start_byte(t.node);
  const char *path = hg_project__path(t.module);
  for (size_t i = 0; i < c->len; i++)
    if (c->items[i].at == at && !strcmp(c->items[i].path, path))
      return &c->items[i];
  return NULL;
}

static void replay(const hg_resolver *r, const summary_entry *e) {
  for (size_t i = 0; r->notes && i < e->n_notes; i++)
    HG_VEC_PUSH(r->notes, e->notes[i]);
}

static void cache_add(const hg_resolver *r, summary_entry e, size_t notes_before) {
  hg_summary_cache *c = r->cache;
  size_t n = r->notes ? r->notes->len - notes_before : 0;
  if (n) {
    hg_note *kept = hg_arena_alloc(c->arena, n * sizeof(hg_note));
    memcpy(kept, r->notes->items + notes_before, n * sizeof(hg_note));
    e.notes = kept;
    e.n_notes = n;
  }
  HG_ARENA_PUSH(c->arena, c, e);
}

// ---- calls --------------------------------------------------------------------------------------

static const char *def_name(const hg_module *m, TSNode def, hg_arena *a) {
  return hg_node_text(hg_node_field(def, "name"), m->src, a);
}

// "hardening_kwargs() (pkg/h.py:22)"
static const char *via_of(const hg_resolver *r, const hg_module *m, TSNode def, const char *cls) {
  return hg_project__printf(r->arena, "%s%s%s() (%s:%u)", cls ? cls : "", cls ? "." : "", def_name(m, def, r->arena),
                            hg_project__path(m), line_of(def));
}

static hg_value builder_value(const hg_resolver *r, TSNode call, const hg_value *yields, const hg_def *def,
                              const char *via) {
  hg_value b = {.kind = HG_VAL_BUILDER,
                .text = hg_node_text(call, r->src, r->arena),
                .line = line_of(call),
                .via = via,
                .def = def};
  if (yields) {
    b.items = hg_arena_alloc(r->arena, sizeof(hg_value));
    b.items[0] = *yields;
    b.n_items = 1;
  }
  return b;
}

// A configured builder whose definition is not in the project: it fails closed.
static hg_value builder_not_found(const hg_resolver *r, TSNode call, const char *name) {
  return hg_resolve_unknown(r, call,
                            hg_project__printf(r->arena,
                                               "the configured builder %s is not defined in this project, so what it "
                                               "yields cannot be checked (mark it `trust: true` if it comes from an "
                                               "installed package)",
                                               name));
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
    const char *callable = hg_project__configured_method(c, r->src + a, e - a);
    if (callable) {
      // Class.method: the receiver must be known to be made by the configured class.
      TSNode made = hg_resolve_call(r, obj);
      TSNode ctor = hg_node_field(made, "function");
      const hg_builder *b = !ts_node_is_null(ctor) && hg_resolve_qualify(r, ctor, &q)
                                ? hg_project__configured_by_name(c, q.data, true, r->src + a, e - a)
                                : NULL;
      if (b && b->trust) {
        out = builder_value(r, call, NULL, NULL, NULL);
      } else if (b) {
        out = builder_not_found(r, call, callable);
      } else {
        hg_value recv = hg_resolve_value_at(r, obj, depth + 1);
        out = hg_resolve_unknown(
            r, call,
            hg_project__printf(r->arena, "`%s` (%s) is not known to be a %.*s, so `.%.*s()` cannot be checked",
                               hg_node_text(obj, r->src, r->arena), recv.origin ? recv.origin : "not a project object",
                               (int)(strchr(callable, '.') - callable), callable, (int)(e - a), r->src + a));
      }
      hg_buf_free(&q);
      out.of_builder = out.kind == HG_VAL_UNKNOWN;
      return out;
    }
  }
  if (hg_imports_qualify(r->imports, fn, r->src, &q)) {
    const hg_builder *b = hg_project__configured_by_name(c, q.data, false, NULL, 0);
    if (b) {
      out = b->trust ? builder_value(r, call, NULL, NULL, NULL) : builder_not_found(r, call, q.data);
      hg_buf_free(&q);
      out.of_builder = out.kind == HG_VAL_UNKNOWN;
      return out;
    }
  }
  hg_buf_free(&q);
  return hg_resolve_unknown(r, call, "a call that hardguard cannot follow to a definition in this project");
}

static hg_value call_of(const hg_resolver *r, TSNode call, TSNode fn, int depth);

bool hg_summary_follows(const hg_resolver *r, TSNode call, int depth) {
  if (!r->index)
    return hg_resolve_is_builder(r, call);
  hg_value recv = {0};
  return hg_object__callee(r, hg_node_field(call, "function"), depth, &recv).kind == HG_DEF_FUNCTION;
}

hg_value hg_summary_call(const hg_resolver *r, TSNode call, int depth) {
  return call_of(r, call, hg_node_field(call, "function"), depth);
}

// The callee stands for the call: it has no arguments.
hg_value hg_summary_factory(const hg_resolver *r, TSNode callee, int depth) { return call_of(r, callee, callee, depth); }

// `call` (a call node, or the callee itself for a call without arguments) of `fn`.
static hg_value call_of(const hg_resolver *r, TSNode call, TSNode fn, int depth) {
  if (!r->index) {
    if (hg_resolve_is_builder(r, call))
      return builder_value(r, call, NULL, NULL, NULL);
    return hg_resolve_unknown(r, call, "a call that is not a configured hardening builder");
  }
  bool cacheable = r->cache && !r->hops && !r->call_keywords && hg_node_arg_count(hg_node_field(call, "arguments")) == 0;
  const char *bare = NULL;
  if (cacheable && hg_node_is(fn, "identifier")) {
    uint32_t a = ts_node_start_byte(fn), e = ts_node_end_byte(fn);
    const summary_entry *hit = cache_find_name(r->cache, r->src + a, e - a);
    if (hit) {
      replay(r, hit);
      return hit->builder ? builder_value(r, call, &hit->value, hit->def, hit->via) : hit->value;
    }
    bare = hg_arena_strndup(r->arena, r->src + a, e - a);
  }
  hg_value recv = {0};
  hg_target t = hg_object__callee(r, fn, depth, &recv);
  bool has_recv = false;
  const char *cls = NULL;
  size_t cls_len = 0;
  if (recv.kind == HG_VAL_OBJECT && recv.def) {
    has_recv = t.kind == HG_DEF_FUNCTION;
    // The class the method is judged as: the receiver's (a subclass inherits the builder).
    cls = hg_node_text(hg_node_field(recv.def->node, "name"), recv.def->module->src, r->arena);
    cls_len = strlen(cls);
  }
  if (t.kind == HG_DEF_CLASS)
    return hg_object__make(r, t, call, depth);
  if (t.kind != HG_DEF_FUNCTION)
    return not_found(r, call, fn, depth);
  uint32_t fa = ts_node_start_byte(hg_node_field(t.node, "name")), fe = ts_node_end_byte(hg_node_field(t.node, "name"));
  const hg_builder *b = NULL;
  if (has_recv) {
    // The method counts as the configured Class.method for the receiver's class ...
    b = hg_project__configured(r->config, recv.def->module, cls, cls_len, t.module->src + fa, fe - fa);
    if (!b) {
      // ... or for the class that defines it (the receiver's class inherits it).
      TSNode owner = ts_node_parent(t.node);
      while (hg_node_is(owner, "decorated_definition") || hg_node_is(owner, "block"))
        owner = ts_node_parent(owner);
      if (hg_node_is(owner, "class_definition")) {
        const char *oc = hg_node_text(hg_node_field(owner, "name"), t.module->src, r->arena);
        b = hg_project__configured(r->config, t.module, oc, strlen(oc), t.module->src + fa, fe - fa);
      }
    }
  } else {
    b = hg_project__configured(r->config, t.module, NULL, 0, t.module->src + fa, fe - fa);
  }
  const char *via;
  hg_value v;
  hg_def *def = hg_arena_alloc(r->arena, sizeof(hg_def));
  *def = (hg_def){t.module, t.node};
  // A function called without arguments, from a site (not from inside another definition, where
  // a cycle or the depth bound may cut it short), yields the same wherever it is called: it is
  // read once per file.
  cacheable = cacheable && !has_recv;
  const summary_entry *hit = cacheable ? cache_find(r->cache, t) : NULL;
  if (hit) {
    v = hit->value;
    via = hit->via;
    replay(r, hit);
  } else {
    size_t notes_before = r->notes ? r->notes->len : 0;
    // A @staticmethod called on an instance takes no instance.
    static char *const static_method[] = {"staticmethod"};
    bool bind_self = has_recv && !hg_defs__decorated(t.module, t.decorated, static_method, 1);
    v = evaluate(r, t.module, t.node, call, bind_self ? &recv : NULL, depth);
    // A function that returns a builder's result yields what that builder yields.
    while (v.kind == HG_VAL_BUILDER && v.n_items == 1 && !v.conditional)
      v = v.items[0];
    via = via_of(r, t.module, t.node, has_recv ? cls : NULL);
    v = stamp(r->arena, v, via);
    if (cacheable)
      cache_add(r,
                (summary_entry){.name = bare,
                                .path = hg_project__path(t.module),
                                .at = ts_node_start_byte(t.node),
                                .builder = b,
                                .def = def,
                                .value = v,
                                .via = via},
                notes_before);
  }
  if (!b)
    return v;
  return builder_value(r, call, &v, def, via);
}

// What the configured callable `name` (a function defined at the top of module m, the last
// definition winning as in Python) yields called without arguments, read as a site's call of it
// is: a BUILDER holding it, or an UNKNOWN saying why.
hg_value hg_summary_builder(const hg_resolver *r, const hg_module *m, const char *name) {
  TSNode fn = {0};
  for (uint32_t i = 0, k = ts_node_named_child_count(m->root); i < k; i++) {
    TSNode c = ts_node_named_child(m->root, i);
    if (hg_node_is(c, "decorated_definition"))
      c = hg_node_field(c, "definition");
    if (hg_node_is(c, "function_definition") && hg_node_text_eq(hg_node_field(c, "name"), m->src, name, strlen(name)))
      fn = c;
  }
  hg_resolver mr = hg_project__in_module(r, m);
  if (ts_node_is_null(fn))
    return (hg_value){.kind = HG_VAL_UNKNOWN,
                      .text = name,
                      .origin = hg_project__printf(r->arena, "no function %s at the top of %s", name, m->path)};
  // The definition's name stands for a call without arguments: every parameter takes its default.
  hg_value v = evaluate(&mr, m, fn, hg_node_field(fn, "name"), NULL, 0);
  while (v.kind == HG_VAL_BUILDER && v.n_items == 1 && !v.conditional)
    v = v.items[0];
  const char *via = via_of(&mr, m, fn, NULL);
  v = stamp(r->arena, v, via);
  hg_def *def = hg_arena_alloc(r->arena, sizeof(hg_def));
  *def = (hg_def){m, fn};
  hg_value b = {.kind = HG_VAL_BUILDER, .text = hg_project__printf(r->arena, "%s()", name), .line = line_of(fn),
                .path = hg_project__path(m), .via = via, .def = def};
  b.items = hg_arena_alloc(r->arena, sizeof(hg_value));
  b.items[0] = v;
  b.n_items = 1;
  return b;
}

// ---- definitions of callees -----------------------------------------------------------------------

bool hg_summary_defined(const hg_resolver *r, TSNode callee) {
  hg_value recv;
  hg_target t = hg_object__callee(r, callee, 0, &recv);
  if (t.kind == HG_DEF_FUNCTION || t.kind == HG_DEF_CLASS)
    return true;
  // self.method(...) inside a method of a class of this file: the class's own method, or one of a
  // base class defined in the project.
  TSNode obj = hg_node_field(callee, "object");
  if (!r->module || !hg_node_is(callee, "attribute") || !hg_node_is(obj, "identifier"))
    return false;
  TSNode cls = hg_defs__self_class(r, obj);
  if (ts_node_is_null(cls))
    return false;
  TSNode attr = hg_node_field(callee, "attribute");
  hg_target c = {.kind = HG_DEF_CLASS, .module = r->module, .node = cls};
  return hg_defs__member(r, c, r->src + ts_node_start_byte(attr), ts_node_end_byte(attr) - ts_node_start_byte(attr), 0)
             .kind == HG_DEF_FUNCTION;
}

// ---- names and attributes -----------------------------------------------------------------------

static hg_value constant(const hg_resolver *r, hg_target t, TSNode use, int depth) {
  hg_hop hop;
  const char *why = hg_project__enter(r, &hop, t.module, t.node);
  if (why)
    return hg_resolve_unknown(r, use, why);
  hg_resolver mr = hg_project__in_module(r, t.module);
  mr.hops = &hop;
  hg_value v = hg_resolve_global(&mr, t.node, depth + 1);
  if (!v.path)
    v.path = hg_project__path(t.module);
  return stamp(r->arena, v,
               hg_project__printf(r->arena, "%s (%s:%u)", hg_node_text(t.node, t.module->src, r->arena),
                                  hg_project__path(t.module), line_of(t.node)));
}

hg_value hg_summary_imported(const hg_resolver *r, const char *qualified, TSNode use, int depth) {
  hg_target t = hg_defs__qualified(r, qualified, 0);
  if (t.kind == HG_DEF_CONSTANT)
    return constant(r, t, use, depth);
  return hg_resolve_unknown(r, use, hg_project__printf(r->arena, "imported as %s", qualified));
}

hg_value hg_summary_self_state(const hg_resolver *r, TSNode attribute) {
  return hg_object__self_state(r, attribute, false);
}

hg_value hg_summary_attribute(const hg_resolver *r, TSNode attribute, int depth) {
  TSNode obj = hg_node_field(attribute, "object"), attr = hg_node_field(attribute, "attribute");
  uint32_t a = ts_node_start_byte(attr), e = ts_node_end_byte(attr);
  if (r->index) {
    TSNode head = obj;
    while (hg_node_is(head, "attribute"))
      head = hg_node_field(head, "object");
    if (hg_node_is(head, "identifier") && hg_imports_lookup(r->imports, r->src + ts_node_start_byte(head),
                                                            ts_node_end_byte(head) - ts_node_start_byte(head))) {
      hg_buf q = {0};
      hg_target t = {.kind = HG_DEF_NONE};
      if (hg_imports_qualify(r->imports, attribute, r->src, &q))
        t = hg_defs__qualified(r, q.data, 0);
      hg_buf_free(&q);
      if (t.kind == HG_DEF_CONSTANT)
        return constant(r, t, attribute, depth);
    }
  }
  // `self` outside a method being evaluated is the method's parameter: nothing to follow.
  if (!r->frame && hg_node_text_eq(obj, r->src, "self", 4)) {
    TSNode fn;
    hg_scope_of(r->scopes, attribute, &fn);
    const char *why = NULL;
    if (!ts_node_is_null(fn) && !ts_node_is_null(hg_defs__self_class(r, obj)))
      why = hg_resolve_param_read(r, fn, true);
    return hg_resolve_unknown(r, attribute, why ? hg_arena_printf(r->arena, "an attribute, %s", why) : "an attribute");
  }
  hg_value recv = hg_resolve_value_at(r, obj, depth + 1);
  if (recv.kind == HG_VAL_OBJECT) {
    const hg_value *v = hg_object__attribute(&recv, r->src + a, e - a);
    if (v) {
      hg_value out = *v;
      out.key = NULL;
      return out;
    }
    if (recv.def && r->index) {
      // A @property: its getter's return value.
      hg_target c = {.kind = HG_DEF_CLASS, .module = recv.def->module, .node = recv.def->node};
      hg_target m = hg_defs__member(r, c, r->src + a, e - a, 0);
      if (m.kind == HG_DEF_FUNCTION && hg_defs__decorated(m.module, m.decorated, r->policy->property_decorators,
                                                            r->policy->n_property_decorators)) {
        hg_value v2 = evaluate(r, m.module, m.node, attribute, &recv, depth);
        return stamp(r->arena, v2, via_of(r, m.module, m.node, NULL));
      }
    }
  }
  return hg_resolve_unknown(r, attribute, "an attribute");
}
