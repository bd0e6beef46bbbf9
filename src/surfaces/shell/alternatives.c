// The values a program word may hold (sh.h: hg_sh_alternatives).
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/shell/expand.h"

// ---- the values a word may hold ------------------------------------------------------------------

// A program word read as its alternatives stops at this many (the rest is one unknown alternative)
// and visits at most this many assignments and defaults: a generated script assigning a variable
// from itself thousands of times must not make the search exponential.
enum { MAX_ALTERNATIVES = 32, MAX_ALT_VISITS = 512 };

typedef struct {
  hg_value_vec out;
  int visits;
} alt_search;

static void alt_push(hg_sh *sh, alt_search *s, hg_value v) {
  if (v.kind == HG_VAL_STR && strchr(v.text, HG_HOLE))
    v = (hg_value){.kind = HG_VAL_UNKNOWN, .text = v.text, .origin = v.origin, .line = v.line, .cond = v.cond};
  for (size_t i = 0; i < s->out.len; i++) {
    const hg_value *o = &s->out.items[i];
    if (o->kind == v.kind && !strcmp(v.kind == HG_VAL_STR ? o->text : o->origin ? o->origin : "",
                                     v.kind == HG_VAL_STR ? v.text : v.origin ? v.origin : ""))
      return; // the same word, or unknown for the same reason
  }
  if (s->out.len >= MAX_ALTERNATIVES)
    v = (hg_value){.kind = HG_VAL_UNKNOWN, .text = v.text, .origin = hg_arena_printf(sh->arena, "budget")};
  if (s->out.len <= MAX_ALTERNATIVES)
    HG_VEC_PUSH(&s->out, v);
}

const char *hg_sh__lone_variable(hg_sh *sh, TSNode n, hg_sh_ref *ref) {
  *ref = (hg_sh_ref){0};
  while (hg_node_is(n, "command_name") || (hg_node_is(n, "string") && ts_node_named_child_count(n) == 1)) {
    ref->quoted |= hg_node_is(n, "string");
    n = ts_node_named_child(n, 0);
  }
  if (hg_node_is(n, "simple_expansion")) {
    TSNode v = ts_node_named_child(n, 0);
    return hg_node_is(v, "variable_name") ? hg_sh__text(sh, v) : NULL;
  }
  if (!hg_node_is(n, "expansion"))
    return NULL;
  const char *name = NULL, *op = NULL;
  for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c)) {
      const char *t = hg_sh__text(sh, c);
      if (!strcmp(t, "${") || !strcmp(t, "}"))
        continue;
      if (!name || op || ref->all_items)
        return NULL; // ${#X}, a second operator, or one after ${A[@]}
      op = t;
    } else if (!name && hg_node_is(c, "variable_name")) {
      name = hg_sh__text(sh, c);
    } else if (!name && hg_node_is(c, "subscript") && hg_node_is(hg_node_field(c, "name"), "variable_name")) {
      const char *index = hg_sh__text(sh, hg_node_field(c, "index"));
      if (strcmp(index, "@") && strcmp(index, "*"))
        return NULL; // one element
      ref->all_items = true;
      ref->joined = !strcmp(index, "*");
      name = hg_sh__text(sh, hg_node_field(c, "name"));
    } else if (name && op && ref->n_deflt < HG_ARRAY_LEN(ref->deflt)) {
      ref->deflt[ref->n_deflt++] = c;
    } else {
      return NULL;
    }
  }
  if (op && strcmp(op, ":-") && strcmp(op, "-") && strcmp(op, ":=") && strcmp(op, "="))
    return NULL;
  if (op && !ref->n_deflt)
    ref->deflt[ref->n_deflt++] = (TSNode){0}; // ${X:-}: the empty word
  return name;
}

// `n` as a variable standing alone, with its default (none of an array's elements).
static const char *var_ref(hg_sh *sh, TSNode n, hg_sh_ref *ref) {
  const char *name = hg_sh__lone_variable(sh, n, ref);
  return ref->all_items ? NULL : name;
}

static void alternatives(hg_sh *sh, TSNode n, const char *cond, int depth, alt_search *s);

