// Values that arrive from callers: a site whose options come from a parameter of its function, or
// from an attribute of `self` in a method, is read once per call of that function in the project
// (per construction of the class, for `self`), with that call's arguments bound. The calls are
// found through the project's table of names written as calls (index.h: hg_index_calling), then
// confirmed as calls of this very definition by resolving their callee as any call is resolved.
#include "surfaces/python/project/summary.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "surfaces/extract.h"
#include "surfaces/node.h"
#include "surfaces/python/imports.h"
#include "surfaces/python/project/candidates.h"
#include "surfaces/python/project/defs.h"
#include "surfaces/python/scope.h"

typedef struct {
  hg_frame frame;
  const char *cond; // "called from app.py:12", "built at app.py:3, called from main.py:9"
  const hg_call_at *calls; // the same calls, for the report's related locations
} context;

typedef HG_VEC(context) context_vec;
typedef hg_node_vec node_vec;

typedef struct {
  const hg_resolver *site; // the site's resolver: its arena, index, budget
  hg_def chain[HG_CALLERS_MAX_LEVELS + 1]; // the functions whose callers are being looked for
  size_t n_chain;
  size_t cycle_calls; // calls skipped as a cycle's own, handing on what came from outside it
  context_vec out;
  const char *why; // set: the contexts cannot all be told (a budget), and why
} search;

static void frames_of(search *s, const hg_resolver *r, TSNode fn, bool self_only, int level, context_vec *out);

// "an" before a class name that starts with a vowel (an Environment), else "a".
static const char *article(const char *name) { return strchr("AEIOUaeiou", name[0]) && name[0] ? "an" : "a"; }

static const char *place(const hg_resolver *r, const hg_module *m, TSNode call, const char *verb) {
  return hg_project__printf(r->arena, "%s %s:%u", verb, hg_project__path(m), line_of(call));
}

// Where `call` of module m stands, followed by `next` (the calls further from the site).
static const hg_call_at *call_at(const hg_resolver *r, const hg_module *m, TSNode call, const hg_call_at *next) {
  hg_site place;
  hg_source text = {.path = m->path, .data = (char *)m->src, .len = m->len};
  hg_extract__position(&place, &text, call);
  hg_call_at *at = hg_arena_alloc(r->arena, sizeof(hg_call_at));
  *at = (hg_call_at){.path = hg_project__path(m),
                     .line = place.line,
                     .col = place.col,
                     .end_line = place.end_line,
                     .end_col = place.end_col,
                     .next = next};
  return at;
}

static void push(search *s, context_vec *out, hg_frame frame, const char *cond, const hg_call_at *calls) {
  if (out->len >= HG_CALLERS_MAX_CONTEXTS) {
    s->why = "more calls than hardguard's budget of 16 calling contexts per site";
    return;
  }
  HG_VEC_PUSH(out, ((context){frame, cond, calls}));
}

static bool on_chain(const search *s, const hg_module *m, TSNode g) {
  for (size_t i = 0; i < s->n_chain; i++)
    if (hg_candidates__same_def(s->chain[i].module, s->chain[i].node, m, g))
      return true;
  return false;
}

// An argument that hands on what the function holds without making an option: a name, a literal
// scalar, arithmetic on them (`attempts - 1`).
static bool forwards(TSNode e, int depth) {
  if (depth > 8)
    return false;
  if (hg_node_is(e, "identifier") || hg_node_is(e, "integer") || hg_node_is(e, "float") || hg_node_is(e, "true") ||
      hg_node_is(e, "false") || hg_node_is(e, "none"))
    return true;
  if (hg_node_is(e, "binary_operator") || hg_node_is(e, "unary_operator") || hg_node_is(e, "parenthesized_expression")) {
    for (uint32_t i = 0, n = ts_node_named_child_count(e); i < n; i++)
      if (!forwards(ts_node_named_child(e, i), depth + 1))
        return false;
    return true;
  }
  return false;
}

// A call on a cycle of calls (recursion, mutual recursion) that only hands on names and scalars
// adds no value the cycle's calls from outside do not bring.
static bool hands_on_names(TSNode call) {
  TSNode args = hg_node_field(call, "arguments");
  for (uint32_t i = 0, n = hg_node_arg_count(args); i < n; i++) {
    TSNode a = hg_node_arg(args, i);
    if (hg_node_is(a, "keyword_argument"))
      a = hg_node_field(a, "value");
    else if (hg_node_is(a, "list_splat") || hg_node_is(a, "dictionary_splat"))
      a = hg_node_arg(a, 0);
    if (!forwards(a, 0))
      return false;
  }
  return true;
}

// Is `obj` (a receiver in the module rm reads) a module that module imports (`subprocess.run`)?
static bool imported_module(const hg_resolver *rm, TSNode obj) {
  return hg_node_is(obj, "identifier") && rm->imports &&
         hg_imports_lookup(rm->imports, rm->src + ts_node_start_byte(obj), ts_node_end_byte(obj) - ts_node_start_byte(obj));
}

