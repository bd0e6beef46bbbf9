#include "surfaces/go/eval.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/go/stmts.h"
#include "surfaces/node.h"

// Nesting followed for one value (names through names, calls through calls), no deeper.
enum { MAX_DEPTH = 24 };

// Children of a node that may be null (libtree-sitter 0.20 dereferences a null node).
static uint32_t kids(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_named_child_count(n); }
static uint32_t all_kids(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_child_count(n); }
static uint32_t line_of(TSNode n) { return ts_node_start_point(n).row + 1; }

static const char *text(hg_go_eval *e, const hg_go_src *f, TSNode n) { return hg_node_text(n, f->src, e->arena); }

static bool text_is(const hg_go_src *f, TSNode n, const char *s) { return hg_node_text_eq(n, f->src, s, strlen(s)); }

static hg_value unknown(hg_go_eval *e, const hg_go_src *f, TSNode n, const char *origin) {
  return (hg_value){.kind = HG_VAL_UNKNOWN,
                    .text = text(e, f, n),
                    .origin = origin,
                    .line = line_of(n),
                    .path = f->path};
}

// ---- values -------------------------------------------------------------------------------------

static hg_value value(hg_go_eval *e, const hg_go_src *f, TSNode n, TSNode at);
// Which of a call's results a name is bound to: `result` of `of` (0 of 1: the value of a call or
// of anything else); with `checked`, the caller binds the error (the last result) to a name, not
// `_`, so a return that surely fails is not a value it goes on with.
typedef struct {
  uint32_t result, of;
  bool checked;
} wanted;

static hg_value evaluate(hg_go_eval *e, const hg_go_src *f, TSNode n, TSNode at, wanted w);

static hg_value finish(hg_go_eval *e, hg_value v, hg_value_vec *items) { return hg_values_finish(e->arena, v, items); }

// A composite literal's body: keyed elements make a DICT (a field or a map key), the others a LIST.
static hg_value literal(hg_go_eval *e, const hg_go_src *f, TSNode body, TSNode whole, TSNode at) {
  hg_value_vec items = {0};
  bool keyed = false;
  for (uint32_t i = 0, n = kids(body); i < n; i++) {
    TSNode el = ts_node_named_child(body, i);
    if (hg_node_is(el, "comment"))
      continue;
    if (hg_node_is(el, "keyed_element")) {
      keyed = true;
      TSNode k = ts_node_named_child(hg_node_field(el, "key"), 0);
      TSNode v = ts_node_named_child(hg_node_field(el, "value"), 0);
      const char *key = hg_go_string(e->arena, f->src, k);
      hg_value item;
      if (!key && hg_node_is(k, "identifier"))
        key = text(e, f, k);
      if (!key) {
        // A map key hardguard cannot read: the entry may be any option.
        item = unknown(e, f, el, "a map key hardguard cannot read");
        item.splat = true;
      } else {
        item = value(e, f, v, at);
        item.key = key;
        item.line = line_of(el);
      }
      HG_VEC_PUSH(&items, item);
    } else {
      TSNode v = hg_node_is(el, "literal_element") ? ts_node_named_child(el, 0) : el;
      HG_VEC_PUSH(&items, value(e, f, v, at));
    }
  }
  return finish(e, (hg_value){.kind = keyed ? HG_VAL_DICT : HG_VAL_LIST, .text = text(e, f, whole), .line = line_of(whole),
                              .path = f->path},
                &items);
}

static hg_value alt(hg_go_eval *e, hg_value before, hg_value after, const char *cond, TSNode stmt) {
  hg_value_vec arms = {0};
  before.cond = hg_arena_printf(e->arena, "not %s", cond);
  after.cond = cond;
  HG_VEC_PUSH(&arms, before);
  HG_VEC_PUSH(&arms, after);
  return finish(e, (hg_value){.kind = HG_VAL_ALT, .text = after.text, .line = line_of(stmt)}, &arms);
}

