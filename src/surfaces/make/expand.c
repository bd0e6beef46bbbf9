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

// `cond` (a make conditional's directive: `ifdef X`, `ifeq (a,b)`) negated as make would write it.
static const char *negated(hg_makefile *m, const char *cond) {
  static const char *const swap[][2] = {{"ifdef", "ifndef"}, {"ifndef", "ifdef"}, {"ifeq", "ifneq"}, {"ifneq", "ifeq"}};
  for (size_t i = 0; i < HG_ARRAY_LEN(swap); i++) {
    size_t n = strlen(swap[i][0]);
    if (!strncmp(cond, swap[i][0], n) && (cond[n] == ' ' || cond[n] == '\t' || cond[n] == '('))
      return hg_arena_printf(m->arena, "%s%s", swap[i][1], cond + n);
  }
  return hg_arena_printf(m->arena, "not %s", cond);
}

// A directive's text, trimmed.
static const char *directive(hg_makefile *m, TSNode n) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  while (b > a && (m->data[b - 1] == ' ' || m->data[b - 1] == '\t' || m->data[b - 1] == '\n'))
    b--;
  return hg_arena_strndup(m->arena, m->data + a, b - a);
}

// Appends condition `d` (a directive node) to k.
static void add_condition(hg_makefile *m, hg_make_conditional *k, TSNode d) {
  if (k->n_conds == HG_MAKE_MAX_CONDS || ts_node_is_null(d)) {
    k->too_many = true;
    return;
  }
  k->conds[k->n_conds] = directive(m, d);
  k->nots[k->n_conds] = negated(m, k->conds[k->n_conds]);
  k->n_conds++;
}

// Adds conditional node `c` to m->ifs: its directive's condition, then each `else if...`'s in
// order. hg_make_collect adds them as its walk meets them, so that one walk's are in file order.
static void add_conditional(hg_makefile *m, TSNode c) {
  hg_make_conditional k = {.at = ts_node_start_byte(c)};
  add_condition(m, &k, hg_node_field(c, "condition"));
  for (uint32_t i = 0, n = ts_node_named_child_count(c); i < n; i++)
    if (hg_node_is(ts_node_named_child(c, i), "elsif_directive"))
      add_condition(m, &k, hg_node_field(ts_node_named_child(c, i), "condition"));
  HG_VEC_PUSH(&m->ifs, k);
}

// The index in m->ifs of conditional node `c`, which the walk under way added (from index `first`,
// in file order: a binary search).
static uint32_t conditional(const hg_makefile *m, size_t first, TSNode c) {
  size_t lo = first, hi = m->ifs.len;
  uint32_t at = ts_node_start_byte(c);
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->ifs.items[mid].at < at)
      lo = mid + 1;
    else
      hi = mid;
  }
  // The walk added every conditional holding an assignment it reads; UINT32_MAX should it not have.
  return lo < m->ifs.len && m->ifs.items[lo].at == at ? (uint32_t)lo : UINT32_MAX;
}

// The make conditionals assignment `n` stands in, outermost first, and the arm of each: 0 for the
// directive's own lines, i for the i-th `else if...`, the number of conditions for the `else`.
static void place(hg_makefile *m, size_t first, TSNode n, hg_make_assignment *a) {
  uint32_t under[HG_MAKE_MAX_NEST];
  uint8_t arm[HG_MAKE_MAX_NEST];
  unsigned k = 0;
  TSNode child = n;
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); child = p, p = ts_node_parent(p)) {
    if (!hg_node_is(p, "conditional"))
      continue;
    if (k == HG_MAKE_MAX_NEST) {
      a->too_deep = true;
      return;
    }
    uint32_t c = conditional(m, first, p);
    if (c == UINT32_MAX) {
      a->too_deep = true;
      return;
    }
    const hg_make_conditional *info = &m->ifs.items[c];
    unsigned which = 0;
    if (hg_node_is(child, "else_directive")) {
      which = info->n_conds;
    } else if (hg_node_is(child, "elsif_directive")) {
      for (TSNode s = ts_node_prev_named_sibling(child); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s))
        which += hg_node_is(s, "elsif_directive");
      which++;
    }
    if (info->too_many)
      a->too_deep = true;
    under[k] = c;
    arm[k++] = (uint8_t)which;
  }
  for (unsigned i = 0; i < k; i++)
    a->under[i] = under[k - 1 - i], a->arm[i] = arm[k - 1 - i];
  a->n_under = (uint8_t)k;
}

