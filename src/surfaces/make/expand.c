#include "surfaces/make/expand.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"

// Variables referring to variables are expanded this deep; a longer chain (or a cycle) is unknown.
enum { MAX_DEPTH = 8 };
// Bytes one file expands at most (a recipe line may refer to a 100,000-line variable on every
// line), and each reference at least when that is spent: past them, the rest of the value is left
// unknown, with the reason "budget" (the command's first words, its program among them, are read).
#define BUDGET ((size_t)256 << 10)
#define LINE_BUDGET ((size_t)512)

static const char *text_of(const hg_makefile *m, TSNode n) { return hg_node_text(n, m->data, m->arena); }

void hg_make_collect(hg_makefile *m, TSNode root, uint32_t lo, uint32_t hi) {
  TSTreeCursor cur = ts_tree_cursor_new(root);
  size_t first = m->ifs.len; // this walk's conditionals start here
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    // A recipe's lines are the shell's; tree-sitter-make also puts in a recipe the conditionals that
    // follow it, whose assignments are the Makefile's (`ifdef X` / `M := 1g` / `endif` after a rule).
    bool descend = !hg_node_is(n, "recipe_line") && ts_node_end_byte(n) > lo && ts_node_start_byte(n) < hi;
    if (descend && hg_node_is(n, "conditional"))
      hg_make__add_conditional(m, n);
    if (descend && hg_node_is(n, "variable_assignment")) {
      descend = false;
      if (ts_node_start_byte(n) < lo)
        goto next;
      hg_make_assignment a = {.name = text_of(m, hg_node_field(n, "name")), .op = "=", .value = ""};
      TSNode value = hg_node_field(n, "value");
      if (!ts_node_is_null(value)) {
        a.value = text_of(m, value);
        a.len = ts_node_end_byte(value) - ts_node_start_byte(value);
      }
      for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
        TSNode c = ts_node_child(n, i);
        if (!ts_node_is_named(c) && strchr(":+?!=", m->data[ts_node_start_byte(c)]))
          a.op = text_of(m, c);
      }
      hg_make__place(m, first, n, &a);
      HG_VEC_PUSH(&m->vars, a);
    }
  next:
    if (descend && ts_tree_cursor_goto_first_child(&cur))
      continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur)) {
        ts_tree_cursor_delete(&cur);
        return;
      }
  }
}

void hg_make_free(hg_makefile *m) {
  free(m->vars.items);
  free(m->ifs.items);
  free(m->unknown.items);
  free(m->why.items);
}

static void expand(hg_makefile *m, const char *t, size_t n, hg_buf *out, int depth);

static void unknown_variable(hg_makefile *m, const char *name, int depth, hg_buf *out);
static void environment_variable(hg_makefile *m, const char *name, hg_buf *out);

