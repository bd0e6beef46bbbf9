/* Alternatives (HG_VAL_ALT): a value that is one of several, each with the condition that selects
 * it — `x if c else y`, `a or b`, `os.environ.get("X", "-1")`, and (follow.c, branch.c) a name
 * assigned on every branch of an if/else or try/except. Conversions (int(), str()) apply to each
 * alternative. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/resolve_internal.h"

const char *hg_resolve_condition(const hg_resolver *self, const char *prefix, const char *text) {
  char buf[160];
  // The negation of `not x` is `x`, not `not (not x)`.
  if (prefix && !strcmp(prefix, "not ") && !strncmp(text, "not ", 4) && !strpbrk(text + 4, " \t\n"))
    prefix = NULL, text += 4;
  size_t n = strlen(text);
  bool paren = prefix && *prefix && strpbrk(text, " \t\n") != NULL;
  snprintf(buf, sizeof(buf), "%s%s%.*s%s%s", prefix ? prefix : "", paren ? "(" : "", (int)(n > 100 ? 100 : n), text,
           n > 100 ? "..." : "", paren ? ")" : "");
  for (char *p = buf; *p; p++)
    if (*p == '\n' || *p == '\t')
      *p = ' ';
  return hg_arena_strndup(self->arena, buf, strlen(buf));
}

static const char *join_conds(const hg_resolver *self, const char *a, const char *b) {
  if (!a)
    return b;
  if (!b)
    return a;
  size_t n = strlen(a) + strlen(b) + 6;
  char *s = hg_arena_alloc(self->arena, n);
  snprintf(s, n, "%s and %s", a, b);
  return s;
}

hg_value hg_resolve_alt(const hg_resolver *self, TSNode at, const hg_value *alts, const char *const *conds, size_t n) {
  if (n == 1) {
    hg_value v = alts[0];
    return v;
  }
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += alts[i].kind == HG_VAL_ALT ? alts[i].n_items : 1;
  if (total > HG_ALT_MAX)
    return hg_resolve__unknown(self, at, HG_ALT_BUDGET_ORIGIN);
  hg_value *items = hg_arena_alloc(self->arena, total * sizeof(hg_value));
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const char *c = conds ? conds[i] : NULL;
    if (alts[i].kind == HG_VAL_ALT) {
      for (size_t j = 0; j < alts[i].n_items; j++) {
        items[k] = alts[i].items[j];
        items[k].cond = join_conds(self, c, items[k].cond);
        items[k].conditional |= alts[i].conditional;
        k++;
      }
      continue;
    }
    items[k] = alts[i];
    items[k].cond = c;
    items[k].key = NULL;
    items[k].splat = false;
    k++;
  }
  return (hg_value){.kind = HG_VAL_ALT,
                    .text = hg_resolve__text(self, at),
                    .line = ts_node_start_point(at).row + 1,
                    .items = items,
                    .n_items = total};
}

// What a value is as a condition: 1 truthy, 0 falsy, -1 not known.
static int truth(const hg_value *v) {
  if (v->conditional)
    return -1;
  switch (v->kind) {
  case HG_VAL_TRUE: return 1;
  case HG_VAL_FALSE:
  case HG_VAL_NONE: return 0;
  case HG_VAL_NUM: return strtod(v->text, NULL) != 0.0;
  case HG_VAL_STR: return strchr(v->text, HG_HOLE) ? (v->text[0] && v->text[0] != HG_HOLE ? 1 : -1) : v->text[0] != 0;
  case HG_VAL_LIST:
  case HG_VAL_DICT:
    for (size_t i = 0; i < v->n_items; i++)
      if (!v->items[i].splat && !v->items[i].conditional)
        return 1;
    return v->n_items == 0 ? 0 : -1;
  default: return -1;
  }
}

typedef struct {
  const hg_resolver *r; // first: the engine's decide reads it
} decide_ctx;

// `x if c else y`: the arm a known condition picks (inside a function being evaluated, where
// parameters have values), else both.
hg_value hg_resolve__conditional(const hg_resolver *self, TSNode n, int depth) {
  TSNode yes = hg_node_arg(n, 0), cond = hg_node_arg(n, 1), no = hg_node_arg(n, 2);
  if (ts_node_is_null(yes) || ts_node_is_null(cond) || ts_node_is_null(no))
    return hg_resolve__unknown(self, n, "an expression");
  int t = -1;
  if (self->frame && self->engine->decide) {
    decide_ctx ctx = {self};
    t = self->engine->decide(&ctx, cond, yes);
  }
  if (t > 0)
    return hg_resolve_value_at(self, yes, depth + 1);
  if (t == 0)
    return hg_resolve_value_at(self, no, depth + 1);
  const char *c = hg_resolve__text(self, cond);
  hg_value alts[2] = {hg_resolve_value_at(self, yes, depth + 1), hg_resolve_value_at(self, no, depth + 1)};
  const char *conds[2] = {hg_resolve_condition(self, NULL, c), hg_resolve_condition(self, "not ", c)};
  return hg_resolve_alt(self, n, alts, conds, 2);
}

// `a or b`: a where it is truthy, else b; `a and b` is not followed.
hg_value hg_resolve__boolean(const hg_resolver *self, TSNode n, int depth) {
  TSNode op = hg_node_field(n, "operator"), left = hg_node_field(n, "left"), right = hg_node_field(n, "right");
  if (ts_node_is_null(op) || ts_node_is_null(left) || ts_node_is_null(right) ||
      !hg_node_text_eq(op, self->src, "or", 2))
    return hg_resolve__unknown(self, n, "an expression");
  hg_value l = hg_resolve_value_at(self, left, depth + 1);
  const hg_value *ls = l.kind == HG_VAL_ALT ? l.items : &l;
  size_t nl = l.kind == HG_VAL_ALT ? l.n_items : 1;
  hg_value alts[HG_ALT_MAX + 1];
  const char *conds[HG_ALT_MAX + 1];
  size_t k = 0;
  bool falls_through = false;
  const char *lt = hg_resolve__text(self, left);
  for (size_t i = 0; i < nl && k < HG_ALT_MAX; i++) {
    int t = truth(&ls[i]);
    if (t == 0) {
      falls_through = true;
      continue;
    }
    if (t < 0)
      falls_through = true;
    alts[k] = ls[i];
    conds[k++] = ls[i].cond ? ls[i].cond : hg_resolve_condition(self, NULL, lt);
  }
  if (!falls_through)
    return l;
  hg_value r = hg_resolve_value_at(self, right, depth + 1);
  if (k == 0)
    return r;
  alts[k] = r;
  conds[k++] = hg_resolve_condition(self, "not ", lt);
  return hg_resolve_alt(self, n, alts, conds, k);
}

// os.environ.get("X", d), os.getenv("X", d), os.environ["X"]: the environment, or the default.
bool hg_resolve__environment(const hg_resolver *self, TSNode call, const char *callee, int depth, hg_value *out) {
  bool get = !strcmp(callee, "os.environ.get") || !strcmp(callee, "os.getenv") ||
             !strcmp(callee, "os.environ.setdefault");
  if (!get)
    return false;
  TSNode args = hg_node_child(call, HG_FIELD_ARGUMENTS);
  uint32_t na = hg_node_arg_count(args);
  if (na < 1 || na > 2 || hg_node_is(hg_node_arg(args, 0), "keyword_argument"))
    return false;
  hg_value name = hg_resolve_value_at(self, hg_node_arg(args, 0), depth + 1);
  hg_value env = hg_resolve__unknown(self, call, NULL);
  bool named = name.kind == HG_VAL_STR && !strchr(name.text, HG_HOLE) && strlen(name.text) < 100;
  char buf[160];
  snprintf(buf, sizeof(buf), "the environment variable %s", named ? name.text : "named by an expression");
  env.origin = hg_arena_strndup(self->arena, buf, strlen(buf));
  hg_value alts[2] = {env, {.kind = HG_VAL_NONE, .text = "None", .line = ts_node_start_point(call).row + 1}};
  TSNode d = na == 2 ? hg_node_arg(args, 1) : (TSNode){0};
  if (hg_node_is(d, "keyword_argument"))
    d = hg_node_field(d, "value");
  if (!ts_node_is_null(d))
    alts[1] = hg_resolve_value_at(self, d, depth + 1);
  snprintf(buf, sizeof(buf), "%s set", named ? name.text : "the variable");
  const char *c0 = hg_arena_strndup(self->arena, buf, strlen(buf));
  snprintf(buf, sizeof(buf), "%s unset", named ? name.text : "the variable");
  const char *conds[2] = {c0, hg_arena_strndup(self->arena, buf, strlen(buf))};
  *out = hg_resolve_alt(self, call, alts, conds, 2);
  return true;
}

// The value int() or str() makes of `v`: a number's or string's text, kept; each alternative of
// an ALT converted; anything else unknown.
static hg_value convert(const hg_resolver *self, TSNode call, hg_value v, hg_value_kind to) {
  if (v.kind == HG_VAL_ALT) {
    hg_value out = v;
    out.items = hg_arena_alloc(self->arena, v.n_items * sizeof(hg_value));
    for (size_t i = 0; i < v.n_items; i++) {
      out.items[i] = convert(self, call, v.items[i], to);
      out.items[i].cond = v.items[i].cond;
    }
    return out;
  }
  if (v.kind == HG_VAL_UNKNOWN)
    return v;
  if (to == HG_VAL_STR && (v.kind == HG_VAL_NUM || v.kind == HG_VAL_STR)) {
    v.kind = HG_VAL_STR;
    return v;
  }
  if (to == HG_VAL_NUM && v.kind == HG_VAL_NUM)
    return v;
  if (to == HG_VAL_NUM && v.kind == HG_VAL_STR && !strchr(v.text, HG_HOLE)) {
    const char *p = v.text;
    while (*p == ' ')
      p++;
    const char *start = p;
    if (*p == '-' || *p == '+')
      p++;
    const char *digits = p;
    while (*p >= '0' && *p <= '9')
      p++;
    const char *end = p;
    while (*p == ' ')
      p++;
    if (end > digits && !*p) {
      v.kind = HG_VAL_NUM;
      v.text = hg_arena_strndup(self->arena, start, (size_t)(end - start));
      return v;
    }
  }
  hg_value u = hg_resolve__unknown(self, call, to == HG_VAL_NUM ? "int() of a value that is not a whole number"
                                                                 : "str() of a value that is not a literal");
  u.conditional = v.conditional;
  return u;
}

bool hg_resolve__conversion(const hg_resolver *self, TSNode call, const char *callee, int depth, hg_value *out) {
  hg_value_kind to = !strcmp(callee, "int") ? HG_VAL_NUM : !strcmp(callee, "str") ? HG_VAL_STR : HG_VAL_UNKNOWN;
  TSNode args = hg_node_child(call, HG_FIELD_ARGUMENTS);
  if (to == HG_VAL_UNKNOWN || hg_node_arg_count(args) != 1 || hg_imports_lookup(self->imports, callee, strlen(callee)))
    return false;
  TSNode a = hg_node_arg(args, 0);
  if (hg_node_is(a, "keyword_argument") || hg_node_is(a, "list_splat") || hg_node_is(a, "dictionary_splat"))
    return false;
  hg_value inner = hg_resolve_value_at(self, a, depth + 1);
  if (inner.kind != HG_VAL_ALT && inner.kind != HG_VAL_NUM && inner.kind != HG_VAL_STR)
    return false;
  if (to == HG_VAL_NUM && inner.kind == HG_VAL_NUM)
    return false; // int() of a number: the evaluator's arithmetic (int(1.5 * 10**9))
  *out = convert(self, call, inner, to); // keeps where the value was written
  return true;
}
