#include "surfaces/python/scope.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/table.h"

enum { MAX_NESTING = 200 };

// What a statement of a block is to the walk, from its type read once.
typedef enum { STMT_SIMPLE, STMT_SKIPPED, STMT_MATCH, STMT_COMPOUND } stmt_kind;

static stmt_kind kind_of(TSNode n) {
  static const struct {
    const char *type;
    stmt_kind kind;
  } kinds[] = {
      // definitions run nothing of theirs where they stand; comments nothing at all
      {"function_definition", STMT_SKIPPED}, {"class_definition", STMT_SKIPPED},
      {"decorated_definition", STMT_SKIPPED}, {"comment", STMT_SKIPPED},
      {"match_statement", STMT_MATCH},       {"if_statement", STMT_COMPOUND},
      {"for_statement", STMT_COMPOUND},      {"while_statement", STMT_COMPOUND},
      {"try_statement", STMT_COMPOUND},      {"with_statement", STMT_COMPOUND},
  };
  const char *t = ts_node_type(n);
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
    if (t[0] == kinds[i].type[0] && !strcmp(t, kinds[i].type))
      return kinds[i].kind;
  return STMT_SIMPLE;
}

// A block's named children (its statements and comments) with their kinds, in order.
typedef struct {
  uint32_t n;
  struct stmt_of {
    TSNode node;
    stmt_kind kind;
  } items[];
} stmt_list;

struct hg_scope_memo {
  hg_arena *arena;
  const TSTree *tree;
  hg_table blocks;  // a block's hg_node_key -> its stmt_list (a pointer), in the arena
  // The tree's function definitions in pre-order (by their first byte), each with its bytes and
  // the index of the nearest one holding it (-1: none), once the walk that kept them is done
  // (defs_known; NULL defs: the tree has none).
  struct def_of {
    TSNode node, body;  // body: its body, read when first asked for
    uint32_t start, end;
    int32_t up;
  } *defs;
  size_t n_defs;
  bool defs_known;
  bool nested;  // ... one of them is defined in another
};

hg_scope_memo *hg_scope_memo_new(hg_arena *arena, const TSTree *tree) {
  hg_scope_memo *m = hg_arena_alloc(arena, sizeof(hg_scope_memo));
  *m = (hg_scope_memo){.arena = arena, .tree = tree};
  hg_table_init(&m->blocks, arena, 0);
  return m;
}

void hg_scope_memo_functions(hg_scope_memo *m, const TSNode *defs, size_t n) {
  if (!m || !defs || !hg_node_is(ts_tree_root_node(m->tree), "module")) return;  // else by the ancestors
  m->defs_known = true;
  if (!n) return;
  m->defs = hg_arena_alloc(m->arena, n * sizeof(*m->defs));
  int32_t *open = hg_xmalloc(n * sizeof(int32_t));  // the definitions holding the one read, innermost last
  size_t depth = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t a = ts_node_start_byte(defs[i]), b = ts_node_end_byte(defs[i]);
    while (depth && m->defs[open[depth - 1]].end <= a) depth--;
    m->defs[i] = (struct def_of){.node = defs[i], .start = a, .end = b, .up = depth ? open[depth - 1] : -1};
    m->nested |= depth > 0;
    open[depth++] = (int32_t)i;
  }
  free(open);
  m->n_defs = n;
}

bool hg_scope_may_nest(const hg_scope_memo *m, TSNode node) {
  return !m || !m->defs_known || node.tree != m->tree || m->nested;
}

size_t hg_scope_functions_named(const hg_scope_memo *m, TSNode in, const char *src, const char *name, size_t len,
                                TSNode *out, size_t max) {
  if (!m)
    return SIZE_MAX;
  size_t n = 0;
  if (!m->defs_known || in.tree != m->tree) {  // not kept by a walk, or another tree: one pass over it
    TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(in.tree));
    for (bool more = true; more;) {
      TSNode d = ts_tree_cursor_current_node(&cur);
      if (hg_node_is(d, "function_definition") && hg_node_text_eq(hg_node_field(d, "name"), src, name, len)) {
        if (n == max) {
          n = SIZE_MAX;
          break;
        }
        out[n++] = d;
      }
      more = hg_cursor_next(&cur, true);
    }
    ts_tree_cursor_delete(&cur);
    return n;
  }
  for (size_t i = 0; i < m->n_defs; i++) {
    if (!hg_node_text_eq(hg_node_field(m->defs[i].node, "name"), src, name, len))
      continue;
    if (n == max)
      return SIZE_MAX;
    out[n++] = m->defs[i].node;
  }
  return n;
}