// `v` with the field at `path` (n names) set to `x`: a DICT gets the key (later wins); a value that
// is not a mapping stays in as a spread hardguard cannot read.
static hg_value with_field(hg_go_eval *e, hg_value v, const char *const *path, size_t n, hg_value x) {
  if (v.kind == HG_VAL_ALT) {
    hg_value_vec arms = {0};
    for (size_t i = 0; i < v.n_items; i++) {
      hg_value a = with_field(e, v.items[i], path, n, x);
      a.cond = v.items[i].cond;
      HG_VEC_PUSH(&arms, a);
    }
    return finish(e, v, &arms);
  }
  if (v.kind == HG_VAL_BUILDER && v.n_items == 1)
    v = v.items[0];
  hg_value_vec items = {0};
  if (v.kind == HG_VAL_DICT) {
    for (size_t i = 0; i < v.n_items; i++) HG_VEC_PUSH(&items, v.items[i]);
  } else if (v.kind != HG_VAL_NONE) {
    hg_value spread = v;
    spread.splat = true;
    spread.key = NULL;
    HG_VEC_PUSH(&items, spread);
  }
  hg_value set = x;
  if (n > 1) {
    hg_value inner = {.kind = HG_VAL_NONE};
    for (size_t i = 0; i < items.len; i++)
      if (items.items[i].key && !strcmp(items.items[i].key, path[0]))
        inner = items.items[i];
    set = with_field(e, inner, path + 1, n - 1, x);
  }
  set.key = path[0];
  set.splat = false;
  HG_VEC_PUSH(&items, set);
  hg_value d = {.kind = HG_VAL_DICT, .text = v.text ? v.text : x.text, .line = v.line ? v.line : x.line, .path = v.path};
  return finish(e, d, &items);
}

// `append(list, items...)`: the list's items then the others (a `xs...` spread in place).
static hg_value append_of(hg_go_eval *e, const hg_go_src *f, TSNode call, TSNode at) {
  TSNode args = hg_node_field(call, "arguments");
  hg_value_vec items = {0};
  for (uint32_t i = 0, n = hg_node_arg_count(args); i < n; i++) {
    TSNode a = hg_node_arg(args, i);
    bool spread = hg_node_is(a, "variadic_argument");
    hg_value v = value(e, f, spread ? ts_node_named_child(a, 0) : a, at);
    if (i == 0 || spread) {
      if (v.kind == HG_VAL_LIST) {
        for (size_t k = 0; k < v.n_items; k++) HG_VEC_PUSH(&items, v.items[k]);
        continue;
      }
      if (v.kind == HG_VAL_NONE)
        continue;
      v.splat = true;
    }
    HG_VEC_PUSH(&items, v);
  }
  return finish(e, (hg_value){.kind = HG_VAL_LIST, .text = text(e, f, call), .line = line_of(call), .path = f->path},
                &items);
}

// The names of `x.A.B` when `lhs` is a selector path starting at identifier `name`: A, B (false
// otherwise).
static bool field_path(hg_go_eval *e, const hg_go_src *f, TSNode lhs, const char *name, size_t len,
                       const char *path[8], size_t *n) {
  size_t k = 0;
  const char *rev[8];
  while (hg_node_is(lhs, "selector_expression") && k < 8) {
    rev[k++] = text(e, f, hg_node_field(lhs, "field"));
    lhs = hg_node_field(lhs, "operand");
    if (hg_node_is(lhs, "parenthesized_expression") || hg_node_is(lhs, "unary_expression"))
      lhs = ts_node_named_child(lhs, kids(lhs) - 1);
  }
  if (!k || !hg_node_is(lhs, "identifier") || !hg_node_text_eq(lhs, f->src, name, len))
    return false;
  for (size_t i = 0; i < k; i++) path[i] = rev[k - 1 - i];
  *n = k;
  return true;
}

typedef struct {
  hg_go_eval *e;
  const hg_go_src *f;
  const char *name;
  size_t len;
  TSNode body, at;
  uint32_t until; // statements starting at or past this byte are not read (the site's start)
  bool found;
  bool pointer; // its value is a pointer (`&T{...}`, or a call's result): a call it is passed to may change it
  int depth;    // of statements nested in statements (bounded: the walk recurses)
  hg_value v;
} local_scan;

// Statements nested deeper than this are not read: the name's value is unknown past them.
enum { MAX_NESTING = 256 };

// Could the value of `x` (the right-hand side assigned) be a pointer? `&T{...}`, a call's result.
static bool pointer_like(TSNode x) {
  return (hg_node_is(x, "unary_expression") && ts_node_child_count(x) && hg_node_is(ts_node_child(x, 0), "&")) ||
         hg_node_is(x, "call_expression");
}

static void apply(local_scan *s, TSNode stmt, hg_value updated) {
  const char *cond = s->found ? hg_go_condition_of(s->e->arena, s->f, stmt, s->body, s->at) : NULL;
  s->v = cond ? alt(s->e, s->v, updated, cond, stmt) : updated;
  s->found = true;
}

