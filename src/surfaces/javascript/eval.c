// The javascript surface's values: expressions evaluated into the value model (eval.h); where a
// name is bound is names.c's.
#include "surfaces/javascript/eval.h"
#include "surfaces/javascript/internal.h"
#include "surfaces/javascript/modules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// ---- values ------------------------------------------------------------------------------------

typedef struct {
  js_eval *e;
  int depth;
} walk;

static hg_value eval(walk *w, TSNode n);

static hg_value unknown(js_eval *e, TSNode n, const char *origin) {
  return (hg_value){.kind = HG_VAL_UNKNOWN, .text = js_text(e, n), .origin = origin, .line = line_of(n)};
}

// A string or template literal's parts into `b`; a substitution it cannot read in full is HG_HOLE.
static void string_parts(walk *w, TSNode n, hg_buf *b) {
  js_eval *e = w->e;
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++) {
    TSNode c = ts_node_named_child(n, i);
    uint32_t a = ts_node_start_byte(c), z = ts_node_end_byte(c);
    if (hg_node_is(c, "string_fragment") || hg_node_is(c, "html_character_reference")) {
      hg_buf_add(b, S(e) + a, z - a);
    } else if (hg_node_is(c, "escape_sequence")) {
      size_t at = a + 1;
      while (at < z) {
        size_t took = js__unescape(S(e) + at, z - at, b);
        at += took ? took : 1;
      }
    } else if (hg_node_is(c, "template_substitution")) {
      TSNode x = ts_node_named_child(c, 0);
      hg_value v = eval(w, x);
      if ((v.kind == HG_VAL_STR || v.kind == HG_VAL_NUM) && v.text)
        hg_buf_puts(b, v.text);
      else if (v.kind == HG_VAL_TRUE || v.kind == HG_VAL_FALSE)
        hg_buf_puts(b, v.kind == HG_VAL_TRUE ? "true" : "false");
      else
        hg_buf_add(b, (char[]){HG_HOLE}, 1);
    }
  }
  // A string without fragments (`''`, or a fragment-less template) is empty.
}

static const char *buf_text(js_eval *e, hg_buf *b) {
  const char *t = hg_arena_strndup(e->arena, b->data ? b->data : "", b->len);
  hg_buf_free(b);
  return t;
}

const char *js_string(js_eval *e, TSNode n) {
  n = js__unwrap(n);
  if (!hg_node_is(n, "string") && !hg_node_is(n, "template_string")) {
    walk w = {e, 0};
    size_t saved = e->budget;
    e->budget = SITE_BUDGET;
    hg_value v = eval(&w, n);
    e->budget = saved;
    return v.kind == HG_VAL_STR && v.text && !strchr(v.text, HG_HOLE) ? v.text : NULL;
  }
  hg_buf b = {0};
  walk w = {e, 0};
  string_parts(&w, n, &b);
  const char *t = buf_text(e, &b);
  return strchr(t, HG_HOLE) ? NULL : t;
}

