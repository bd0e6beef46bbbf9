// A shell command's words as the shell would pass them: quotes removed, variables and arrays
// assigned in the script substituted (with word splitting where they stand unquoted), and what
// cannot be known (the environment, arguments, command substitutions) kept as a hole with the
// reason, never guessed.
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/shell/sh.h"

// Variables followed through other variables at most this deep (`A=$B`, `B=$C`, ...): a script
// assigning a chain longer than this is generated, and a cycle (`A=$A`) must end.
enum { MAX_VAR_DEPTH = 16 };
// A variable's value longer than this (or with more elements) is not followed: `A="$B $B"` over a
// few dozen lines doubles it each time, and a generated script must not exhaust memory.
enum { MAX_VALUE_BYTES = 1 << 16, MAX_VALUE_ITEMS = 4096 };

// A variable's value where it is used.
typedef struct {
  enum { VAL_UNKNOWN, VAL_SCALAR, VAL_ARRAY } kind;
  const char *text;   // SCALAR, HG_HOLE marking unknown parts
  const char **items; // ARRAY
  size_t n;
  const char *origin; // UNKNOWN: why; SCALAR and ARRAY: why a hole in them is unknown
  bool conditional;   // assigned on only some paths to the use
  uint32_t line;      // of the assignment (0: none)
  // SCALAR assigned `X=${X:-default}` (or with such a part) while the script had not assigned X:
  // the environment's value or the default, as in a word (env_var, the default at text[env_off..
  // +env_len)).
  const char *env_var;
  size_t env_off, env_len;
} shval;

// The word being built.
typedef struct {
  hg_buf text;
  bool open;          // a word has started (even an empty one: "" is a word)
  const char *origin; // the first unknown part's reason
  bool spread;        // an unknown part stands unquoted: it may split into any number of words
  bool conditional;
  uint32_t line; // of the assignment a part came from, else of the argument
  // ${VAR:-default} of a variable the script never assigns: the environment's value or the
  // default (the value model's alternatives). The default's text stands at env_at.., env_len bytes.
  const char *env_var;
  size_t env_at, env_len;
  bool env_done; // env_len is known
  uint32_t env_line; // the assignment X=${X:-default} it came through (0: in the word itself)
} word;

static const char *text_of(hg_sh *sh, TSNode n) { return hg_node_text(n, sh->src, sh->arena); }

// ---- assignments ---------------------------------------------------------------------------------

TSNode hg_sh_function_of(TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
    if (hg_node_is(p, "function_definition"))
      return p;
  return (TSNode){0};
}

static bool same_node(TSNode a, TSNode b) {
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
            .name = text_of(self, name), .node = n, .value = hg_node_field(n, "value"), .func = hg_sh_function_of(n)};
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

// Is the assignment made on only some of the paths that reach `use`: inside an if, a case, a
// loop or one side of && / || that does not also hold the use?
static bool conditional_for(TSNode assign, TSNode use) {
  static const char *const branching[] = {"if_statement",    "elif_clause",   "else_clause",           "case_item",
                                          "while_statement", "for_statement", "c_style_for_statement", "list"};
  for (TSNode p = ts_node_parent(assign); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (hg_node_contains(p, use))
      return false;
    for (size_t i = 0; i < HG_ARRAY_LEN(branching); i++)
      if (hg_node_is(p, branching[i]))
        return true;
  }
  return false;
}

// Is the assignment made in a subshell (or a pipeline stage) that the use is not in? Then it does
// not reach the use at all.
static bool walled_off(TSNode assign, TSNode use) {
  for (TSNode p = ts_node_parent(assign); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (hg_node_contains(p, use))
      return false;
    if (hg_node_is(p, "subshell") || hg_node_is(p, "pipeline") || hg_node_is(p, "command_substitution"))
      return true;
  }
  return false;
}

// ---- words ---------------------------------------------------------------------------------------

static void put(word *w, const char *s, size_t n) {
  hg_buf_add(&w->text, s, n);
  w->open = true;
}

static void hole(word *w, const char *origin, bool quoted) {
  hg_buf_putc(&w->text, HG_HOLE);
  w->open = true;
  if (!quoted)
    w->spread = true;
  if (!w->origin)
    w->origin = origin;
}