// The scope by the ancestors, nearest first.
static TSNode scope_by_ancestors(TSNode node, TSNode *function) {
  hg_ancestors up;
  hg_ancestors_of(&up, node);
  for (size_t i = 0; i < up.n; i++) {
    TSNode a = hg_ancestor(&up, i);
    if (hg_node_is(a, "function_definition")) {
      *function = a;
      return hg_node_field(a, "body");
    }
    if (hg_node_is(a, "module"))
      return a;
  }
  return node;
}

// A definition holds a node when the node's bytes are within its own and not all of them (nothing
// below a definition spans it whole: its `def` comes first; a block holding it alone does).
static bool def_holds(const struct def_of *d, uint32_t a, uint32_t b) {
  return d->start <= a && b <= d->end && (d->start != a || d->end != b);
}

TSNode hg_scope_of(hg_scope_memo *memo, TSNode node, TSNode *function) {
  *function = (TSNode){0};
  if (ts_node_is_null(node))
    return node;
  uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
  // Through the memo's definitions (a node of its tree with some bytes: an empty one may stand at
  // a definition's edge, outside it), else by the ancestors.
  if (!memo || !memo->defs_known || node.tree != memo->tree || a == b)
    return scope_by_ancestors(node, function);
  // The last definition starting at or before the node, then those holding it, inward out: the
  // first that holds the node is the innermost (one that starts inside another lies within it).
  size_t lo = 0, hi = memo->n_defs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (memo->defs[mid].start <= a) lo = mid + 1;
    else hi = mid;
  }
  for (int32_t i = (int32_t)lo - 1; i >= 0; i = memo->defs[i].up)
    if (def_holds(&memo->defs[i], a, b)) {
      struct def_of *d = &memo->defs[i];
      *function = d->node;
      if (!d->body.id)
        d->body = hg_node_field(d->node, "body");
      return d->body;
    }
  return ts_tree_root_node(node.tree);  // the module (hg_scope_memo_functions checked)
}

// The named children of `block` up to the first that starts after byte `until` (UINT32_MAX: all),
// read with a cursor (which steps to the next sibling in constant time; ts_node_named_child(i) is
// linear in i), into the memo's arena, or onto the heap (NULL arena).
static stmt_list *read_statements(hg_arena *arena, TSNode block, uint32_t until) {
  uint32_t cap = ts_node_child_count(block);  // at least the named ones
  size_t size = sizeof(stmt_list) + cap * sizeof(struct stmt_of);
  stmt_list *l = arena ? hg_arena_alloc(arena, size) : hg_xmalloc(size);
  l->n = 0;
  TSTreeCursor cur = ts_tree_cursor_new(block);
  for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur)) {
    TSNode s = ts_tree_cursor_current_node(&cur);
    if (!ts_node_is_named(s))
      continue;
    l->items[l->n++] = (struct stmt_of){s, kind_of(s)};
    if (ts_node_start_byte(s) > until)
      break;  // the walk stops there
  }
  ts_tree_cursor_delete(&cur);
  return l;
}

// The statements of `block`: the memo's, read now if it has not read them; without one (or for a
// block of another tree), read now as far as the walk to `point` goes, and owned by the caller
// (*owned).
static const stmt_list *statements(hg_scope_memo *m, TSNode block, TSNode point, stmt_list **owned) {
  *owned = NULL;
  if (!m || block.tree != m->tree)
    return *owned = read_statements(NULL, block, ts_node_is_null(point) ? UINT32_MAX : ts_node_start_byte(point));
  hg_node_key key = hg_node_key_of(block);
  const size_t *known = hg_table_get(&m->blocks, (const char *)&key, sizeof key);
  if (known)
    return (const stmt_list *)(uintptr_t)*known;
  hg_node_key *kept = hg_arena_alloc(m->arena, sizeof key);
  *kept = key;
  stmt_list *l = read_statements(m->arena, block, UINT32_MAX);
  *hg_table_put(&m->blocks, (const char *)kept, sizeof key, NULL) = (size_t)(uintptr_t)l;
  return l;
}

