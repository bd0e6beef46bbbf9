#include "surfaces/javascript/eval.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"

// Deeper than this an expression is not followed (nested literals, names through names).
enum { MAX_DEPTH = 48 };
// Values evaluated for one site at most: names used many times through names used many times
// could otherwise take exponential work.
enum { SITE_BUDGET = 20000 };

// A change to a name after it is bound: `x = ...`, `x.a = ...`, `x.a.push(...)`, `Object.assign(x, ...)`,
// `delete x.a`, `x++`.
typedef struct {
  TSNode node;
  uint32_t name_start, name_len; // the name changed (its bytes in the source)
  bool whole;                    // the name itself is assigned (not a property of it)
  TSNode right;                  // whole: the value assigned (`x = v`), else null
} mutation;

struct js_eval {
  const hg_source *src;
  TSNode root;
  hg_arena *arena;
  HG_VEC(mutation) mutations;
  HG_VEC(const char *) modules;
  HG_VEC(const char *) methods; // names of the methods and functions the module defines
  size_t budget;
};

static const char *S(const js_eval *e) { return e->src->data; }

static bool text_is(const js_eval *e, TSNode n, const char *s) { return hg_node_text_eq(n, S(e), s, strlen(s)); }

const char *js_text(js_eval *e, TSNode n) {
  if (ts_node_is_null(n))
    return "";
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  if (b - a > 200)
    return hg_arena_printf(e->arena, "%.*s...", 197, S(e) + a);
  return hg_arena_strndup(e->arena, S(e) + a, b - a);
}

static uint32_t line_of(TSNode n) { return ts_node_start_point(n).row + 1; }

// `n` without the parentheses, type assertions and `!` around it.
static TSNode unwrap(TSNode n) {
  for (int i = 0; i < 64 && !ts_node_is_null(n); i++) {
    if (hg_node_is(n, "parenthesized_expression") || hg_node_is(n, "as_expression") ||
        hg_node_is(n, "satisfies_expression") || hg_node_is(n, "non_null_expression") ||
        hg_node_is(n, "type_assertion")) {
      TSNode inner = {0};
      for (uint32_t k = 0; k < ts_node_named_child_count(n); k++) {
        TSNode c = ts_node_named_child(n, k);
        if (!hg_node_is(c, "comment") && !hg_node_is(c, "type_arguments")) {
          inner = c;
          break;
        }
      }
      if (ts_node_is_null(inner))
        return n;
      n = inner;
    } else {
      return n;
    }
  }
  return n;
}

// The name a chain of members starts from (`a` of `a.b[c].d`), or a null node.
static TSNode root_name(TSNode n) {
  for (int i = 0; i < 256 && !ts_node_is_null(n); i++) {
    n = unwrap(n);
    if (hg_node_is(n, "identifier"))
      return n;
    if (hg_node_is(n, "member_expression") || hg_node_is(n, "subscript_expression"))
      n = hg_node_field(n, "object");
    else
      return (TSNode){0};
  }
  return (TSNode){0};
}

// The module a `require('m')` call names, or NULL.
static const char *require_of(js_eval *e, TSNode n) {
  n = unwrap(n);
  if (!hg_node_is(n, "call_expression"))
    return NULL;
  TSNode fn = hg_node_field(n, "function");
  if (!hg_node_is(fn, "identifier") || !text_is(e, fn, "require"))
    return NULL;
  TSNode arg = hg_node_arg(hg_node_field(n, "arguments"), 0);
  return hg_node_is(arg, "string") ? js_string(e, arg) : NULL;
}

static void add_mutation(js_eval *e, TSNode node, TSNode target, TSNode right, bool assigns) {
  TSNode t = unwrap(target);
  TSNode name = root_name(t);
  if (ts_node_is_null(name))
    return;
  mutation m = {.node = node,
                .name_start = ts_node_start_byte(name),
                .name_len = ts_node_end_byte(name) - ts_node_start_byte(name),
                .whole = assigns && hg_node_is(t, "identifier"),
                .right = right};
  HG_VEC_PUSH(&e->mutations, m);
}