static void finish(hg_sh *sh, word *w, TSNode arg, hg_value_vec *out) {
  if (!w->open)
    return;
  const char *t = w->text.data ? w->text.data : "";
  hg_value v = {
      .kind = HG_VAL_STR, .line = w->line ? w->line : ts_node_start_point(arg).row + 1, .conditional = w->conditional};
  if (w->env_var && w->env_at <= w->text.len) {
    // One of two words: the environment's value in the default's place, or the default.
    size_t len = w->env_done ? w->env_len : w->text.len - w->env_at;
    if (w->env_at + len > w->text.len)
      len = w->text.len - w->env_at;
    hg_value *arms = hg_arena_alloc(sh->arena, 2 * sizeof(hg_value));
    hg_buf env = {0};
    hg_buf_add(&env, t, w->env_at);
    hg_buf_putc(&env, HG_HOLE);
    hg_buf_add(&env, t + w->env_at + len, w->text.len - w->env_at - len);
    const char *origin =
        w->env_line
            ? hg_arena_printf(sh->arena, "$%s comes from the environment when it is set (line %u gives it only a default)",
                              w->env_var, w->env_line)
            : hg_arena_printf(sh->arena, "$%s is not assigned in the script: it comes from the environment", w->env_var);
    arms[0] = v;
    arms[0].text = hg_arena_strndup(sh->arena, env.data, env.len);
    arms[0].origin = origin;
    if (env.len == 1) {
      arms[0].kind = HG_VAL_UNKNOWN;
      arms[0].text = text_of(sh, arg);
      arms[0].splat = w->spread;
    }
    arms[0].cond = hg_arena_printf(sh->arena, "%s is set", w->env_var);
    hg_buf_free(&env);
    arms[1] = v;
    arms[1].text = hg_arena_strndup(sh->arena, t, w->text.len);
    arms[1].origin = w->origin;
    arms[1].cond = hg_arena_printf(sh->arena, "%s is unset", w->env_var);
    v.kind = HG_VAL_ALT;
    v.text = text_of(sh, arg);
    v.items = arms;
    v.n_items = 2;
  } else if (t[0] == HG_HOLE && t[1] == '\0') {
    v.kind = HG_VAL_UNKNOWN;
    v.text = text_of(sh, arg);
    v.origin = w->origin;
    v.splat = w->spread; // `$OPTS` unquoted may be several words, options among them; "$IMG" is one
  } else {
    v.text = hg_arena_strndup(sh->arena, t, w->text.len);
    v.origin = w->origin; // why its holes are unknown
  }
  HG_VEC_PUSH(out, v);
  w->text.len = 0;
  if (w->text.data)
    w->text.data[0] = '\0';
  w->open = false;
  w->origin = NULL;
  w->spread = false;
  w->conditional = false;
  w->line = 0;
  w->env_var = NULL;
  w->env_done = false;
  w->env_line = 0;
}

// Text the shell splits into fields (an unquoted expansion): blanks end the word being built.
static void put_split(hg_sh *sh, word *w, const char *s, TSNode arg, hg_value_vec *out) {
  for (const char *p = s; *p; p++) {
    if (*p == ' ' || *p == '\t' || *p == '\n')
      finish(sh, w, arg, out);
    else
      put(w, p, 1);
  }
}

// Backslash escapes: unquoted, `\c` is c; inside double quotes only before $ ` " \ and newline.
static void put_unescaped(word *w, const char *s, size_t n, bool quoted) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\\' && i + 1 < n && (!quoted || strchr("$`\"\\\n", s[i + 1]))) {
      i++;
      if (s[i] == '\n')
        continue; // a line continuation
    }
    put(w, s + i, 1);
  }
}

static void emit(hg_sh *sh, TSNode n, bool quoted, word *w, TSNode arg, hg_value_vec *out);
static shval lookup(hg_sh *sh, const char *name, TSNode use);

// What an assignment gives, worked out once per file (values of variables that refer to variables
// would otherwise be recomputed at every use, exponentially in a generated script).
typedef struct {
  shval value;
  enum { MEMO_NONE, MEMO_BUSY, MEMO_DONE } state;
} memo;

static shval compute(hg_sh *sh, const hg_sh_assign *a);

