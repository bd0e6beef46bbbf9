// The javascript surface's names: what a module binds, imports and changes (collected once per
// module), and where a name used at a node is bound (js_lookup).
#include "surfaces/javascript/internal.h"

#include <stdio.h>
#include <stdlib.h>

const char *js_text(js_eval *e, TSNode n) {
  if (ts_node_is_null(n))
    return "";
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  if (b - a > 200)
    return hg_arena_printf(e->arena, "%.*s...", 197, S(e) + a);
  return hg_arena_strndup(e->arena, S(e) + a, b - a);
}

// The escape sequence at s (after the backslash) decoded into b; returns the bytes it took.
size_t js__unescape(const char *s, size_t n, hg_buf *b) {
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


// A string literal's text, escapes decoded (no template: a module name, a key); NULL for another
// node.
const char *js__literal(js_eval *e, TSNode n) {
  if (!hg_node_is(n, "string"))
    return NULL;
  hg_buf b = {0};
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++) {
    TSNode c = ts_node_named_child(n, i);
    uint32_t a = ts_node_start_byte(c), z = ts_node_end_byte(c);
    if (hg_node_is(c, "string_fragment") || hg_node_is(c, "html_character_reference")) {
      hg_buf_add(&b, S(e) + a, z - a);
    } else if (hg_node_is(c, "escape_sequence")) {
      for (size_t at = a + 1; at < z;) {
        size_t took = js__unescape(S(e) + at, z - at, &b);
        at += took ? took : 1;
      }
    }
  }
  const char *t = hg_arena_strndup(e->arena, b.data ? b.data : "", b.len);
  hg_buf_free(&b);
  return t;
}

// `n` without the parentheses, type assertions and `!` around it.
TSNode js__unwrap(TSNode n) {
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
    n = js__unwrap(n);
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
  n = js__unwrap(n);
  if (!hg_node_is(n, "call_expression"))
    return NULL;
  TSNode fn = hg_node_field(n, "function");
  if (!hg_node_is(fn, "identifier") || !text_is(e, fn, "require"))
    return NULL;
  TSNode arg = hg_node_arg(hg_node_field(n, "arguments"), 0);
  return hg_node_is(arg, "string") ? js__literal(e, arg) : NULL;
}

static void add_mutation(js_eval *e, TSNode node, TSNode target, TSNode right, bool assigns) {
  TSNode t = js__unwrap(target);
  TSNode name = root_name(t);
  if (ts_node_is_null(name))
    return;
  mutation m = {.node = node,
                .name_start = ts_node_start_byte(name),
                .name_len = ts_node_end_byte(name) - ts_node_start_byte(name),
                .whole = assigns && hg_node_is(t, "identifier"),
                .right = right};
  HG_ARENA_PUSH(e->arena, &e->mutations, m);
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
    TSNode fn = js__unwrap(hg_node_field(n, "function"));
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
      HG_ARENA_PUSH(e->arena, &e->modules, m);
  } else if (!strcmp(t, "import_statement") || !strcmp(t, "import_require_clause")) {
    TSNode source = hg_node_field(n, "source");
    const char *m = hg_node_is(source, "string") ? js__literal(e, source) : NULL;
    if (m)
      HG_ARENA_PUSH(e->arena, &e->modules, m);
  } else if (!strcmp(t, "method_definition") || !strcmp(t, "function_declaration")) {
    TSNode name = hg_node_field(n, "name");
    if (!ts_node_is_null(name))
      HG_ARENA_PUSH(e->arena, &e->methods, hg_node_text(name, S(e), e->arena));
  } else if (!strcmp(t, "pair")) {
    // an object literal's method: { createContainer: async (o) => ... }
    TSNode v = hg_node_field(n, "value");
    if (hg_node_is(v, "arrow_function") || hg_node_is(v, "function_expression"))
      HG_ARENA_PUSH(e->arena, &e->methods, hg_node_text(hg_node_field(n, "key"), S(e), e->arena));
  }
}

void js_eval_project(js_eval *self, void *project) { self->project = project; }

// `module.exports` or `exports` (`whole`: module.exports itself), `module.exports.X` or
// `exports.X` (*prop: X)?
static bool exports_target(js_eval *e, TSNode n, bool *whole, const char **prop) {
  n = js__unwrap(n);
  if (!hg_node_is(n, "member_expression"))
    return false;
  TSNode obj = js__unwrap(hg_node_field(n, "object")), p = hg_node_field(n, "property");
  if (hg_node_is(obj, "identifier") && text_is(e, obj, "module") && text_is(e, p, "exports")) {
    *whole = true;
    return true;
  }
  bool inner = false;
  if ((hg_node_is(obj, "identifier") && text_is(e, obj, "exports")) || (exports_target(e, obj, &inner, prop) && inner)) {
    *whole = false;
    *prop = hg_node_text(p, S(e), e->arena);
    return true;
  }
  return false;
}