static void collect(js_eval *e, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "assignment_expression")) {
    add_mutation(e, n, hg_node_field(n, "left"), hg_node_field(n, "right"), true);
  } else if (!strcmp(t, "augmented_assignment_expression")) {
    add_mutation(e, n, hg_node_field(n, "left"), (TSNode){0}, true);
  } else if (!strcmp(t, "update_expression")) {
    add_mutation(e, n, hg_node_field(n, "argument"), (TSNode){0}, true);
  } else if (!strcmp(t, "unary_expression")) {
    TSNode op = hg_node_field(n, "operator");
    if (text_is(e, op, "delete"))
      add_mutation(e, n, hg_node_field(n, "argument"), (TSNode){0}, false);
  } else if (!strcmp(t, "call_expression")) {
    TSNode fn = unwrap(hg_node_field(n, "function"));
    TSNode args = hg_node_field(n, "arguments");
    if (hg_node_is(fn, "member_expression")) {
      TSNode prop = hg_node_field(fn, "property"), obj = hg_node_field(fn, "object");
      static const char *const CHANGERS[] = {"push", "unshift", "splice", "pop", "shift", "fill", "set", "add"};
      // x.a.push(...), x.push(...): x changes
      for (size_t k = 0; k < sizeof CHANGERS / sizeof *CHANGERS; k++)
        if (text_is(e, prop, CHANGERS[k]))
          add_mutation(e, n, obj, (TSNode){0}, false);
      if (hg_node_is(obj, "identifier") && text_is(e, obj, "Object") &&
          (text_is(e, prop, "assign") || text_is(e, prop, "defineProperty") || text_is(e, prop, "defineProperties")))
        add_mutation(e, n, hg_node_arg(args, 0), (TSNode){0}, false);
    }
    const char *m = require_of(e, n);
    if (m)
      HG_VEC_PUSH(&e->modules, m);
  } else if (!strcmp(t, "import_statement") || !strcmp(t, "import_require_clause")) {
    TSNode source = hg_node_field(n, "source");
    const char *m = hg_node_is(source, "string") ? js_string(e, source) : NULL;
    if (m)
      HG_VEC_PUSH(&e->modules, m);
  } else if (!strcmp(t, "method_definition") || !strcmp(t, "function_declaration")) {
    TSNode name = hg_node_field(n, "name");
    if (!ts_node_is_null(name))
      HG_VEC_PUSH(&e->methods, hg_node_text(name, S(e), e->arena));
  } else if (!strcmp(t, "pair")) {
    // an object literal's method: { createContainer: async (o) => ... }
    TSNode v = hg_node_field(n, "value");
    if (hg_node_is(v, "arrow_function") || hg_node_is(v, "function_expression"))
      HG_VEC_PUSH(&e->methods, hg_node_text(hg_node_field(n, "key"), S(e), e->arena));
  }
}

js_eval *js_eval_new(const hg_source *src, TSNode root, hg_arena *arena) {
  js_eval *e = hg_arena_alloc(arena, sizeof *e);
  memset(e, 0, sizeof *e);
  e->src = src;
  e->root = root;
  e->arena = arena;
  e->budget = SITE_BUDGET;
  // Every node once, without recursion (a minified bundle nests deep).
  TSTreeCursor cur = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (ts_node_is_named(n))
      collect(e, n);
    if (ts_tree_cursor_goto_first_child(&cur))
      continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur))
        goto done;
  }
done:
  ts_tree_cursor_delete(&cur);
  HG_VEC_PUSH(&e->modules, NULL);
  HG_VEC_PUSH(&e->methods, NULL);
  return e;
}

const char *const *js_modules(js_eval *e) { return (const char *const *)e->modules.items; }