// Is `call` (in the module rm reads), which hardguard could not confirm as a call of method `fn`
// of class `cls`, possibly one? `obj.fn(...)` on an object whose value is unknown (a parameter, an
// attribute, what an unknown call returned; not a module the file imports, nor `self` of a class
// of the file, which is known), outside fn itself, with arguments fn's parameters can take.
static bool possibly_of_class(const hg_resolver *r, const hg_resolver *rm, TSNode fn, TSNode cls, TSNode call,
                              const hg_value *recv) {
  TSNode callee = hg_node_field(call, "function"), obj = hg_node_field(callee, "object");
  if (ts_node_is_null(cls) || !hg_node_is(callee, "attribute") || recv->kind != HG_VAL_UNKNOWN ||
      (rm->module == r->module && hg_node_contains(fn, call)))
    return false;
  if (imported_module(rm, obj) || (hg_node_is(obj, "identifier") && !ts_node_is_null(hg_defs__self_class(rm, obj))))
    return false;
  return hg_bind__fits(r->module, fn, rm->src, hg_node_field(call, "arguments"), true);
}

static void one_call(search *s, const hg_resolver *r, TSNode fn, TSNode cls, bool construct, const hg_module *m,
                     TSNode call, int level, context_vec *out);

// The steps one call's values may take of the file's budget: those given, those left.
typedef struct {
  size_t given, left;
} call_budget;

// A copy of r whose value following takes at most HG_CALLERS_CALL_BUDGET steps of r's budget, *b
// (what it spends is taken from r's by charge).
static hg_resolver budgeted(const hg_resolver *r, call_budget *b) {
  b->given = b->left = r->budget && *r->budget < HG_CALLERS_CALL_BUDGET ? *r->budget : HG_CALLERS_CALL_BUDGET;
  hg_resolver rb = *r;
  rb.budget = &b->left;
  rb.budget_why = "a value hardguard follows, in one calling context, further than its budget for one call allows";
  return rb;
}

static void charge(const hg_resolver *r, const call_budget *b) {
  if (r->budget)
    *r->budget -= b->given - b->left;
}

// One call, its values followed within a budget of its own (taken from the file's): a caller
// whose argument is made by a long method with `self` bound (kubespawner's get_pod_manifest,
// hundreds of conditions on self's traits, each deciding the ones before it again) cannot spend
// the whole file's budget, and time, on one context.
static void one_call_budgeted(search *s, const hg_resolver *r, TSNode fn, TSNode cls, bool construct,
                              const hg_module *m, TSNode call, int level, context_vec *out) {
  call_budget b;
  hg_resolver rb = budgeted(r, &b);
  one_call(s, &rb, fn, cls, construct, m, call, level, out);
  charge(r, &b);
}