js_export_kind js_export(js_eval *e, const char *name, js_decl *decl, TSNode *value) {
  js_export_kind found = JS_EXPORT_NONE;
  TSNode object = {0};
  for (uint32_t i = 0, n = ts_node_named_child_count(e->root); i < n; i++) {
    TSNode s = ts_node_named_child(e->root, i);
    if (hg_node_is(s, "export_statement") && name && !strcmp(name, "default")) {
      TSNode v = hg_node_field(s, "value");
      if (!ts_node_is_null(v)) {
        *value = v;
        found = JS_EXPORT_VALUE;
      }
      continue;
    }
    if (!hg_node_is(s, "expression_statement"))
      continue;
    TSNode a = ts_node_named_child(s, 0);
    if (!hg_node_is(a, "assignment_expression"))
      continue;
    bool whole = false;
    const char *prop = NULL;
    if (!exports_target(e, hg_node_field(a, "left"), &whole, &prop))
      continue;
    TSNode right = hg_node_field(a, "right");
    if (whole && (!name || !strcmp(name, "default"))) {
      *value = right;
      found = JS_EXPORT_VALUE; // the last assignment counts
    } else if (whole && hg_node_is(js__unwrap(right), "object")) {
      object = right;
      found = JS_EXPORT_PROPERTY;
      *value = object;
    } else if (!whole && name && prop && !strcmp(prop, name)) {
      *value = right;
      found = JS_EXPORT_VALUE;
    }
  }
  if (found != JS_EXPORT_NONE || !name || !strcmp(name, "default"))
    return found;
  size_t len = strlen(name);
  TSNode first = ts_node_named_child(e->root, 0);
  if (ts_node_is_null(first))
    return JS_EXPORT_NONE;
  *decl = js_lookup(e, first, name, len);
  return decl->kind == JS_DECL_NONE ? JS_EXPORT_NONE : JS_EXPORT_DECL;
}

const char *const js_collected_types[] = {"assignment_expression", "augmented_assignment_expression",
                                          "update_expression",     "unary_expression",
                                          "call_expression",       "import_statement",
                                          "import_require_clause", "method_definition",
                                          "function_declaration",  "pair",
                                          NULL};

static js_eval *eval_new(const hg_source *src, TSNode root, hg_arena *arena) {
  js_eval *e = hg_arena_alloc(arena, sizeof *e);
  memset(e, 0, sizeof *e);
  e->src = src;
  e->root = root;
  e->arena = arena;
  e->budget = SITE_BUDGET;
  return e;
}

static js_eval *eval_done(js_eval *e) {
  HG_ARENA_PUSH(e->arena, &e->modules, NULL);
  HG_ARENA_PUSH(e->arena, &e->methods, NULL);
  return e;
}

js_eval *js_eval_new(const hg_source *src, TSNode root, hg_arena *arena) {
  js_eval *e = eval_new(src, root, arena);
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
  return eval_done(e);
}

js_eval *js_eval_of(const hg_source *src, TSNode root, hg_arena *arena, const TSNode *kept, size_t n) {
  if (!kept)
    return js_eval_new(src, root, arena);
  js_eval *e = eval_new(src, root, arena);
  for (size_t i = 0; i < n; i++)
    if (ts_node_is_named(kept[i]))
      collect(e, kept[i]);
  return eval_done(e);
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
        return hg_node_is(k, "string") ? js__literal(e, k) : hg_node_is(k, "property_identifier") ? hg_node_text(k, S(e), e->arena) : NULL;
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
  TSNode pat = hg_node_field(d, "name"), value = js__unwrap(hg_node_field(d, "value"));
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
        return (js_decl){.kind = JS_DECL_IMPORT, .node = c, .module = js__literal(e, src), .property = "default"};
    }
    if (!hg_node_is(c, "import_clause"))
      continue;
    for (uint32_t k = 0; k < ts_node_named_child_count(c); k++) {
      TSNode b = ts_node_named_child(c, k);
      if (hg_node_is(b, "identifier") && hg_node_text_eq(b, S(e), name, len))
        return (js_decl){.kind = JS_DECL_IMPORT, .node = b, .module = js__literal(e, source), .property = "default"};
      if (hg_node_is(b, "namespace_import")) {
        TSNode id = ts_node_named_child(b, 0);
        if (hg_node_is(id, "identifier") && hg_node_text_eq(id, S(e), name, len))
          return (js_decl){.kind = JS_DECL_IMPORT, .node = b, .module = js__literal(e, source), .property = "*"};
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
                             .module = js__literal(e, source),
                             .property = hg_node_is(nm, "string") ? js__literal(e, nm) : hg_node_text(nm, S(e), e->arena)};
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
    found.value = js__unwrap(right);
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
  n = js__unwrap(n);
  if (property)
    *property = NULL;
  if (hg_node_is(n, "member_expression")) {
    // ns.X, require('m').X, (await import('m')).X
    TSNode obj = js__unwrap(hg_node_field(n, "object"));
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
      TSNode v = js__unwrap(d.value);
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

