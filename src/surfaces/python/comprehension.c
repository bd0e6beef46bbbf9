/* Comprehensions and what they iterate: `[f"--{k}={v}" for k, v in LIMITS.items()]` over a known
 * dict, list or tuple (and .keys(), .values(), zip(), enumerate() of them) is the list of its
 * elements, each read with the loop variables bound (hg_binding, searched before a name's scope).
 * Bounded: at most HG_COMPREHENSION_MAX elements per comprehension, each charged to the file's
 * budget; past either, UNKNOWN saying which budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/resolve_internal.h"

// Are all the items of a container known to be there (no spread, none set on some paths only)?
static bool all_known(const hg_value *v) {
  if (v->conditional)
    return false;
  for (size_t i = 0; i < v->n_items; i++)
    if (v->items[i].splat || v->items[i].conditional || (v->kind == HG_VAL_DICT && !v->items[i].key))
      return false;
  return true;
}

static hg_value key_value(const hg_value *entry) {
  return (hg_value){.kind = HG_VAL_STR, .text = entry->key, .line = entry->line, .path = entry->path, .via = entry->via};
}

// A dict's entries as the last value of each key, in first-insertion order (what iterating it gives).
static size_t distinct_entries(const hg_value *d, const hg_value **out) {
  size_t n = 0;
  for (size_t i = 0; i < d->n_items; i++) {
    size_t j = 0;
    while (j < n && strcmp(out[j]->key, d->items[i].key))
      j++;
    out[j] = &d->items[i];
    if (j == n)
      n++;
  }
  return n;
}

static hg_value list_of(const hg_resolver *self, TSNode at, hg_value_vec *items) {
  return hg_values_finish(
      self->arena, (hg_value){.kind = HG_VAL_LIST, .text = hg_resolve__text(self, at), .line = ts_node_start_point(at).row + 1},
      items);
}

static hg_value pair(const hg_resolver *self, TSNode at, hg_value a, hg_value b) {
  hg_value_vec items = {0};
  a.key = b.key = NULL;
  HG_VEC_PUSH(&items, a);
  HG_VEC_PUSH(&items, b);
  return list_of(self, at, &items);
}

static bool dict_view(const hg_resolver *self, TSNode at, const hg_value *d, int which, hg_value *out) {
  if (d->n_items > HG_COMPREHENSION_MAX)
    return false;
  const hg_value **entries = hg_arena_alloc(self->arena, (d->n_items ? d->n_items : 1) * sizeof(hg_value *));
  size_t n = distinct_entries(d, entries);
  hg_value_vec items = {0};
  for (size_t i = 0; i < n; i++) {
    hg_value v = *entries[i];
    v.key = NULL;
    if (which == 0)
      HG_VEC_PUSH(&items, key_value(entries[i]));
    else if (which == 1)
      HG_VEC_PUSH(&items, v);
    else
      HG_VEC_PUSH(&items, pair(self, at, key_value(entries[i]), v));
  }
  *out = list_of(self, at, &items);
  return true;
}

bool hg_resolve__iterate(const hg_resolver *self, TSNode it, int depth, hg_value *out, const char **why) {
  *why = "a loop over a value hardguard cannot read in full";
  if (depth > HG_RESOLVE_MAX_DEPTH)
    return false;
  // A name assigned one literal: its size is told before any of it is read.
  TSNode literal = hg_node_is(it, "identifier") ? hg_resolve__alias_of(self, it) : it;
  if ((hg_node_is(literal, "list") || hg_node_is(literal, "tuple") || hg_node_is(literal, "set")) &&
      ts_node_named_child_count(literal) > HG_COMPREHENSION_MAX) {
    *why = HG_COMPREHENSION_BUDGET_ORIGIN; // not read at all: a literal of a million items
    return false;
  }
  if (hg_node_is(it, "parenthesized_expression") && hg_node_arg_count(it) == 1)
    return hg_resolve__iterate(self, hg_node_arg(it, 0), depth + 1, out, why);
  if (hg_node_is(it, "call")) {
    TSNode fn = hg_node_child(it, HG_FIELD_FUNCTION), args = hg_node_child(it, HG_FIELD_ARGUMENTS);
    uint32_t na = hg_node_arg_count(args);
    if (hg_node_is(fn, "attribute") && na == 0) {
      TSNode attr = hg_node_child(fn, HG_FIELD_ATTRIBUTE);
      int which = hg_node_text_eq(attr, self->src, "keys", 4)     ? 0
                  : hg_node_text_eq(attr, self->src, "values", 6) ? 1
                  : hg_node_text_eq(attr, self->src, "items", 5)  ? 2
                                                                  : -1;
      if (which >= 0) {
        hg_value d = hg_resolve_value_at(self, hg_node_child(fn, HG_FIELD_OBJECT), depth + 1);
        if (d.kind != HG_VAL_DICT || !all_known(&d))
          return false;
        if (!dict_view(self, it, &d, which, out)) {
          *why = HG_COMPREHENSION_BUDGET_ORIGIN;
          return false;
        }
        return true;
      }
    }
    bool zip = hg_node_text_eq(fn, self->src, "zip", 3) && !hg_imports_lookup(self->imports, "zip", 3);
    bool enumerate = hg_node_text_eq(fn, self->src, "enumerate", 9) && !hg_imports_lookup(self->imports, "enumerate", 9);
    if ((zip && na >= 1 && na <= 8) || (enumerate && (na == 1 || na == 2))) {
      hg_value seqs[8];
      size_t len = SIZE_MAX;
      uint32_t nseq = enumerate ? 1 : na;
      for (uint32_t i = 0; i < nseq; i++) {
        TSNode a = hg_node_arg(args, i);
        if (hg_node_is(a, "keyword_argument") || hg_node_is(a, "list_splat"))
          return false;
        if (!hg_resolve__iterate(self, a, depth + 1, &seqs[i], why))
          return false;
        if (seqs[i].n_items < len)
          len = seqs[i].n_items;
      }
      long start = 0;
      if (enumerate && na == 2) {
        TSNode s = hg_node_arg(args, 1);
        if (hg_node_is(s, "keyword_argument"))
          s = hg_node_field(s, "value");
        hg_value sv = hg_resolve_value_at(self, s, depth + 1);
        char *end;
        if (sv.kind != HG_VAL_NUM || (start = strtol(sv.text, &end, 10), *end))
          return false;
      }
      hg_value_vec items = {0};
      for (size_t k = 0; k < len; k++) {
        if (enumerate) {
          char num[32];
          snprintf(num, sizeof(num), "%ld", start + (long)k);
          hg_value i = {.kind = HG_VAL_NUM, .text = hg_arena_strndup(self->arena, num, strlen(num)), .line = seqs[0].line};
          HG_VEC_PUSH(&items, pair(self, it, i, seqs[0].items[k]));
          continue;
        }
        hg_value_vec t = {0};
        for (uint32_t i = 0; i < nseq; i++)
          HG_VEC_PUSH(&t, seqs[i].items[k]);
        HG_VEC_PUSH(&items, list_of(self, it, &t));
      }
      *out = list_of(self, it, &items);
      return true;
    }
  }
  hg_value v = hg_resolve_value_at(self, it, depth + 1);
  if (v.kind == HG_VAL_DICT && all_known(&v)) {
    if (!dict_view(self, it, &v, 0, out)) {
      *why = HG_COMPREHENSION_BUDGET_ORIGIN;
      return false;
    }
    return true;
  }
  if (v.kind != HG_VAL_LIST || !all_known(&v))
    return false;
  if (v.n_items > HG_COMPREHENSION_MAX) {
    *why = HG_COMPREHENSION_BUDGET_ORIGIN;
    return false;
  }
  *out = v;
  return true;
}

bool hg_resolve__bind_target(const hg_resolver *self, TSNode target, TSNode scope, hg_value element,
                             const hg_binding **chain) {
  if (hg_node_is(target, "identifier")) {
    hg_binding *b = hg_arena_alloc(self->arena, sizeof(hg_binding));
    uint32_t a = ts_node_start_byte(target), e = ts_node_end_byte(target);
    element.key = NULL;
    element.splat = false;
    *b = (hg_binding){.name = self->src + a, .len = e - a, .scope = scope, .value = element, .prev = *chain};
    *chain = b;
    return true;
  }
  if (hg_node_is(target, "parenthesized_expression") && hg_node_arg_count(target) == 1)
    return hg_resolve__bind_target(self, hg_node_arg(target, 0), scope, element, chain);
  if (!hg_node_is(target, "pattern_list") && !hg_node_is(target, "tuple_pattern") &&
      !hg_node_is(target, "list_pattern") && !hg_node_is(target, "tuple") && !hg_node_is(target, "list") &&
      !hg_node_is(target, "expression_list"))
    return false;
  uint32_t n = hg_node_arg_count(target);
  if (element.kind != HG_VAL_LIST || !all_known(&element) || element.n_items != n)
    return false;
  for (uint32_t i = 0; i < n; i++)
    if (!hg_resolve__bind_target(self, hg_node_arg(target, i), scope, element.items[i], chain))
      return false;
  return true;
}

typedef struct {
  const hg_resolver *r;
  TSNode node, body;
  TSNode clauses[8];
  uint32_t n_clauses;
  bool dict;
  hg_value_vec items;
  const char *why; // set when the comprehension cannot be read
  size_t count;
} comp;

typedef struct {
  const hg_resolver *r; // first: the engine's decide reads it
} decide_ctx;

static void element(comp *c, const hg_binding *chain, bool cond, int depth) {
  hg_resolver r = *c->r;
  r.bindings = chain;
  if (c->dict) {
    hg_value k = hg_resolve_value_at(&r, hg_node_field(c->body, "key"), depth + 1);
    hg_value v = hg_resolve_value_at(&r, hg_node_field(c->body, "value"), depth + 1);
    if (k.kind == HG_VAL_STR && !strchr(k.text, HG_HOLE) && !k.conditional) {
      v.key = k.text;
    } else {
      v = hg_resolve__unknown(&r, c->body, "a dict entry with a computed key");
      v.splat = true;
    }
    v.conditional |= cond;
    HG_VEC_PUSH(&c->items, v);
    return;
  }
  hg_value v = hg_resolve_value_at(&r, c->body, depth + 1);
  v.conditional |= cond;
  v.key = NULL;
  HG_VEC_PUSH(&c->items, v);
}

static void clauses_from(comp *c, uint32_t i, const hg_binding *chain, bool cond, int depth) {
  if (c->why)
    return;
  if (i == c->n_clauses) {
    if (++c->count > HG_COMPREHENSION_MAX) {
      c->why = HG_COMPREHENSION_BUDGET_ORIGIN;
      return;
    }
    if (c->r->budget) {
      if (*c->r->budget == 0) {
        c->why = c->r->budget_why ? c->r->budget_why : HG_RESOLVE_BUDGET_ORIGIN;
        return;
      }
      --*c->r->budget;
    }
    element(c, chain, cond, depth);
    return;
  }
  TSNode clause = c->clauses[i];
  hg_resolver r = *c->r;
  r.bindings = chain;
  if (hg_node_is(clause, "if_clause")) {
    hg_resolver quiet = r;
    quiet.notes = NULL;
    decide_ctx ctx = {&quiet};
    int t = r.engine->decide ? r.engine->decide(&ctx, hg_node_arg(clause, 0), c->body) : -1;
    if (t != 0)
      clauses_from(c, i + 1, chain, cond || t < 0, depth);
    return;
  }
  TSNode left = hg_node_field(clause, "left"), right = hg_node_field(clause, "right");
  hg_value seq;
  const char *why;
  if (ts_node_is_null(left) || ts_node_is_null(right) || ts_node_named_child_count(clause) != 2) {
    c->why = "a comprehension hardguard cannot read";
    return;
  }
  if (!hg_resolve__iterate(&r, right, depth + 1, &seq, &why)) {
    c->why = why;
    return;
  }
  for (size_t k = 0; k < seq.n_items && !c->why; k++) {
    const hg_binding *inner = chain;
    if (!hg_resolve__bind_target(&r, left, c->node, seq.items[k], &inner)) {
      c->why = "a loop variable hardguard cannot unpack";
      return;
    }
    clauses_from(c, i + 1, inner, cond, depth);
  }
}

hg_value hg_resolve__comprehension(const hg_resolver *self, TSNode n, int depth) {
  comp c = {.r = self, .node = n, .body = hg_node_field(n, "body"), .dict = hg_node_is(n, "dictionary_comprehension")};
  if (ts_node_is_null(c.body) || depth > HG_RESOLVE_MAX_DEPTH)
    return hg_resolve__unknown(self, n, "an expression");
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++) {
    TSNode ch = ts_node_named_child(n, i);
    if (!hg_node_is(ch, "for_in_clause") && !hg_node_is(ch, "if_clause"))
      continue;
    if (c.n_clauses == sizeof(c.clauses) / sizeof(c.clauses[0]))
      return hg_resolve__unknown(self, n, "a comprehension with more clauses than hardguard follows");
    c.clauses[c.n_clauses++] = ch;
  }
  if (c.n_clauses == 0 || !hg_node_is(c.clauses[0], "for_in_clause"))
    return hg_resolve__unknown(self, n, "an expression");
  clauses_from(&c, 0, self->bindings, false, depth);
  if (c.why) {
    free(c.items.items);
    return hg_resolve__unknown(self, n, c.why);
  }
  hg_value v = {.kind = c.dict ? HG_VAL_DICT : HG_VAL_LIST, .text = hg_resolve__text(self, n),
                .line = ts_node_start_point(n).row + 1};
  return hg_values_finish(self->arena, v, &c.items);
}