// One call of fn (or construction of its class), found in module m: its frame, or one per context
// of the function the call stands in when its arguments take that function's parameters.
static void one_call(search *s, const hg_resolver *r, TSNode fn, TSNode cls, bool construct, const hg_module *m,
                     TSNode call, int level, context_vec *out) {
  const hg_resolver *site = s->site;
  hg_param_reads reads = {0};
  hg_resolver rm = hg_project__in_module(r, m);
  rm.params = &reads;
  TSNode callee = hg_node_field(call, "function"), callable;
  // A forwarding call handed fn (`partial(self.f, pod)`, `executor.submit(f, x)`): fn is its callable.
  hg_forward how = {0};
  bool forwarded = hg_candidates__forwarded(&rm, m, call, &callable, &how);
  if (forwarded && construct)
    return;
  const char *verb = construct ? "built at" : "called from";
  if (forwarded) {
    verb = hg_project__printf(site->arena, "handed to %s() at", hg_node_text(callee, m->src, site->arena));
    callee = callable;
  }
  hg_value recv;
  hg_target t = hg_object__callee(&rm, callee, 1, &recv);
  hg_value self = {0};
  bool has_self = false, uncertain = false;
  if (construct) {
    if (t.kind != HG_DEF_CLASS || !hg_candidates__same_def(t.module, t.node, r->module, cls))
      return;
    if (hg_node_text_eq(hg_node_field(fn, "name"), r->src, "__init__", 8)) {
      hg_def *def = hg_arena_alloc(site->arena, sizeof(hg_def));
      *def = (hg_def){r->module, cls};
      self = (hg_value){.kind = HG_VAL_OBJECT, .text = "self", .line = line_of(call), .def = def};
    } else {
      self = hg_object__make(&rm, t, call, 1);
    }
    has_self = true;
  } else if (t.kind == HG_DEF_NONE && !forwarded && possibly_of_class(r, &rm, fn, cls, call, &recv)) {
    // The object may be of the class: a context, its `self` unknown.
    self = recv, has_self = true;
    uncertain = true;
  } else {
    if (t.kind != HG_DEF_FUNCTION || !hg_candidates__same_def(t.module, t.node, r->module, fn))
      return;
    if (recv.kind == HG_VAL_OBJECT) {
      self = recv, has_self = true;
      // self.method(...) inside the class: the instance is the caller's own self.
      TSNode obj = hg_node_field(callee, "object");
      if (!recv.n_items && hg_node_is(obj, "identifier") && !ts_node_is_null(hg_defs__self_class(&rm, obj))) {
        TSNode g;
        hg_scope_of(rm.scopes, call, &g);
        if (!ts_node_is_null(g))
          hg_resolve_param_read(&rm, g, true);
      }
    }
  }
  TSNode args = construct && !hg_node_text_eq(hg_node_field(fn, "name"), r->src, "__init__", 8)
                    ? (TSNode){0}
                    : hg_node_field(call, "arguments");
  const char *cond = place(site, m, call, verb);
  if (uncertain) {
    const char *name = hg_node_text(hg_node_field(cls, "name"), r->src, site->arena);
    cond = hg_project__printf(site->arena, "%s on an object that may be %s %s", cond, article(name), name);
  }
  const hg_call_at *here = call_at(site, m, call, NULL);
  TSNode g;
  hg_scope_of(r->scopes, call, &g);
  bool cycle = !ts_node_is_null(g) && on_chain(s, m, g);
  if (cycle && hands_on_names(call)) {
    s->cycle_calls++;
    return;
  }
  hg_frame frame;
  hg_bind__forwarded(&rm, r->module, fn, args, forwarded ? &how : NULL, has_self ? &self : NULL, &frame, 1);
  if (ts_node_is_null(reads.fn) || reads.others || ts_node_is_null(g) || !ts_node_eq(reads.fn, g) ||
      level + 1 >= HG_CALLERS_MAX_LEVELS || cycle) {
    // The call's own values (a parameter of its function stays unknown past the levels, and in a
    // call of fn from itself).
    push(s, out, frame, cond, here);
    return;
  }
  context_vec up = {0};
  size_t cycles = s->cycle_calls;
  frames_of(s, &rm, g, reads.self && !reads.param, level + 1, &up);
  if (!up.len && s->cycle_calls == cycles)
    push(s, out, frame, cond, here); // the caller's caller is not in the project: its parameters unknown
  // (no context but calls of a cycle: this call is the cycle's own, its values those from outside)
  for (size_t i = 0; i < up.len && !s->why; i++) {
    const char *chain = hg_project__printf(site->arena, "%s, %s", cond, up.items[i].cond);
    hg_frame *keep = hg_arena_alloc(site->arena, sizeof(hg_frame));
    *keep = up.items[i].frame;
    hg_resolver ru = rm;
    ru.frame = keep;
    ru.params = NULL;
    if (construct) {
      hg_target t2 = hg_object__callee(&ru, callee, 1, &recv);
      self = t2.kind == HG_DEF_CLASS ? hg_object__make(&ru, t2, call, 1) : self;
    } else if (has_self) {
      hg_object__callee(&ru, callee, 1, &recv);
      if (recv.kind == HG_VAL_OBJECT)
        self = recv;
    }
    hg_frame f2;
    hg_bind__forwarded(&ru, r->module, fn, args, forwarded ? &how : NULL, has_self ? &self : NULL, &f2, 1);
    push(s, out, f2, chain, call_at(site, m, call, up.items[i].calls));
  }
  free(up.items);
}

