// The assignments of a script: where each stands, and which uses it reaches (expand.h).
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/shell/expand.h"

// ---- assignments ---------------------------------------------------------------------------------

TSNode hg_sh_function_of(TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
    if (hg_node_is(p, "function_definition"))
      return p;
  return (TSNode){0};
}

bool hg_sh__same_node(TSNode a, TSNode b) {
  if (ts_node_is_null(a) || ts_node_is_null(b))
    return ts_node_is_null(a) && ts_node_is_null(b);
  return ts_node_eq(a, b);
}

void hg_sh_init(hg_sh *self, const char *src, hg_arena *arena, TSNode root) {
  *self = (hg_sh){.src = src, .arena = arena};
  HG_VEC(hg_sh_assign) v = {0};
  TSTreeCursor cur = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    // `FOO=1 docker run` sets FOO for that command only: not a variable of the script.
    if (hg_node_is(n, "variable_assignment") && !hg_node_is(ts_node_parent(n), "command")) {
      TSNode name = hg_node_field(n, "name");
      if (hg_node_is(name, "variable_name")) {
        hg_sh_assign a = {
            .name = hg_sh__text(self, name), .node = n, .value = hg_node_field(n, "value"), .func = hg_sh_function_of(n)};
        for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
          TSNode c = ts_node_child(n, i);
          if (!ts_node_is_named(c) && ts_node_end_byte(c) - ts_node_start_byte(c) == 2 &&
              !memcmp(src + ts_node_start_byte(c), "+=", 2))
            a.append = true;
        }
        HG_VEC_PUSH(&v, a);
      }
    }
    if (ts_tree_cursor_goto_first_child(&cur))
      continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur)) {
        ts_tree_cursor_delete(&cur);
        self->n_assigns = v.len;
        self->assigns = hg_arena_alloc(arena, (v.len ? v.len : 1) * sizeof(hg_sh_assign));
        if (v.len)
          memcpy(self->assigns, v.items, v.len * sizeof(hg_sh_assign));
        free(v.items);
        return;
      }
  }
}

size_t hg_sh__assigns_before(const hg_sh *sh, uint32_t at) {
  // The assignments are in file order (a pre-order walk): the first starting at `at` or later.
  size_t lo = 0, hi = sh->n_assigns;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ts_node_start_byte(sh->assigns[mid].node) < at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

hg_sh_branching hg_sh__branching(TSNode n) {
  static const char *const ifs[] = {"if_statement", "elif_clause", "else_clause"};
  static const char *const others[] = {"while_statement", "for_statement", "c_style_for_statement", "list"};
  for (size_t i = 0; i < HG_ARRAY_LEN(ifs); i++)
    if (hg_node_is(n, ifs[i]))
      return SH_IF_BRANCH;
  if (hg_node_is(n, "case_item"))
    return SH_CASE_ARM;
  for (size_t i = 0; i < HG_ARRAY_LEN(others); i++)
    if (hg_node_is(n, others[i]))
      return SH_OTHER_BRANCH;
  return SH_NOT_BRANCHING;
}

// Is the assignment made on only some of the paths that reach `use`: inside an if, a case, a
// loop or one side of && / || that does not also hold the use?
bool hg_sh__conditional_for(TSNode assign, TSNode use) {
  for (TSNode p = ts_node_parent(assign); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (hg_node_contains(p, use))
      return false;
    if (hg_sh__branching(p) != SH_NOT_BRANCHING)
      return true;
  }
  return false;
}

// Is the assignment made in a subshell (or a pipeline stage) that the use is not in? Then it does
// not reach the use at all.
bool hg_sh__walled_off(TSNode assign, TSNode use) {
  for (TSNode p = ts_node_parent(assign); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (hg_node_contains(p, use))
      return false;
    if (hg_node_is(p, "subshell") || hg_node_is(p, "pipeline") || hg_node_is(p, "command_substitution"))
      return true;
  }
  return false;
}
