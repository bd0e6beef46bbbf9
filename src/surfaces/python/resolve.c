#include "surfaces/python/resolve.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/argv.h"
#include "surfaces/node.h"
#include "surfaces/python/project/index.h"
#include "surfaces/python/resolve_internal.h"
#include "surfaces/python/scope.h"

// ---- values -------------------------------------------------------------------------------------

#define MAX_DEPTH HG_RESOLVE_MAX_DEPTH

const char *hg_resolve__text(const hg_resolver *self, TSNode n) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return hg_arena_strndup(self->arena, self->src + a, b - a);
}

hg_value hg_resolve__unknown(const hg_resolver *self, TSNode n, const char *origin) {
  return (hg_value){.kind = HG_VAL_UNKNOWN,
                    .text = hg_resolve__text(self, n),
                    .origin = origin,
                    .line = ts_node_start_point(n).row + 1};
}

hg_value hg_resolve_unknown(const hg_resolver *self, TSNode node, const char *origin) {
  hg_value v = hg_resolve__unknown(self, node, origin);
  if (self->module)
    v.path = self->module->path;
  return v;
}

typedef hg_value_vec value_vec;

static hg_value finish(const hg_resolver *self, hg_value v, value_vec *items) {
  return hg_values_finish(self->arena, v, items);
}

void hg_resolve__items(const hg_resolver *self, TSNode seq, value_vec *items, int depth) {
  uint32_t count = ts_node_named_child_count(seq);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(seq, i);
    const char *type = ts_node_type(c);  // read once for the four tests
    if (!strcmp(type, "comment") || !strcmp(type, "keyword_argument") || !strcmp(type, "dictionary_splat"))
      continue;
    if (!strcmp(type, "list_splat")) {
      hg_value inner = hg_resolve_value_at(self, hg_node_arg(c, 0), depth + 1);
      if (inner.kind == HG_VAL_LIST) {
        for (size_t j = 0; j < inner.n_items; j++)
          HG_VEC_PUSH(items, inner.items[j]);
      } else {
        inner.splat = true;
        HG_VEC_PUSH(items, inner);
      }
      continue;
    }
    HG_VEC_PUSH(items, hg_resolve_value_at(self, c, depth + 1));
  }
}


// A `**x` spread: a dict literal is merged in place; anything else stays one spread item.
void hg_resolve__spread(const hg_resolver *self, TSNode expr, value_vec *items, int depth) {
  hg_value inner = hg_resolve_value_at(self, expr, depth + 1);
  if (inner.kind == HG_VAL_DICT) {
    for (size_t j = 0; j < inner.n_items; j++)
      HG_VEC_PUSH(items, inner.items[j]);
    return;
  }
  inner.splat = true;
  inner.key = NULL;
  HG_VEC_PUSH(items, inner);
}

void hg_resolve__entries(const hg_resolver *self, TSNode dict, value_vec *items, int depth) {
  uint32_t count = ts_node_named_child_count(dict);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(dict, i);
    if (hg_node_is(c, "dictionary_splat")) {
      hg_resolve__spread(self, hg_node_arg(c, 0), items, depth);
    } else if (hg_node_is(c, "pair")) {
      TSNode k = hg_node_field(c, "key"), v = hg_node_field(c, "value");
      hg_value key = hg_resolve_value_at(self, k, depth + 1);
      hg_value val = key.kind == HG_VAL_STR ? hg_resolve_item_at(self, key.text, strlen(key.text), v, depth + 1)
                                            : hg_resolve_value_at(self, v, depth + 1);
      if (key.kind == HG_VAL_STR && !strchr(key.text, HG_HOLE)) {
        val.key = key.text;
      } else {
        // A computed key may name any keyword: treat the pair as an unknown spread.
        val = hg_resolve__unknown(self, c, "a dict entry with a computed key");
        val.splat = true;
      }
      HG_VEC_PUSH(items, val);
    }
  }
}