bool js_imports(js_eval *e, const char *module) {
  for (size_t i = 0; e->modules.items[i]; i++)
    if (!strcmp(e->modules.items[i], module))
      return true;
  return false;
}

bool js_defines_method(js_eval *e, const char *name) {
  for (size_t i = 0; e->methods.items[i]; i++)
    if (!strcmp(e->methods.items[i], name))
      return true;
  return false;
}

// ---- names -------------------------------------------------------------------------------------

static bool is_function(TSNode n) {
  return hg_node_is(n, "function_declaration") || hg_node_is(n, "function_expression") ||
         hg_node_is(n, "arrow_function") || hg_node_is(n, "method_definition") ||
         hg_node_is(n, "generator_function_declaration") || hg_node_is(n, "generator_function") ||
         hg_node_is(n, "function");
}

// Does pattern `p` (a parameter's, a destructuring's) bind `name`? Iterative: patterns nest.
static bool pattern_binds(const js_eval *e, TSNode p, const char *name, size_t len) {
  TSNode stack[64];
  int top = 0;
  stack[top++] = p;
  int steps = 0;
  while (top > 0 && steps++ < 4096) {
    TSNode n = stack[--top];
    if (hg_node_is(n, "identifier") || hg_node_is(n, "shorthand_property_identifier_pattern")) {
      if (hg_node_text_eq(n, S(e), name, len))
        return true;
      continue;
    }
    if (hg_node_is(n, "type_annotation"))
      continue;
    for (uint32_t i = 0; i < ts_node_named_child_count(n) && top < 64; i++)
      stack[top++] = ts_node_named_child(n, i);
  }
  return false;
}

// The property a destructuring pattern `p` takes into `name` (`{a: name}`: "a"; `{name}`: "name"),
// NULL when it does not bind it plainly at its top level.
static const char *destructured(js_eval *e, TSNode p, const char *name, size_t len, bool *binds) {
  *binds = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
    TSNode c = ts_node_named_child(p, i);
    if (hg_node_is(c, "shorthand_property_identifier_pattern") && hg_node_text_eq(c, S(e), name, len)) {
      *binds = true;
      return hg_node_text(c, S(e), e->arena);
    }
    if (hg_node_is(c, "pair_pattern")) {
      TSNode v = hg_node_field(c, "value"), k = hg_node_field(c, "key");
      if (hg_node_is(v, "identifier") && hg_node_text_eq(v, S(e), name, len)) {
        *binds = true;
        return hg_node_is(k, "string") ? js_string(e, k) : hg_node_is(k, "property_identifier") ? hg_node_text(k, S(e), e->arena) : NULL;
      }
      if (pattern_binds(e, v, name, len)) {
        *binds = true;
        return NULL;
      }
    } else if (pattern_binds(e, c, name, len)) {
      *binds = true;
      return NULL;
    }
  }
  return NULL;
}

// A declarator binding `name`, as a decl (kind NONE when it binds something else).
static js_decl declarator(js_eval *e, TSNode d, const char *name, size_t len) {
  js_decl out = {.kind = JS_DECL_NONE};
  TSNode pat = hg_node_field(d, "name"), value = unwrap(hg_node_field(d, "value"));
  const char *property = NULL;
  if (hg_node_is(pat, "identifier")) {
    if (!hg_node_text_eq(pat, S(e), name, len))
      return out;
  } else if (hg_node_is(pat, "object_pattern")) {
    bool binds;
    property = destructured(e, pat, name, len, &binds);
    if (!binds)
      return out;
    if (!property)
      return (js_decl){.kind = JS_DECL_OTHER, .node = d};
  } else {
    if (pattern_binds(e, pat, name, len))
      return (js_decl){.kind = JS_DECL_OTHER, .node = d};
    return out;
  }
  out.node = d;
  out.property = property;
  // `require('m')`, `require('m').x`
  const char *m = require_of(e, value);
  if (!m && hg_node_is(value, "member_expression") && require_of(e, hg_node_field(value, "object"))) {
    m = require_of(e, hg_node_field(value, "object"));
    if (!property)
      out.property = hg_node_text(hg_node_field(value, "property"), S(e), e->arena);
  }
  if (m) {
    out.kind = JS_DECL_REQUIRE;
    out.module = m;
    return out;
  }
  out.kind = JS_DECL_VALUE;
  out.value = value;
  return out;
}