// The value make gives variable `name` when the recipe runs (the whole Makefile has been read),
// appended to `out`: the last `=`/`:=` assignment, with `+=` appended after it and `?=` only when
// nothing else sets it. False (nothing appended) when the Makefile does not assign it, gives it a
// shell command's output (`!=`), or the chain is too deep. A value cut by the budget ends in
// `${name}`.
static bool value_of(hg_makefile *m, const char *name, hg_buf *out, int depth) {
  if (depth > MAX_DEPTH)
    return false;
  const hg_make_assignment *v = m->vars.items;
  size_t n = m->vars.len;
  ssize_t base = -1;
  bool appended = false, unsure = false;
  for (size_t i = 0; i < n; i++)
    if (hg_make__made(m, &v[i], name, &unsure) && strcmp(v[i].op, "+=") && strcmp(v[i].op, "?="))
      base = (ssize_t)i;
  if (base < 0)
    for (size_t i = 0; i < n && base < 0; i++)
      if (hg_make__made(m, &v[i], name, &unsure) && !strcmp(v[i].op, "?="))
        base = (ssize_t)i;
  for (size_t i = base < 0 ? 0 : (size_t)base + 1; i < n && !appended; i++)
    appended = hg_make__made(m, &v[i], name, &unsure) && !strcmp(v[i].op, "+=");
  if (unsure) { // a conditional past the forks a reading takes: which assignments count is not known
    m->unset = HG_MAKE_UNSURE;
    return false;
  }
  if (base < 0 && !appended) { // unset (where its assignments stand in arms this reading does not take)
    for (size_t i = 0; i < n && !m->unset; i++)
      if (!strcmp(v[i].name, name))
        m->unset = HG_MAKE_NOT_HERE;
    return false;
  }
  if (base >= 0 && !strcmp(v[base].op, "!=")) // a shell command's output
    return false;
  bool any = base >= 0;
  if (any && !strcmp(v[base].op, "?=") &&
      hg_make__fork_arm(m, hg_arena_printf(m->arena, "$(origin %s) is file", name),
               hg_arena_printf(m->arena, "$(origin %s) is environment", name)) != 0) {
    // `?=`: the environment or the make command line may set it instead
    environment_variable(m, name, out);
  } else if (any) {
    expand(m, v[base].value, v[base].len, out, depth + 1);
  }
  for (size_t i = base < 0 ? 0 : (size_t)base + 1; i < n && !m->cut; i++)
    if (hg_make__made(m, &v[i], name, &unsure) && !strcmp(v[i].op, "+=")) {
      if (any)
        hg_buf_putc(out, ' ');
      expand(m, v[i].value, v[i].len, out, depth + 1);
      any = true;
    }
  if (m->cut && !m->cut_noted) { // the rest of the value is unknown
    m->cut_noted = true;
    while (out->len && out->data[out->len - 1] != ' ') // back to a word's end
      out->data[--out->len] = '\0';
    unknown_variable(m, name, depth, out);
  }
  return true;
}

static bool listed(const hg_makefile *m, const char *name) {
  for (size_t i = 0; i < m->unknown.len; i++)
    if (!strcmp(m->unknown.items[i], name))
      return true;
  return false;
}

// `$(name)` that make's value does not give: left as `${name}`, for the shell reading to report.
static void unknown_variable(hg_makefile *m, const char *name, int depth, hg_buf *out) {
  hg_buf_printf(out, "${%s}", name);
  int unset = m->unset;
  m->unset = 0;
  if (listed(m, name))
    return;
  bool assigned = false;
  for (size_t k = 0; k < m->vars.len && !assigned; k++)
    assigned = !strcmp(m->vars.items[k].name, name);
  const char *why =
      m->cut ? "$(%s) is too large to expand (budget)"
      : unset == HG_MAKE_UNSURE
          ? "$(%s) is set under make conditionals past the forks hardguard reads a line through (budget)"
      : unset == HG_MAKE_NOT_HERE ? "$(%s) is set only in arms of make conditionals this path does not take (the "
                                    "environment or the make command line may give it)"
      : depth > MAX_DEPTH ? "$(%s) refers to itself or to variables nested too deep"
      : assigned           ? "$(%s) is computed by make (a function or a shell command)"
                           : "$(%s) is not defined in this Makefile (it comes from the environment or the make "
                             "command line)";
  const char *n = hg_arena_printf(m->arena, "%s", name);
  HG_VEC_PUSH(&m->unknown, n);
  HG_VEC_PUSH(&m->why, hg_arena_printf(m->arena, why, name));
}

// `$(name)` of a `?=` taken from the environment: `${name}`, for the shell reading to report.
static void environment_variable(hg_makefile *m, const char *name, hg_buf *out) {
  hg_buf_printf(out, "${%s}", name);
  if (listed(m, name))
    return;
  HG_VEC_PUSH(&m->unknown, hg_arena_printf(m->arena, "%s", name));
  HG_VEC_PUSH(&m->why, hg_arena_printf(m->arena,
                                       "$(%s) is set with ?=, so the environment or the make command line may "
                                       "give it instead",
                                       name));
}

size_t hg_make_closing(const char *t, size_t n, size_t open) {
  char o = t[open], c = o == '(' ? ')' : '}';
  int level = 0;
  for (size_t k = open; k < n; k++) {
    if (t[k] == o)
      level++;
    else if (t[k] == c && --level == 0)
      return k;
  }
  return n;
}

