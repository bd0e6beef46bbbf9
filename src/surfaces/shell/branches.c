// A command's argument as its words (sh.h hg_sh_words): words.c's expansion, but for a variable
// the script assigns in the branches of an if, whose words are one of several (the value model's
// alternatives, docs/value-model.md), one per branch, so that a script whose every branch hardens
// passes and one whose some branch does not names that branch.
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/shell/expand.h"

// At most this many branches are read as alternatives; a variable assigned in more keeps the last
// assignment, set on only some paths (never counted toward a requirement).
enum { MAX_BRANCHES = 8 };

// The branch of an if whose statements hold `assign` directly (its nearest branching construct):
// the if_statement itself for the `then` part, an elif_clause or an else_clause; *in_if receives
// the if_statement. A null node when the nearest is anything else (a loop, a case, `&&`).
static TSNode branch_of(TSNode assign, TSNode *in_if) {
  for (TSNode p = ts_node_parent(assign); !ts_node_is_null(p); p = ts_node_parent(p)) {
    hg_sh_branching b = hg_sh__branching(p);
    if (b == SH_OTHER_BRANCH)
      return (TSNode){0};
    if (b == SH_IF_BRANCH) {
      *in_if = hg_node_is(p, "if_statement") ? p : ts_node_parent(p);
      return hg_node_is(*in_if, "if_statement") ? p : (TSNode){0};
    }
  }
  return (TSNode){0};
}

// How many branches an if has when it has an else (then, each elif, else); 0 without one.
static size_t branches_of(TSNode if_stmt) {
  size_t n = 1;
  bool otherwise = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(if_stmt); i++) {
    TSNode c = ts_node_named_child(if_stmt, i);
    n += hg_node_is(c, "elif_clause");
    otherwise |= hg_node_is(c, "else_clause");
  }
  return otherwise ? n + 1 : 0;
}

// The assignments of `name` that may reach `use`, latest first, when the latest is made in a branch
// and every path to the use takes one of them: one per branch of an if with an else, or those
// branches' and an assignment made on every path before them. Their count (0: no such set), and
// *if_stmt the if.
static size_t reaching(hg_sh *sh, const char *name, TSNode use, const hg_sh_assign **out, TSNode *if_stmt) {
  TSNode func = hg_sh_function_of(use), in_if = {0};
  uint32_t at = ts_node_start_byte(use);
  TSNode seen[MAX_BRANCHES];
  size_t n = 0;
  for (size_t i = sh->n_assigns; i-- > 0;) {
    const hg_sh_assign *a = &sh->assigns[i];
    if (ts_node_end_byte(a->node) > at || strcmp(a->name, name))
      continue;
    // Only assignments in the use's own scope, reaching it: anything else is lookup's to read.
    if (!hg_sh__same_node(a->func, func) || hg_sh__walled_off(a->node, use) || a->append)
      return 0;
    if (!hg_sh__conditional_for(a->node, use)) {
      if (!n || n == MAX_BRANCHES)
        return 0; // made on every path: no branches (lookup's), or too many of them
      out[n++] = a;
      *if_stmt = in_if;
      return n;
    }
    TSNode own_if = {0}, b = branch_of(a->node, &own_if);
    if (ts_node_is_null(b) || (n && !hg_sh__same_node(own_if, in_if)) || hg_sh__conditional_for(own_if, use))
      return 0; // a loop's, a case's, another if's, or an if on only some paths
    in_if = own_if;
    bool again = false; // an earlier assignment in a branch already read: the later one wins there
    for (size_t k = 0; k < n && !again; k++)
      again = hg_sh__same_node(seen[k], b);
    if (again)
      continue;
    if (n == MAX_BRANCHES)
      return 0;
    seen[n] = b;
    out[n++] = a;
    if (n == branches_of(in_if)) {
      *if_stmt = in_if;
      return n; // each branch assigns it
    }
  }
  return 0; // some path leaves it as the environment has it
}

