#include "surfaces/python/project/defs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/scope.h"

static int truth_of(const hg_value *v) {
  if (v->conditional)
    return -1;
  switch (v->kind) {
  case HG_VAL_TRUE: return 1;
  case HG_VAL_FALSE:
  case HG_VAL_NONE: return 0;
  case HG_VAL_NUM: return strtod(v->text, NULL) != 0.0;
  case HG_VAL_STR: return strchr(v->text, HG_HOLE) ? -1 : v->text[0] != '\0';
  case HG_VAL_OBJECT: return 1;
  case HG_VAL_LIST:
  case HG_VAL_DICT: {
    if (v->n_items == 0)
      return 0;
    for (size_t i = 0; i < v->n_items; i++)
      if (!v->items[i].splat && !v->items[i].conditional)
        return 1;
    return -1;
  }
  default: return -1;
  }
}

static bool literal(const hg_value *v) {
  return !v->conditional && (v->kind == HG_VAL_TRUE || v->kind == HG_VAL_FALSE || v->kind == HG_VAL_NONE ||
                             v->kind == HG_VAL_NUM || (v->kind == HG_VAL_STR && !strchr(v->text, HG_HOLE)));
}

static int truth(const hg_resolver *r, TSNode n, const hg_value **why, int depth) {
  if (depth > 16 || ts_node_is_null(n))
    return -1;
  if (hg_node_is(n, "parenthesized_expression") && hg_node_arg_count(n) == 1)
    return truth(r, hg_node_arg(n, 0), why, depth + 1);
  if (hg_node_is(n, "not_operator")) {
    int t = truth(r, hg_node_field(n, "argument"), why, depth + 1);
    return t < 0 ? -1 : !t;
  }
  if (hg_node_is(n, "boolean_operator")) {
    TSNode op = hg_node_field(n, "operator");
    bool is_and = hg_node_text_eq(op, r->src, "and", 3);
    const hg_value *wl = NULL, *wr = NULL;
    int l = truth(r, hg_node_field(n, "left"), &wl, depth + 1),
        rt = truth(r, hg_node_field(n, "right"), &wr, depth + 1);
    if (is_and ? (l == 0 || rt == 0) : (l == 1 || rt == 1)) {
      *why = (is_and ? l == 0 : l == 1) ? wl : wr;
      return is_and ? 0 : 1;
    }
    if (l >= 0 && rt >= 0)
      return is_and ? 1 : 0;
    return -1;
  }
  if (hg_node_is(n, "comparison_operator") && ts_node_named_child_count(n) == 2) {
    TSNode a = ts_node_named_child(n, 0), b = ts_node_named_child(n, 1);
    // The operator is the unnamed text between the operands.
    uint32_t s = ts_node_end_byte(a), e = ts_node_start_byte(b);
    char op[16] = {0};
    size_t k = 0;
    for (uint32_t i = s; i < e && k + 1 < sizeof(op); i++)
      if (r->src[i] != ' ' && r->src[i] != '\t' && r->src[i] != '\n' && r->src[i] != '\\')
        op[k++] = r->src[i];
    bool eq = !strcmp(op, "==") || !strcmp(op, "is"), ne = !strcmp(op, "!=") || !strcmp(op, "isnot");
    if (!eq && !ne)
      return -1;
    hg_value va = hg_resolve_value_at(r, a, 1), vb = hg_resolve_value_at(r, b, 1);
    if (!literal(&va) || !literal(&vb))
      return -1;
    bool same = va.kind == vb.kind && (va.kind != HG_VAL_STR || !strcmp(va.text, vb.text)) &&
                (va.kind != HG_VAL_NUM || strtod(va.text, NULL) == strtod(vb.text, NULL));
    if (!same && va.kind != vb.kind && va.kind != HG_VAL_NONE && vb.kind != HG_VAL_NONE)
      return -1;
    *why = NULL; // a comparison: the note shows the condition itself
    return eq ? same : !same;
  }
  hg_value v = hg_resolve_value_at(r, n, 1);
  int t = truth_of(&v);
  if (t >= 0) {
    hg_value *keep = hg_arena_alloc(r->arena, sizeof(hg_value));
    *keep = v;
    *why = keep;
  }
  return t;
}

int hg_summary_decide(void *ctx, TSNode condition, TSNode branch) {
  const hg_resolver *r = *(const hg_resolver *const *)ctx;
  const hg_value *why = NULL;
  int t = truth(r, condition, &why, 0);
  if (t == 0 && r->notes) {
    // The same branch is decided by every walk that passes it (the returns, then each name read
    // after it): one note each.
    const char *path = hg_project__path(r->module);
    for (size_t i = 0; i < r->notes->len; i++)
      if (r->notes->items[i].line == line_of(condition) && !strcmp(r->notes->items[i].path, path))
        return t;
    const char *where = "";
    if (why && why->path)
      where = hg_project__printf(r->arena, " (%s:%u)", why->path, why->line);
    hg_note note = {.condition = hg_node_text(condition, r->src, r->arena),
                    .why = why ? hg_project__printf(r->arena, "%s%s", why->text, where) : "false",
                    .branch = hg_node_text(branch, r->src, r->arena),
                    .path = path,
                    .line = line_of(condition)};
    HG_VEC_PUSH(r->notes, note);
  }
  return t;
}
