// A mapping or list handed to a call of the project's own may be changed by it: `loosen(opts)` may
// set opts["privileged"] = True, `merge(opts, extra)` may copy in what `extra` holds. What the
// site reads from the name after such a call is then not known, unless the call is a function of
// the file whose body changes nothing of that parameter (nor hands it on to another of the
// project's). A library's, an SDK's or a builtin call is taken to read what it is handed.
#include <string.h>

#include "base/util.h"
#include "surfaces/node.h"
#include "surfaces/python/handon.h"
#include "surfaces/python/resolve_internal.h"
#include "surfaces/python/scope.h"

// A statement's or a function body's nodes read at most (a hostile statement of a million calls):
// past it, the name is taken as possibly changed.
#define HANDON_MAX_NODES 4096
// The definitions of one name in a file looked at.
#define HANDON_MAX_DEFS 8

// Is `n` the identifier `f` names?
static bool is_name(const hg_named *f, TSNode n) {
  return !ts_node_is_null(n) && hg_node_is(n, "identifier") && hg_node_text_eq(n, f->r->src, f->name, f->len);
}

// Is `attr` the name of a method that changes a mapping or list in place (`update`, `append`, ...)?
static bool changes_in_place(TSNode attr, const char *src) {
  static const char *const changers[] = {"update", "setdefault", "pop",    "popitem", "clear",   "append",
                                         "extend", "insert",     "remove", "sort",    "reverse", NULL};
  for (size_t i = 0; changers[i]; i++)
    if (hg_node_text_eq(attr, src, changers[i], strlen(changers[i])))
      return true;
  return false;
}

// Can `callee` change what it is handed: is it the project's own (a function, class or method it
// defines)? A call of a library's, an SDK's or a builtin is taken to read what it is handed
// (`log.debug("%s", opts)`, `json.dumps(opts)`, `client.containers.create_or_replace(name,
// config)`): none is known to change a caller's mapping of options.
static bool projects_own(const hg_resolver *r, TSNode callee) {
  return r->engine && r->engine->defined && r->engine->defined(r, callee);
}

// Does function `def`'s body change (or hand on) what its parameter `name` (len bytes) holds: an
// item set or deleted, a method that changes a mapping or list called on it, `+=` or `|=` on it,
// the name handed to a call of the project's own (but in a `raise`), or bound to another name?
static bool changes_param(const hg_resolver *r, TSNode def, const char *name, size_t len) {
  TSNode body = hg_node_field(def, "body");
  if (ts_node_is_null(body))
    return true;
  TSTreeCursor cur = ts_tree_cursor_new(body);
  bool changes = false;
  size_t seen = 0;
  for (bool more = true; more && !changes;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (++seen > HANDON_MAX_NODES) {
      changes = true; // not read whole: not known to leave it alone
      break;
    }
    if (hg_node_is(n, "identifier") && hg_node_text_eq(n, r->src, name, len)) {
      TSNode up = ts_node_parent(n), above = ts_node_parent(up);
      if (hg_node_is(up, "subscript") && ts_node_eq(hg_node_field(up, "value"), n))
        changes = (hg_node_is(above, "assignment") && ts_node_eq(hg_node_field(above, "left"), up)) ||
                  (hg_node_is(above, "augmented_assignment") && ts_node_eq(hg_node_field(above, "left"), up)) ||
                  hg_node_is(above, "delete_statement") || hg_node_is(above, "expression_list");
      else if (hg_node_is(up, "attribute") && ts_node_eq(hg_node_field(up, "object"), n)) {
        TSNode attr = hg_node_field(up, "attribute");
        changes = changes_in_place(attr, r->src) && hg_node_is(above, "call");
      } else if (hg_node_is(up, "augmented_assignment"))
        changes = ts_node_eq(hg_node_field(up, "left"), n);
      else if (hg_node_is(up, "assignment"))
        changes = ts_node_eq(hg_node_field(up, "right"), n); // another name for it, changed there
      else if (hg_node_is(up, "keyword_argument") || hg_node_is(up, "argument_list")) {
        TSNode call = hg_node_is(up, "keyword_argument") ? ts_node_parent(above) : above;
        if (hg_node_is(up, "keyword_argument") && !ts_node_eq(hg_node_field(up, "value"), n))
          call = (TSNode){0}; // the keyword's name
        // An exception raised with it (`raise ValueError(o)`) ends the call: nothing is changed.
        changes = hg_node_is(call, "call") && !hg_node_is(ts_node_parent(call), "raise_statement") &&
                  projects_own(r, hg_node_field(call, "function"));
      }
    }
    // Not into a nested function, whose parameters are its own.
    more = hg_cursor_next(&cur, !hg_node_is(n, "function_definition"));
  }
  ts_tree_cursor_delete(&cur);
  return changes;
}