typedef struct {
  hg_scope_memo *memo;
  TSNode point;
  bool (*fn)(void *, hg_stmt);
  hg_scope_cond cond; // NULL: every branch may or may not run
  hg_scope_compound compound; // NULL: every compound statement is walked here
  void *ctx;
  bool stop;
} walker;

static void walk_block(walker *w, TSNode block, bool conditional, int depth);

// A block of a compound statement runs on every path when it is a with body, a try body or a
// finally clause; every other block (if/elif/else, loops, except, cases) may not run.
static bool always_runs(TSNode owner, TSNode part) {
  if (hg_node_is(owner, "with_statement"))
    return true;
  if (hg_node_is(owner, "try_statement"))
    return hg_node_is(part, "block") || hg_node_is(part, "finally_clause");
  return false;
}

static void walk_part(walker *w, TSNode owner, TSNode part, bool conditional, bool holds_point, int depth);

// match: each case is a branch; the case that holds the point runs on the way to it, the cases
// beside it do not, and after the match any case may have run.
static void walk_match(walker *w, TSNode match, bool conditional, int depth) {
  TSNode body = hg_node_field(match, "body");
  if (ts_node_is_null(body))
    return;
  bool holds = hg_node_contains(match, w->point);
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n && !w->stop; i++) {
    TSNode c = ts_node_named_child(body, i);
    if (!hg_node_is(c, "case_clause"))
      continue;
    bool case_holds = hg_node_contains(c, w->point);
    if (holds && !case_holds)
      continue;
    walk_part(w, match, c, case_holds ? conditional : true, case_holds, depth + 1);
  }
}

// Walks the blocks inside one part of a compound statement (the part itself, or a clause).
static void walk_part(walker *w, TSNode owner, TSNode part, bool conditional, bool holds_point, int depth) {
  bool cond = conditional || !always_runs(owner, part);
  if (holds_point)
    cond = conditional; // the branch the point is in runs on the way to it
  if (hg_node_is(part, "block")) {
    walk_block(w, part, cond, depth + 1);
    return;
  }
  uint32_t n = ts_node_named_child_count(part);
  for (uint32_t i = 0; i < n && !w->stop; i++) {
    TSNode c = ts_node_named_child(part, i);
    if (hg_node_is(c, "block"))
      walk_block(w, c, cond, depth + 1);
    else if (hg_node_is(c, "case_clause") || hg_node_is(c, "else_clause") || hg_node_is(c, "elif_clause") ||
             hg_node_is(c, "except_clause") || hg_node_is(c, "finally_clause"))
      walk_part(w, owner, c, cond, hg_node_contains(c, w->point), depth + 1);
  }
}

// An if/elif/else whose conditions the caller can decide: a branch whose condition is known true
// runs as the statement around it does and the ones after it are skipped; a branch known false is
// skipped; an undecided one may or may not run, and so may every branch after it.
static void walk_if(walker *w, TSNode stmt, bool conditional, int depth) {
  bool unsure = false; // an earlier undecided branch may have run
  TSNode body = hg_node_field(stmt, "consequence");
  int t = w->cond(w->ctx, hg_node_field(stmt, "condition"), body);
  if (t > 0) {
    walk_block(w, body, conditional, depth + 1);
    return;
  }
  if (t < 0) {
    walk_block(w, body, true, depth + 1);
    unsure = true;
  }
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n && !w->stop; i++) {
    TSNode part = ts_node_named_child(stmt, i);
    if (hg_node_is(part, "elif_clause")) {
      body = hg_node_field(part, "consequence");
      t = w->cond(w->ctx, hg_node_field(part, "condition"), body);
      if (t == 0)
        continue;
      walk_block(w, body, unsure || t < 0 ? true : conditional, depth + 1);
      if (t > 0)
        return;  // no later clause can run
      unsure = true;
    } else if (hg_node_is(part, "else_clause")) {
      walk_block(w, hg_node_field(part, "body"), unsure ? true : conditional, depth + 1);
    }
  }
}