// One statement that may assign the name (in a `:=`, `var`, `=`, or to a field of it).
static void scan_statement(local_scan *s, TSNode st) {
  hg_go_eval *e = s->e;
  const hg_go_src *f = s->f;
  bool declares = hg_node_is(st, "short_var_declaration") || hg_node_is(st, "var_spec");
  bool assigns = hg_node_is(st, "assignment_statement");
  if (!declares && !assigns)
    return;
  TSNode left = hg_node_field(st, declares && hg_node_is(st, "var_spec") ? "name" : "left");
  TSNode right = hg_node_field(st, declares && hg_node_is(st, "var_spec") ? "value" : "right");
  if (assigns) {
    TSNode op = hg_node_field(st, "operator");
    if (!text_is(f, op, "="))
      return;
  }
  if (hg_node_is(st, "var_spec")) {
    // var x T [= v]: the names are children in field `name`
    uint32_t index = 0, names = 0;
    TSNode last = {0};
    for (uint32_t c = 0, cn = all_kids(st); c < cn; c++) {
      const char *field = ts_node_field_name_for_child(st, c);
      if (field && !strcmp(field, "name"))
        names++, last = ts_node_child(st, c);
    }
    bool checked = !ts_node_is_null(last) && !text_is(f, last, "_");
    for (uint32_t c = 0, cn = all_kids(st); c < cn; c++) {
      const char *field = ts_node_field_name_for_child(st, c);
      if (!field || strcmp(field, "name") != 0)
        continue;
      if (hg_node_text_eq(ts_node_child(st, c), f->src, s->name, s->len)) {
        TSNode x = hg_node_arg(right, index);
        uint32_t nr = hg_node_arg_count(right);
        hg_value v = ts_node_is_null(right) ? (hg_value){.kind = HG_VAL_NONE, .text = "", .line = line_of(st)} // zero
                     : nr == names ? value(e, f, x, st)
                     : nr == 1     ? evaluate(e, f, hg_node_arg(right, 0), st, (wanted){index, names, checked})
                                   : unknown(e, f, right, "one of a call's results, which hardguard does not follow");
        s->pointer = !ts_node_is_null(right) && (ts_node_is_null(x) || pointer_like(x));
        apply(s, st, v);
      }
      index++;
    }
    return;
  }
  uint32_t nl = hg_node_arg_count(left), nr = hg_node_arg_count(right);
  bool checked = nl && !text_is(f, hg_node_arg(left, nl - 1), "_"); // the error is bound to a name
  for (uint32_t i = 0; i < nl; i++) {
    TSNode l = hg_node_arg(left, i);
    if (hg_node_is(l, "identifier") && hg_node_text_eq(l, f->src, s->name, s->len)) {
      hg_value v = nl == nr ? value(e, f, hg_node_arg(right, i), st)
                            : evaluate(e, f, hg_node_arg(right, 0), st, (wanted){i, nl, checked});
      s->pointer = nl != nr || pointer_like(hg_node_arg(right, i));
      apply(s, st, v);
      continue;
    }
    const char *path[8];
    size_t n;
    if (s->found && field_path(e, f, l, s->name, s->len, path, &n)) {
      hg_value x = nl == nr ? value(e, f, hg_node_arg(right, i), st)
                            : evaluate(e, f, hg_node_arg(right, 0), st, (wanted){i, nl, checked});
      // Set inside an `if`, a loop or a case that does not hold the site: on some paths only (the
      // value model's `conditional`, as a keyword set in a branch is for Python).
      x.conditional = hg_go_condition_of(e->arena, f, st, s->body, s->at) != NULL;
      s->v = with_field(e, s->v, path, n, x);
    }
  }
}

// Calls that read their arguments and change none of them.
static const char *const READERS[] = {"append", "len", "cap", "copy", "print", "println", "fmt", "log", "slog", "errors", NULL};

// A call given the name's pointer (`f(hc)`, `f(&hc)`) may change what it points at: the value is
// then known only in part — what the call adds stays in as a spread hardguard cannot read.
static void passed(local_scan *s, TSNode call) {
  hg_go_eval *e = s->e;
  const hg_go_src *f = s->f;
  TSNode callee = hg_node_field(call, "function");
  TSNode first = hg_node_is(callee, "selector_expression") ? hg_node_field(callee, "operand") : callee;
  for (size_t i = 0; READERS[i]; i++)
    if (text_is(f, first, READERS[i]))
      return;
  TSNode args = hg_node_field(call, "arguments");
  for (uint32_t i = 0, n = hg_node_arg_count(args); i < n; i++) {
    TSNode a = hg_node_arg(args, i);
    bool address = hg_node_is(a, "unary_expression") && text_is(f, hg_node_field(a, "operator"), "&");
    if (address)
      a = hg_node_field(a, "operand");
    if (!hg_node_is(a, "identifier") || !hg_node_text_eq(a, f->src, s->name, s->len) || (!address && !s->pointer))
      continue;
    hg_value changed = unknown(e, f, call, hg_arena_printf(e->arena, "a call given `%.*s`, which may change it",
                                                            (int)s->len, s->name));
    changed.splat = true;
    changed.conditional = hg_go_condition_of(e->arena, f, call, s->body, s->at) != NULL;
    hg_value_vec items = {0};
    hg_value v = s->v.kind == HG_VAL_BUILDER && s->v.n_items == 1 ? s->v.items[0] : s->v;
    if (v.kind != HG_VAL_DICT)
      return; // not a mapping (an unknown already, or an alternative): left as it is
    for (size_t k = 0; k < v.n_items; k++) HG_VEC_PUSH(&items, v.items[k]);
    HG_VEC_PUSH(&items, changed);
    s->v = finish(e, v, &items);
    return;
  }
}