// The calling contexts of function fn of r's module (r reads at module scope of that module).
static void frames_of(search *s, const hg_resolver *r, TSNode fn, bool self_only, int level, context_vec *out) {
  if (s->why || !r->module || !r->index || s->n_chain > HG_CALLERS_MAX_LEVELS)
    return;
  TSNode cls = hg_defs__class_of_method(fn);
  bool init = !ts_node_is_null(cls) && hg_node_text_eq(hg_node_field(fn, "name"), r->src, "__init__", 8);
  bool construct = !ts_node_is_null(cls) && (init || self_only);
  TSNode name = hg_node_field(construct ? cls : fn, "name"); // __init__ and `self` alone: the class is built
  if (ts_node_is_null(name))
    return;
  size_t n_files;
  const char *why = NULL;
  const char *const *files = hg_index_calling(r->index, r->src + ts_node_start_byte(name),
                                              ts_node_end_byte(name) - ts_node_start_byte(name), &n_files, &why);
  if (!files && why) {
    s->why = why;
    return;
  }
  s->chain[s->n_chain++] = (hg_def){r->module, fn};
  char own[PATH_MAX];
  if (!realpath(r->module->path, own))
    own[0] = '\0';
  // A method's call is confirmed only on an object the resolver knows to be of its class: in a
  // file that imports the class's module or the class, or builds it. Other files are not parsed.
  bool method = !ts_node_is_null(cls) && !construct;
  TSNode cname = method ? hg_node_field(cls, "name") : (TSNode){0};
  const char *cls_word = method ? r->src + ts_node_start_byte(cname) : NULL;
  size_t cls_len = method ? ts_node_end_byte(cname) - ts_node_start_byte(cname) : 0, n_builders = 0;
  const char *const *builders = method ? hg_index_calling(r->index, cls_word, cls_len, &n_builders, &why) : NULL;
  const char *word = ts_node_is_null(cls) || construct ? hg_candidates__last_part(r->module) : NULL;
  const char *fn_name = r->src + ts_node_start_byte(name);
  size_t fn_len = ts_node_end_byte(name) - ts_node_start_byte(name);
  hg_candidates__fewer_files(r, word, fn_name, fn_len, &files, &n_files);
  // For a method, when fewer: the files that may hold an instance, straight from the table.
  HG_VEC(const char *) holders = {0};
  const char *mod = hg_candidates__last_part(r->module);
  size_t n_mod = 0, n_cls = 0;
  const char *const *by_mod = method && mod ? hg_index_importers(r->index, mod, strlen(mod), &n_mod) : NULL;
  const char *const *by_cls = method ? hg_index_importers(r->index, cls_word, cls_len, &n_cls) : NULL;
  if (method && n_mod + n_cls + n_builders < n_files) {
    const char *const *lists[] = {by_mod, by_cls, builders};
    size_t sizes[] = {n_mod, n_cls, n_builders};
    for (int l = 0; l < 3; l++)
      for (size_t k = 0; k < sizes[l]; k++) {
        bool dup = false;
        for (size_t h = 0; h < holders.len && !dup; h++)
          dup = holders.items[h] == lists[l][k] || !strcmp(holders.items[h], lists[l][k]);
        if (!dup)
          HG_VEC_PUSH(&holders, lists[l][k]);
      }
    files = holders.items;
    n_files = holders.len;
    method = false; // every file listed may hold one
  }
  for (size_t i = 0; i <= n_files && !s->why; i++) {
    if (method && i > 0 && !hg_candidates__may_hold_instance(r, files[i - 1], cls_word, cls_len, builders, n_builders))
      continue;
    const hg_module *m = hg_candidates__module_of(r, own, files, i, word, fn_name, fn_len);
    if (!m)
      continue;
    node_vec calls = {0};
    hg_candidates__candidate_calls(r, m, i, fn_name, fn_len, !ts_node_is_null(cls) && !construct ? NULL : r->module,
                                   &calls);
    for (size_t k = 0; k < calls.len && !s->why; k++)
      one_call_budgeted(s, r, fn, cls, construct, m, calls.items[k], level, out);
    free(calls.items);
  }
  free(holders.items);
  s->n_chain--;
}

// ---- annotated parameters: an instance of the class, as the project builds it -------------------

// The project class an annotation names: `C`, `mod.C`, `Optional[C]`, `C | None`, `"C"`; the
// first name in it that is a class of the project.
static hg_target annotated_class(const hg_resolver *r, TSNode type, int budget) {
  hg_target none = {.kind = HG_DEF_NONE};
  if (ts_node_is_null(type) || budget <= 0)
    return none;
  if (hg_node_is(type, "identifier") || hg_node_is(type, "attribute")) {
    hg_value recv;
    hg_target t = hg_object__callee(r, type, 1, &recv);
    if (t.kind == HG_DEF_CLASS || hg_node_is(type, "attribute"))
      return t.kind == HG_DEF_CLASS ? t : none;
  }
  if (hg_node_is(type, "string")) {
    for (uint32_t i = 0, n = ts_node_named_child_count(type); i < n; i++) {
      TSNode part = ts_node_named_child(type, i);
      if (!hg_node_is(part, "string_content"))
        continue;
      uint32_t a = ts_node_start_byte(part), b = ts_node_end_byte(part);
      hg_target t = r->module ? hg_defs__lookup(r, r->module, r->src + a, b - a, 0) : none;
      return t.kind == HG_DEF_CLASS ? t : none;
    }
    return none;
  }
  for (uint32_t i = 0, n = ts_node_named_child_count(type); i < n; i++) {
    hg_target t = annotated_class(r, ts_node_named_child(type, i), budget - 1);
    if (t.kind == HG_DEF_CLASS)
      return t;
  }
  return none;
}

typedef struct {
  const char *name;
  hg_value value;
  const char *cond;
  const hg_call_at *calls; // the construction; NULL: none (the class's defaults)
} instance;
typedef HG_VEC(instance) instance_vec;

// Is class c the class t or a project subclass of it?
static bool is_or_derives(const hg_resolver *r, hg_target c, hg_target t) {
  if (hg_candidates__same_def(c.module, c.node, t.module, t.node))
    return true;
  hg_target bases[HG_DEFS_MAX_BASES];
  size_t n = hg_defs__bases(r, c, bases, 0);
  for (size_t i = 0; i < n; i++)
    if (hg_candidates__same_def(bases[i].module, bases[i].node, t.module, t.node))
      return true;
  return false;
}