void hg_make_collect(hg_makefile *m, TSNode root, uint32_t lo, uint32_t hi) {
  TSTreeCursor cur = ts_tree_cursor_new(root);
  size_t first = m->ifs.len; // this walk's conditionals start here
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    // A recipe's lines are the shell's; tree-sitter-make also puts in a recipe the conditionals that
    // follow it, whose assignments are the Makefile's (`ifdef X` / `M := 1g` / `endif` after a rule).
    bool descend = !hg_node_is(n, "recipe_line") && ts_node_end_byte(n) > lo && ts_node_start_byte(n) < hi;
    if (descend && hg_node_is(n, "conditional"))
      add_conditional(m, n);
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
      place(m, first, n, &a);
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
static int fork_arm(hg_makefile *m, const char *cond0, const char *cond1);

// The arm of conditional c this reading takes: each condition in turn is a fork (taken alike
// wherever the reading meets c again); -1 past the forks a reading takes, or for a conditional
// hardguard does not read in full.
static int taken(hg_makefile *m, hg_make_conditional *c) {
  if (c->seen && c->seen == m->reading)
    return c->taken;
  c->seen = m->reading;
  c->taken = c->too_many ? -1 : (int)c->n_conds;
  for (unsigned i = 0; i < c->n_conds && !c->too_many; i++) {
    int f = fork_arm(m, c->conds[i], c->nots[i]);
    if (f != 1) {
      c->taken = f < 0 ? -1 : (int)i;
      break;
    }
  }
  return c->taken;
}

// Is v an assignment of variable `name` that this reading makes (in the arms of the conditionals
// it stands in that the reading takes)? One that cannot be told sets *unsure.
static bool made(hg_makefile *m, const hg_make_assignment *v, const char *name, bool *unsure) {
  if (strcmp(v->name, name))
    return false;
  if (v->too_deep) {
    *unsure = true;
    return false;
  }
  for (unsigned l = 0; l < v->n_under; l++) {
    int t = taken(m, &m->ifs.items[v->under[l]]);
    if (t < 0)
      *unsure = true;
    if (t != v->arm[l])
      return false;
  }
  return true;
}

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
    if (made(m, &v[i], name, &unsure) && strcmp(v[i].op, "+=") && strcmp(v[i].op, "?="))
      base = (ssize_t)i;
  if (base < 0)
    for (size_t i = 0; i < n && base < 0; i++)
      if (made(m, &v[i], name, &unsure) && !strcmp(v[i].op, "?="))
        base = (ssize_t)i;
  for (size_t i = base < 0 ? 0 : (size_t)base + 1; i < n && !appended; i++)
    appended = made(m, &v[i], name, &unsure) && !strcmp(v[i].op, "+=");
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
      fork_arm(m, hg_arena_printf(m->arena, "$(origin %s) is file", name),
               hg_arena_printf(m->arena, "$(origin %s) is environment", name)) != 0) {
    // `?=`: the environment or the make command line may set it instead
    environment_variable(m, name, out);
  } else if (any) {
    expand(m, v[base].value, v[base].len, out, depth + 1);
  }
  for (size_t i = base < 0 ? 0 : (size_t)base + 1; i < n && !m->cut; i++)
    if (made(m, &v[i], name, &unsure) && !strcmp(v[i].op, "+=")) {
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

// The arm this reading takes at the next fork, with `cond[arm]` noted as what selects it; -1 past
// HG_MAKE_MAX_FORKS (the caller takes its unknown arm).
static int fork_arm(hg_makefile *m, const char *cond0, const char *cond1) {
  unsigned i = m->forks++;
  if (i >= HG_MAKE_MAX_FORKS)
    return -1;
  int arm = (int)((m->pick >> i) & 1);
  m->conds[i] = arm ? cond1 : cond0;
  return arm;
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
  int arm = fork_arm(m, hg_arena_strndup(m->arena, c, clen), hg_arena_printf(m->arena, "not %.*s", (int)clen, c));
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