// Walks the statements of a function body in order, up to the site.
static void scan(local_scan *s, TSNode n) {
  if (s->depth >= MAX_NESTING) {
    s->v = unknown(s->e, s->f, n, "code nested deeper than hardguard reads");
    s->v.text = hg_arena_printf(s->e->arena, "%.40s...", s->v.text); // not the whole nested block
    s->found = true;
    return;
  }
  s->depth++;
  for (uint32_t i = 0, c = kids(n); i < c; i++) {
    TSNode k = ts_node_named_child(n, i);
    if (ts_node_start_byte(k) >= s->until)
      break;
    if (hg_node_is(k, "func_literal") && !hg_node_contains(k, s->at))
      continue; // a closure's assignments run when it is called, not here
    scan_statement(s, k);
    scan(s, k);
    if (s->found && hg_node_is(k, "call_expression") && !hg_node_contains(k, s->at))
      passed(s, k);
  }
  s->depth--;
}

// Names where the values came through (a function or a builder) on `v` and everything in it: where
// none is named yet, or, with `override`, over what its own definition said (a builder's flags are
// the builder's).
static void mark_via(hg_value *v, const char *via, bool override, int depth) {
  if (depth > MAX_DEPTH)
    return;
  if (!v->via || override)
    v->via = via;
  for (size_t i = 0; i < v->n_items; i++) mark_via(&v->items[i], via, override, depth + 1);
}

// A function taking one pointer and setting its fields (testcontainers-go's HostConfigModifier
// `func(hc *container.HostConfig) { hc.CapDrop = ...; hc.Privileged = true }`), as the mapping of
// the fields it sets: what it does to what it is given. Any other function is unknown.
static hg_value modifier(hg_go_eval *e, const hg_go_src *f, TSNode fn) {
  TSNode params = hg_node_field(fn, "parameters");
  TSNode body = hg_node_field(fn, "body");
  TSNode param = hg_node_arg_count(params) == 1 ? hg_node_arg(params, 0) : (TSNode){0};
  TSNode name = hg_node_field(param, "name");
  if (!hg_node_is(name, "identifier") || ts_node_is_null(body) || hg_node_arg_count(param) != 2)
    return unknown(e, f, fn, "a function hardguard reads only when it takes one value and sets its fields");
  TSNode outer = e->modifier;
  e->modifier = fn;
  local_scan s = {.e = e,
                  .f = f,
                  .name = f->src + ts_node_start_byte(name),
                  .len = ts_node_end_byte(name) - ts_node_start_byte(name),
                  .body = body,
                  .at = body,
                  .until = ts_node_end_byte(body),
                  .found = true,
                  .pointer = true,
                  .v = {.kind = HG_VAL_DICT, .text = text(e, f, fn), .line = line_of(fn)}};
  scan(&s, body);
  e->modifier = outer;
  return s.v;
}

// The argument a followed call gives parameter `name` of `fn` (a `...` parameter: the list of the
// remaining ones), as read where the call stands; false when `fn` is not a function being followed
// from a call, or the call gives no such argument.
static bool argument_of(hg_go_eval *e, const hg_go_src *f, TSNode fn, const char *name, size_t len, hg_value *out) {
  const hg_go_call *c = e->calls;
  while (c && !(ts_node_eq(c->fn, fn) && c->def_path && hg_go_same_file(f->path, c->def_path)))
    c = c->outer;
  if (!c)
    return false;
  TSNode params = hg_node_field(fn, "parameters"), args = hg_node_field(c->call, "arguments");
  uint32_t index = 0;
  for (uint32_t i = 0, n = kids(params); i < n; i++) {
    TSNode decl = ts_node_named_child(params, i);
    bool variadic = hg_node_is(decl, "variadic_parameter_declaration");
    for (uint32_t k = 0, m = all_kids(decl); k < m; k++) {
      const char *field = ts_node_field_name_for_child(decl, k);
      if (!field || strcmp(field, "name") != 0)
        continue;
      if (!hg_node_text_eq(ts_node_child(decl, k), f->src, name, len)) {
        index++;
        continue;
      }
      const hg_go_call *saved = e->calls;
      e->calls = c->outer; // the arguments are read in the caller's own context
      if (variadic) {
        hg_value_vec items = {0};
        for (uint32_t a = index, na = hg_node_arg_count(args); a < na; a++) {
          TSNode x = hg_node_arg(args, a);
          bool spread = hg_node_is(x, "variadic_argument");
          hg_value v = value(e, c->file, spread ? ts_node_named_child(x, 0) : x, c->at);
          v.splat = spread;
          HG_VEC_PUSH(&items, v);
        }
        *out = finish(e, (hg_value){.kind = HG_VAL_LIST, .text = text(e, c->file, args), .line = line_of(args)}, &items);
      } else {
        TSNode x = hg_node_arg(args, index);
        *out = ts_node_is_null(x) || hg_node_is(x, "variadic_argument")
                   ? unknown(e, c->file, args, "arguments spread from a slice, which hardguard cannot match to parameters")
                   : value(e, c->file, x, c->at);
      }
      e->calls = saved;
      return true;
    }
  }
  return false;
}