static void trim(const char **s, size_t *n) {
  while (*n && (**s == ' ' || **s == '\t' || **s == '\n'))
      (*s)++, (*n)--;
  while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\n'))
    (*n)--;
}

// `$(if COND,THEN[,ELSE])`, `args` its text after `if `: the branch `pick` says.
static void if_function(hg_makefile *m, const char *args, size_t n, hg_buf *out, int depth) {
  size_t comma[2], found = 0;
  int level = 0;
  for (size_t k = 0; k < n && found < 2; k++) {
    if (args[k] == '(' || args[k] == '{')
      level++;
    else if (args[k] == ')' || args[k] == '}')
      level--;
    else if (args[k] == ',' && level == 0)
      comma[found++] = k;
  }
  if (found == 0) // no THEN: an empty string either way
    return;
  const char *c = args;
  size_t clen = comma[0];
  trim(&c, &clen);
  int arm = hg_make__fork_arm(m, hg_arena_strndup(m->arena, c, clen), hg_arena_printf(m->arena, "not %.*s", (int)clen, c));
  if (arm < 0) {
    hg_buf_add(out, "$(make-function)", 16);
    return;
  }
  const char *part;
  size_t len;
  if (arm == 0) {
    part = args + comma[0] + 1;
    len = (found == 2 ? comma[1] : n) - comma[0] - 1;
  } else {
    part = found == 2 ? args + comma[1] + 1 : "";
    len = found == 2 ? n - comma[1] - 1 : 0;
  }
  trim(&part, &len);
  expand(m, part, len, out, depth);
}

// A reference `$(inner)` or `${inner}`.
static void reference(hg_makefile *m, const char *inner, size_t n, hg_buf *out, int depth) {
  size_t k = 0;
  while (k < n && inner[k] != ' ' && inner[k] != '\t' && inner[k] != ':' && inner[k] != '$' && inner[k] != '(' &&
         inner[k] != '{' && inner[k] != ',')
    k++;
  if (k == n && n) { // a variable
    char *name = hg_xstrndup(inner, n);
    if (!value_of(m, name, out, depth))
      unknown_variable(m, name, depth, out);
    free(name);
  } else if (k == 2 && !memcmp(inner, "if", 2) && (inner[k] == ' ' || inner[k] == '\t')) {
    if_function(m, inner + 3, n - 3, out, depth);
  } else {
    // $(shell ...), $(call ...), $(wildcard ...), $(VAR:a=b), $($(X)): the shell sees their
    // output, unknown here.
    hg_buf_add(out, "$(make-function)", 16);
  }
}

static void expand(hg_makefile *m, const char *t, size_t n, hg_buf *out, int depth) {
  for (size_t i = 0; i < n;) {
    if (out->len >= m->cap) {
      m->cut = true;
      return;
    }
    if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n') {
      hg_buf_putc(out, ' ');
      for (i += 2; i < n && (t[i] == ' ' || t[i] == '\t'); i++) {
      }
    } else if (t[i] == '$' && i + 1 < n && t[i + 1] == '$') {
      hg_buf_putc(out, '$');
      i += 2;
    } else if (t[i] == '$' && i + 1 < n && (t[i + 1] == '(' || t[i + 1] == '{')) {
      size_t close = hg_make_closing(t, n, i + 1);
      if (close == n) { // unterminated: make stops here
        hg_buf_add(out, "$(make-function)", 16);
        return;
      }
      reference(m, t + i + 2, close - i - 2, out, depth);
      i = close + 1;
    } else {
      hg_buf_putc(out, t[i++]);
    }
  }
}

void hg_make_expand(hg_makefile *m, const char *t, size_t len, hg_buf *out) {
  size_t start = out->len, allowance = m->spent < BUDGET ? BUDGET - m->spent : 0;
  m->cap = start + (allowance > LINE_BUDGET ? allowance : LINE_BUDGET);
  m->cut = m->cut_noted = false;
  expand(m, t, len, out, 0);
  m->spent += out->len - start;
}
