#include "surfaces/python/resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/table.h"
#include "base/argv.h"
#include "surfaces/node.h"
#include "surfaces/python/resolve_internal.h"
#include "surfaces/python/scope.h"

// ---- aliases ------------------------------------------------------------------------------------

typedef struct {
  const char *src;
  const char *name;
  size_t len;
  TSNode value;   // the right side of the last assignment seen
  bool ambiguous; // assigned on some paths only: no single alias
} alias_scan;

static bool alias_stmt(void *ctx, hg_stmt s) {
  alias_scan *a = ctx;
  // Only `name = ...` counts: a statement whose bytes do not hold the name is passed over.
  if (!hg_node_text_has(s.stmt, a->src, a->name, a->len))
    return true;
  if (!hg_node_is(s.stmt, "expression_statement") || ts_node_named_child_count(s.stmt) == 0)
    return true;
  TSNode e = ts_node_named_child(s.stmt, 0);
  if (!hg_node_is(e, "assignment"))
    return true;
  TSNode left = hg_node_field(e, "left"), right = hg_node_field(e, "right");
  if (ts_node_is_null(left) || ts_node_is_null(right) || !hg_node_is(left, "identifier"))
    return true;
  uint32_t x = ts_node_start_byte(left), y = ts_node_end_byte(left);
  if (y - x != a->len || memcmp(a->src + x, a->name, a->len) != 0)
    return true;
  if (s.conditional)
    a->ambiguous = true;
  a->value = right;
  return true;
}

// Which names the file's text assigns (`name = ...` as a statement), collected in one pass over
// the bytes the first time it is asked: an alias of a callee needs an assignment, and most names
// a callee is made of (self, print, len) never get one, so the scope walk is skipped for them.
typedef struct rhs_span {
  const char *text; // the rest of the statement after `name =`
  size_t len;
  bool cut; // the statement went on past MAX_SPAN_LINES: any word may be in it
  struct rhs_span *next;
} rhs_span;

// Lines an assignment is followed over while a bracket stays open (a bracket in a string or a
// comment counts too, so a span can be longer than its statement, never shorter).
enum { MAX_SPAN_LINES = 64 };

// A qualified name already worked out for a node (hg_resolve_qualify): the patterns of a file's
// query ask for the same callee many times.
typedef struct {
  hg_node_key key;
  bool ok;
  const char *name;  // in the arena
  size_t len;
} qualified;

struct hg_name_memo {
  bool built;
  hg_table names;     // name -> its rhs_span list (a pointer), in the arena
  hg_table qualified; // a hg_node_key's bytes -> its qualified (a pointer), in the arena
};

struct hg_name_memo *hg_name_memo_new(hg_arena *arena) {
  return hg_arena_alloc(arena, sizeof(struct hg_name_memo));
}

// A byte of a Python identifier: ASCII letters, digits and `_`, and any byte of a non-ASCII
// UTF-8 sequence (PEP 3131 identifiers such as `läufer`; the parser decides what is one).
static bool word_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (unsigned char)c >= 0x80;
}

static void memo_insert(struct hg_name_memo *m, hg_arena *arena, const char *name, size_t len, rhs_span *rhs) {
  if (!m->names.cap)
    hg_table_init(&m->names, arena, 128);
  bool added;
  size_t *v = hg_table_put(&m->names, name, len, &added);
  if (added) {
    *v = (size_t)(uintptr_t)rhs;
    return;
  }
  rhs_span *last = rhs;
  while (last && last->next)
    last = last->next;
  if (last) {
    last->next = (rhs_span *)(uintptr_t)*v;
    *v = (size_t)(uintptr_t)rhs;
  }
}

// An alias is a statement: `name = ...` or `name: T = ...` at the start of a line (after its
// indentation, or after a `;`).
static void memo_build(struct hg_name_memo *m, hg_arena *arena, const char *src) {
  m->built = true;
  for (const char *p = src; *p;) {
    while (*p == ' ' || *p == '\t' || *p == ';')
      p++;
    const char *b = p;
    while (word_char(*p))
      p++;
    const char *e = p;
    while (*p == ' ' || *p == '\t')
      p++;
    const char *rest = p;
    while (*p && *p != '\n' && *p != ';')
      p++;
    if (e > b && ((rest[0] == '=' && rest[1] != '=') || rest[0] == ':')) {
      // The span runs to the end of the statement: a bracket left open or a backslash carries it
      // over the line end (black wraps `run = functools.partial(` before its arguments). The
      // scan goes on from the next line all the same, so no statement start is skipped.
      rhs_span *span = hg_arena_alloc(arena, sizeof(rhs_span));
      const char *q = rest;
      unsigned lines = 0;
      for (int depth = 0; *q && (depth != 0 || (*q != '\n' && *q != ';')); q++) {
        if (*q == '(' || *q == '[' || *q == '{')
          depth++;
        else if ((*q == ')' || *q == ']' || *q == '}') && depth > 0)
          depth--;
        else if (*q == '\\' && q[1] == '\n' && depth == 0)
          depth = -1; // one more line
        else if (*q == '\n' && depth < 0)
          depth = 0;
        if (*q == '\n' && ++lines > MAX_SPAN_LINES) {
          span->cut = true;
          break;
        }
      }
      span->text = rest;
      span->len = (size_t)(q - rest);
      memo_insert(m, arena, b, (size_t)(e - b), span);
    }
    if (*p)
      p++;
  }
}