// An import statement binding `name`.
static js_decl import_binding(js_eval *e, TSNode imp, const char *name, size_t len) {
  js_decl out = {.kind = JS_DECL_NONE};
  TSNode source = hg_node_field(imp, "source");
  for (uint32_t i = 0; i < ts_node_named_child_count(imp); i++) {
    TSNode c = ts_node_named_child(imp, i);
    if (hg_node_is(c, "import_require_clause")) {
      TSNode id = ts_node_named_child(c, 0);
      TSNode src = hg_node_field(c, "source");
      if (hg_node_is(id, "identifier") && hg_node_text_eq(id, S(e), name, len))
        return (js_decl){.kind = JS_DECL_IMPORT, .node = c, .module = js_string(e, src), .property = "default"};
    }
    if (!hg_node_is(c, "import_clause"))
      continue;
    for (uint32_t k = 0; k < ts_node_named_child_count(c); k++) {
      TSNode b = ts_node_named_child(c, k);
      if (hg_node_is(b, "identifier") && hg_node_text_eq(b, S(e), name, len))
        return (js_decl){.kind = JS_DECL_IMPORT, .node = b, .module = js_string(e, source), .property = "default"};
      if (hg_node_is(b, "namespace_import")) {
        TSNode id = ts_node_named_child(b, 0);
        if (hg_node_is(id, "identifier") && hg_node_text_eq(id, S(e), name, len))
          return (js_decl){.kind = JS_DECL_IMPORT, .node = b, .module = js_string(e, source), .property = "*"};
      }
      if (hg_node_is(b, "named_imports"))
        for (uint32_t s = 0; s < ts_node_named_child_count(b); s++) {
          TSNode spec = ts_node_named_child(b, s);
          if (!hg_node_is(spec, "import_specifier"))
            continue;
          TSNode nm = hg_node_field(spec, "name"), alias = hg_node_field(spec, "alias");
          TSNode local = ts_node_is_null(alias) ? nm : alias;
          if (hg_node_text_eq(local, S(e), name, len))
            return (js_decl){.kind = JS_DECL_IMPORT,
                             .node = spec,
                             .module = js_string(e, source),
                             .property = hg_node_is(nm, "string") ? js_string(e, nm) : hg_node_text(nm, S(e), e->arena)};
        }
    }
  }
  return out;
}

// The declaration of `name` among the statements of block `b`.
static js_decl in_block(js_eval *e, TSNode b, const char *name, size_t len) {
  js_decl none = {.kind = JS_DECL_NONE};
  for (uint32_t i = 0, n = ts_node_named_child_count(b); i < n; i++) {
    TSNode s = ts_node_named_child(b, i);
    if (hg_node_is(s, "export_statement")) {
      TSNode d = hg_node_field(s, "declaration");
      if (ts_node_is_null(d))
        continue;
      s = d;
    }
    if (hg_node_is(s, "lexical_declaration") || hg_node_is(s, "variable_declaration")) {
      for (uint32_t k = 0; k < ts_node_named_child_count(s); k++) {
        TSNode d = ts_node_named_child(s, k);
        if (!hg_node_is(d, "variable_declarator"))
          continue;
        js_decl got = declarator(e, d, name, len);
        if (got.kind != JS_DECL_NONE) {
          TSNode kind = hg_node_field(s, "kind");
          bool constant = hg_node_is(s, "lexical_declaration") && text_is(e, kind, "const");
          got.reassigned = !constant; // decided below for let/var
          return got;
        }
      }
    } else if (hg_node_is(s, "import_statement")) {
      js_decl got = import_binding(e, s, name, len);
      if (got.kind != JS_DECL_NONE)
        return got;
    } else if (hg_node_is(s, "function_declaration") || hg_node_is(s, "class_declaration") ||
               hg_node_is(s, "generator_function_declaration") || hg_node_is(s, "enum_declaration")) {
      TSNode nm = hg_node_field(s, "name");
      if (hg_node_text_eq(nm, S(e), name, len))
        return (js_decl){.kind = JS_DECL_OTHER, .node = s};
    }
  }
  return none;
}