static bool number_of(const hg_value *v, double *out) {
  if (v->kind != HG_VAL_NUM || !v->text)
    return false;
  char buf[64];
  size_t k = 0;
  for (const char *p = v->text; *p && k + 1 < sizeof buf; p++)
    if (*p != '_')
      buf[k++] = *p;
  buf[k] = 0;
  if (k == 0 || strchr(buf, 'n') || (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B' || buf[1] == 'o' || buf[1] == 'O')))
    return false;
  char *end;
  *out = strtod(buf, &end);
  return *end == 0 && isfinite(*out);
}

static const char *number_text(js_eval *e, double x) {
  if (x == floor(x) && fabs(x) < 1e18)
    return hg_arena_printf(e->arena, "%lld", (long long)x);
  return hg_arena_printf(e->arena, "%.17g", x);
}

// What a value reads as in a string (`"a" + x`): its text, or a hole.
static void as_text(const hg_value *v, hg_buf *b) {
  if ((v->kind == HG_VAL_STR || v->kind == HG_VAL_NUM) && v->text)
    hg_buf_puts(b, v->text);
  else if (v->kind == HG_VAL_TRUE || v->kind == HG_VAL_FALSE)
    hg_buf_puts(b, v->kind == HG_VAL_TRUE ? "true" : "false");
  else if (v->kind == HG_VAL_NONE)
    hg_buf_puts(b, "undefined");
  else
    hg_buf_add(b, (char[]){HG_HOLE}, 1);
}

// Is a value known to be truthy (1), falsy (0), or not known (-1)?
static int truthy(const hg_value *v) {
  switch (v->kind) {
  case HG_VAL_TRUE: case HG_VAL_DICT: case HG_VAL_LIST: return 1;
  case HG_VAL_FALSE: case HG_VAL_NONE: return 0;
  case HG_VAL_STR: return v->text && strchr(v->text, HG_HOLE) ? -1 : (v->text && *v->text) ? 1 : 0;
  case HG_VAL_NUM: {
    double x;
    return number_of(v, &x) ? x != 0 : -1;
  }
  default: return -1;
  }
}

static hg_value alt2(js_eval *e, TSNode at, hg_value a, const char *ca, hg_value b, const char *cb) {
  hg_value *items = hg_arena_alloc(e->arena, 2 * sizeof(hg_value));
  items[0] = a;
  items[0].cond = ca;
  items[1] = b;
  items[1].cond = cb;
  return (hg_value){.kind = HG_VAL_ALT, .text = js_text(e, at), .items = items, .n_items = 2, .line = line_of(at)};
}

// The item of DICT `d` keyed `key` (the last such), NULL when absent; *open is set when the dict
// holds an entry of unknown keys that could be it.
static const hg_value *dict_item(const hg_value *d, const char *key, bool *open) {
  const hg_value *found = NULL;
  *open = false;
  for (size_t i = 0; i < d->n_items; i++) {
    if (d->items[i].key && !strcmp(d->items[i].key, key)) {
      found = &d->items[i];
      *open = false;
    } else if (!d->items[i].key) {
      *open = true;
    }
  }
  return found;
}

static hg_value property_of(walk *w, TSNode at, hg_value obj, const char *key) {
  js_eval *e = w->e;
  if (obj.kind == HG_VAL_DICT && key) {
    bool open;
    const hg_value *v = dict_item(&obj, key, &open);
    if (open)
      return unknown(e, at, "a property of an object hardguard cannot read in full");
    if (!v)
      return (hg_value){.kind = HG_VAL_NONE, .text = "undefined", .line = line_of(at)};
    hg_value out = *v;
    out.key = NULL;
    return out;
  }
  if (obj.kind == HG_VAL_UNKNOWN)
    return unknown(e, at, obj.origin ? obj.origin : "a property of a value hardguard cannot follow");
  return unknown(e, at, "a property hardguard does not read");
}

static hg_value decl_value(walk *w, TSNode id, js_decl d, const char *name);

// Names the file every value of `v` stands in, where none is named yet.
static void mark_path(hg_value *v, const char *path, int depth) {
  if (depth > MAX_DEPTH)
    return;
  if (!v->path)
    v->path = path;
  for (size_t i = 0; i < v->n_items; i++) mark_path(&v->items[i], path, depth + 1);
}

// The evaluator of module `m`, made once per importing module.
static js_eval *evaluator_of(js_eval *e, const hg_js_module *m) {
  for (size_t i = 0; i < e->imported.len; i++)
    if (e->imported.items[i].module == m)
      return e->imported.items[i].eval;
  js_eval *o = js_eval_new(&m->source, ts_tree_root_node(m->tree), e->arena);
  js_eval_project(o, e->project);
  HG_ARENA_PUSH(e->arena, &e->imported, (struct js_imported){m, o});
  return o;
}

// A name imported from another module of the project (`import {HARDENING} from './hardening'`,
// `const {flags} = require('../sandbox/flags')`, `import opts from './opts.js'`): what that module
// exports under it, read there (its own names, imports, and so on, within the depth bound).
static hg_value imported_value(walk *w, TSNode id, js_decl d, const char *name) {
  js_eval *e = w->e;
  const hg_js_module *m = hg_js_module_of(e->project, e->src->path, d.module);
  if (!m)
    return unknown(e, id, hg_arena_printf(e->arena, "`%s`, a name imported from %s, a module hardguard cannot find or read",
                                          name, d.module));
  if (d.property && !strcmp(d.property, "*"))
    return unknown(e, id, hg_arena_printf(e->arena, "`%s`, a namespace import of %s", name, d.module));
  if (w->depth >= MAX_DEPTH)
    return unknown(e, id, hg_arena_printf(e->arena, "`%s`, imported through more modules than hardguard follows", name));
  js_eval *o = evaluator_of(e, m);
  o->budget = e->budget;
  walk in = {o, w->depth + 1};
  js_decl decl = {0};
  TSNode value = {0};
  const char *what = d.kind == JS_DECL_REQUIRE ? d.property : d.property ? d.property : "default";
  hg_value v;
  switch (js_export(o, d.kind == JS_DECL_REQUIRE && !d.property ? NULL : what, &decl, &value)) {
  case JS_EXPORT_DECL: {
    TSNode at = ts_node_named_child(o->root, 0);
    v = decl_value(&in, at, decl, what);
    break;
  }
  case JS_EXPORT_VALUE: v = eval(&in, value); break;
  case JS_EXPORT_PROPERTY: v = property_of(&in, value, eval(&in, value), what); break;
  default:
    v = unknown(e, id, hg_arena_printf(e->arena, "`%s`, which %s does not export as hardguard reads it", name, d.module));
    break;
  }
  e->budget = o->budget;
  mark_path(&v, m->source.path, 0);
  if (!v.via)
    v.via = hg_arena_printf(e->arena, "%s (%s)", name, m->source.path);
  return v;
}

static hg_value name_value(walk *w, TSNode id) {
  js_eval *e = w->e;
  uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
  const char *name = hg_arena_strndup(e->arena, S(e) + a, b - a);
  js_decl d = js_lookup(e, id, S(e) + a, b - a);
  return decl_value(w, id, d, name);
}

// The value of `name`, bound by `d` and used at `id`.
static hg_value decl_value(walk *w, TSNode id, js_decl d, const char *name) {
  js_eval *e = w->e;
  size_t len = strlen(name);
  switch (d.kind) {
  case JS_DECL_NONE:
    if (!strcmp(name, "undefined"))
      return (hg_value){.kind = HG_VAL_NONE, .text = "undefined", .line = line_of(id)};
    return unknown(e, id, hg_arena_printf(e->arena, "`%s`, a name this module does not define", name));
  case JS_DECL_PARAM:
    return unknown(e, id, hg_arena_printf(e->arena, "`%s`, a parameter of the function at line %u", name,
                                          line_of(d.node)));
  case JS_DECL_IMPORT:
  case JS_DECL_REQUIRE:
    if (d.module && d.module[0] == '.')
      return imported_value(w, id, d, name);
    return unknown(e, id, hg_arena_printf(e->arena, "`%s`, a name imported from the package %s", name,
                                          d.module ? d.module : "(unknown)"));
  case JS_DECL_OTHER:
    return unknown(e, id, hg_arena_printf(e->arena, "`%s`, a function, class or variable hardguard does not follow", name));
  case JS_DECL_VALUE: break;
  }
  if (d.reassigned)
    return unknown(e, id, hg_arena_printf(e->arena, "`%s`, a variable assigned more than once", name));
  if (ts_node_is_null(d.value))
    return unknown(e, id, hg_arena_printf(e->arena, "`%s`, declared without a value", name));
  // A change to the object after it is made (opts.HostConfig.Privileged = true) may undo anything.
  TSNode scope = ts_node_parent(ts_node_parent(d.node));
  for (size_t i = 0; i < e->mutations.len; i++) {
    const mutation *m = &e->mutations.items[i];
    if (!m->whole && m->name_len == len && !memcmp(S(e) + m->name_start, name, len) &&
        hg_node_contains(scope, m->node))
      return unknown(e, id,
                     hg_arena_printf(e->arena, "`%s`, an object changed after it is made (line %u)", name,
                                     line_of(m->node)));
  }
  // Its own initialiser holding the name (a cycle) ends at the depth limit.
  hg_value v = eval(w, d.value);
  if (d.property)
    v = property_of(w, id, v, d.property);
  if (!v.via)
    v.via = hg_arena_printf(e->arena, "%s (line %u)", name, line_of(d.node));
  return v;
}

static const char *key_text(walk *w, TSNode k, bool *computed_unknown) {
  js_eval *e = w->e;
  *computed_unknown = false;
  if (hg_node_is(k, "property_identifier") || hg_node_is(k, "number") || hg_node_is(k, "private_property_identifier"))
    return hg_node_text(k, S(e), e->arena);
  if (hg_node_is(k, "string"))
    return js_string(e, k);
  if (hg_node_is(k, "computed_property_name")) {
    hg_value v = eval(w, ts_node_named_child(k, 0));
    if ((v.kind == HG_VAL_STR || v.kind == HG_VAL_NUM) && v.text && !strchr(v.text, HG_HOLE))
      return v.text;
  }
  *computed_unknown = true;
  return NULL;
}

// Appends what spreading `v` into an object gives: a known object's entries in order, nothing for
// null/undefined, else an entry of unknown keys.
static void spread_into(js_eval *e, TSNode at, hg_value v, hg_value_vec *items) {
  if (v.kind == HG_VAL_DICT) {
    for (size_t i = 0; i < v.n_items; i++)
      HG_VEC_PUSH(items, v.items[i]);
    return;
  }
  if (v.kind == HG_VAL_NONE || v.kind == HG_VAL_FALSE)
    return;
  hg_value s = v.kind == HG_VAL_ALT ? v : unknown(e, at, v.origin ? v.origin : "a spread of a value that is not an object hardguard can read");
  s.key = NULL;
  s.splat = true;
  HG_VEC_PUSH(items, s);
}

// An entry's value hardguard cannot follow may be an object whose keys the policy's dotted names
// reach into (`HostConfig: HARDENING`): it stands as an object of unknown entries, so that a name
// read through it is unverifiable rather than absent (a scalar read there is not satisfied).
static hg_value entry_value(js_eval *e, hg_value v) {
  if (v.kind != HG_VAL_UNKNOWN)
    return v;
  hg_value *inner = hg_arena_alloc(e->arena, sizeof *inner);
  *inner = v;
  inner->splat = true;
  inner->key = NULL;
  return (hg_value){.kind = HG_VAL_DICT, .text = v.text, .line = v.line, .via = v.via, .items = inner, .n_items = 1};
}

static hg_value object_value(walk *w, TSNode n) {
  js_eval *e = w->e;
  hg_value_vec items = {0};
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (hg_node_is(c, "pair")) {
      bool open;
      const char *key = key_text(w, hg_node_field(c, "key"), &open);
      hg_value v = eval(w, hg_node_field(c, "value"));
      if (open) {
        hg_value u = unknown(e, c, "an entry whose key is computed at run time");
        u.splat = true;
        HG_VEC_PUSH(&items, u);
        continue;
      }
      v = entry_value(e, v);
      v.key = key;
      v.line = line_of(c);
      HG_VEC_PUSH(&items, v);
    } else if (hg_node_is(c, "shorthand_property_identifier")) {
      hg_value v = entry_value(e, name_value(w, c));
      v.key = hg_node_text(c, S(e), e->arena);
      HG_VEC_PUSH(&items, v);
    } else if (hg_node_is(c, "spread_element")) {
      spread_into(e, c, eval(w, ts_node_named_child(c, 0)), &items);
    } else if (hg_node_is(c, "method_definition")) {
      hg_value v = unknown(e, c, "a method");
      v.key = hg_node_text(hg_node_field(c, "name"), S(e), e->arena);
      HG_VEC_PUSH(&items, v);
    }
  }
  return hg_values_finish(e->arena, (hg_value){.kind = HG_VAL_DICT, .text = js_text(e, n), .line = line_of(n)}, &items);
}

static hg_value array_value(walk *w, TSNode n) {
  js_eval *e = w->e;
  hg_value_vec items = {0};
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (hg_node_is(c, "comment"))
      continue;
    if (hg_node_is(c, "spread_element")) {
      hg_value v = eval(w, ts_node_named_child(c, 0));
      if (v.kind == HG_VAL_LIST) {
        for (size_t j = 0; j < v.n_items; j++)
          HG_VEC_PUSH(&items, v.items[j]);
      } else {
        hg_value s = v.kind == HG_VAL_ALT ? v : unknown(e, c, v.origin ? v.origin : "a spread of a value that is not an array hardguard can read");
        s.splat = true;
        HG_VEC_PUSH(&items, s);
      }
      continue;
    }
    HG_VEC_PUSH(&items, eval(w, c));
  }
  return hg_values_finish(e->arena, (hg_value){.kind = HG_VAL_LIST, .text = js_text(e, n), .line = line_of(n)}, &items);
}

