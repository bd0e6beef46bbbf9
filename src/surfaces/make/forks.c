// The choices one reading of a recipe line takes (expand.h): its forks, and the arms of the make
// conditionals the assignments it reads stand in.
#include <string.h>

#include "surfaces/make/expand.h"
#include "surfaces/node.h"

// The arm this reading takes at the next fork, with `cond[arm]` noted as what selects it; -1 past
// HG_MAKE_MAX_FORKS (the caller takes its unknown arm).
int hg_make__fork_arm(hg_makefile *m, const char *cond0, const char *cond1) {
  unsigned i = m->forks++;
  if (i >= HG_MAKE_MAX_FORKS)
    return -1;
  int arm = (int)((m->pick >> i) & 1);
  m->conds[i] = arm ? cond1 : cond0;
  return arm;
}

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
void hg_make__add_conditional(hg_makefile *m, TSNode c) {
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
void hg_make__place(hg_makefile *m, size_t first, TSNode n, hg_make_assignment *a) {
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

// The arm of conditional c this reading takes: each condition in turn is a fork (taken alike
// wherever the reading meets c again); -1 past the forks a reading takes, or for a conditional
// hardguard does not read in full.
static int taken(hg_makefile *m, hg_make_conditional *c) {
  if (c->seen == m->reading) // readings are numbered from 1: seen 0 is none yet
    return c->taken;
  c->seen = m->reading;
  c->taken = c->too_many ? -1 : (int)c->n_conds;
  for (unsigned i = 0; i < c->n_conds && !c->too_many; i++) {
    int f = hg_make__fork_arm(m, c->conds[i], c->nots[i]);
    if (f != 1) {
      c->taken = f < 0 ? -1 : (int)i;
      break;
    }
  }
  return c->taken;
}

// Is v an assignment of variable `name` that this reading makes (in the arms of the conditionals
// it stands in that the reading takes)? One that cannot be told sets *unsure.
bool hg_make__made(hg_makefile *m, const hg_make_assignment *v, const char *name, bool *unsure) {
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