// The text of the condition of an if_statement or elif_clause: what stands between its keyword and
// `then` (tree-sitter-bash names it `condition` in an if, not in an elif); NULL when nothing does.
static const char *condition_of(hg_sh *sh, TSNode n) {
  TSNode first = {0}, last = {0};
  for (uint32_t i = 1; i < ts_node_child_count(n); i++) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c) && !strcmp(ts_node_type(c), "then"))
      break;
    if (hg_node_is(c, "comment"))
      continue;
    last = c;
    if (ts_node_is_null(first))
      first = c;
  }
  if (ts_node_is_null(first))
    return NULL;
  uint32_t a = ts_node_start_byte(first), b = ts_node_end_byte(last);
  while (b > a && (sh->src[b - 1] == ';' || sh->src[b - 1] == ' ' || sh->src[b - 1] == '\n'))
    b--;
  return hg_arena_strndup(sh->arena, sh->src + a, b - a);
}

// What selects the branch of `if_stmt` holding assignment `a`: the if's condition for its `then`,
// an elif's own, `! c` for the else, or for an assignment before the if (no branch taken), of an
// if with one condition; else the assignment's line.
static const char *branch_condition(hg_sh *sh, const hg_sh_assign *a, const char *name, TSNode if_stmt) {
  TSNode own_if = {0}, b = branch_of(a->node, &own_if);
  const char *c = NULL;
  if (!ts_node_is_null(b) && !hg_node_is(b, "else_clause")) {
    c = condition_of(sh, b);
  } else {
    bool elif = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(if_stmt); i++)
      elif |= hg_node_is(ts_node_named_child(if_stmt, i), "elif_clause");
    const char *first = elif ? NULL : condition_of(sh, if_stmt);
    c = first ? hg_arena_printf(sh->arena, "! %s", first) : NULL;
  }
  return c ? c : hg_arena_printf(sh->arena, "%s assigned at line %u", name, ts_node_start_point(a->node).row + 1);
}

// When `arg` is a variable alone that the script assigns in the branches of an if (or in one,
// after an assignment on every path), appends one alternative of the words each branch gives it,
// and says so.
static bool branch_words(hg_sh *sh, TSNode arg, hg_value_vec *out) {
  if (hg_node_is(arg, "command_name"))
    return false; // the program word: its alternatives are alternatives.c's
  hg_sh_ref ref;
  const char *name = hg_sh__lone_variable(sh, arg, &ref);
  if (ref.n_deflt)
    return false; // ${H:-d}: the default is lookup's to read
  const hg_sh_assign *assigns[MAX_BRANCHES];
  TSNode if_stmt = {0};
  size_t n = name && !hg_sh__special(name) ? reaching(sh, name, arg, assigns, &if_stmt) : 0;
  if (n < 2)
    return false;
  hg_value *arms = hg_arena_alloc(sh->arena, n * sizeof(hg_value));
  for (size_t k = 0; k < n; k++) {
    shval v = hg_sh__assigned(sh, assigns[k], arg);
    v.conditional = false; // the branch is the alternative's
    word w = {0};
    hg_value_vec words = {0};
    hg_sh__put_value(sh, &v, ref.quoted, ref.all_items, ref.joined, &w, arg, &words);
    hg_sh__finish(sh, &w, arg, &words);
    hg_buf_free(&w.text);
    uint32_t line = ts_node_start_point(assigns[k]->node).row + 1;
    arms[k] = hg_values_finish(
        sh->arena, (hg_value){.kind = HG_VAL_LIST, .text = hg_sh__text(sh, assigns[k]->node), .line = line}, &words);
    arms[k].cond = branch_condition(sh, assigns[k], name, if_stmt);
  }
  HG_VEC_PUSH(out, ((hg_value){.kind = HG_VAL_ALT,
                               .text = hg_sh__text(sh, arg),
                               .line = ts_node_start_point(arg).row + 1,
                               .splat = true,
                               .items = arms,
                               .n_items = n}));
  return true;
}

void hg_sh_words(hg_sh *self, TSNode arg, hg_value_vec *out) {
  if (branch_words(self, arg, out))
    return;
  word w = {0};
  hg_sh__emit(self, arg, false, &w, arg, out);
  hg_sh__finish(self, &w, arg, out);
  hg_buf_free(&w.text);
}