// A `name=value` argument as a keyed item.
void hg_resolve__keyword(const hg_resolver *self, TSNode kwarg, value_vec *items, int depth) {
  TSNode k = hg_node_field(kwarg, "name"), v = hg_node_field(kwarg, "value");
  if (ts_node_is_null(k) || ts_node_is_null(v))
    return;
  const char *key = hg_resolve__text(self, k);
  hg_value val = hg_resolve_item_at(self, key, strlen(key), v, depth + 1);
  val.key = key;
  HG_VEC_PUSH(items, val);
}

// A dict built from a call's arguments: positional mappings spread in, then keywords (dict(...),
// .update(...)).
hg_value hg_resolve__keyword_dict(const hg_resolver *self, TSNode args, int depth) {
  value_vec items = {0};
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (hg_node_is(c, "keyword_argument")) {
      hg_resolve__keyword(self, c, &items, depth);
    } else if (hg_node_is(c, "dictionary_splat")) {
      hg_resolve__spread(self, hg_node_arg(c, 0), &items, depth);
    } else if (!hg_node_is(c, "comment")) {
      hg_resolve__spread(self, c, &items, depth);
    }
  }
  return finish(
      self,
      (hg_value){.kind = HG_VAL_DICT, .text = hg_resolve__text(self, args), .line = ts_node_start_point(args).row + 1},
      &items);
}

// Arithmetic on known numbers, a + b of lists, a | b of dicts; anything else cannot be followed.
hg_value hg_resolve__binary(const hg_resolver *self, TSNode n, int depth) {
  TSNode op = hg_node_field(n, "operator");
  const char *ot = ts_node_is_null(op) ? "" : hg_resolve__text(self, op);
  hg_value l = hg_resolve_value_at(self, hg_node_field(n, "left"), depth + 1);
  hg_value r = hg_resolve_value_at(self, hg_node_field(n, "right"), depth + 1);
  hg_value num = {.line = ts_node_start_point(n).row + 1};
  if (hg_resolve__arith(self, ot, &l, &r, &num))
    return num;
  char o = ot[0] && !ot[1] ? ot[0] : 0;
  hg_value_kind kind = o == '+' ? HG_VAL_LIST : o == '|' ? HG_VAL_DICT : HG_VAL_UNKNOWN;
  if (kind == HG_VAL_UNKNOWN)
    return hg_resolve__unknown(self, n, "an expression");
  if (kind == HG_VAL_LIST &&
      ((l.kind != HG_VAL_LIST && l.kind != HG_VAL_UNKNOWN) || (r.kind != HG_VAL_LIST && r.kind != HG_VAL_UNKNOWN)))
    return hg_resolve__unknown(self, n, "an expression");
  value_vec items = {0};
  const hg_value *sides[2] = {&l, &r};
  for (int s = 0; s < 2; s++) {
    const hg_value *v = sides[s];
    if (v->kind == kind) {
      for (size_t i = 0; i < v->n_items; i++)
        HG_VEC_PUSH(&items, v->items[i]);
    } else {
      hg_value spread = *v;
      spread.splat = true;
      HG_VEC_PUSH(&items, spread);
    }
  }
  return finish(self,
                (hg_value){.kind = kind, .text = hg_resolve__text(self, n), .line = ts_node_start_point(n).row + 1},
                &items);
}

// The evaluator the resolver was made with reads the expression (eval.c: by its node type, through
// the readers above this core); the core and the readers call it through the resolver, never up.
hg_value hg_resolve_value_at(const hg_resolver *self, TSNode node, int depth) {
  return self->engine->value_at(self, node, depth);
}

hg_value hg_resolve_item_at(const hg_resolver *self, const char *key, size_t len, TSNode node, int depth) {
  if (!self->keywords_of || strlen(self->keywords_of) != len || memcmp(self->keywords_of, key, len) != 0)
    return self->engine->value_at(self, node, depth);
  return self->engine->keywords(self, node);
}

const char *hg_resolve_param_read(const hg_resolver *self, TSNode fn, bool is_self) {
  hg_param_reads *p = self->params;
  if (!p)
    return NULL;
  if (ts_node_is_null(p->fn)) {
    p->fn = fn;
  } else if (!ts_node_eq(p->fn, fn)) {
    p->others = true;
    return NULL;
  }
  if (is_self)
    p->self = true;
  else
    p->param = true;
  return p->why;
}
