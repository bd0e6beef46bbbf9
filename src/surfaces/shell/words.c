// A shell command's words as the shell would pass them: quotes removed, variables and arrays
// assigned in the script substituted (with word splitting where they stand unquoted), and what
// cannot be known (the environment, arguments, command substitutions) kept as a hole with the
// reason, never guessed.
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/shell/expand.h"

// What an assignment gives, worked out once per file (values of variables that refer to variables
// would otherwise be recomputed at every use, exponentially in a generated script).
typedef struct {
  shval value;
  enum { MEMO_NONE, MEMO_BUSY, MEMO_DONE } state;
} memo;

static shval compute(hg_sh *sh, const hg_sh_assign *a);

// The value of assignment `a`, as seen from `use`: conditional when the assignment is made on
// only some of the paths to it.
shval hg_sh__assigned(hg_sh *sh, const hg_sh_assign *a, TSNode use) {
  if (!sh->memo) {
    sh->memo = hg_arena_alloc(sh->arena, (sh->n_assigns ? sh->n_assigns : 1) * sizeof(memo));
    memset(sh->memo, 0, (sh->n_assigns ? sh->n_assigns : 1) * sizeof(memo));
  }
  memo *m = &((memo *)sh->memo)[a - sh->assigns];
  if (m->state == MEMO_BUSY)
    return (shval){.kind = VAL_UNKNOWN,
                   .origin = hg_arena_printf(sh->arena, "$%s is assigned from itself", a->name)};
  if (m->state == MEMO_NONE) {
    m->state = MEMO_BUSY;
    shval v = compute(sh, a);
    bool big = v.kind == VAL_ARRAY ? v.n > MAX_VALUE_ITEMS : v.kind == VAL_SCALAR && strlen(v.text) > MAX_VALUE_BYTES;
    if (big)
      v = (shval){.kind = VAL_UNKNOWN,
                  .origin = hg_arena_printf(sh->arena, "$%s is longer than hardguard follows", a->name)};
    m = &((memo *)sh->memo)[a - sh->assigns];
    m->value = v;
    m->state = MEMO_DONE;
  }
  shval v = m->value;
  v.conditional = v.conditional || hg_sh__conditional_for(a->node, use);
  return v;
}

// What assignment `a` gives where it stands.
static shval compute(hg_sh *sh, const hg_sh_assign *a) {
  shval v = {.kind = VAL_SCALAR, .text = "", .line = ts_node_start_point(a->node).row + 1};
  hg_value_vec items = {0};
  if (hg_node_is(a->value, "array")) {
    word w = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(a->value); i++) {
      TSNode el = ts_node_named_child(a->value, i);
      if (hg_node_is(el, "comment"))
        continue;
      hg_sh__emit(sh, el, false, &w, el, &items);
      hg_sh__finish(sh, &w, el, &items);
    }
    hg_buf_free(&w.text);
    v.kind = VAL_ARRAY;
    v.n = items.len;
    v.items = hg_arena_alloc(sh->arena, (items.len ? items.len : 1) * sizeof(char *));
    for (size_t i = 0; i < items.len; i++) {
      v.items[i] = items.items[i].kind == HG_VAL_UNKNOWN ? "\x01" : items.items[i].text;
      if (items.items[i].kind == HG_VAL_UNKNOWN && !v.origin)
        v.origin = items.items[i].origin;
      if (items.items[i].kind == HG_VAL_UNKNOWN && items.items[i].splat) {
        // An element that may be any number of words: the array's length is unknown too.
        v = (shval){.kind = VAL_UNKNOWN, .origin = items.items[i].origin};
        break;
      }
    }
  } else if (!ts_node_is_null(a->value)) {
    // No word splitting in an assignment: the value is one word.
    word w = {0};
    hg_sh__emit(sh, a->value, true, &w, a->value, &items);
    v.text = hg_arena_strndup(sh->arena, w.text.data ? w.text.data : "", w.text.len);
    v.origin = w.origin;
    if (w.env_var && !a->append && w.env_at <= w.text.len) {
      // X=${X:-default}: the environment's or the default, carried to the words that use it (the
      // program-word and broken-region readers, which take one text, see the default).
      v.env_var = w.env_var;
      v.env_off = w.env_at;
      v.env_len = w.env_done ? w.env_len : w.text.len - w.env_at;
    }
    hg_buf_free(&w.text);
    // Nothing but unknown parts (and blanks): the value is unknown, however it is split.
    if (strchr(v.text, HG_HOLE) && v.text[strspn(v.text, "\x01 \t\n")] == '\0')
      v = (shval){.kind = VAL_UNKNOWN, .origin = v.origin, .line = v.line};
  }
  free(items.items);
  if (a->append) {
    shval before = hg_sh__lookup(sh, a->name, a->node);
    if (before.kind == VAL_UNKNOWN && before.line == 0)
      before = (shval){.kind = v.kind, .text = ""};
    if (before.kind == VAL_UNKNOWN)
      return before;
    if (v.kind == VAL_ARRAY) {
      size_t nb = before.kind == VAL_ARRAY ? before.n : 1;
      const char **all = hg_arena_alloc(sh->arena, (nb + v.n + 1) * sizeof(char *));
      for (size_t i = 0; i < nb; i++)
        all[i] = before.kind == VAL_ARRAY ? before.items[i] : before.text;
      memcpy(all + nb, v.items, v.n * sizeof(char *));
      v.items = all;
      v.n += nb;
    } else if (before.kind == VAL_SCALAR) {
      v.text = hg_arena_printf(sh->arena, "%s%s", before.text, v.text);
    }
    v.conditional = before.conditional;
  }
  return v;
}

