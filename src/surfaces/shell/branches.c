// A command's argument as its words (sh.h hg_sh_words): words.c's expansion, but for a variable
// the script assigns in the branches of an if or the arms of a case, whose words are one of
// several (the value model's alternatives, docs/value-model.md), one per branch, so that a script
// whose every branch hardens passes and one whose some branch does not names that branch.
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/shell/expand.h"

// At most this many branches are read as alternatives; a variable assigned in more keeps the last
// assignment, set on only some paths (never counted toward a requirement).
enum { MAX_BRANCHES = 8 };

// The branch whose statements hold `assign` directly (its nearest branching construct): of an if,
// the if_statement itself for the `then` part, an elif_clause or an else_clause; of a case, the
// case_item. *choice receives the if_statement or case_statement. A null node when the nearest is
// anything else (a loop, `&&`).
static TSNode branch_of(TSNode assign, TSNode *choice) {
  for (TSNode p = ts_node_parent(assign); !ts_node_is_null(p); p = ts_node_parent(p)) {
    hg_sh_branching b = hg_sh__branching(p);
    if (b == SH_OTHER_BRANCH)
      return (TSNode){0};
    if (b == SH_CASE_ARM) {
      *choice = ts_node_parent(p);
      return hg_node_is(*choice, "case_statement") ? p : (TSNode){0};
    }
    if (b == SH_IF_BRANCH) {
      *choice = hg_node_is(p, "if_statement") ? p : ts_node_parent(p);
      return hg_node_is(*choice, "if_statement") ? p : (TSNode){0};
    }
  }
  return (TSNode){0};
}

// What a case arm's own tokens say, in one walk of them: where its patterns start and end (at its
// `)`: tree-sitter-bash's nodes of a pattern need not cover it), whether one of them is `*`, and
// whether it ends in `;&` or `;;&` (bash: run on into the next arm, or test the next patterns too).
typedef struct {
  uint32_t at, end; // the patterns' text: src[at, end); end 0 when no `)` follows them
  bool otherwise;   // a `*` pattern: every path takes some arm
  bool runs_on;     // `;&` or `;;&`
} arm_shape;

static arm_shape shape_of(hg_sh *sh, TSNode item) {
  arm_shape s = {.at = UINT32_MAX};
  for (uint32_t k = 0; k < ts_node_child_count(item); k++) {
    TSNode c = ts_node_child(item, k);
    uint32_t a = ts_node_start_byte(c), n = ts_node_end_byte(c) - a;
    const char *field = ts_node_field_name_for_child(item, k);
    if (field && !strcmp(field, "value")) {
      s.at = s.at == UINT32_MAX ? a : s.at;
      s.otherwise |= n == 1 && sh->src[a] == '*';
    } else if (!ts_node_is_named(c)) {
      if (!s.end && s.at != UINT32_MAX && n == 1 && sh->src[a] == ')')
        s.end = a;
      s.runs_on |= (n == 2 && !memcmp(sh->src + a, ";&", 2)) || (n == 3 && !memcmp(sh->src + a, ";;&", 3));
    }
  }
  return s;
}

// Does an arm of the case run on into the next? Then more than one arm may assign on one path: its
// arms are no alternatives.
static bool falls_through(hg_sh *sh, TSNode case_stmt) {
  for (uint32_t i = 0; i < ts_node_named_child_count(case_stmt); i++) {
    TSNode item = ts_node_named_child(case_stmt, i);
    if (hg_node_is(item, "case_item") && shape_of(sh, item).runs_on)
      return true;
  }
  return false;
}