static hg_value identifier(hg_go_eval *e, const hg_go_src *f, TSNode id, TSNode at) {
  const char *name = f->src + ts_node_start_byte(id);
  size_t len = ts_node_end_byte(id) - ts_node_start_byte(id);
  if (hg_node_text_eq(id, f->src, "true", 4) || hg_node_text_eq(id, f->src, "false", 5))
    return (hg_value){.kind = name[0] == 't' ? HG_VAL_TRUE : HG_VAL_FALSE, .text = text(e, f, id), .line = line_of(id)};
  if (hg_node_text_eq(id, f->src, "nil", 3))
    return (hg_value){.kind = HG_VAL_NONE, .text = "nil", .line = line_of(id)};
  for (TSNode fn = ts_node_is_null(at) ? (TSNode){0} : hg_go_enclosing_function(at); !ts_node_is_null(fn);
       fn = hg_go_enclosing_function(fn)) {
    local_scan s = {.e = e,
                    .f = f,
                    .name = name,
                    .len = len,
                    .body = hg_node_field(fn, "body"),
                    .at = at,
                    .until = ts_node_start_byte(at)};
    // The parameter of a function read as a modifier: what it was given is the zero value (the
    // fields the modifier reads before setting them are unset), then what the function sets.
    if (ts_node_eq(fn, e->modifier) && hg_go_is_param(f, fn, name, len)) {
      s.found = s.pointer = true;
      s.v = (hg_value){.kind = HG_VAL_DICT, .text = text(e, f, id), .line = line_of(id)};
    } else if (hg_go_is_param(f, fn, name, len) && argument_of(e, f, fn, name, len, &s.v)) {
      s.found = s.pointer = true; // a function followed from a call: the argument it was given
    }
    scan(&s, s.body);
    if (s.found)
      return s.v;
    if (hg_go_is_param(f, fn, name, len))
      return unknown(e, f, id, "a parameter, which hardguard does not follow to the function's callers");
  }
  hg_go_definition d;
  if (hg_go_find(e->packages, f, hg_go_dir_of(e->arena, f->path), name, len, false, &d)) {
    TSNode v = hg_node_arg(hg_node_field(d.node, "value"), d.index);
    if (ts_node_is_null(v)) // `var x T`: the zero value
      return (hg_value){.kind = HG_VAL_NONE, .text = text(e, f, id), .line = line_of(d.node), .path = d.file.path};
    hg_value out = value(e, &d.file, v, (TSNode){0});
    if (!out.via)
      out.via = hg_arena_printf(e->arena, "%.*s (%s:%u)", (int)len, name, d.file.path, line_of(d.node));
    return out;
  }
  if (hg_go_find(e->packages, f, hg_go_dir_of(e->arena, f->path), name, len, true, &d)) {
    hg_value out = modifier(e, &d.file, d.node); // a function named as a value
    mark_via(&out, hg_arena_printf(e->arena, "%.*s (%s:%u)", (int)len, name, d.file.path, line_of(d.node)), false, 0);
    return out;
  }
  return unknown(e, f, id, "a name hardguard cannot find in the function or its package");
}

