/* Compound statements a name is followed through (hg_follow__compound): the arms of an
 * if/elif/else or a try/except that each change the name make it one of several values (an ALT,
 * each alternative with the condition that selects it); a `for` loop over a known iterable is
 * unrolled, its variables bound to each element in turn. Anything else is walked as before, its
 * changes made on some paths only (`conditional`). Bounded: at most HG_ALT_MAX arms, nesting
 * HG_BRANCH_MAX_NESTING deep, HG_COMPREHENSION_MAX iterations, every statement charged to the
 * file's budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/follow.h"

/** How many compound statements deep arms are read as alternatives or loops unrolled. */
#define HG_BRANCH_MAX_NESTING 8

typedef struct {
  TSNode block;     // null: no statement runs (an if without an else when none of its arms does)
  const char *cond; // what selects the arm
} arm;

// Does the text of `n` mention the name at all (a cheap test before reading any arm)?
static bool mentions_text(const follow *f, TSNode n) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  const char *src = f->r->src;
  for (uint32_t i = a; i + f->len <= b; i++)
    if (src[i] == f->name[0] && !memcmp(src + i, f->name, f->len))
      return true;
  return false;
}

// Does `n` assign the name (`name = ...`, `name += ...`) anywhere, nested functions aside?
static bool has_assignment(const follow *f, TSNode n, int depth) {
  if (depth > 64 || hg_node_is(n, "function_definition") || hg_node_is(n, "class_definition"))
    return false;
  if (hg_node_is(n, "assignment") || hg_node_is(n, "augmented_assignment")) {
    TSNode left = hg_node_field(n, "left");
    uint32_t a = ts_node_start_byte(left), b = ts_node_end_byte(left);
    if (hg_node_is(left, "identifier") && b - a == f->len && !memcmp(f->r->src + a, f->name, f->len))
      return true;
  }
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++)
    if (has_assignment(f, ts_node_named_child(n, i), depth + 1))
      return true;
  return false;
}

// Does a loop body leave early (break, continue, return, raise, yield)? Nested functions and
// classes are not looked into; a nested loop's break leaves only that loop, but is refused too.
static bool leaves_early(TSNode n, int depth) {
  if (depth > 64)
    return true;
  if (hg_node_is(n, "break_statement") || hg_node_is(n, "continue_statement") || hg_node_is(n, "return_statement") ||
      hg_node_is(n, "raise_statement") || hg_node_is(n, "yield"))
    return true;
  if (hg_node_is(n, "function_definition") || hg_node_is(n, "class_definition") || hg_node_is(n, "lambda"))
    return false;
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++)
    if (leaves_early(ts_node_named_child(n, i), depth + 1))
      return true;
  return false;
}

// A copy of the follow, to read one arm from the state before the compound statement.
static follow fork_of(const follow *f) {
  follow g = *f;
  g.items = (hg_value_vec){0};
  for (size_t i = 0; i < f->items.len; i++)
    HG_VEC_PUSH(&g.items, f->items.items[i]);
  g.changes = g.rebinds = 0;
  g.nesting = f->nesting + 1;
  return g;
}

static void walk_arm(follow *g, TSNode block) {
  const hg_resolver *r = g->r;
  hg_scope_walk_full(r->scopes, block, (TSNode){0}, hg_follow__on_stmt, r->frame ? r->engine->decide : NULL, hg_follow__compound,
                     g);
}

// The arm kept these items as they were: the same values, field by field (never memcmp: a value's
// padding is not initialised).
static bool same_items(const hg_value *a, const hg_value *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i].kind != b[i].kind || a[i].text != b[i].text || a[i].origin != b[i].origin || a[i].key != b[i].key ||
        a[i].cond != b[i].cond || a[i].splat != b[i].splat || a[i].conditional != b[i].conditional ||
        a[i].of_builder != b[i].of_builder || a[i].group != b[i].group || a[i].line != b[i].line ||
        a[i].path != b[i].path || a[i].via != b[i].via || a[i].def != b[i].def || a[i].items != b[i].items ||
        a[i].n_items != b[i].n_items)
      return false;
  return true;
}