static hg_value binary_value(walk *w, TSNode n) {
  js_eval *e = w->e;
  TSNode op = hg_node_field(n, "operator");
  TSNode l = hg_node_field(n, "left"), r = hg_node_field(n, "right");
  const char *o = hg_node_text(op, S(e), e->arena);
  if (!strcmp(o, "||") || !strcmp(o, "??")) {
    hg_value a = eval(w, l);
    int t = !strcmp(o, "??") ? (a.kind == HG_VAL_NONE ? 0 : a.kind == HG_VAL_UNKNOWN || a.kind == HG_VAL_ALT ? -1 : 1) : truthy(&a);
    if (t == 1)
      return a;
    hg_value b = eval(w, r);
    if (t == 0)
      return b;
    const char *lt = js_text(e, l);
    return alt2(e, n, a, lt, b, hg_arena_printf(e->arena, "not %s", lt));
  }
  if (!strcmp(o, "&&")) {
    hg_value a = eval(w, l);
    int t = truthy(&a);
    if (t == 0)
      return a;
    if (t == 1)
      return eval(w, r);
    return unknown(e, n, "a value that depends on a condition hardguard cannot read");
  }
  hg_value a = eval(w, l), b = eval(w, r);
  double x, y;
  if (number_of(&a, &x) && number_of(&b, &y)) {
    double z;
    if (!strcmp(o, "+")) z = x + y;
    else if (!strcmp(o, "-")) z = x - y;
    else if (!strcmp(o, "*")) z = x * y;
    else if (!strcmp(o, "/") && y != 0) z = x / y;
    else if (!strcmp(o, "**")) z = pow(x, y);
    else if (!strcmp(o, "%") && y != 0) z = fmod(x, y);
    else if (!strcmp(o, "<<") && x == floor(x) && y == floor(y) && fabs(x) < 2147483648.0 && y >= 0 && y < 32)
      z = (double)(int32_t)((uint32_t)(int64_t)x << (int)y);
    else if (!strcmp(o, ">>") && x == floor(x) && y == floor(y) && fabs(x) < 2147483648.0 && y >= 0 && y < 32)
      z = (double)((int32_t)(int64_t)x >> (int)y);
    else return unknown(e, n, "arithmetic hardguard does not do");
    if (!isfinite(z))
      return unknown(e, n, "arithmetic hardguard does not do");
    return (hg_value){.kind = HG_VAL_NUM, .text = number_text(e, z), .line = line_of(n)};
  }
  if (!strcmp(o, "+") && (a.kind == HG_VAL_STR || b.kind == HG_VAL_STR)) {
    hg_buf buf = {0};
    as_text(&a, &buf);
    as_text(&b, &buf);
    return (hg_value){.kind = HG_VAL_STR, .text = buf_text(e, &buf), .line = line_of(n)};
  }
  return unknown(e, n, "an expression hardguard does not evaluate");
}