js_decl js_lookup(js_eval *e, TSNode at, const char *name, size_t len) {
  TSNode scope = {0};
  js_decl found = {.kind = JS_DECL_NONE};
  for (TSNode n = ts_node_parent(at); !ts_node_is_null(n) && found.kind == JS_DECL_NONE; n = ts_node_parent(n)) {
    if (is_function(n)) {
      TSNode params = hg_node_field(n, "parameters");
      TSNode one = hg_node_field(n, "parameter");
      if ((!ts_node_is_null(params) && pattern_binds(e, params, name, len)) ||
          (!ts_node_is_null(one) && hg_node_text_eq(one, S(e), name, len)))
        return (js_decl){.kind = JS_DECL_PARAM, .node = n};
    }
    if (hg_node_is(n, "catch_clause")) {
      TSNode p = hg_node_field(n, "parameter");
      if (!ts_node_is_null(p) && pattern_binds(e, p, name, len))
        return (js_decl){.kind = JS_DECL_OTHER, .node = n};
    }
    if (hg_node_is(n, "for_in_statement") || hg_node_is(n, "for_statement")) {
      TSNode l = hg_node_field(n, "left");
      if (ts_node_is_null(l))
        l = hg_node_field(n, "initializer");
      if (!ts_node_is_null(l) && pattern_binds(e, l, name, len))
        return (js_decl){.kind = JS_DECL_OTHER, .node = n};
    }
    if (hg_node_is(n, "program") || hg_node_is(n, "statement_block") || hg_node_is(n, "switch_case") ||
        hg_node_is(n, "switch_default") || hg_node_is(n, "class_static_block")) {
      found = in_block(e, n, name, len);
      scope = n;
    }
  }
  if (found.kind != JS_DECL_VALUE || !found.reassigned)
    return found;
  // `let`/`var`: followed when it is never assigned again in its scope; one declared without a
  // value and assigned exactly once takes that value.
  int whole = 0;
  TSNode right = {0};
  for (size_t i = 0; i < e->mutations.len; i++) {
    const mutation *m = &e->mutations.items[i];
    if (m->whole && m->name_len == len && !memcmp(S(e) + m->name_start, name, len) &&
        hg_node_contains(scope, m->node)) {
      whole++;
      right = m->right;
    }
  }
  if (whole == 0) {
    found.reassigned = false;
  } else if (whole == 1 && ts_node_is_null(found.value) && !ts_node_is_null(right)) {
    found.reassigned = false;
    found.value = unwrap(right);
  }
  return found;
}

static bool module_in(const char *m, const char *const *modules) {
  for (size_t i = 0; m && modules[i]; i++)
    if (!strcmp(m, modules[i]))
      return true;
  return false;
}