// Does the branch end in `exit`, or in a function `return` (its last statement that command)? Then
// no path through it reaches what follows the if or case (in that function: a use elsewhere is not
// in the same scope, which reaching() requires). A top-level `return` of a script run, not sourced,
// fails and goes on.
static bool leaves(hg_sh *sh, TSNode branch) {
  TSNode last = {0};
  bool body = hg_node_is(branch, "else_clause"); // else its statements start after `then` or `)`
  for (uint32_t k = 0; k < ts_node_child_count(branch); k++) {
    TSNode c = ts_node_child(branch, k);
    if (!ts_node_is_named(c)) {
      uint32_t at = ts_node_start_byte(c), n = ts_node_end_byte(c) - at;
      body |= (n == 4 && !memcmp(sh->src + at, "then", 4)) || (n == 1 && sh->src[at] == ')');
      continue;
    }
    if (hg_node_is(c, "elif_clause") || hg_node_is(c, "else_clause"))
      break;
    if (body && !hg_node_is(c, "comment"))
      last = c;
  }
  TSNode name = hg_node_is(last, "command") ? hg_node_field(last, "name") : (TSNode){0};
  if (ts_node_is_null(name))
    return false;
  return hg_node_text_eq(name, sh->src, "exit", 4) ||
         (hg_node_text_eq(name, sh->src, "return", 6) && !ts_node_is_null(hg_sh_function_of(branch)));
}

// How many branches of an if or a case may reach what follows it when one of them is always taken
// (an if's then, each elif and its else; a case's arms, one of them `*)`), those that leave
// (`exit`, a function's `return`) left out; 0 when some path takes none.
static size_t branches_of(hg_sh *sh, TSNode choice) {
  size_t n = hg_node_is(choice, "if_statement") && !leaves(sh, choice);
  bool otherwise = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(choice); i++) {
    TSNode c = ts_node_named_child(choice, i);
    if (hg_node_is(c, "elif_clause") || hg_node_is(c, "case_item") || hg_node_is(c, "else_clause"))
      n += !leaves(sh, c);
    otherwise |= hg_node_is(c, "else_clause") || (hg_node_is(c, "case_item") && shape_of(sh, c).otherwise);
  }
  return otherwise ? n : 0;
}