// The spans of the statements that assign `name` in the file (NULL: none); *unread when the file's
// assignments are not read (no memo), when any statement may assign it.
static const rhs_span *assignments_of(const hg_resolver *self, const char *name, size_t len, bool *unread) {
  struct hg_name_memo *m = self->memo;
  *unread = !m;
  if (!m)
    return NULL;
  if (!m->built)
    memo_build(m, self->arena, self->src);
  const size_t *v = hg_table_get(&m->names, name, len);
  return v ? (const rhs_span *)(uintptr_t)*v : NULL;
}

static bool assigned_somewhere(const hg_resolver *self, const char *name, size_t len) {
  bool unread;
  return assignments_of(self, name, len, &unread) || unread;
}

// The expression `name` (an identifier) was last assigned from, before it is read at `use`.
TSNode hg_resolve__alias_of(const hg_resolver *self, TSNode use) {
  TSNode fn, none = {0};
  // Most names a callee is made of (self, print, client) are never assigned an alias: skip the walk.
  if (!assigned_somewhere(self, self->src + ts_node_start_byte(use), ts_node_end_byte(use) - ts_node_start_byte(use)))
    return none;
  TSNode scope = hg_scope_of(self->scopes, use, &fn);
  uint32_t a = ts_node_start_byte(use), b = ts_node_end_byte(use);
  alias_scan s = {.src = self->src, .name = self->src + a, .len = b - a};
  hg_scope_walk(self->scopes, scope, use, alias_stmt, &s);
  if (ts_node_is_null(s.value) && !ts_node_is_null(fn) && !hg_scope_is_parameter(fn, self->src, s.name, s.len)) {
    TSNode module = hg_node_root(fn);
    hg_scope_walk(self->scopes, module, none, alias_stmt, &s);
  }
  return s.ambiguous ? none : s.value;
}

static bool string_arg(const hg_resolver *self, TSNode n, hg_buf *out) {
  if (!hg_node_is(n, "string"))
    return false;
  hg_value v = hg_resolve_value_at(self, n, HG_RESOLVE_MAX_DEPTH);
  if (v.kind != HG_VAL_STR || strchr(v.text, HG_HOLE))
    return false;
  hg_buf_puts(out, v.text);
  return true;
}

// Is the assignment's value `call` the import the facts recorded for the name (imported as `module`):
// `docker = pytest.importorskip("docker")` binds the module, not the call's result.
static bool imported_by(const hg_resolver *self, TSNode call, const char *module) {
  if (!hg_node_is(call, "call"))
    return false;
  TSNode args = hg_node_child(call, HG_FIELD_ARGUMENTS);
  hg_buf name = {0};
  bool same = !ts_node_is_null(args) && hg_node_arg_count(args) >= 1 && string_arg(self, hg_node_arg(args, 0), &name) &&
              !strcmp(name.data, module);
  hg_buf_free(&name);
  return same;
}

static bool qualify(const hg_resolver *self, TSNode n, hg_buf *out, int depth) {
  if (depth > HG_RESOLVE_MAX_DEPTH || ts_node_is_null(n))
    return false;
  if (hg_node_is(n, "identifier")) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    TSNode alias = hg_resolve__alias_of(self, n);
    const char *q = hg_imports_lookup(self->imports, self->src + a, b - a);
    if (!ts_node_is_null(alias) && !(q && imported_by(self, alias, q)) &&
        (hg_node_is(alias, "identifier") || hg_node_is(alias, "attribute") || hg_node_is(alias, "call")))
      return qualify(self, alias, out, depth + 1);
    if (q)
      hg_buf_puts(out, q);
    else
      hg_buf_add(out, self->src + a, b - a);
    return true;
  }
  if (hg_node_is(n, "attribute")) {
    TSNode attr = hg_node_child(n, HG_FIELD_ATTRIBUTE);
    if (ts_node_is_null(attr) || !qualify(self, hg_node_child(n, HG_FIELD_OBJECT), out, depth + 1))
      return false;
    hg_buf_putc(out, '.');
    hg_buf_add(out, self->src + ts_node_start_byte(attr), ts_node_end_byte(attr) - ts_node_start_byte(attr));
    return true;
  }
  if (hg_node_is(n, "call")) {
    TSNode fn = hg_node_child(n, HG_FIELD_FUNCTION), args = hg_node_child(n, HG_FIELD_ARGUMENTS);
    hg_buf name = {0};
    bool ok = qualify(self, fn, &name, depth + 1);
    uint32_t nargs = ts_node_is_null(args) ? 0 : hg_node_arg_count(args);
    if (ok && !strcmp(name.data, "getattr") && nargs >= 2) {
      // getattr(obj, "attr") is obj.attr
      ok = qualify(self, hg_node_arg(args, 0), out, depth + 1);
      hg_buf_putc(out, '.');
      ok = ok && string_arg(self, hg_node_arg(args, 1), out);
    } else if (ok && (!strcmp(name.data, "__import__") || !strcmp(name.data, "importlib.import_module")) &&
               nargs >= 1) {
      // __import__("docker") and importlib.import_module("docker") are the module itself
      ok = string_arg(self, hg_node_arg(args, 0), out);
    } else if (ok && hg_policy_is_partial_call(self->policy, name.data) && nargs >= 1) {
      ok = qualify(self, hg_node_arg(args, 0), out, depth + 1); // partial(f, ...) calls f (classes.partial_calls)
    } else if (ok) {
      hg_buf_add(out, name.data, name.len);
      hg_buf_puts(out, "()");
    }
    hg_buf_free(&name);
    return ok;
  }
  return false;
}