bool hg_sh__special(const char *name) {
  return (name[0] >= '0' && name[0] <= '9') || !strcmp(name, "@") || !strcmp(name, "*") || !strcmp(name, "#");
}

// The value of variable `name` at `use`: its last assignment before the use in the same function
// or at the top level; for a use inside a function, which runs when called, the last top-level
// assignment anywhere when there is none before it. In a word read once per branch, the pinned
// variable is that branch's assignment.
shval hg_sh__lookup(hg_sh *sh, const char *name, TSNode use) {
  if (hg_sh__special(name))
    return (shval){.kind = VAL_UNKNOWN, .origin = hg_arena_printf(sh->arena, "an argument of the script or function")};
  if (sh->pin_name && !sh->depth && !strcmp(name, sh->pin_name)) {
    // The word read once per branch: this branch's assignment, the branch the alternative's.
    sh->depth++;
    shval v = hg_sh__assigned(sh, sh->pin, use);
    sh->depth--;
    v.conditional = false;
    return v;
  }
  if (sh->depth >= MAX_VAR_DEPTH)
    return (shval){
        .kind = VAL_UNKNOWN,
        .origin = hg_arena_printf(sh->arena, "assigned through more than %d variables ($%s)", MAX_VAR_DEPTH, name)};
  TSNode func = hg_sh_function_of(use);
  uint32_t at = ts_node_start_byte(use);
  const hg_sh_assign *found = NULL;
  for (size_t i = hg_sh__assigns_before(sh, at); i-- > 0 && !found;) {
    const hg_sh_assign *a = &sh->assigns[i];
    // An assignment reaches uses after it, not those inside it (`A=($A x)` reads the old A).
    if (ts_node_end_byte(a->node) > at || strcmp(a->name, name))
      continue;
    if (!ts_node_is_null(a->func) && !hg_sh__same_node(a->func, func))
      continue; // another function's
    if (hg_sh__walled_off(a->node, use))
      continue;
    found = a;
  }
  for (size_t i = sh->n_assigns; !found && !ts_node_is_null(func) && i-- > 0;) {
    const hg_sh_assign *a = &sh->assigns[i];
    if (!strcmp(a->name, name) && ts_node_is_null(a->func) && !hg_sh__walled_off(a->node, use))
      found = a;
  }
  for (size_t i = 0; !found && sh->env && i < sh->env->n; i++)
    if (!strcmp(sh->env->names[i], name))
      return (shval){.kind = VAL_UNKNOWN,
                     .origin = sh->env->origins && sh->env->origins[i] ? sh->env->origins[i] : sh->env->origin};
  if (!found)
    return (shval){
        .kind = VAL_UNKNOWN,
        .origin = hg_arena_printf(sh->arena, "$%s is not assigned in the script: it comes from the environment", name)};
  sh->depth++;
  shval v = hg_sh__assigned(sh, found, use);
  sh->depth--;
  return v;
}