// The assignments of `name` that may reach `use`, latest first, when the latest is made in a branch
// and every path to the use takes one of them: one per branch of an if with an else or of a case
// with a `*)` arm, or those branches' and an assignment made on every path before them. Their
// count (0: no such set), and *choice the if or case.
static size_t reaching(hg_sh *sh, const char *name, TSNode use, const hg_sh_assign **out, TSNode *choice) {
  TSNode func = hg_sh_function_of(use), in = {0};
  uint32_t at = ts_node_start_byte(use);
  TSNode seen[MAX_BRANCHES];
  size_t n = 0;
  for (size_t i = hg_sh__assigns_before(sh, at); i-- > 0;) {
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
      *choice = in;
      return n;
    }
    TSNode own = {0}, b = branch_of(a->node, &own);
    if (!ts_node_is_null(b) && leaves(sh, b))
      continue; // a branch that leaves (exit, return): this assignment never reaches the use
    if (ts_node_is_null(b) || (n && !hg_sh__same_node(own, in)) || hg_sh__conditional_for(own, use) ||
        (!n && hg_node_is(own, "case_statement") && falls_through(sh, own)))
      return 0; // a loop's, another if's or case's, one on only some paths, or arms that run on
    in = own;
    bool again = false; // an earlier assignment in a branch already read: the later one wins there
    for (size_t k = 0; k < n && !again; k++)
      again = hg_sh__same_node(seen[k], b);
    if (again)
      continue;
    if (n == MAX_BRANCHES)
      return 0;
    seen[n] = b;
    out[n++] = a;
    if (n == branches_of(sh, in)) {
      *choice = in;
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

// The text of a case arm's patterns as written, with the case's word: `case "$MODE" in strict|hard)`.
static const char *arm_of(hg_sh *sh, TSNode case_stmt, TSNode item) {
  TSNode subject = hg_node_field(case_stmt, "value");
  arm_shape arm = shape_of(sh, item);
  if (ts_node_is_null(subject) || !arm.end)
    return NULL;
  return hg_arena_printf(sh->arena, "case %s in %.*s)", hg_sh__text(sh, subject), (int)(arm.end - arm.at),
                         sh->src + arm.at);
}

// What selects the branch of `choice` (an if or a case) holding assignment `a`: the if's condition
// for its `then`, an elif's own, `! c` for the else, a case arm's patterns; for an assignment
// before it (no branch taken), `! c` of an if with one condition; else the assignment's line.
static const char *branch_condition(hg_sh *sh, const hg_sh_assign *a, const char *name, TSNode choice) {
  TSNode own = {0}, b = branch_of(a->node, &own);
  const char *c = NULL;
  bool taken = !ts_node_is_null(b) && hg_sh__same_node(own, choice);
  if (taken && hg_node_is(b, "case_item")) {
    c = arm_of(sh, choice, b);
  } else if (taken && !hg_node_is(b, "else_clause")) {
    c = condition_of(sh, b);
  } else if (hg_node_is(choice, "if_statement")) {
    bool elif = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(choice); i++)
      elif |= hg_node_is(ts_node_named_child(choice, i), "elif_clause");
    const char *first = elif ? NULL : condition_of(sh, choice);
    c = first ? hg_arena_printf(sh->arena, "! %s", first) : NULL;
  }
  return c ? c : hg_arena_printf(sh->arena, "%s assigned at line %u", name, ts_node_start_point(a->node).row + 1);
}

// The first variable of `arg` (`$V`, `${V}`, `${A[@]}`, not one with a default: lookup's) that the
// script assigns in branches reaching it: its name, those assignments (*n) and the if or case.
// NULL when there is none.
static const char *branching_variable(hg_sh *sh, TSNode arg, const hg_sh_assign **assigns, size_t *n, TSNode *choice) {
  const char *found = NULL;
  TSTreeCursor cur = ts_tree_cursor_new(arg);
  for (bool more = true; more && !found;) {
    TSNode c = ts_tree_cursor_current_node(&cur);
    bool variable = hg_node_is(c, "simple_expansion") || hg_node_is(c, "expansion");
    if (variable) {
      hg_sh_ref ref;
      const char *name = hg_sh__lone_variable(sh, c, &ref);
      if (name && !ref.n_deflt && !hg_sh__special(name) && (*n = reaching(sh, name, c, assigns, choice)))
        found = name;
    }
    // A command's output or arithmetic is not the word's text: its variables are not followed.
    if (!variable && !hg_node_is(c, "command_substitution") && !hg_node_is(c, "process_substitution") &&
        !hg_node_is(c, "arithmetic_expansion") && ts_tree_cursor_goto_first_child(&cur))
      continue;
    more = false;
    do
      more = ts_tree_cursor_goto_next_sibling(&cur);
    while (!more && ts_tree_cursor_goto_parent(&cur));
  }
  ts_tree_cursor_delete(&cur);
  return found;
}

// When a variable in `arg` (alone, or part of a longer word: `--memory=$M`) is one the script
// assigns in the branches of an if or the arms of a case (or in some, after an assignment on every
// path), appends one alternative of the words `arg` gives on each branch (the words themselves
// when every other branch leaves: exit, return), and says so.
static bool branch_words(hg_sh *sh, TSNode arg, hg_value_vec *out) {
  if (hg_node_is(arg, "command_name"))
    return false; // the program word: its alternatives are alternatives.c's
  const hg_sh_assign *assigns[MAX_BRANCHES];
  TSNode choice = {0};
  size_t n = 0;
  const char *name = branching_variable(sh, arg, assigns, &n, &choice);
  if (!name)
    return false;
  hg_value *arms = hg_arena_alloc(sh->arena, n * sizeof(hg_value));
  for (size_t k = 0; k < n; k++) {
    word w = {0};
    hg_value_vec words = {0};
    sh->pin_name = name, sh->pin = assigns[k];
    hg_sh__emit(sh, arg, false, &w, arg, n == 1 ? out : &words);
    hg_sh__finish(sh, &w, arg, n == 1 ? out : &words);
    sh->pin_name = NULL, sh->pin = NULL;
    hg_buf_free(&w.text);
    if (n == 1)
      return true;
    uint32_t line = ts_node_start_point(assigns[k]->node).row + 1;
    arms[k] = hg_values_finish(
        sh->arena, (hg_value){.kind = HG_VAL_LIST, .text = hg_sh__text(sh, assigns[k]->node), .line = line}, &words);
    arms[k].cond = branch_condition(sh, assigns[k], name, choice);
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