// The value of assignment `a`, as seen from `use`: conditional when the assignment is made on
// only some of the paths to it.
static shval assigned(hg_sh *sh, const hg_sh_assign *a, TSNode use) {
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
  v.conditional = v.conditional || conditional_for(a->node, use);
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
      emit(sh, el, false, &w, el, &items);
      finish(sh, &w, el, &items);
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
    emit(sh, a->value, true, &w, a->value, &items);
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
    shval before = lookup(sh, a->name, a->node);
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

static bool special(const char *name) {
  return (name[0] >= '0' && name[0] <= '9') || !strcmp(name, "@") || !strcmp(name, "*") || !strcmp(name, "#");
}

// The value of variable `name` at `use`: its last assignment before the use in the same function
// or at the top level; for a use inside a function, which runs when called, the last top-level
// assignment anywhere when there is none before it.
static shval lookup(hg_sh *sh, const char *name, TSNode use) {
  if (special(name))
    return (shval){.kind = VAL_UNKNOWN, .origin = hg_arena_printf(sh->arena, "an argument of the script or function")};
  if (sh->depth >= MAX_VAR_DEPTH)
    return (shval){
        .kind = VAL_UNKNOWN,
        .origin = hg_arena_printf(sh->arena, "assigned through more than %d variables ($%s)", MAX_VAR_DEPTH, name)};
  TSNode func = hg_sh_function_of(use);
  uint32_t at = ts_node_start_byte(use);
  const hg_sh_assign *found = NULL;
  for (size_t i = sh->n_assigns; i-- > 0 && !found;) {
    const hg_sh_assign *a = &sh->assigns[i];
    // An assignment reaches uses after it, not those inside it (`A=($A x)` reads the old A).
    if (ts_node_end_byte(a->node) > at || strcmp(a->name, name))
      continue;
    if (!ts_node_is_null(a->func) && !same_node(a->func, func))
      continue; // another function's
    if (walled_off(a->node, use))
      continue;
    found = a;
  }
  for (size_t i = sh->n_assigns; !found && !ts_node_is_null(func) && i-- > 0;) {
    const hg_sh_assign *a = &sh->assigns[i];
    if (!strcmp(a->name, name) && ts_node_is_null(a->func) && !walled_off(a->node, use))
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
  shval v = assigned(sh, found, use);
  sh->depth--;
  return v;
}

// Appends a variable's value to the word: as one piece when quoted, split into fields when not;
// an array's elements (`${a[@]}`) as words of their own.
static void put_value(hg_sh *sh, const shval *v, bool quoted, bool all_items, bool joined, word *w, TSNode arg,
                      hg_value_vec *out) {
  if (v->conditional)
    w->conditional = true;
  if (v->line && !w->line)
    w->line = v->line;
  if (v->origin && !w->origin)
    w->origin = v->origin;
  if (v->kind == VAL_UNKNOWN) {
    hole(w, v->origin, quoted);
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
      put(w, t, strlen(t));
    } else {
      put_split(sh, w, t, arg, out);
    }
    return;
  }
  for (size_t i = 0; i < v->n; i++) {
    if (i && (quoted && !joined)) {
      bool c = w->conditional;
      uint32_t line = w->line;
      finish(sh, w, arg, out);
      w->conditional = c;
      w->line = line;
    } else if (i && joined) {
      put(w, " ", 1);
    }
    if (quoted) {
      put(w, v->items[i], strlen(v->items[i]));
    } else {
      put_split(sh, w, v->items[i], arg, out);
      if (i + 1 < v->n)
        finish(sh, w, arg, out);
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
      const char *t = text_of(sh, c);
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
      name = text_of(sh, c);
    } else if (!name && !strcmp(type, "subscript")) {
      name = text_of(sh, hg_node_field(c, "name"));
      const char *index = text_of(sh, hg_node_field(c, "index"));
      all_items = !strcmp(index, "@") || !strcmp(index, "*");
      joined = !strcmp(index, "*");
      if (!all_items) {
        hole(w, "one element of an array", quoted);
        return;
      }
    } else if (name && op && n_deflt < HG_ARRAY_LEN(deflt)) {
      deflt[n_deflt++] = c;
    }
  }
  if (!name || length) {
    hole(w, "a shell expansion", quoted);
    return;
  }
  shval v = lookup(sh, name, n);
  if (!strcmp(name, "@") && !joined)
    w->spread = true; // "${@}" is as many words as there are arguments
  bool unset = v.kind == VAL_UNKNOWN && !special(name);
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
        emit(sh, deflt[i], quoted, w, arg, out);
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
    hole(w, "a shell expansion hardguard does not evaluate", quoted);
    return;
  }
  put_value(sh, &v, quoted, all_items, joined, w, arg, out);
}