// Appends a variable's value to the word: as one piece when quoted, split into fields when not;
// an array's elements (`${a[@]}`) as words of their own.
void hg_sh__put_value(hg_sh *sh, const shval *v, bool quoted, bool all_items, bool joined, word *w, TSNode arg,
                      hg_value_vec *out) {
  if (v->conditional)
    w->conditional = true;
  if (v->line && !w->line)
    w->line = v->line;
  if (v->origin && !w->origin)
    w->origin = v->origin;
  if (v->kind == VAL_UNKNOWN) {
    hg_sh__hole(w, v->origin, quoted);
    if (all_items && !joined)
      w->spread = true;  // "${a[@]}": as many words as it has elements
    return;
  }
  if (v->kind == VAL_SCALAR || !all_items) {
    const char *t = v->kind == VAL_SCALAR ? v->text : (v->n ? v->items[0] : "");
    if (v->kind == VAL_SCALAR && v->env_var && !w->env_var && (quoted || !t[strcspn(t, " \t\n")])) {
      // A value that is the environment's or a default: so is the word (unsplit, it lands as is).
      w->env_var = v->env_var;
      w->env_at = w->text.len + v->env_off;
      w->env_len = v->env_len;
      w->env_done = true;
      w->env_line = v->line;
    }
    if (!quoted && strchr(t, HG_HOLE))
      w->spread = true;  // an unknown part, split: any number of words
    if (quoted) {
      hg_sh__put(w, t, strlen(t));
    } else {
      hg_sh__put_split(sh, w, t, arg, out);
    }
    return;
  }
  for (size_t i = 0; i < v->n; i++) {
    if (i && (quoted && !joined)) {
      bool c = w->conditional;
      uint32_t line = w->line;
      hg_sh__finish(sh, w, arg, out);
      w->conditional = c;
      w->line = line;
    } else if (i && joined) {
      hg_sh__put(w, " ", 1);
    }
    if (quoted) {
      hg_sh__put(w, v->items[i], strlen(v->items[i]));
    } else {
      hg_sh__put_split(sh, w, v->items[i], arg, out);
      if (i + 1 < v->n) {
        hg_sh__finish(sh, w, arg, out);
        w->conditional = v->conditional;
      }
    }
  }
  if (!v->n && quoted && !joined && !w->text.len)
    w->open = false; // "${empty[@]}" is no word at all
}

// ${NAME}, ${NAME:-default}, ${ARR[@]}, ${#NAME} ...
static void emit_expansion(hg_sh *sh, TSNode n, bool quoted, word *w, TSNode arg, hg_value_vec *out) {
  const char *name = NULL, *op = NULL;
  bool all_items = false, joined = false, length = false;
  TSNode deflt[8];
  uint32_t n_deflt = 0;
  for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
    TSNode c = ts_node_child(n, i);
    const char *type = ts_node_type(c);
    if (!ts_node_is_named(c)) {
      const char *t = hg_sh__text(sh, c);
      if (!strcmp(t, "${") || !strcmp(t, "}"))
        continue;
      if (!name && !strcmp(t, "#")) {
        length = true;
      } else if (name && !op) {
        op = t;
      }
      continue;
    }
    if (!name && (!strcmp(type, "variable_name") || !strcmp(type, "special_variable_name"))) {
      name = hg_sh__text(sh, c);
    } else if (!name && !strcmp(type, "subscript")) {
      name = hg_sh__text(sh, hg_node_field(c, "name"));
      const char *index = hg_sh__text(sh, hg_node_field(c, "index"));
      all_items = !strcmp(index, "@") || !strcmp(index, "*");
      joined = !strcmp(index, "*");
      if (!all_items) {
        hg_sh__hole(w, "one element of an array", quoted);
        return;
      }
    } else if (name && op && n_deflt < HG_ARRAY_LEN(deflt)) {
      deflt[n_deflt++] = c;
    }
  }
  if (!name || length) {
    hg_sh__hole(w, "a shell expansion", quoted);
    return;
  }
  shval v = hg_sh__lookup(sh, name, n);
  if (!strcmp(name, "@") && !joined)
    w->spread = true; // "${@}" is as many words as there are arguments
  bool unset = v.kind == VAL_UNKNOWN && !hg_sh__special(name);
  if (op && (!strcmp(op, ":-") || !strcmp(op, "-") || !strcmp(op, ":=") || !strcmp(op, "="))) {
    // The default stands when the script never assigns the variable; an empty assignment counts
    // as unset only for the `:` forms.
    bool empty = v.kind == VAL_SCALAR && !v.text[0];
    if (unset || (op[0] == ':' && empty)) {
      bool env = unset && !w->env_var; // the environment may set it (the first such in a word)
      if (env) {
        w->env_var = name;
        w->env_at = w->text.len;
      }
      for (uint32_t i = 0; i < n_deflt; i++)
        hg_sh__emit(sh, deflt[i], quoted, w, arg, out);
      if (!n_deflt)
        w->open = true;
      if (env && w->env_var == name && !w->env_done) {
        w->env_len = w->text.len - w->env_at;
        w->env_done = true;
      }
      return;
    }
  } else if (op && strcmp(op, ":?") && strcmp(op, "?")) {
    // ${X#pat}, ${X%pat}, ${X/a/b}, ${X:+alt}, ${X:0:3} ...: the result is not followed.
    hg_sh__hole(w, "a shell expansion hardguard does not evaluate", quoted);
    return;
  }
  hg_sh__put_value(sh, &v, quoted, all_items, joined, w, arg, out);
}