bool js_from_module(js_eval *e, TSNode n, const char *const *modules, const char **property) {
  n = unwrap(n);
  if (property)
    *property = NULL;
  if (hg_node_is(n, "member_expression")) {
    // ns.X, require('m').X, (await import('m')).X
    TSNode obj = unwrap(hg_node_field(n, "object"));
    const char *inner = NULL;
    const char *m = require_of(e, obj);
    bool from = m ? module_in(m, modules) : js_from_module(e, obj, modules, &inner);
    if (!from)
      return false;
    if (property)
      *property = hg_node_text(hg_node_field(n, "property"), S(e), e->arena);
    return true;
  }
  const char *m = require_of(e, n);
  if (m) {
    if (property)
      *property = "default";
    return module_in(m, modules);
  }
  if (!hg_node_is(n, "identifier"))
    return false;
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  for (int hops = 0; hops < 16; hops++) {
    js_decl d = js_lookup(e, n, S(e) + a, b - a);
    if (d.kind == JS_DECL_IMPORT || d.kind == JS_DECL_REQUIRE) {
      if (property)
        *property = d.property ? d.property : "default";
      return module_in(d.module, modules);
    }
    // const D = Docker; const D = Docker.default
    if (d.kind == JS_DECL_VALUE && !d.reassigned && !d.property) {
      TSNode v = unwrap(d.value);
      if (hg_node_is(v, "identifier")) {
        n = v;
        a = ts_node_start_byte(v), b = ts_node_end_byte(v);
        continue;
      }
      if (hg_node_is(v, "member_expression"))
        return js_from_module(e, v, modules, property);
    }
    return false;
  }
  return false;
}

// ---- values ------------------------------------------------------------------------------------

typedef struct {
  js_eval *e;
  int depth;
} walk;

static hg_value eval(walk *w, TSNode n);

static hg_value unknown(js_eval *e, TSNode n, const char *origin) {
  return (hg_value){.kind = HG_VAL_UNKNOWN, .text = js_text(e, n), .origin = origin, .line = line_of(n)};
}

// The escape sequence at s (after the backslash) decoded into b; returns the bytes it took.
static size_t unescape(const char *s, size_t n, hg_buf *b) {
  if (n == 0)
    return 0;
  char c = s[0];
  const char *simple = strchr("nrtbfv0", c);
  if (simple && c && !(c == '0' && n > 1 && s[1] >= '0' && s[1] <= '9')) {
    static const char OUT[] = "\n\r\t\b\f\v";
    hg_buf_add(b, c == '0' ? "\0" : &OUT[simple - "nrtbfv0"], 1);
    return 1;
  }
  if (c == '\r' || c == '\n')
    return (c == '\r' && n > 1 && s[1] == '\n') ? 2 : 1; // a line continuation
  if ((c == 'x' && n >= 3) || (c == 'u' && n >= 5 && s[1] != '{')) {
    size_t digits = c == 'x' ? 2 : 4;
    char hex[5] = {0};
    memcpy(hex, s + 1, digits);
    char *end;
    unsigned long v = strtoul(hex, &end, 16);
    if (end == hex + digits) {
      if (v < 0x80) {
        char ch = (char)v;
        hg_buf_add(b, &ch, 1);
      } else if (v < 0x800) {
        char u[2] = {(char)(0xC0 | (v >> 6)), (char)(0x80 | (v & 0x3F))};
        hg_buf_add(b, u, 2);
      } else {
        char u[3] = {(char)(0xE0 | (v >> 12)), (char)(0x80 | ((v >> 6) & 0x3F)), (char)(0x80 | (v & 0x3F))};
        hg_buf_add(b, u, 3);
      }
      return 1 + digits;
    }
  }
  hg_buf_add(b, s, 1); // \\ \' \" \` \$ and any other character stand for themselves
  return 1;
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
        size_t took = unescape(S(e) + at, z - at, b);
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
  n = unwrap(n);
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

static hg_value name_value(walk *w, TSNode id) {
  js_eval *e = w->e;
  uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
  const char *name = hg_arena_strndup(e->arena, S(e) + a, b - a);
  js_decl d = js_lookup(e, id, S(e) + a, b - a);
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
      return unknown(e, id,
                     hg_arena_printf(e->arena, "`%s`, a name imported from %s, which hardguard does not read yet",
                                     name, d.module));
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
    if (!m->whole && m->name_len == b - a && !memcmp(S(e) + m->name_start, name, b - a) &&
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
  TSNode fn = unwrap(hg_node_field(n, "function"));
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
  n = unwrap(n);
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