// Every arm read from the state before: the name becomes the ALT of what each arm left in it
// (or, when each kept the container it was building, the container with the ALT of what each arm
// added spliced in). An arm that leaves the name as it was is one of them when the name held a
// value before (`mem = "256m"` then `if big: mem = "1g"`: "256m" when `not big`). False when no arm
// changes the name, or one leaves it as it was and it held nothing before (it may not be assigned
// at all), or one leaves it as it was and the others only change the container it holds in place
// (`kw["x"] = ...`, `kw.update(...)`): their items are then on only some paths (`conditional`),
// which says as much without an alternative per such `if` (a site's alternatives are few:
// HG_ALT_MAX).
static bool alternatives(follow *f, TSNode stmt, const arm *arms, size_t n, bool conditional) {
  follow *gs = calloc(n, sizeof(follow));
  bool any = false, kept = false, rebound = false, spent = false, prefix = f->container;
  size_t base = f->items.len;
  for (size_t i = 0; i < n; i++) {
    gs[i] = fork_of(f);
    if (!ts_node_is_null(arms[i].block))
      walk_arm(&gs[i], arms[i].block);
    any |= gs[i].changes > 0;
    kept |= gs[i].changes == 0;
    rebound |= gs[i].rebinds > 0;
    spent |= gs[i].spent;
    prefix &= gs[i].container && gs[i].cur.kind == f->cur.kind && gs[i].items.len >= base &&
              same_items(gs[i].items.items, f->items.items, base);
  }
  if (spent)
    f->spent = true;
  if (!any || spent || (kept && (!f->defined || (prefix && !rebound)))) {
    for (size_t i = 0; i < n; i++)
      free(gs[i].items.items);
    free(gs);
    return spent;
  }
  hg_value *alts = hg_arena_alloc(f->r->arena, n * sizeof(hg_value));
  const char **conds = hg_arena_alloc(f->r->arena, n * sizeof(char *));
  for (size_t i = 0; i < n; i++) {
    conds[i] = arms[i].cond;
    if (prefix) {
      // What the arm added after the shared prefix, as a container of the same kind.
      hg_value_vec added = {0};
      for (size_t k = base; k < gs[i].items.len; k++)
        HG_VEC_PUSH(&added, gs[i].items.items[k]);
      free(gs[i].items.items);
      TSNode at = ts_node_is_null(arms[i].block) ? stmt : arms[i].block;
      alts[i] = hg_values_finish(f->r->arena,
                                 (hg_value){.kind = f->cur.kind, .text = hg_resolve__text(f->r, at),
                                            .line = ts_node_start_point(at).row + 1},
                                 &added);
    } else {
      alts[i] = hg_follow__value(&gs[i], stmt);
    }
  }
  free(gs);
  hg_value alt = hg_resolve_alt(f->r, stmt, alts, conds, n);
  if (prefix) {
    alt.splat = true;
    hg_value_vec one = {0};
    HG_VEC_PUSH(&one, alt);
    hg_value wrap = hg_values_finish(f->r->arena, (hg_value){.kind = f->cur.kind, .text = alt.text, .line = alt.line},
                                     &one);
    hg_follow__add_items(f, f->cur.kind, wrap, conditional);
  } else {
    hg_follow__set_value(f, alt, conditional);
  }
  return true;
}

typedef struct {
  const hg_resolver *r; // first: the engine's decide reads it
} decide_ctx;

// "not a and not b": what selects the arm after arms `a` and `b`, in the arena.
static const char *and_not(const follow *f, const char *prev, const char *c) {
  size_t len = (prev ? strlen(prev) + 5 : 0) + strlen(c) + 7;
  char *s = hg_arena_alloc(f->r->arena, len);
  snprintf(s, len, "%s%snot %s", prev ? prev : "", prev ? " and " : "", c);
  return s;
}

// if/elif/else: each arm a condition known false (in a function being evaluated) does not skip.
static bool if_statement(follow *f, TSNode stmt, bool conditional) {
  arm arms[HG_ALT_MAX];
  size_t n = 0;
  bool has_else = false, too_many = false;
  decide_ctx dc = {f->r};
  int (*decide)(void *, TSNode, TSNode) = f->r->frame ? f->r->engine->decide : NULL;
  const char *before = NULL; // what the arms before this one need to be false
  TSTreeCursor cur = ts_tree_cursor_new(stmt);
  bool more = ts_tree_cursor_goto_first_child(&cur);
  for (int first = 1; (first || more) && !has_else; first = 0) {
    TSNode part = stmt, cond, block;
    if (!first) {
      part = ts_tree_cursor_current_node(&cur);
      more = ts_tree_cursor_goto_next_sibling(&cur);
    }
    if (first || hg_node_is(part, "elif_clause")) {
      cond = hg_node_field(part, "condition");
      block = hg_node_field(part, "consequence");
    } else if (hg_node_is(part, "else_clause")) {
      cond = (TSNode){0};
      block = hg_node_field(part, "body");
      has_else = true;
    } else {
      continue;
    }
    if (ts_node_is_null(block))
      break;
    int t = ts_node_is_null(cond) || !decide ? -1 : decide(&dc, cond, block);
    if (t == 0)
      continue;
    if (n == HG_ALT_MAX) {
      too_many = true; // a long chain: walked as before, each arm on some paths only
      break;
    }
    const char *c = ts_node_is_null(cond) ? (before ? before : "else") : hg_resolve__text(f->r, cond);
    arms[n++] = (arm){block, c};
    if (!ts_node_is_null(cond))
      before = and_not(f, before, c);
    if (t > 0)
      has_else = true; // no later arm can run
  }
  ts_tree_cursor_delete(&cur);
  if (too_many && has_assignment(f, stmt, 0)) {
    // A chain longer than an alternative holds: what it binds the name to is unknown, and says so.
    hg_value v = hg_resolve__unknown(f->r, hg_node_field(stmt, "condition"),
                                     hg_arena_printf(f->r->arena,
                                                     "set in an if/elif chain of more than %d arms, past hardguard's "
                                                     "budget of alternatives",
                                                     HG_ALT_MAX));
    v.text = hg_arena_strndup(f->r->arena, f->name, f->len);
    hg_follow__set_value(f, v,
                         false);
    return true;
  }
  if (too_many || n == 0)
    return false;
  if (has_else && n == 1) {
    if (conditional)
      return false;
    walk_arm(f, arms[0].block); // the one arm that runs: as if written in place
    return true;
  }
  if (!has_else) {
    // No arm may run: the name keeps what it held before, when it held something.
    if (!f->defined || n == HG_ALT_MAX)
      return false;
    arms[n++] = (arm){.cond = before};
  }
  return alternatives(f, stmt, arms, n, conditional);
}