// The parameter of `def` an argument stands for: the keyword's, else the index-th positional one
// (after `self` when the function is called as a method); its name in *name, or false.
static bool param_for(const hg_resolver *r, TSNode def, bool method, TSNode arg, uint32_t index, const char **name,
                      size_t *len) {
  if (hg_node_is(ts_node_parent(arg), "keyword_argument")) {
    TSNode k = hg_node_field(ts_node_parent(arg), "name");
    *name = r->src + ts_node_start_byte(k);
    *len = ts_node_end_byte(k) - ts_node_start_byte(k);
    return hg_scope_is_parameter(def, r->src, *name, *len);
  }
  TSNode params = hg_node_field(def, "parameters");
  uint32_t want = index + (method ? 1 : 0), at = 0;
  for (uint32_t i = 0, n = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params); i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    TSNode id = hg_node_is(p, "identifier")        ? p
                : hg_node_is(p, "typed_parameter") ? ts_node_named_child(p, 0)
                : hg_node_is(p, "default_parameter") || hg_node_is(p, "typed_default_parameter")
                    ? hg_node_field(p, "name")
                    : (TSNode){0};
    if (ts_node_is_null(id) || !hg_node_is(id, "identifier"))
      return false; // *args, a keyword-only marker: not followed
    if (at++ == want) {
      *name = r->src + ts_node_start_byte(id);
      *len = ts_node_end_byte(id) - ts_node_start_byte(id);
      return true;
    }
  }
  return false;
}

// May `call`, handed the followed name as its argument `arg` (the index-th positional one, or a
// keyword's value), change what the name holds?
static bool may_change(const hg_named *f, TSNode call, TSNode arg, uint32_t index) {
  const hg_resolver *r = f->r;
  TSNode callee = hg_node_field(call, "function");
  if (!projects_own(r, callee))
    return false;
  // A function of the file (`helper(opts)`, `self.helper(opts)`): its body tells; one of another
  // module of the project may change it.
  bool method = hg_node_is(callee, "attribute");
  TSNode fname = method ? hg_node_field(callee, "attribute") : callee;
  if (method && !hg_node_text_eq(hg_node_field(callee, "object"), r->src, "self", 4))
    return true;
  if (!hg_node_is(fname, "identifier"))
    return true;
  TSNode defs[HANDON_MAX_DEFS];
  size_t n = hg_scope_functions_named(r->scopes, call, r->src, r->src + ts_node_start_byte(fname),
                                      ts_node_end_byte(fname) - ts_node_start_byte(fname), defs, HANDON_MAX_DEFS);
  if (n == SIZE_MAX || n == 0)
    return true;
  for (size_t i = 0; i < n; i++) {
    const char *p;
    size_t len;
    if (!param_for(r, defs[i], method, arg, index, &p, &len) || changes_param(r, defs[i], p, len))
      return true;
  }
  return false;
}

// The first call in `stmt` handed the followed name itself (not spread: `f(**opts)` hands a copy)
// that may change it; a null node when none. Calls of the name's own methods (`opts.update(x)`)
// are the follow's, and a statement that binds the name anew (`opts = merge(opts, x)`) its value.
static TSNode changer_in(const hg_named *f, TSNode stmt) {
  TSTreeCursor cur = ts_tree_cursor_new(stmt);
  TSNode found = {0};
  size_t seen = 0;
  for (bool more = true; more && ts_node_is_null(found);) {
    if (++seen > HANDON_MAX_NODES) {
      found = stmt; // not read whole: not known to leave the name alone
      break;
    }
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (hg_node_is(n, "identifier") && is_name(f, n)) {
      TSNode up = ts_node_parent(n), args = hg_node_is(up, "keyword_argument") ? ts_node_parent(up) : up;
      bool handed = hg_node_is(up, "argument_list") ||
                    (hg_node_is(up, "keyword_argument") && ts_node_eq(hg_node_field(up, "value"), n));
      TSNode call = ts_node_parent(args);
      if (handed && hg_node_is(args, "argument_list") && hg_node_is(call, "call")) {
        uint32_t index = 0;
        for (uint32_t i = 0, k = hg_node_arg_count(args); i < k; i++) {
          TSNode a = hg_node_arg(args, i);
          if (ts_node_eq(a, ts_node_eq(up, args) ? n : up))
            break;
          index += hg_node_is(a, "keyword_argument") ? 0 : 1;
        }
        if (may_change(f, call, n, index))
          found = call;
      }
    }
    more = hg_cursor_next(&cur, !hg_node_is(n, "lambda") && !hg_node_is(n, "function_definition"));
  }
  ts_tree_cursor_delete(&cur);
  return found;
}

