/* What reaches an argv list after its creation: `cmd = ["docker", "run", ...]`, then what the
 * statements after it add (appends, extends, +=, arms and loops read by branch.c) until the list is
 * handed to a process call, returned, or the name rebound. */
#include "surfaces/python/resolve.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/follow.h"
#include "surfaces/python/scope.h"

// ---- what reaches an argv list after its creation ----------------------------------------------

// Does `n` (a statement) mention identifier `name`, optionally only inside arguments of a call that
// runs a process?
static bool mentions(const follow *f, TSNode n, bool in_process_call, int depth) {
  if (depth > HG_RESOLVE_MAX_DEPTH || ts_node_is_null(n))
    return false;
  // The name is an identifier: a statement whose bytes do not hold it cannot mention it.
  if (depth == 0 && !hg_node_text_has(n, f->r->src, f->name, f->len))
    return false;
  if (!in_process_call && hg_follow__is_name(f, n))
    return true;
  if (in_process_call && hg_node_is(n, "call")) {
    TSNode fn = hg_node_child(n, HG_FIELD_FUNCTION);
    hg_buf q = {0};
    bool proc = !ts_node_is_null(fn) && hg_imports_qualify(f->r->imports, fn, f->r->src, &q) &&
                hg_policy_is_process_call(f->r->policy, q.data);
    hg_buf_free(&q);
    if (proc && mentions(f, hg_node_child(n, HG_FIELD_ARGUMENTS), false, depth + 1))
      return true;
  }
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++)
    if (mentions(f, ts_node_named_child(n, i), in_process_call, depth + 1))
      return true;
  return false;
}

typedef struct {
  follow f;
  uint32_t after; // the assignment that created the list ends here
} argv_follow;

// After `name = [...]`: what is added to the list until it is handed to a process call, returned,
// or the name is bound to something else.
static bool after_creation(void *ctx, hg_stmt s) {
  argv_follow *a = ctx;
  if (ts_node_start_byte(s.stmt) < a->after)
    return true;
  if (hg_node_is(s.stmt, "return_statement"))
    return !mentions(&a->f, s.stmt, false, 0);
  if (mentions(&a->f, s.stmt, true, 0))
    return false;
  TSNode e = ts_node_named_child_count(s.stmt) ? ts_node_named_child(s.stmt, 0) : (TSNode){0};
  // `name = other` rebinds the name; an annotation alone (`name: list`) does not.
  TSNode right = hg_node_is(e, "assignment") ? hg_node_field(e, "right") : (TSNode){0};
  if (!ts_node_is_null(right) && hg_follow__is_name(&a->f, hg_node_field(e, "left")) &&
      !mentions(&a->f, right, false, 0))
    return false; // rebound to something else
  return hg_follow__on_stmt(&a->f, s);
}

// Does `n` hold a return or a `name = ...` rebinding (either ends what reaches the list)?
static bool ends_following(const argv_follow *a, TSNode n, int depth) {
  if (depth > HG_RESOLVE_MAX_DEPTH || hg_node_is(n, "return_statement"))
    return true;
  if (hg_node_is(n, "function_definition") || hg_node_is(n, "class_definition"))
    return false;
  if (hg_node_is(n, "assignment") && hg_follow__is_name(&a->f, hg_node_field(n, "left")))
    return true;
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++)
    if (ends_following(a, ts_node_named_child(n, i), depth + 1))
      return true;
  return false;
}

// A compound statement after the list's creation is read as the name's (arms as alternatives,
// loops unrolled) only when nothing in it hands the list over, returns or rebinds it.
static bool after_creation_compound(void *ctx, TSNode stmt, bool conditional) {
  argv_follow *a = ctx;
  if (ts_node_end_byte(stmt) <= a->after)
    return true; // before the list was made
  if (mentions(&a->f, stmt, true, 0) || ends_following(a, stmt, 0))
    return false;
  return hg_follow__compound(&a->f, stmt, conditional);
}

hg_value hg_resolve_argv(const hg_resolver *self, TSNode list) {
  hg_value v = hg_resolve_value_at(self, list, 0);
  hg_ancestors up;  // in one descent (ts_node_parent descends from the root each time)
  hg_ancestors_of(&up, list);
  // ["docker", "run"] + flags + [image]: the site is the literal, its value the whole sum.
  TSNode top = list;
  size_t k = 0;  // the index of top's parent
  for (TSNode p = hg_ancestor(&up, k); !ts_node_is_null(p); p = hg_ancestor(&up, ++k)) {
    if (hg_node_is(p, "parenthesized_expression")) {
      top = p;
      continue;
    }
    TSNode op = hg_node_field(p, "operator");
    if (!hg_node_is(p, "binary_operator") || ts_node_is_null(op) || self->src[ts_node_start_byte(op)] != '+')
      break;
    hg_value sum = hg_resolve__binary(self, p, 0);
    if (sum.kind != HG_VAL_LIST)
      break;
    v = sum;
    top = p;
  }
  TSNode asg = hg_ancestor(&up, k);
  if (ts_node_is_null(asg) || !hg_node_is(asg, "assignment") ||
      !hg_node_contains(hg_node_field(asg, "right"), top))
    return v;
  TSNode target = hg_node_field(asg, "left"), stmt = hg_ancestor(&up, k + 1);
  if (!hg_node_is(target, "identifier") || ts_node_is_null(stmt) || !hg_node_is(stmt, "expression_statement"))
    return v;
  TSNode block = hg_ancestor(&up, k + 2);
  uint32_t a = ts_node_start_byte(target), b = ts_node_end_byte(target);
  argv_follow af = {.f = {.r = self,
                          .name = self->src + a,
                          .len = b - a,
                          .use = target,
                          .defined = true,
                          .container = true,
                          .cur = {.kind = HG_VAL_LIST}},
                    .after = ts_node_end_byte(stmt)};
  for (size_t i = 0; i < v.n_items; i++)
    HG_VEC_PUSH(&af.f.items, v.items[i]);
  hg_scope_walk_full(self->scopes, block, (TSNode){0}, after_creation, NULL, after_creation_compound, &af);
  if (af.f.spent) {
    hg_value u = hg_follow__over_budget(self, target);
    u.splat = true;
    HG_VEC_PUSH(&af.f.items, u);
  }
  hg_value out = {.kind = HG_VAL_LIST, .text = v.text, .line = v.line};
  return hg_values_finish(self->arena, out, &af.f.items);
}