// The alternatives of variable `name` where `use` stands: each assignment that may reach it, the
// latest first, down to one made on every path before it (which hides the older ones and the
// environment); the environment when there is none such.
static void var_alternatives(hg_sh *sh, const char *name, TSNode use, int depth, alt_search *s) {
  if (hg_sh__special(name)) {
    alt_push(sh, s, (hg_value){.kind = HG_VAL_UNKNOWN, .text = name, .origin = "an argument of the script or function"});
    return;
  }
  TSNode func = hg_sh_function_of(use);
  uint32_t at = ts_node_start_byte(use);
  for (size_t i = sh->n_assigns; i-- > 0;) {
    const hg_sh_assign *a = &sh->assigns[i];
    if (strcmp(a->name, name))
      continue;
    bool before = ts_node_end_byte(a->node) <= at;
    bool local = !ts_node_is_null(a->func);
    if (local ? !before || !hg_sh__same_node(a->func, func) : !before && ts_node_is_null(func))
      continue;
    if (++s->visits > MAX_ALT_VISITS) {
      alt_push(sh, s, (hg_value){.kind = HG_VAL_UNKNOWN, .text = name, .origin = "budget"});
      return;
    }
    if (hg_sh__walled_off(a->node, use))
      continue;
    const char *c = hg_arena_printf(sh->arena, "%s assigned at line %u", name, ts_node_start_point(a->node).row + 1);
    if (ts_node_is_null(a->value) || hg_node_is(a->value, "array") || a->append) {
      shval v = hg_sh__assigned(sh, a, use);
      alt_push(sh, s,
               v.kind == VAL_SCALAR
                   ? (hg_value){.kind = HG_VAL_STR, .text = v.text, .line = v.line, .cond = c, .origin = v.origin}
                   : (hg_value){.kind = HG_VAL_UNKNOWN, .text = name, .line = v.line, .cond = c,
                                .origin = v.origin ? v.origin : "an array"});
    } else {
      alternatives(sh, a->value, c, depth + 1, s);
    }
    // Made on every path to the use, in its own scope: what came before never reaches it.
    if (before && (local || ts_node_is_null(func)) && !hg_sh__conditional_for(a->node, use))
      return;
  }
  for (size_t i = 0; sh->env && i < sh->env->n; i++)
    if (!strcmp(sh->env->names[i], name)) {
      alt_push(sh, s, (hg_value){.kind = HG_VAL_UNKNOWN, .text = name,
                                 .origin = sh->env->origins && sh->env->origins[i] ? sh->env->origins[i] : sh->env->origin,
                                 .cond = hg_arena_printf(sh->arena, "%s as the file around the script sets it", name)});
      return;
    }
  alt_push(sh, s, (hg_value){.kind = HG_VAL_UNKNOWN, .text = name,
                             .origin = hg_arena_printf(sh->arena, "$%s comes from the environment", name),
                             .cond = hg_arena_printf(sh->arena, "%s set in the environment", name)});
}

static void alternatives(hg_sh *sh, TSNode n, const char *cond, int depth, alt_search *s) {
  s->visits++;
  hg_sh_ref ref = {0};
  const char *name = NULL;
  if (depth < MAX_VAR_DEPTH && s->visits < MAX_ALT_VISITS)
    name = var_ref(sh, n, &ref);
  if (!name) {
    // Any other word: what the reader makes of it, as one word.
    word w = {0};
    hg_value_vec none = {0};
    hg_sh__emit(sh, n, true, &w, n, &none);
    free(none.items);
    const char *t = hg_arena_strndup(sh->arena, w.text.data ? w.text.data : "", w.text.len);
    bool budget = depth >= MAX_VAR_DEPTH || s->visits >= MAX_ALT_VISITS;
    alt_push(sh, s, (hg_value){.kind = budget ? HG_VAL_UNKNOWN : HG_VAL_STR, .text = t, .cond = cond,
                               .origin = budget ? "budget" : w.origin, .line = ts_node_start_point(n).row + 1});
    hg_buf_free(&w.text);
    return;
  }
  var_alternatives(sh, name, n, depth, s);
  if (!ref.n_deflt)
    return;
  // The default: when the variable is unset (or empty, for the `:` forms).
  word w = {0};
  hg_value_vec none = {0};
  for (uint32_t i = 0; i < ref.n_deflt; i++)
    if (!ts_node_is_null(ref.deflt[i]))
      hg_sh__emit(sh, ref.deflt[i], true, &w, ref.deflt[i], &none);
  free(none.items);
  alt_push(sh, s, (hg_value){.kind = HG_VAL_STR,
                             .text = hg_arena_strndup(sh->arena, w.text.data ? w.text.data : "", w.text.len),
                             .origin = w.origin, .line = ts_node_start_point(n).row + 1,
                             .cond = hg_arena_printf(sh->arena, "%s unset", name)});
  hg_buf_free(&w.text);
}

bool hg_sh_alternatives(hg_sh *self, TSNode arg, hg_value *out) {
  hg_sh_ref ref;
  if (!var_ref(self, arg, &ref))
    return false;
  alt_search s = {0};
  alternatives(self, arg, NULL, 0, &s);
  if (s.out.len == 1) {
    *out = s.out.items[0];
    free(s.out.items);
  } else {
    *out = hg_values_finish(self->arena,
                            (hg_value){.kind = HG_VAL_ALT, .text = hg_sh__text(self, arg),
                                       .line = ts_node_start_point(arg).row + 1},
                            &s.out);
  }
  return true;
}