// An item of the name changed in place through a method of it: `opts.setdefault("host_config",
// {}).update(hc)`, `opts["host_config"].update(hc)`, `opts.get("env").append(x)`. The item's key
// (a string literal) in *key, else NULL; false when `call` is none of these.
static bool item_changed(const hg_named *f, TSNode call, const char **key) {
  TSNode fn = hg_node_field(call, "function");
  if (!hg_node_is(fn, "attribute"))
    return false;
  TSNode attr = hg_node_field(fn, "attribute"), obj = hg_node_field(fn, "object");
  bool changer = changes_in_place(attr, f->r->src);
  TSNode k = {0};
  if (hg_node_is(obj, "subscript") && is_name(f, hg_node_field(obj, "value")))
    k = hg_node_field(obj, "subscript");
  else if (hg_node_is(obj, "call")) {
    TSNode of = hg_node_field(obj, "function"), args = hg_node_field(obj, "arguments");
    TSNode m = hg_node_is(of, "attribute") ? hg_node_field(of, "attribute") : (TSNode){0};
    if (ts_node_is_null(m) || !is_name(f, hg_node_field(of, "object")) ||
        !(hg_node_text_eq(m, f->r->src, "setdefault", 10) || hg_node_text_eq(m, f->r->src, "get", 3)) ||
        !hg_node_arg_count(args))
      return false;
    k = hg_node_arg(args, 0);
  } else
    return false;
  if (!changer)
    return false;
  *key = NULL;
  TSNode content =
      hg_node_is(k, "string") && ts_node_named_child_count(k) == 3 ? ts_node_named_child(k, 1) : (TSNode){0};
  if (hg_node_is(content, "string_content"))
    *key = hg_arena_strndup(f->r->arena, f->r->src + ts_node_start_byte(content),
                            ts_node_end_byte(content) - ts_node_start_byte(content));
  return true;
}

// Does `stmt`'s text write the name where an argument stands (`(opts,`, `, opts)`, `k=opts)`)? A
// byte scan, before any node is read: most statements that name it assign it, index it or spread
// it (`**opts`).
static bool may_hand(const hg_named *f, TSNode stmt) {
  const char *src = f->r->src;
  uint32_t a = ts_node_start_byte(stmt), b = ts_node_end_byte(stmt);
  for (uint32_t at = a; at < b;) {
    const char *hit = hg_find_word(src + at, b - at, f->name, f->len);
    if (!hit)
      return false;
    uint32_t k = (uint32_t)(hit - src), e = k + (uint32_t)f->len, p = k;
    at = e;
    while (e < b && (src[e] == ' ' || src[e] == '\t' || src[e] == '\n' || src[e] == '\r'))
      e++;
    while (p > a && (src[p - 1] == ' ' || src[p - 1] == '\t' || src[p - 1] == '\n' || src[p - 1] == '\r'))
      p--;
    char next = e < b ? src[e] : '\0', prev = p > a ? src[p - 1] : '\0';
    if ((next == ',' || next == ')') && (prev == '(' || prev == ',' || prev == '='))
      return true;
  }
  return false;
}

hg_handon hg_handon_find(const hg_named *f, TSNode stmt) {
  hg_handon out = {0};
  TSNode e = hg_node_is(stmt, "expression_statement") ? ts_node_named_child(stmt, 0) : stmt;
  for (TSNode t = e; hg_node_is(t, "assignment"); t = hg_node_field(t, "right"))
    if (is_name(f, hg_node_field(t, "left")))
      return out; // bound anew: the assignment gives its value
  if (hg_node_is(e, "await"))
    e = ts_node_named_child(e, 0);
  out.item = hg_node_is(e, "call") && item_changed(f, e, &out.key);
  out.call = out.item ? e : may_hand(f, stmt) ? changer_in(f, stmt) : (TSNode){0};
  if (ts_node_is_null(out.call))
    return out;
  if (!hg_node_is(out.call, "call")) {
    out.why = "a statement longer than hardguard's budget of 4,096 nodes to read for calls that may change it";
    return out;
  }
  TSNode callee = hg_node_field(out.call, "function");
  uint32_t a = ts_node_start_byte(callee), b = ts_node_end_byte(callee);
  out.why = hg_arena_printf(f->r->arena,
                            out.item ? "an item changed by %.*s() at line %u"
                                     : "handed to %.*s() at line %u, which may change it",
                            (int)(b - a > 60 ? 60 : b - a), f->r->src + a, ts_node_start_point(out.call).row + 1);
  return out;
}
