#include "rules/dispatch.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

enum { MAX_ROOT_TYPES = 32 };

// The node types the root item `item` (or, an alternation, its branches) starts at, each once, into
// out; false when one of them is a wildcard (any named node) or they are more than out holds: then
// the pattern is tried at every named node (its root item still checks the type).
static bool root_types(const hg_shapes *s, uint32_t item, TSSymbol *out, uint32_t *n) {
  const hg_item *it = hg_shapes_item(s, item);
  if (it->kind == HG_ITEM_WILDCARD) return false;
  if (it->kind == HG_ITEM_ALT) {
    for (uint32_t b = 0; b < it->n; b++)
      if (!root_types(s, it->first + b, out, n)) return false;
    return true;
  }
  for (uint32_t i = 0; i < *n; i++)
    if (out[i] == it->symbol) return true;
  if (*n == MAX_ROOT_TYPES) return false;
  out[(*n)++] = it->symbol;
  return true;
}

// A field a wildcard root's match needs a child in: that of its first child item that is neither
// optional nor repeated.
static TSFieldId needed_field(const hg_shapes *s, uint32_t item) {
  const hg_item *it = hg_shapes_item(s, item);
  if (it->kind != HG_ITEM_WILDCARD) return 0;
  for (uint32_t c = 0; c < it->n; c++) {
    const hg_item *k = hg_shapes_item(s, it->first + c);
    if (k->field && (k->quant == HG_QUANT_ONE || k->quant == HG_QUANT_PLUS)) return k->field;
  }
  return 0;
}

// Are items a and b (and the items below them) the same, each capture of a standing where one of
// b does, one to one? to[c] is b's capture for a's c so far, from[c] a's for b's (UINT16_MAX: none).
static bool same_item(const hg_shapes *s, uint32_t a, uint32_t b, uint16_t *to, uint16_t *from) {
  const hg_item *x = hg_shapes_item(s, a), *y = hg_shapes_item(s, b);
  if (x->kind != y->kind || x->quant != y->quant || x->immediate != y->immediate || x->last != y->last ||
      x->symbol != y->symbol || x->field != y->field || x->n_captures != y->n_captures || x->n != y->n)
    return false;
  for (uint8_t c = 0; c < x->n_captures; c++) {
    uint16_t u = x->captures[c], v = y->captures[c];
    if ((to[u] != UINT16_MAX && to[u] != v) || (from[v] != UINT16_MAX && from[v] != u)) return false;
    to[u] = v, from[v] = u;
  }
  for (uint32_t k = 0; k < x->n; k++)
    if (!same_item(s, x->first + k, y->first + k, to, from)) return false;
  return true;
}