// Every construction `name(...)` in the project of class t (def: its module; NULL for a subclass,
// whose module is told by the call), as an instance.
static void constructions_named(search *s, const hg_resolver *r, hg_target t, const char *name, size_t len,
                                const hg_module *def, const char *param, instance_vec *out) {
  size_t n_files;
  const char *why = NULL;
  const char *const *files = hg_index_calling(r->index, name, len, &n_files, &why);
  if (!files && why) {
    s->why = why;
    return;
  }
  char own[PATH_MAX];
  if (!realpath(r->module->path, own))
    own[0] = '\0';
  const char *word = def ? hg_candidates__last_part(def) : NULL;
  hg_candidates__fewer_files(r, word, name, len, &files, &n_files);
  for (size_t i = 0; i <= n_files && !s->why; i++) {
    const hg_module *m = hg_candidates__module_of(r, own, files, i, word, name, len);
    if (!m)
      continue;
    node_vec calls = {0};
    hg_candidates__candidate_calls(r, m, i, name, len, def, &calls);
    for (size_t k = 0; k < calls.len && !s->why; k++) {
      hg_resolver rm = hg_project__in_module(r, m);
      hg_value recv;
      hg_target c = hg_object__callee(&rm, hg_node_field(calls.items[k], "function"), 1, &recv);
      if (c.kind != HG_DEF_CLASS || !is_or_derives(&rm, c, t))
        continue;
      if (out->len >= HG_CALLERS_MAX_CONTEXTS) {
        s->why = "more constructions than hardguard's budget of 16 calling contexts per site";
        break;
      }
      HG_VEC_PUSH(out, ((instance){param, hg_object__make(&rm, c, calls.items[k], 1),
                                   place(s->site, m, calls.items[k], "built at"),
                                   call_at(s->site, m, calls.items[k], NULL)}));
    }
    free(calls.items);
  }
}

// Every construction of class t in the project, or of a subclass of it, as an instance.
static void constructions(search *s, const hg_resolver *r, hg_target t, const char *param, instance_vec *out) {
  TSNode name = hg_node_field(t.node, "name");
  const char *n = t.module->src + ts_node_start_byte(name);
  size_t len = ts_node_end_byte(name) - ts_node_start_byte(name);
  constructions_named(s, r, t, n, len, t.module, param, out);
  size_t n_sub;
  const char *const *subs = hg_index_subclasses(r->index, n, len, &n_sub);
  for (size_t i = 0; i < n_sub && !s->why; i++)
    constructions_named(s, r, t, subs[i], strlen(subs[i]), NULL, param, out);
}

// A function without a caller in the project: each parameter annotated with a class of the
// project is an instance of it, once per construction of the class in the project (its defaults
// where the project builds it nowhere). At most one such parameter is followed: the first.
static void annotated_contexts(search *s, const hg_resolver *r, TSNode fn) {
  TSNode params = hg_node_field(fn, "parameters");
  for (uint32_t i = 0, n = ts_node_named_child_count(params); i < n && !s->why; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (!hg_node_is(p, "typed_parameter") && !hg_node_is(p, "typed_default_parameter"))
      continue;
    TSNode id = hg_node_is(p, "typed_parameter") ? ts_node_named_child(p, 0) : hg_node_field(p, "name");
    TSNode type = hg_node_field(p, "type");
    if (!hg_node_is(id, "identifier") || ts_node_is_null(type))
      continue;
    hg_target t = annotated_class(r, type, 8);
    if (t.kind != HG_DEF_CLASS)
      continue;
    const char *pname = hg_node_text(id, r->src, r->arena);
    instance_vec made = {0};
    constructions(s, r, t, pname, &made);
    if (!made.len && !s->why) {
      TSNode cname = hg_node_field(t.node, "name");
      hg_value obj = hg_object__make(r, t, id, 1);
      HG_VEC_PUSH(&made, ((instance){pname, obj,
                                     hg_project__printf(r->arena, "the defaults of %s (no construction of it in the project)",
                                                        hg_node_text(cname, t.module->src, r->arena)),
                                     NULL}));
    }
    for (size_t k = 0; k < made.len && !s->why; k++) {
      hg_frame f = {.fn = fn, .n = 1};
      const char **names = hg_arena_alloc(r->arena, sizeof(char *));
      hg_value *values = hg_arena_alloc(r->arena, sizeof(hg_value));
      names[0] = made.items[k].name;
      values[0] = made.items[k].value;
      f.names = names;
      f.values = values;
      push(s, &s->out, f, made.items[k].cond, made.items[k].calls);
    }
    free(made.items);
    return;
  }
}