// The value function `fn` (a declaration in file g) returns as the result `w` says: that result of
// its return statements, alternatives when they differ. Of several results, with the error
// checked, a return whose error surely holds one is left out (hg_go_surely_fails); one that hands on
// another call's results (`return g()`) is followed to them.
static hg_value returns(hg_go_eval *e, const hg_go_src *g, TSNode fn, TSNode call, const char *via, wanted w) {
  HG_VEC(TSNode) rets = {0};
  HG_VEC(TSNode) stack = {0};
  HG_VEC_PUSH(&stack, hg_node_field(fn, "body"));
  while (stack.len) {
    TSNode n = stack.items[--stack.len];
    for (uint32_t i = kids(n); i-- > 0;) {
      TSNode k = ts_node_named_child(n, i);
      if (hg_node_is(k, "func_literal"))
        continue;
      if (hg_node_is(k, "return_statement"))
        HG_VEC_PUSH(&rets, k);
      else
        HG_VEC_PUSH(&stack, k);
    }
  }
  free(stack.items);
  hg_value out;
  hg_value_vec arms = {0};
  if (!rets.len) {
    out = unknown(e, g, call, "a function with no return hardguard can read");
  } else {
    for (size_t i = rets.len; i-- > 0;) { // in file order
      TSNode list = ts_node_named_child(rets.items[i], 0);
      TSNode first = hg_node_arg(list, w.result);
      uint32_t n = ts_node_is_null(list) ? 0 : hg_node_arg_count(list);
      if (w.checked && w.of > 1 && n == w.of && hg_go_surely_fails(g, rets.items[i], list))
        continue;
      TSNode only = hg_node_arg(list, 0);
      bool forwards = n == 1 && hg_node_is(only, "call_expression"); // return other(): its results
      hg_value v = ts_node_is_null(list) ? unknown(e, g, rets.items[i], "a bare return of named results")
                   : n == w.of           ? value(e, g, first, rets.items[i])
                   : forwards            ? evaluate(e, g, only, rets.items[i], w)
                         : unknown(e, g, rets.items[i], "one of a call's results, which hardguard does not follow");
      v.cond = hg_arena_printf(e->arena, "the return at %s:%u", g->path, line_of(rets.items[i]));
      HG_VEC_PUSH(&arms, v);
    }
    if (!arms.len) {
      out = unknown(e, g, call, "a function whose every return fails");
    } else if (arms.len == 1) {
      out = arms.items[0];
      out.cond = NULL;
      free(arms.items);
    } else {
      out = finish(e, (hg_value){.kind = HG_VAL_ALT, .text = hg_arena_printf(e->arena, "%s", via), .line = line_of(fn)},
                   &arms);
    }
  }
  free(rets.items);
  mark_via(&out, via, false, 0);
  return out;
}

// Conversions to the SDK's string and integer types keep their argument's value.
static const char *const CONVERSIONS[] = {"NetworkMode", "IpcMode", "PidMode", "UsernsMode", "CgroupnsMode", "UTSMode",
                                          "StrSlice", "string", "int", "int64", "int32", "uint64", "float64", NULL};

// The call's result `w` says (its value, or one of its several results).
static hg_value call(hg_go_eval *e, const hg_go_src *f, TSNode n, TSNode at, wanted w) {
  TSNode callee = hg_node_field(n, "function");
  TSNode args = hg_node_field(n, "arguments");
  TSNode last = hg_node_is(callee, "selector_expression") ? hg_node_field(callee, "field") : callee;
  if (w.of == 1 && hg_node_is(callee, "identifier") && text_is(f, callee, "append"))
    return append_of(e, f, n, at);
  for (size_t i = 0; CONVERSIONS[i] && w.of == 1; i++)
    if (text_is(f, last, CONVERSIONS[i]) && hg_node_arg_count(args) == 1)
      return value(e, f, hg_node_arg(args, 0), at);
  // A function of this package, or of a package of the project this file imports.
  const char *dir = NULL, *import = NULL;
  TSNode name = {0};
  if (hg_node_is(callee, "identifier")) {
    dir = hg_go_dir_of(e->arena, f->path), name = callee;
  } else if (hg_node_is(callee, "selector_expression") && hg_node_is(hg_node_field(callee, "operand"), "identifier")) {
    TSNode pkg = hg_node_field(callee, "operand");
    if (hg_go_import(e->arena, f, f->src + ts_node_start_byte(pkg), ts_node_end_byte(pkg) - ts_node_start_byte(pkg),
                     &import)) {
      dir = hg_go_package_dir(e->packages, f->path, import, strlen(import));
      name = hg_node_field(callee, "field");
    }
  }
  size_t builder = 0;
  bool is_builder = import && hg_go_builder_package(e->config, import, &builder);
  if (is_builder) {
    const hg_builder *b = &e->config->builders[builder];
    bool named = false;
    for (size_t k = 0; k < b->n_callables && !named; k++) named = text_is(f, name, b->callables[k]);
    is_builder = named;
  }
  hg_go_definition d;
  const char *nm = ts_node_is_null(name) ? NULL : f->src + ts_node_start_byte(name);
  size_t nl = ts_node_is_null(name) ? 0 : ts_node_end_byte(name) - ts_node_start_byte(name);
  if (!dir || !nm || !hg_go_find(e->packages, dir == hg_go_dir_of(e->arena, f->path) ? f : NULL, dir, nm, nl, true, &d)) {
    if (is_builder)
      return (hg_value){.kind = HG_VAL_UNKNOWN, .text = text(e, f, n), .line = line_of(n), .of_builder = true,
                        .origin = "a call to a configured builder whose definition hardguard cannot find in the project"};
    return unknown(e, f, n,
                   import ? hg_arena_printf(e->arena, "a call into package %s, which hardguard does not read", import)
                          : "a call hardguard does not follow (a method, a function value or another package)");
  }
  const char *via = hg_arena_printf(e->arena, "%.*s() (%s:%u)", (int)nl, nm, d.file.path, line_of(d.node));
  // Its parameters are this call's arguments, read here (with the arguments this site gives it).
  hg_go_call frame = {.fn = d.node, .call = n, .at = at, .file = f, .outer = e->calls, .def_path = d.file.path};
  e->calls = &frame;
  hg_value v = returns(e, &d.file, d.node, n, via, w);
  e->calls = frame.outer;
  if (!is_builder)
    return v;
  hg_value yields = v;
  mark_via(&yields, via, true, 0);
  hg_value_vec one = {0};
  HG_VEC_PUSH(&one, yields);
  return finish(e, (hg_value){.kind = HG_VAL_BUILDER, .text = text(e, f, n), .line = line_of(n), .via = via}, &one);
}

