// What a Go function's statements say, as the value reader (eval.c) asks it: the function holding a
// node, its parameters, what selects a statement, whether a return surely fails.
#include "surfaces/go/stmts.h"

#include <string.h>

#include "surfaces/node.h"

// The function (declaration, method or literal) holding `n`, or a null node.
TSNode hg_go_enclosing_function(TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
    if (hg_node_is(p, "function_declaration") || hg_node_is(p, "method_declaration") || hg_node_is(p, "func_literal"))
      return p;
  return (TSNode){0};
}

bool hg_go_is_param(const hg_go_src *f, TSNode fn, const char *name, size_t len) {
  TSNode lists[2] = {hg_node_field(fn, "parameters"), hg_node_field(fn, "receiver")};
  for (int l = 0; l < 2; l++)
    for (uint32_t i = 0, n = (ts_node_is_null(lists[l]) ? 0 : ts_node_named_child_count(lists[l])); i < n; i++) {
      TSNode decl = ts_node_named_child(lists[l], i);
      for (uint32_t c = 0, cn = ts_node_child_count(decl); c < cn; c++) {
        const char *field = ts_node_field_name_for_child(decl, c);
        if (field && !strcmp(field, "name") && hg_node_text_eq(ts_node_child(decl, c), f->src, name, len))
          return true;
      }
    }
  return false;
}

// What selects statement `stmt` within function body `body` when the site `at` is not inside the
// same block: the condition of the nearest `if` (negated in its else), a loop or a case; NULL when
// every path to `at` runs it.
const char *hg_go_condition_of(hg_arena *arena, const hg_go_src *f, TSNode stmt, TSNode body, TSNode at) {
  for (TSNode p = ts_node_parent(stmt), child = stmt; !ts_node_is_null(p) && !ts_node_eq(child, body);
       child = p, p = ts_node_parent(p)) {
    if (hg_node_contains(p, at))
      return NULL;
    if (hg_node_is(p, "if_statement")) {
      TSNode cond = hg_node_field(p, "condition");
      bool negated = ts_node_eq(hg_node_field(p, "alternative"), child);
      return hg_arena_printf(arena, "%s%s", negated ? "not " : "", hg_node_text(cond, f->src, arena));
    }
    if (hg_node_is(p, "for_statement"))
      return "the loop runs";
    if (hg_node_is(p, "expression_case") || hg_node_is(p, "type_case") || hg_node_is(p, "default_case") ||
        hg_node_is(p, "communication_case"))
      return hg_arena_printf(arena, "%.60s", hg_node_text(ts_node_named_child(p, 0), f->src, arena));
  }
  return NULL;
}

// Does a return statement's last result (its error) surely hold an error: `fmt.Errorf(...)`,
// `errors.New(...)`, or the name an enclosing `if name != nil` tested? Its other results are then
// not a value the caller goes on with (Go's `v, err := f()`; `if err != nil { return err }`).
bool hg_go_surely_fails(const hg_go_src *g, TSNode ret, TSNode list) {
  TSNode err = hg_node_arg(list, hg_node_arg_count(list) - 1);
  if (hg_node_is(err, "call_expression")) {
    TSNode fn = hg_node_field(err, "function");
    return hg_node_text_eq(fn, g->src, "fmt.Errorf", 10) || hg_node_text_eq(fn, g->src, "errors.New", 10);
  }
  if (!hg_node_is(err, "identifier"))
    return false;
  for (TSNode p = ts_node_parent(ret); !ts_node_is_null(p) && !hg_node_is(p, "function_declaration") &&
                                       !hg_node_is(p, "method_declaration") && !hg_node_is(p, "func_literal");
       p = ts_node_parent(p)) {
    TSNode cond = hg_node_is(p, "if_statement") ? hg_node_field(p, "condition") : (TSNode){0};
    TSNode cons = hg_node_field(p, "consequence");
    if (!hg_node_is(cond, "binary_expression") || !hg_node_text_eq(hg_node_field(cond, "operator"), g->src, "!=", 2) ||
        !hg_node_is(hg_node_field(cond, "right"), "nil") || !hg_node_contains(cons, ret))
      continue;
    TSNode tested = hg_node_field(cond, "left");
    if (ts_node_end_byte(tested) - ts_node_start_byte(tested) == ts_node_end_byte(err) - ts_node_start_byte(err) &&
        !memcmp(g->src + ts_node_start_byte(tested), g->src + ts_node_start_byte(err),
                ts_node_end_byte(err) - ts_node_start_byte(err)))
      return true;
  }
  return false;
}