hg_dispatch *hg_dispatch_new(const hg_shapes *shapes) {
  hg_dispatch *self = hg_xcalloc(1, sizeof(hg_dispatch));
  self->shapes = shapes;
  self->n_symbols = ts_language_symbol_count(hg_shapes_language(shapes));
  uint32_t n = hg_shapes_count(shapes);
  self->offsets = hg_xcalloc(self->n_symbols + 1, sizeof(uint32_t));
  self->wild = hg_xcalloc(n ? n : 1, sizeof(uint32_t));
  self->wild_field = hg_xcalloc(n ? n : 1, sizeof(TSFieldId));
  self->fixed = hg_xcalloc(n ? n : 1, sizeof(bool));
  self->same = hg_xcalloc(n ? n : 1, sizeof(uint32_t));
  self->to_shape = hg_xcalloc(n ? n : 1, sizeof(uint16_t *));
  self->from_shape = hg_xcalloc(n ? n : 1, sizeof(uint16_t *));
  uint32_t nc = hg_shapes_capture_count(shapes) ? hg_shapes_capture_count(shapes) : 1;
  uint16_t *to = hg_xcalloc(nc, sizeof(uint16_t)), *from = hg_xcalloc(nc, sizeof(uint16_t));
  for (uint32_t p = 0; p < n; p++) {
    self->same[p] = p;
    for (uint32_t q = 0; q < p && self->same[p] == p; q++) {
      if (self->same[q] != q) continue;
      memset(to, 0xFF, nc * sizeof(uint16_t));
      memset(from, 0xFF, nc * sizeof(uint16_t));
      if (!same_item(shapes, hg_shapes_get(shapes, q)->root, hg_shapes_get(shapes, p)->root, to, from)) continue;
      self->same[p] = q;
      bool renamed = false;
      for (uint32_t c = 0; c < nc; c++) renamed |= to[c] != UINT16_MAX && to[c] != c;
      if (renamed) {
        self->from_shape[p] = hg_xcalloc(nc, sizeof(uint16_t));
        memcpy(self->from_shape[p], to, nc * sizeof(uint16_t));
        self->to_shape[p] = hg_xcalloc(nc, sizeof(uint16_t));
        memcpy(self->to_shape[p], from, nc * sizeof(uint16_t));
      }
    }
    self->fixed[p] = true;
    for (uint32_t c = 0; c < hg_shapes_capture_count(shapes) && self->fixed[p]; c++) {
      TSQuantifier q = hg_shapes_capture_quantifier(shapes, p, c);
      self->fixed[p] = q == TSQuantifierZero || q == TSQuantifierOne;
    }
  }
  free(to);
  free(from);
  // Two passes over the roots: count per type, then place (a pattern in the order of its index).
  TSSymbol types[MAX_ROOT_TYPES];
  uint32_t total = 0, k;
  for (uint32_t p = 0; p < n; p++) {
    uint32_t root = hg_shapes_get(shapes, p)->root;
    k = 0;
    if (!root_types(shapes, root, types, &k)) {
      self->wild_field[self->n_wild] = needed_field(shapes, root);
      self->wild[self->n_wild++] = p;
      continue;
    }
    for (uint32_t t = 0; t < k; t++) self->offsets[types[t] + 1]++, total++;
  }
  for (uint32_t sym = 0; sym < self->n_symbols; sym++) self->offsets[sym + 1] += self->offsets[sym];
  self->ids = hg_xcalloc(total ? total : 1, sizeof(uint32_t));
  uint32_t *fill = hg_xcalloc(self->n_symbols + 1, sizeof(uint32_t));
  for (uint32_t p = 0; p < n; p++) {
    k = 0;
    if (root_types(shapes, hg_shapes_get(shapes, p)->root, types, &k))
      for (uint32_t t = 0; t < k; t++) self->ids[self->offsets[types[t]] + fill[types[t]]++] = p;
  }
  free(fill);
  return self;
}

// How many times item `item` and the items below it name capture c.
static uint32_t occurrences(const hg_shapes *s, uint32_t item, uint32_t c) {
  const hg_item *it = hg_shapes_item(s, item);
  uint32_t k = 0;
  for (uint8_t i = 0; i < it->n_captures; i++) k += it->captures[i] == c;
  for (uint32_t i = 0; i < it->n; i++) k += occurrences(s, it->first + i, c);
  return k;
}

static bool names_capture(const hg_item *it, uint32_t c) {
  for (uint8_t i = 0; i < it->n_captures; i++)
    if (it->captures[i] == c) return true;
  return false;
}

// The steps from item `item` (matched once) down to the one item that names capture c.
static bool place_below(const hg_shapes *s, uint32_t item, uint32_t c, hg_walk_place *out) {
  const hg_item *it = hg_shapes_item(s, item);
  if (names_capture(it, c)) return true;  // (an alternation naming it: the node it matched)
  if (it->kind == HG_ITEM_ALT) return false;  // in one branch only
  for (uint32_t i = 0; i < it->n; i++) {
    if (!occurrences(s, it->first + i, c)) continue;
    const hg_item *k = hg_shapes_item(s, it->first + i);
    if (k->quant != HG_QUANT_ONE || out->depth == HG_WALK_PLACE_MAX) return false;
    out->step[out->depth].field = k->field;
    out->step[out->depth++].symbol = k->kind == HG_ITEM_NODE ? k->symbol : 0;
    return place_below(s, it->first + i, c, out);
  }
  return false;
}

bool hg_dispatch_capture_place(const hg_dispatch *self, uint32_t pattern, uint32_t capture, hg_walk_place *place) {
  const hg_shapes *s = self->shapes;
  uint32_t root = hg_shapes_get(s, pattern)->root;
  *place = (hg_walk_place){0};
  return hg_shapes_item(s, root)->quant == HG_QUANT_ONE && occurrences(s, root, capture) == 1 &&
         place_below(s, root, capture, place);
}

void hg_dispatch_free(hg_dispatch *self) {
  if (!self) return;
  free(self->offsets);
  free(self->ids);
  free(self->wild);
  free(self->wild_field);
  free(self->fixed);
  for (uint32_t p = 0; p < hg_shapes_count(self->shapes); p++) free(self->to_shape[p]), free(self->from_shape[p]);
  free(self->to_shape);
  free(self->from_shape);
  free(self->same);
  free(self);
}