// The memo of qualified names, or NULL when it cannot serve this resolver (none, or a function
// evaluated with bound parameters, whose names may qualify otherwise).
static hg_table *qualified_memo(const hg_resolver *self) {
  struct hg_name_memo *m = self->memo;
  if (!m || self->frame || self->hops)
    return NULL;
  if (!m->qualified.cap)
    hg_table_init(&m->qualified, self->arena, 0);
  return &m->qualified;
}

bool hg_resolve_qualify(const hg_resolver *self, TSNode node, hg_buf *out) {
  out->len = 0;
  hg_buf_add(out, "", 0);
  if (ts_node_is_null(node))
    return qualify(self, node, out, 0);
  hg_table *memo = qualified_memo(self);
  hg_node_key key = hg_node_key_of(node);
  const size_t *known = memo ? hg_table_get(memo, (const char *)&key, sizeof key) : NULL;
  if (known) {
    const qualified *q = (const qualified *)(uintptr_t)*known;
    hg_buf_add(out, q->name, q->len);
    return q->ok;
  }
  bool ok = qualify(self, node, out, 0);
  if (memo) {
    qualified *q = hg_arena_alloc(self->arena, sizeof(qualified));
    *q = (qualified){.key = key, .ok = ok, .name = hg_arena_strndup(self->arena, out->data, out->len), .len = out->len};
    *hg_table_put(memo, (const char *)&q->key, sizeof q->key, NULL) = (size_t)(uintptr_t)q;
  }
  return ok;
}

TSNode hg_resolve_call(const hg_resolver *self, TSNode node) {
  for (int depth = 0; depth < HG_RESOLVE_MAX_DEPTH && !ts_node_is_null(node); depth++) {
    if (hg_node_is(node, "call"))
      return node;
    if (hg_node_is(node, "parenthesized_expression") && hg_node_arg_count(node) == 1)
      node = hg_node_arg(node, 0);
    else if (hg_node_is(node, "identifier"))
      node = hg_resolve__alias_of(self, node);
    else
      break;
  }
  return (TSNode){0};
}

void hg_callee_tail(const char *src, TSNode callee, hg_callee_end *out) {
  *out = (hg_callee_end){0};
  TSNode id = callee;
  if (hg_node_is(callee, "attribute")) {
    id = hg_node_child(callee, HG_FIELD_ATTRIBUTE);
  } else if (hg_node_is(callee, "call")) {
    out->any = true;
    return;
  } else {
    out->bare = true;
  }
  if (ts_node_is_null(id) || !hg_node_is(id, "identifier"))
    return;
  uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
  out->text = src + a;
  out->len = b - a;
}

void hg_resolve_callee_end(const hg_resolver *self, TSNode callee, hg_callee_end *out) {
  hg_callee_tail(self->src, callee, out);
  if (!out->text)
    return;
  out->imported = out->bare && hg_imports_lookup(self->imports, out->text, out->len);
  if (out->bare && !out->imported)
    out->assigned = assignments_of(self, out->text, out->len, &out->unread);
}

bool hg_resolve_may_end_in(const hg_callee_end *e, const char *last, size_t len) {
  if (e->any)
    return true;
  if (!e->text)
    return false;
  if (e->len == len && memcmp(e->text, last, len) == 0)
    return true;
  // A bare name: bound by an import, or an alias whose assignment mentions the last name
  // (run = client.containers.run).
  if (!e->bare)
    return false;
  if (e->imported || e->unread)
    return true;
  for (const rhs_span *s = e->assigned; s; s = s->next)
    if (s->cut || hg_find(s->text, s->len, last, len))
      return true;
  return false;
}