// A method none of whose calls was confirmed: where it is written as called, in its own file or
// another, on an object hardguard cannot tell is of its class (`self.runtime.start(...)`, the
// runtime handed in), "worker.py:422"; NULL when nowhere. At most a few other files are parsed.
static const char *unconfirmed_call(const hg_resolver *r, TSNode method, TSNode name) {
  enum { MAX_FILES = 8 };
  const char *word = r->src + ts_node_start_byte(name), *why = NULL;
  size_t len = ts_node_end_byte(name) - ts_node_start_byte(name), n_files;
  const char *const *files = hg_index_calling(r->index, word, len, &n_files, &why);
  char own[PATH_MAX];
  if (!realpath(r->module->path, own))
    own[0] = '\0';
  const char *at = NULL;
  for (size_t i = 0, parsed = 0; i <= (files ? n_files : 0) && !at && parsed < MAX_FILES; i++) {
    const hg_module *m = hg_candidates__module_of(r, own, files, i, NULL, NULL, 0);
    if (!m)
      continue;
    parsed += i > 0;
    node_vec calls = {0};
    hg_candidates__candidate_calls(r, m, i, word, len, NULL, &calls);
    hg_resolver rm = hg_project__in_module(r, m);
    for (size_t k = 0; k < calls.len && !at; k++) {
      TSNode call = calls.items[k], callee = hg_node_field(call, "function"), obj = hg_node_field(callee, "object");
      TSNode callable;
      hg_forward how;
      if (!hg_node_is(callee, "attribute") || (i == 0 && hg_node_contains(method, call)) ||
          hg_candidates__forwarded(&rm, m, call, &callable, &how))
        continue;  // a plain function, a call in the method itself (its own client's run), a forwarding call
      // Not a module the file imports (`subprocess.run(...)`), nor an object whose value is known.
      if (imported_module(&rm, obj))
        continue;
      hg_value recv;
      hg_object__callee(&rm, callee, 1, &recv);
      if (recv.kind == HG_VAL_UNKNOWN)
        at = hg_project__printf(r->arena, "%s:%u", hg_project__path(m), line_of(call));
    }
    free(calls.items);
  }
  return at;
}

// Is `e` (an expression of module m) written as a value some code may call later, not looked at
// only: an argument (but of a class's bases, of a call of the policy's classes.inspecting_calls —
// isinstance, super — or the callable of one of its forwarding_calls, a context already), an
// element, a mapping's entry, what is returned or assigned, a keyword's value, through
// parentheses, `a if c else b` and `a or b`; not a type annotation, a comparison, an except
// clause's classes or an attribute's object.
static bool value_position(const hg_resolver *r, const hg_module *m, TSNode e) {
  TSNode up = ts_node_parent(e);
  while (hg_node_is(up, "parenthesized_expression") || hg_node_is(up, "conditional_expression") ||
         hg_node_is(up, "boolean_operator")) {
    e = up;
    up = ts_node_parent(e);
  }
  TSNode callable;
  hg_forward how;
  if (hg_node_is(up, "keyword_argument")) {
    TSNode call = ts_node_parent(ts_node_parent(up)); // Thread(target=f, ...): a context already
    return ts_node_eq(hg_node_field(up, "value"), e) &&
           !(hg_node_is(call, "call") && hg_candidates__forwarded(r, m, call, &callable, &how) && ts_node_eq(callable, e));
  }
  if (hg_node_is(up, "assignment"))
    return ts_node_eq(hg_node_field(up, "right"), e);
  if (hg_node_is(up, "tuple") || hg_node_is(up, "expression_list"))
    return !hg_node_is(ts_node_parent(up), "except_clause");
  if (hg_node_is(up, "list") || hg_node_is(up, "set") || hg_node_is(up, "pair") || hg_node_is(up, "return_statement"))
    return true;
  if (!hg_node_is(up, "argument_list"))
    return false;
  TSNode call = ts_node_parent(up);
  if (!hg_node_is(call, "call"))
    return false;  // a class's bases: a subclass is not followed (docs/limits.md)
  if (hg_candidates__forwarded(r, m, call, &callable, &how) && ts_node_eq(callable, e))
    return false;  // the callable of a forwarding call (executor.submit(f, x)): a context already
  TSNode callee = hg_node_field(call, "function");
  hg_buf q = {0};
  bool inspecting = m->imports && hg_imports_qualify(m->imports, callee, m->src, &q) && r->policy &&
                    hg_policy_list_has(r->policy->inspecting_calls, r->policy->n_inspecting_calls, q.data, q.len);
  hg_buf_free(&q);
  return !inspecting;
}

// Does `e` (a name or `module.name` in module m, not r's) stand for r's module's `word`: is it
// imported from there (`from executors import DockerExecutor`, `import pkg.executors as ex`)?
static bool names_def(const hg_resolver *r, const hg_module *m, TSNode e, const char *word, size_t len) {
  if (!m->imports || !r->module->name || !*r->module->name)
    return false;
  hg_buf q = {0};
  bool ok = hg_imports_qualify(m->imports, e, m->src, &q) && q.len > len + 1 && q.data[q.len - len - 1] == '.' &&
            !memcmp(q.data + q.len - len, word, len) &&
            hg_module_matches(q.data, q.len - len - 1, r->module->name);
  hg_buf_free(&q);
  return ok;
}