// Integer arithmetic on constants (`512 * 1024 * 1024`, `1 << 30`), folded; NULL when it cannot be.
static const char *fold(hg_go_eval *e, const hg_value *a, const char *op, const hg_value *b) {
  if (a->kind != HG_VAL_NUM || b->kind != HG_VAL_NUM)
    return NULL;
  char *end;
  long long x = strtoll(a->text, &end, 0);
  if (*end)
    return NULL;
  long long y = strtoll(b->text, &end, 0);
  if (*end)
    return NULL;
  long long r;
  if (!strcmp(op, "*")) {
    if (__builtin_mul_overflow(x, y, &r))
      return NULL;
  } else if (!strcmp(op, "+")) {
    if (__builtin_add_overflow(x, y, &r))
      return NULL;
  } else if (!strcmp(op, "-")) {
    if (__builtin_sub_overflow(x, y, &r))
      return NULL;
  } else if (!strcmp(op, "<<") && y >= 0 && y < 62 && x >= 0 && x < (1LL << (62 - y))) {
    r = x << y;
  } else if (!strcmp(op, "/") && y) {
    r = x / y;
  } else {
    return NULL;
  }
  return hg_arena_printf(e->arena, "%lld", r);
}

// What `n` holds (its result `result` of `of`, for a call whose several results are bound at once).
static hg_value evaluate(hg_go_eval *e, const hg_go_src *f, TSNode n, TSNode at, wanted w) {
  if (ts_node_is_null(n))
    return (hg_value){.kind = HG_VAL_NONE, .text = ""};
  if (w.of > 1 && !hg_node_is(n, "call_expression"))
    return unknown(e, f, n, "one of a call's results, which hardguard does not follow");
  if (e->depth >= MAX_DEPTH || !e->budget)
    return unknown(e, f, n, "a value nested past hardguard's budget");
  e->budget--;
  e->depth++;
  hg_value v;
  const char *s;
  if ((s = hg_go_string(e->arena, f->src, n))) {
    v = (hg_value){.kind = HG_VAL_STR, .text = s, .line = line_of(n), .path = f->path};
  } else if (hg_node_is(n, "int_literal") || hg_node_is(n, "float_literal")) {
    v = (hg_value){.kind = HG_VAL_NUM, .text = text(e, f, n), .line = line_of(n), .path = f->path};
  } else if (hg_node_is(n, "true") || hg_node_is(n, "false")) {
    v = (hg_value){.kind = hg_node_is(n, "true") ? HG_VAL_TRUE : HG_VAL_FALSE, .text = text(e, f, n), .line = line_of(n)};
  } else if (hg_node_is(n, "nil")) {
    v = (hg_value){.kind = HG_VAL_NONE, .text = "nil", .line = line_of(n)};
  } else if (hg_node_is(n, "composite_literal")) {
    v = literal(e, f, hg_node_field(n, "body"), n, at);
  } else if (hg_node_is(n, "literal_value")) {
    v = literal(e, f, n, n, at);
  } else if (hg_node_is(n, "parenthesized_expression")) {
    v = value(e, f, ts_node_named_child(n, 0), at);
  } else if (hg_node_is(n, "unary_expression")) {
    TSNode op = hg_node_field(n, "operator");
    v = value(e, f, hg_node_field(n, "operand"), at);
    if (text_is(f, op, "-") && v.kind == HG_VAL_NUM)
      v.text = hg_arena_printf(e->arena, "-%s", v.text);
    else if (text_is(f, op, "!") && (v.kind == HG_VAL_TRUE || v.kind == HG_VAL_FALSE))
      v.kind = v.kind == HG_VAL_TRUE ? HG_VAL_FALSE : HG_VAL_TRUE;
    else if (!text_is(f, op, "&") && !text_is(f, op, "*") && !text_is(f, op, "+"))
      v = unknown(e, f, n, "an expression hardguard does not evaluate");
  } else if (hg_node_is(n, "binary_expression")) {
    hg_value a = value(e, f, hg_node_field(n, "left"), at), b = value(e, f, hg_node_field(n, "right"), at);
    const char *op = text(e, f, hg_node_field(n, "operator"));
    const char *folded = fold(e, &a, op, &b);
    if (folded)
      v = (hg_value){.kind = HG_VAL_NUM, .text = folded, .line = line_of(n), .path = f->path};
    else if (!strcmp(op, "+") && a.kind == HG_VAL_STR && b.kind == HG_VAL_STR)
      v = (hg_value){.kind = HG_VAL_STR, .text = hg_arena_printf(e->arena, "%s%s", a.text, b.text), .line = line_of(n),
                     .path = f->path};
    else if (!strcmp(op, "+") && (a.kind == HG_VAL_STR || b.kind == HG_VAL_STR))
      v = (hg_value){.kind = HG_VAL_STR,
                     .text = hg_arena_printf(e->arena, "%s%s", a.kind == HG_VAL_STR ? a.text : "\x01",
                                             b.kind == HG_VAL_STR ? b.text : "\x01"),
                     .line = line_of(n),
                     .path = f->path};
    else
      v = unknown(e, f, n, "arithmetic hardguard cannot fold to a constant");
  } else if (hg_node_is(n, "identifier")) {
    v = identifier(e, f, n, at);
  } else if (hg_node_is(n, "selector_expression")) {
    TSNode operand = hg_node_field(n, "operand");
    TSNode field = hg_node_field(n, "field");
    const char *import = NULL;
    if (hg_node_is(operand, "identifier") &&
        hg_go_import(e->arena, f, f->src + ts_node_start_byte(operand),
                     ts_node_end_byte(operand) - ts_node_start_byte(operand), &import)) {
      const char *dir = hg_go_package_dir(e->packages, f->path, import, strlen(import));
      hg_go_definition d;
      if (dir && hg_go_find(e->packages, NULL, dir, f->src + ts_node_start_byte(field),
                                 ts_node_end_byte(field) - ts_node_start_byte(field), false, &d)) {
        TSNode x = hg_node_arg(hg_node_field(d.node, "value"), d.index);
        v = ts_node_is_null(x) ? unknown(e, f, n, "a package variable without a value") : value(e, &d.file, x, (TSNode){0});
        v.via = hg_arena_printf(e->arena, "%s (%s:%u)", text(e, f, n), d.file.path, line_of(d.node));
      } else {
        v = unknown(e, f, n, hg_arena_printf(e->arena, "a name of package %s, which hardguard does not read", import));
      }
    } else {
      // A field of a struct value this function built.
      hg_value base = value(e, f, operand, at);
      if (base.kind == HG_VAL_BUILDER && base.n_items == 1)
        base = base.items[0];
      v = unknown(e, f, n, "a field of a value hardguard cannot read");
      if (base.kind == HG_VAL_DICT) {
        v = (hg_value){.kind = HG_VAL_NONE, .text = text(e, f, n), .line = line_of(n)}; // the zero value
        for (size_t i = 0; i < base.n_items; i++) {
          const hg_value *it = &base.items[i];
          if (it->key && hg_node_text_eq(field, f->src, it->key, strlen(it->key)))
            v = *it, v.key = NULL;
          else if (!it->key)
            v = unknown(e, f, n, "a field of a value hardguard cannot read");
        }
      }
    }
  } else if (hg_node_is(n, "call_expression")) {
    v = call(e, f, n, at, w);
  } else if (hg_node_is(n, "func_literal")) {
    v = modifier(e, f, n);
  } else {
    v = unknown(e, f, n, "an expression hardguard does not evaluate");
  }
  e->depth--;
  if (!v.path)
    v.path = f->path;
  if (e->site && hg_go_same_file(v.path, e->site))
    v.path = NULL; // the site's own file
  return v;
}

static hg_value value(hg_go_eval *e, const hg_go_src *f, TSNode n, TSNode at) {
  return evaluate(e, f, n, at, (wanted){.result = 0, .of = 1});
}

hg_value hg_go_value(hg_go_eval *e, const hg_go_src *f, TSNode expr, TSNode at) { return value(e, f, expr, at); }