void hg_sh__emit(hg_sh *sh, TSNode n, bool quoted, word *w, TSNode arg, hg_value_vec *out) {
  const char *type = ts_node_type(n);
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  const char *s = sh->src + a;
  if (!strcmp(type, "word") || !strcmp(type, "number") || !strcmp(type, "command_name")) {
    if (!strcmp(type, "command_name") && ts_node_named_child_count(n) == 1) {
      hg_sh__emit(sh, ts_node_named_child(n, 0), quoted, w, arg, out);
      return;
    }
    hg_sh__put_unescaped(w, s, b - a, quoted);
  } else if (!strcmp(type, "raw_string")) {
    hg_sh__put(w, s + 1, b - a >= 2 ? b - a - 2 : 0);
  } else if (!strcmp(type, "ansi_c_string")) {
    hg_sh__put(w, s + 2, b - a >= 3 ? b - a - 3 : 0);
  } else if (!strcmp(type, "string") || !strcmp(type, "translated_string")) {
    w->open = true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      TSNode c = ts_node_named_child(n, i);
      if (hg_node_is(c, "string_content"))
        hg_sh__put_unescaped(w, sh->src + ts_node_start_byte(c), ts_node_end_byte(c) - ts_node_start_byte(c), true);
      else
        hg_sh__emit(sh, c, true, w, arg, out);
    }
  } else if (!strcmp(type, "concatenation")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
      hg_sh__emit(sh, ts_node_named_child(n, i), quoted, w, arg, out);
  } else if (!strcmp(type, "simple_expansion")) {
    TSNode v = ts_node_named_child(n, 0);
    if (hg_node_is(v, "variable_name") || hg_node_is(v, "special_variable_name")) {
      const char *name = hg_sh__text(sh, v);
      shval val = hg_sh__lookup(sh, name, n);
      hg_sh__put_value(sh, &val, quoted, !strcmp(name, "@") || !strcmp(name, "*"), !strcmp(name, "*"), w, arg, out);
      if (!strcmp(name, "@"))
        w->spread = true; // "$@" is as many words as there are arguments
    } else {
      hg_sh__hole(w, "a shell expansion", quoted);
    }
  } else if (!strcmp(type, "expansion")) {
    emit_expansion(sh, n, quoted, w, arg, out);
  } else if (!strcmp(type, "command_substitution")) {
    hg_sh__hole(w, "the output of a command", quoted);
  } else if (!strcmp(type, "process_substitution")) {
    hg_sh__hole(w, "a process substitution", quoted);
  } else if (!strcmp(type, "arithmetic_expansion")) {
    hg_sh__hole(w, "an arithmetic expansion", quoted);
  } else {
    hg_sh__hole(w, "a shell construct hardguard does not evaluate", quoted);
  }
}


const char *hg_sh_scalar_at(hg_sh *self, const char *name, TSNode use) {
  shval v = hg_sh__lookup(self, name, use);
  return v.kind == VAL_SCALAR && !strchr(v.text, HG_HOLE) ? v.text : NULL;
}