static void emit(hg_sh *sh, TSNode n, bool quoted, word *w, TSNode arg, hg_value_vec *out) {
  const char *type = ts_node_type(n);
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  const char *s = sh->src + a;
  if (!strcmp(type, "word") || !strcmp(type, "number") || !strcmp(type, "command_name")) {
    if (!strcmp(type, "command_name") && ts_node_named_child_count(n) == 1) {
      emit(sh, ts_node_named_child(n, 0), quoted, w, arg, out);
      return;
    }
    put_unescaped(w, s, b - a, quoted);
  } else if (!strcmp(type, "raw_string")) {
    put(w, s + 1, b - a >= 2 ? b - a - 2 : 0);
  } else if (!strcmp(type, "ansi_c_string")) {
    put(w, s + 2, b - a >= 3 ? b - a - 3 : 0);
  } else if (!strcmp(type, "string") || !strcmp(type, "translated_string")) {
    w->open = true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      TSNode c = ts_node_named_child(n, i);
      if (hg_node_is(c, "string_content"))
        put_unescaped(w, sh->src + ts_node_start_byte(c), ts_node_end_byte(c) - ts_node_start_byte(c), true);
      else
        emit(sh, c, true, w, arg, out);
    }
  } else if (!strcmp(type, "concatenation")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
      emit(sh, ts_node_named_child(n, i), quoted, w, arg, out);
  } else if (!strcmp(type, "simple_expansion")) {
    TSNode v = ts_node_named_child(n, 0);
    if (hg_node_is(v, "variable_name") || hg_node_is(v, "special_variable_name")) {
      const char *name = text_of(sh, v);
      shval val = lookup(sh, name, n);
      put_value(sh, &val, quoted, !strcmp(name, "@") || !strcmp(name, "*"), !strcmp(name, "*"), w, arg, out);
      if (!strcmp(name, "@"))
        w->spread = true; // "$@" is as many words as there are arguments
    } else {
      hole(w, "a shell expansion", quoted);
    }
  } else if (!strcmp(type, "expansion")) {
    emit_expansion(sh, n, quoted, w, arg, out);
  } else if (!strcmp(type, "command_substitution")) {
    hole(w, "the output of a command", quoted);
  } else if (!strcmp(type, "process_substitution")) {
    hole(w, "a process substitution", quoted);
  } else if (!strcmp(type, "arithmetic_expansion")) {
    hole(w, "an arithmetic expansion", quoted);
  } else {
    hole(w, "a shell construct hardguard does not evaluate", quoted);
  }
}

void hg_sh_words(hg_sh *self, TSNode arg, hg_value_vec *out) {
  word w = {0};
  emit(self, arg, false, &w, arg, out);
  finish(self, &w, arg, out);
  hg_buf_free(&w.text);
}

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

// `n` as a variable standing alone: $X, ${X}, ${X:-default} (and the = forms), "$X", "${X:-d}".
// *deflt, *n_deflt: the default's nodes (none without one).
static const char *var_ref(hg_sh *sh, TSNode n, TSNode *deflt, uint32_t *n_deflt, uint32_t max) {
  *n_deflt = 0;
  while (hg_node_is(n, "command_name") || (hg_node_is(n, "string") && ts_node_named_child_count(n) == 1))
    n = ts_node_named_child(n, 0);
  if (hg_node_is(n, "simple_expansion")) {
    TSNode v = ts_node_named_child(n, 0);
    return hg_node_is(v, "variable_name") ? text_of(sh, v) : NULL;
  }
  if (!hg_node_is(n, "expansion"))
    return NULL;
  const char *name = NULL, *op = NULL;
  for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c)) {
      const char *t = text_of(sh, c);
      if (!strcmp(t, "${") || !strcmp(t, "}"))
        continue;
      if (!name || op)
        return NULL; // ${#X}, or a second operator
      op = t;
    } else if (!name && hg_node_is(c, "variable_name")) {
      name = text_of(sh, c);
    } else if (name && op && *n_deflt < max) {
      deflt[(*n_deflt)++] = c;
    } else {
      return NULL;
    }
  }
  if (op && strcmp(op, ":-") && strcmp(op, "-") && strcmp(op, ":=") && strcmp(op, "="))
    return NULL;
  if (op && !*n_deflt)
    deflt[(*n_deflt)++] = (TSNode){0}; // ${X:-}: the empty word
  return name;
}

static void alternatives(hg_sh *sh, TSNode n, const char *cond, int depth, alt_search *s);