static hg_value call_value(walk *w, TSNode n) {
  js_eval *e = w->e;
  TSNode fn = js__unwrap(hg_node_field(n, "function"));
  TSNode args = hg_node_field(n, "arguments");
  // Object.assign({}, a, b): the objects merged in order
  if (hg_node_is(fn, "member_expression") && text_is(e, hg_node_field(fn, "object"), "Object") &&
      text_is(e, hg_node_field(fn, "property"), "assign") && hg_node_is(args, "arguments")) {
    hg_value_vec items = {0};
    for (uint32_t i = 0, k = hg_node_arg_count(args); i < k; i++) {
      TSNode a = hg_node_arg(args, i);
      if (hg_node_is(a, "spread_element")) {
        hg_value u = unknown(e, a, "a spread of arguments hardguard cannot read");
        u.splat = true;
        HG_VEC_PUSH(&items, u);
        continue;
      }
      spread_into(e, a, eval(w, a), &items);
    }
    return hg_values_finish(e->arena, (hg_value){.kind = HG_VAL_DICT, .text = js_text(e, n), .line = line_of(n)}, &items);
  }
  return unknown(e, n, hg_arena_printf(e->arena, "the result of a call to %s()", js_text(e, fn)));
}

static hg_value eval(walk *w, TSNode n) {
  js_eval *e = w->e;
  n = js__unwrap(n);
  if (ts_node_is_null(n))
    return (hg_value){.kind = HG_VAL_UNKNOWN, .text = "", .origin = "an expression hardguard cannot read"};
  if (w->depth >= MAX_DEPTH)
    return unknown(e, n, "an expression nested deeper than hardguard follows (48 levels)");
  if (e->budget == 0)
    return unknown(e, n, "past hardguard's budget of values read for one site");
  e->budget--;
  w->depth++;
  hg_value v;
  const char *t = ts_node_type(n);
  if (!strcmp(t, "string") || !strcmp(t, "template_string")) {
    hg_buf b = {0};
    string_parts(w, n, &b);
    v = (hg_value){.kind = HG_VAL_STR, .text = buf_text(e, &b), .line = line_of(n)};
  } else if (!strcmp(t, "number")) {
    v = (hg_value){.kind = HG_VAL_NUM, .text = hg_node_text(n, S(e), e->arena), .line = line_of(n)};
  } else if (!strcmp(t, "true") || !strcmp(t, "false")) {
    v = (hg_value){.kind = t[0] == 't' ? HG_VAL_TRUE : HG_VAL_FALSE, .text = t, .line = line_of(n)};
  } else if (!strcmp(t, "null") || !strcmp(t, "undefined")) {
    v = (hg_value){.kind = HG_VAL_NONE, .text = t, .line = line_of(n)};
  } else if (!strcmp(t, "object")) {
    v = object_value(w, n);
  } else if (!strcmp(t, "array")) {
    v = array_value(w, n);
  } else if (!strcmp(t, "identifier")) {
    v = name_value(w, n);
  } else if (!strcmp(t, "member_expression") || !strcmp(t, "subscript_expression")) {
    TSNode obj = hg_node_field(n, "object");
    const char *key = NULL;
    if (t[0] == 'm') {
      key = hg_node_text(hg_node_field(n, "property"), S(e), e->arena);
    } else {
      hg_value k = eval(w, hg_node_field(n, "index"));
      if ((k.kind == HG_VAL_STR || k.kind == HG_VAL_NUM) && k.text && !strchr(k.text, HG_HOLE))
        key = k.text;
    }
    hg_value o = eval(w, obj);
    if (o.kind == HG_VAL_LIST && key) {
      char *end;
      long i = strtol(key, &end, 10);
      v = *end == 0 && i >= 0 && (size_t)i < o.n_items ? o.items[i]
          : !strcmp(key, "length") ? (hg_value){.kind = HG_VAL_NUM, .text = hg_arena_printf(e->arena, "%zu", o.n_items)}
                                   : unknown(e, n, "an element of a list hardguard does not read");
      v.line = line_of(n);
    } else if (o.kind == HG_VAL_DICT && !key) {
      v = unknown(e, n, "a property whose name is computed at run time");
    } else {
      v = property_of(w, n, o, key);
    }
  } else if (!strcmp(t, "binary_expression")) {
    v = binary_value(w, n);
  } else if (!strcmp(t, "unary_expression")) {
    TSNode op = hg_node_field(n, "operator");
    hg_value a = eval(w, hg_node_field(n, "argument"));
    double x;
    if ((text_is(e, op, "-") || text_is(e, op, "+")) && number_of(&a, &x))
      v = (hg_value){.kind = HG_VAL_NUM, .text = number_text(e, text_is(e, op, "-") ? -x : x), .line = line_of(n)};
    else if (text_is(e, op, "!") && truthy(&a) >= 0)
      v = (hg_value){.kind = truthy(&a) ? HG_VAL_FALSE : HG_VAL_TRUE, .text = js_text(e, n), .line = line_of(n)};
    else
      v = unknown(e, n, "an expression hardguard does not evaluate");
  } else if (!strcmp(t, "ternary_expression")) {
    TSNode c = hg_node_field(n, "condition");
    const char *ct = js_text(e, c);
    v = alt2(e, n, eval(w, hg_node_field(n, "consequence")), ct, eval(w, hg_node_field(n, "alternative")),
             hg_arena_printf(e->arena, "not %s", ct));
  } else if (!strcmp(t, "call_expression")) {
    v = call_value(w, n);
  } else if (!strcmp(t, "await_expression")) {
    v = unknown(e, n, "an awaited value");
  } else {
    v = unknown(e, n, hg_arena_printf(e->arena, "an expression hardguard does not evaluate (%s)", t));
  }
  w->depth--;
  return v;
}

hg_value js_value(js_eval *e, TSNode n) {
  e->budget = SITE_BUDGET;
  walk w = {e, 0};
  return eval(&w, n);
}