// The first place module m writes `word` (a function's or class's name, len bytes) as a value, not
// called (`f,`, `self.f)`, `{"docker": DockerExecutor}`: handed to a retry helper, a callback, a
// registry, a call no forwarding call of the policy names), in code (not in a string or a
// comment), outside `def` (its definition, when m is its module); 0 when nowhere.
static uint32_t handed_on(const hg_resolver *r, const hg_module *m, TSNode def, const char *word, size_t len) {
  size_t n = m->len;
  for (size_t at = 0; at + len <= n;) {
    const char *hit = hg_find_word(m->src + at, n - at, word, len);
    if (!hit)
      return 0;
    size_t k = (size_t)(hit - m->src), e = k + len;
    at = e;
    if (m == r->module && k >= ts_node_start_byte(def) && k < ts_node_end_byte(def))
      continue;
    while (e < n && (m->src[e] == ' ' || m->src[e] == '\t'))
      e++;
    if (e < n && (m->src[e] == '(' || m->src[e] == '='))
      continue;  // a call (the search has its calls), or an assignment to the name
    TSNode id = ts_node_descendant_for_byte_range(m->root, (uint32_t)k, (uint32_t)(k + len));
    if (!hg_node_is(id, "identifier"))
      continue;
    TSNode up = ts_node_parent(id), e_node = id;
    if (hg_node_is(up, "attribute")) {  // `self.f`, `executors.DockerExecutor`: the attribute is the value
      if (!ts_node_eq(hg_node_field(up, "attribute"), id))
        continue;
      e_node = up;
    }
    if (m != r->module && !names_def(r, m, e_node, word, len))
      continue;  // another file's name of that spelling (its own, or another module's)
    if (value_position(r, m, e_node))
      return ts_node_start_point(id).row + 1;
  }
  return 0;
}

// Where `name` (of `def`: a function, or the class built) is handed on as a value: in its own file,
// then, for a function or class of the module (not a method), in each file importing the name or
// the module (`from executors import DockerExecutor`, `import executors`). *m: that file.
static uint32_t handed_on_anywhere(const hg_resolver *r, TSNode def, TSNode name, bool others, const hg_module **m) {
  const char *word = r->src + ts_node_start_byte(name);
  size_t len = ts_node_end_byte(name) - ts_node_start_byte(name);
  *m = r->module;
  uint32_t line = handed_on(r, r->module, def, word, len);
  const char *mod = hg_candidates__last_part(r->module);
  size_t n_name = 0, n_mod = 0;
  const char *const *by_name = others ? hg_index_importers(r->index, word, len, &n_name) : NULL;
  const char *const *by_mod = others && mod ? hg_index_importers(r->index, mod, strlen(mod), &n_mod) : NULL;
  char own[PATH_MAX];
  if (!line && others && !realpath(r->module->path, own))
    own[0] = '\0';
  for (size_t i = 0; !line && i < n_name + n_mod; i++) {
    const char *const *files = i < n_name ? by_name : by_mod;
    size_t at = i < n_name ? i : i - n_name;
    bool seen = false;  // listed twice (it imports both)
    for (size_t k = 0; i >= n_name && k < n_name && !seen; k++)
      seen = by_name[k] == files[at] || !strcmp(by_name[k], files[at]);
    const hg_module *o = seen ? NULL : hg_candidates__module_of(r, own, files, at + 1, NULL, NULL, 0);
    if (o && o != r->module && (line = handed_on(r, o, def, word, len)))
      *m = o;
  }
  return line;
}

// "and DockerExecutor is handed on as a value (agent.py:5), through which hardguard does not follow
// calls" (`nowhere`: "... is built nowhere in the project, but handed on ..."); `built`: a class.
static const char *handed_why(const hg_resolver *r, bool built, bool nowhere, const char *text, const hg_module *m,
                              uint32_t line) {
  return hg_project__printf(r->arena,
                            "and %s%s is %shanded on as a value (%s:%u), through which hardguard does not follow calls",
                            text, built ? "" : "()",
                            !nowhere ? "" : built ? "built nowhere in the project, but " : "called nowhere in the project, but ",
                            hg_project__path(m), line);
}

// Does v hold a value hardguard cannot read (within 8 levels)?
static bool holds_unknown(const hg_value *v, int depth) {
  if (v->kind == HG_VAL_UNKNOWN)
    return true;
  for (size_t i = 0; depth < 8 && i < v->n_items; i++)
    if (holds_unknown(&v->items[i], depth + 1))
      return true;
  return false;
}

// Does the site, read without its callers, take options whole or through a spread it cannot read
// (`**opts`, `*self.flags`, a body handed in)? Then its calls hand it options, and can add what it
// lacks; options written in the site (`volumes=self.volumes`) are the site's to add.
static bool takes_from_callers(const hg_value *first) {
  if (first->kind == HG_VAL_UNKNOWN)
    return true;
  for (size_t i = 0; i < first->n_items; i++)
    if (first->items[i].splat && holds_unknown(&first->items[i], 0))
      return true;
  return false;
}