// The alternatives of variable `name` where `use` stands: each assignment that may reach it, the
// latest first, down to one made on every path before it (which hides the older ones and the
// environment); the environment when there is none such.
static void var_alternatives(hg_sh *sh, const char *name, TSNode use, int depth, alt_search *s) {
  if (special(name)) {
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
    if (local ? !before || !same_node(a->func, func) : !before && ts_node_is_null(func))
      continue;
    if (++s->visits > MAX_ALT_VISITS) {
      alt_push(sh, s, (hg_value){.kind = HG_VAL_UNKNOWN, .text = name, .origin = "budget"});
      return;
    }
    if (walled_off(a->node, use))
      continue;
    const char *c = hg_arena_printf(sh->arena, "%s assigned at line %u", name, ts_node_start_point(a->node).row + 1);
    if (ts_node_is_null(a->value) || hg_node_is(a->value, "array") || a->append) {
      shval v = assigned(sh, a, use);
      alt_push(sh, s,
               v.kind == VAL_SCALAR
                   ? (hg_value){.kind = HG_VAL_STR, .text = v.text, .line = v.line, .cond = c, .origin = v.origin}
                   : (hg_value){.kind = HG_VAL_UNKNOWN, .text = name, .line = v.line, .cond = c,
                                .origin = v.origin ? v.origin : "an array"});
    } else {
      alternatives(sh, a->value, c, depth + 1, s);
    }
    // Made on every path to the use, in its own scope: what came before never reaches it.
    if (before && (local || ts_node_is_null(func)) && !conditional_for(a->node, use))
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
  TSNode deflt[8];
  uint32_t n_deflt = 0;
  const char *name = NULL;
  if (depth < MAX_VAR_DEPTH && s->visits < MAX_ALT_VISITS)
    name = var_ref(sh, n, deflt, &n_deflt, HG_ARRAY_LEN(deflt));
  if (!name) {
    // Any other word: what the reader makes of it, as one word.
    word w = {0};
    hg_value_vec none = {0};
    emit(sh, n, true, &w, n, &none);
    free(none.items);
    const char *t = hg_arena_strndup(sh->arena, w.text.data ? w.text.data : "", w.text.len);
    bool budget = depth >= MAX_VAR_DEPTH || s->visits >= MAX_ALT_VISITS;
    alt_push(sh, s, (hg_value){.kind = budget ? HG_VAL_UNKNOWN : HG_VAL_STR, .text = t, .cond = cond,
                               .origin = budget ? "budget" : w.origin, .line = ts_node_start_point(n).row + 1});
    hg_buf_free(&w.text);
    return;
  }
  var_alternatives(sh, name, n, depth, s);
  if (!n_deflt)
    return;
  // The default: when the variable is unset (or empty, for the `:` forms).
  word w = {0};
  hg_value_vec none = {0};
  for (uint32_t i = 0; i < n_deflt; i++)
    if (!ts_node_is_null(deflt[i]))
      emit(sh, deflt[i], true, &w, deflt[i], &none);
  free(none.items);
  alt_push(sh, s, (hg_value){.kind = HG_VAL_STR,
                             .text = hg_arena_strndup(sh->arena, w.text.data ? w.text.data : "", w.text.len),
                             .origin = w.origin, .line = ts_node_start_point(n).row + 1,
                             .cond = hg_arena_printf(sh->arena, "%s unset", name)});
  hg_buf_free(&w.text);
}

bool hg_sh_alternatives(hg_sh *self, TSNode arg, hg_value *out) {
  TSNode deflt[8];
  uint32_t n_deflt;
  if (!var_ref(self, arg, deflt, &n_deflt, HG_ARRAY_LEN(deflt)))
    return false;
  alt_search s = {0};
  alternatives(self, arg, NULL, 0, &s);
  if (s.out.len == 1) {
    *out = s.out.items[0];
    free(s.out.items);
  } else {
    *out = hg_values_finish(self->arena,
                            (hg_value){.kind = HG_VAL_ALT, .text = text_of(self, arg),
                                       .line = ts_node_start_point(arg).row + 1},
                            &s.out);
  }
  return true;
}

const char *hg_sh_scalar_at(hg_sh *self, const char *name, TSNode use) {
  shval v = lookup(self, name, use);
  return v.kind == VAL_SCALAR && !strchr(v.text, HG_HOLE) ? v.text : NULL;
}