static void walk_compound(walker *w, TSNode stmt, bool conditional, int depth) {
  bool holds = hg_node_contains(stmt, w->point);
  if (w->cond && !holds && hg_node_is(stmt, "if_statement")) {
    walk_if(w, stmt, conditional, depth);
    return;
  }
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n && !w->stop; i++) {
    TSNode part = ts_node_named_child(stmt, i);
    bool block_like = hg_node_is(part, "block") || hg_node_is(part, "elif_clause") || hg_node_is(part, "else_clause") ||
                      hg_node_is(part, "except_clause") || hg_node_is(part, "finally_clause") ||
                      hg_node_is(part, "case_clause");
    if (!block_like)
      continue;
    bool part_holds = hg_node_contains(part, w->point);
    // Beside the branch that holds the point, an if/match alternative cannot run on the way to it.
    if (holds && !part_holds && (hg_node_is(stmt, "if_statement") || hg_node_is(stmt, "match_statement")))
      continue;
    if (holds && ts_node_start_byte(part) > ts_node_start_byte(w->point))
      break;
    // On the way to an except/else/finally clause, the try body may have stopped anywhere.
    bool cut_short = holds && !part_holds && hg_node_is(stmt, "try_statement");
    walk_part(w, stmt, part, conditional || cut_short, part_holds, depth);
  }
}

static void walk_block(walker *w, TSNode block, bool conditional, int depth) {
  if (depth > MAX_NESTING) {
    w->stop = true;
    return;
  }
  stmt_list *owned;
  const stmt_list *list = statements(w->memo, block, w->point, &owned);
  for (uint32_t i = 0; i < list->n && !w->stop; i++) {
    TSNode s = list->items[i].node;
    if (!ts_node_is_null(w->point) && ts_node_start_byte(s) > ts_node_start_byte(w->point)) {
      w->stop = true;
      break;
    }
    stmt_kind kind = list->items[i].kind;
    if (kind == STMT_SKIPPED)
      continue;
    if (kind == STMT_MATCH) {
      walk_match(w, s, conditional, depth + 1);
      continue;
    }
    if (kind == STMT_COMPOUND) {
      if (w->compound && !hg_node_contains(s, w->point) && w->compound(w->ctx, s, conditional))
        continue;
      walk_compound(w, s, conditional, depth + 1);
      continue;
    }
    if (!ts_node_is_null(w->point) && hg_node_contains(s, w->point)) {
      w->stop = true; // the statement that holds the point runs after what it reads
      break;
    }
    if (!w->fn(w->ctx, (hg_stmt){s, conditional}))
      w->stop = true;
  }
  free(owned);
}

void hg_scope_walk(hg_scope_memo *memo, TSNode scope, TSNode point, bool (*fn)(void *ctx, hg_stmt s), void *ctx) {
  hg_scope_walk_deciding(memo, scope, point, fn, NULL, ctx);
}

void hg_scope_walk_deciding(hg_scope_memo *memo, TSNode scope, TSNode point, bool (*fn)(void *ctx, hg_stmt s),
                            hg_scope_cond cond, void *ctx) {
  hg_scope_walk_full(memo, scope, point, fn, cond, NULL, ctx);
}

void hg_scope_walk_full(hg_scope_memo *memo, TSNode scope, TSNode point, bool (*fn)(void *ctx, hg_stmt s),
                        hg_scope_cond cond, hg_scope_compound on_compound, void *ctx) {
  walker w = {memo, point, fn, cond, on_compound, ctx, false};
  walk_block(&w, scope, false, 0);
}

bool hg_scope_is_parameter(TSNode function, const char *src, const char *name, size_t len) {
  TSNode params = hg_node_field(function, "parameters");
  // A parameter's name is in the parameters' bytes: a name they do not hold is none of them.
  if (!hg_node_text_has(params, src, name, len))
    return false;
  uint32_t n = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    // identifier, default_parameter (name:), typed_parameter, typed_default_parameter,
    // list_splat_pattern (*args), dictionary_splat_pattern (**kwargs)
    // (typed_parameter (list_splat_pattern (identifier)) type: ...) nests the name twice.
    TSNode id = hg_node_is(p, "identifier") ? p : hg_node_field(p, "name");
    for (int k = 0; k < 2 && !ts_node_is_null(id) && !hg_node_is(id, "identifier"); k++)
      id = ts_node_named_child(id, 0);
    if (ts_node_is_null(id) || !hg_node_is(id, "identifier"))
      id = ts_node_named_child(p, 0);
    for (int k = 0; k < 2 && !ts_node_is_null(id) && !hg_node_is(id, "identifier"); k++)
      id = ts_node_named_child(id, 0);
    if (ts_node_is_null(id) || !hg_node_is(id, "identifier"))
      continue;
    uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
    if (b - a == len && memcmp(src + a, name, len) == 0)
      return true;
  }
  return false;
}