hg_value hg_summary_callers(const hg_resolver *r, TSNode site, const hg_param_reads *reads,
                            hg_value (*read)(const hg_resolver *, TSNode), TSNode node, hg_value first) {
  TSNode fn;
  hg_scope_of(r->scopes, site, &fn);
  if (!r->index || !r->module || ts_node_is_null(reads->fn) || reads->others || ts_node_is_null(fn) ||
      !ts_node_eq(fn, reads->fn) ||
      (first.kind != HG_VAL_DICT && first.kind != HG_VAL_LIST && first.kind != HG_VAL_UNKNOWN))
    return first;
  search s = {.site = r};
  // A class or static method is called on the class (`Container.create(client, **options)`),
  // which hardguard does not follow to the method: its calls are not looked for.
  static char *const unbound[] = {"staticmethod", "classmethod"};
  TSNode deco = ts_node_parent(fn);
  if (hg_node_is(deco, "decorated_definition") && hg_defs__decorated(r->module, deco, unbound, 2))
    s.why = hg_project__printf(r->arena, "%s() is a class or static method, whose calls on the class hardguard "
                                         "does not follow",
                               hg_node_text(hg_node_field(fn, "name"), r->src, r->arena));
  else
    frames_of(&s, r, fn, reads->self && !reads->param, 0, &s.out);
  if (!s.out.len && !s.why && reads->param)
    annotated_contexts(&s, r, fn);
  if (s.why || !s.out.len) {
    free(s.out.items);
    TSNode cls = hg_defs__class_of_method(fn);
    bool built = !ts_node_is_null(cls) && reads->self && !reads->param;
    TSNode name = hg_node_field(built ? cls : fn, "name");
    const char *text = hg_node_text(name, r->src, r->arena);
    const char *class_name = ts_node_is_null(cls) ? "" : hg_node_text(hg_node_field(cls, "name"), r->src, r->arena);
    // A method called only on objects of a class hardguard cannot tell is not called nowhere.
    const char *elsewhere = !s.why && !built && !ts_node_is_null(cls) ? unconfirmed_call(r, fn, name) : NULL;
    // Nowhere called, but handed on as a value (`partial(self.f, pod)`, a callback, a registry).
    const hg_module *hm = NULL;
    uint32_t handed = !s.why && !elsewhere ? handed_on_anywhere(r, built ? cls : fn, name,
                                                                built || ts_node_is_null(cls), &hm)
                                           : 0;
    hg_param_reads again = {
        .why = s.why ? hg_project__printf(r->arena, "and %s", s.why)
               : handed ? handed_why(r, built, true, text, hm, handed)
               : elsewhere
                   ? hg_project__printf(r->arena,
                                        "and %s() is called in the project only on objects hardguard does not "
                                        "know to be %s %s (%s)",
                                        text, article(class_name), class_name, elsewhere)
                   : hg_project__printf(r->arena, built ? "and %s is built nowhere in the project"
                                                        : "and %s() is called nowhere in the project",
                                        text)};
    hg_resolver r2 = *r;
    r2.params = &again;
    return read(&r2, node);
  }
  // Called, and handed on as a value too (a registry `{"docker": DockerExecutor}`, a callback): the
  // calls made through that value are a context of their own, whose arguments are unknown.
  TSNode cls = hg_defs__class_of_method(fn);
  bool built = !ts_node_is_null(cls) && ((reads->self && !reads->param) ||
                                         hg_node_text_eq(hg_node_field(fn, "name"), r->src, "__init__", 8));
  TSNode def = built ? cls : fn, name = hg_node_field(def, "name");
  const hg_module *hm = NULL;
  uint32_t handed = ts_node_is_null(name) ? 0 : handed_on_anywhere(r, def, name, built || ts_node_is_null(cls), &hm);
  size_t n_arms = s.out.len + (handed ? 1 : 0);
  hg_value *arms = hg_arena_alloc(r->arena, n_arms * sizeof(hg_value));
  if (handed) {
    const char *text = hg_node_text(name, r->src, r->arena);
    hg_param_reads unknown = {.why = handed_why(r, built, false, text, hm, handed)};
    hg_resolver r2 = *r;
    r2.params = &unknown;
    hg_value *v = &arms[s.out.len];
    *v = read(&r2, node);
    v->cond = hg_project__printf(r->arena, "handed on as a value at %s:%u", hg_project__path(hm), handed);
    v->calls = NULL;
    v->key = NULL;
    v->splat = false;
  }
  for (size_t i = 0; i < s.out.len; i++) {
    hg_frame *keep = hg_arena_alloc(r->arena, sizeof(hg_frame));
    *keep = s.out.items[i].frame;
    // The site read in this context within a budget of its own, as its call's values were.
    call_budget b;
    hg_resolver r2 = budgeted(r, &b);
    r2.frame = keep;
    r2.params = NULL;
    arms[i] = read(&r2, node);
    charge(r, &b);
    arms[i].cond = s.out.items[i].cond;
    arms[i].calls = s.out.items[i].calls;
    arms[i].key = NULL;
    arms[i].splat = false;
  }
  hg_value alt = {.kind = HG_VAL_ALT,
                  .text = first.text,
                  .line = first.line,
                  .splat = true,
                  .contexts = true,
                  .handed = takes_from_callers(&first),
                  .items = arms,
                  .n_items = n_arms};
  free(s.out.items);
  if (first.kind == HG_VAL_UNKNOWN) {
    alt.splat = false; // the whole value (a body held in a parameter): one of the contexts' values
    return alt;
  }
  hg_value_vec one = {0};
  HG_VEC_PUSH(&one, alt);
  return hg_values_finish(r->arena, (hg_value){.kind = first.kind, .text = first.text, .line = first.line}, &one);
}