// try: its body (and else) or one of its handlers; a finally clause runs after either.
static bool try_statement(follow *f, TSNode stmt, bool conditional) {
  arm arms[HG_ALT_MAX];
  size_t n = 0;
  TSNode body = hg_node_field(stmt, "body"), fin = {0}, els = {0};
  if (ts_node_is_null(body))
    return false;
  arms[n++] = (arm){body, "no exception"};
  for (uint32_t i = 0, k = ts_node_named_child_count(stmt); i < k; i++) {
    TSNode part = ts_node_named_child(stmt, i);
    if (hg_node_is(part, "except_clause") || hg_node_is(part, "except_group_clause")) {
      TSNode block = {0};
      for (uint32_t j = 0, m = ts_node_named_child_count(part); j < m; j++)
        if (hg_node_is(ts_node_named_child(part, j), "block"))
          block = ts_node_named_child(part, j);
      if (ts_node_is_null(block) || n == HG_ALT_MAX)
        return false;
      TSNode what = ts_node_named_child(part, 0);
      arms[n++] = (arm){block, hg_node_is(what, "block") ? "an exception" : hg_resolve__text(f->r, what)};
    } else if (hg_node_is(part, "else_clause")) {
      els = hg_node_field(part, "body");
    } else if (hg_node_is(part, "finally_clause")) {
      for (uint32_t j = 0, m = ts_node_named_child_count(part); j < m; j++)
        if (hg_node_is(ts_node_named_child(part, j), "block"))
          fin = ts_node_named_child(part, j);
    }
  }
  if (n < 2 || !ts_node_is_null(els) || (conditional && !ts_node_is_null(fin)))
    return false; // try/finally alone, an else after the body: walked as before
  if (!alternatives(f, stmt, arms, n, conditional))
    return false;
  if (!ts_node_is_null(fin))
    walk_arm(f, fin);
  return true;
}

// for x in KNOWN: the body once per element, x bound to it.
static bool for_statement(follow *f, TSNode stmt) {
  TSNode left = hg_node_field(stmt, "left"), right = hg_node_field(stmt, "right"), body = hg_node_field(stmt, "body");
  if (ts_node_is_null(left) || ts_node_is_null(right) || ts_node_is_null(body) ||
      !ts_node_is_null(hg_node_field(stmt, "alternative")) || leaves_early(body, 0))
    return false;
  hg_value seq;
  const char *why;
  if (!hg_resolve__iterate(f->r, right, f->depth + 1, &seq, &why))
    return false;
  const hg_resolver *outer = f->r;
  f->nesting++;
  for (size_t i = 0; i < seq.n_items && !f->spent; i++) {
    hg_resolver r = *outer;
    if (!hg_resolve__bind_target(outer, left, body, seq.items[i], &r.bindings)) {
      // cannot unpack: what the body does is unknown from here on
      f->r = outer;
      f->nesting--;
      hg_follow__set_value(f, hg_resolve__unknown(outer, stmt, "a loop variable hardguard cannot unpack"), true);
      return true;
    }
    f->r = &r;
    walk_arm(f, body);
    f->r = outer;
  }
  f->nesting--;
  return true;
}

bool hg_follow__compound(void *ctx, TSNode stmt, bool conditional) {
  follow *f = ctx;
  if (f->spent || f->nesting >= HG_BRANCH_MAX_NESTING || !mentions_text(f, stmt))
    return false;
  if (hg_node_is(stmt, "if_statement"))
    return if_statement(f, stmt, conditional);
  if (hg_node_is(stmt, "try_statement"))
    return try_statement(f, stmt, conditional);
  if (hg_node_is(stmt, "for_statement") && !conditional)
    return for_statement(f, stmt); // on some paths only: walked as before
  return false;
}
