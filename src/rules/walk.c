#include "rules/walk.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

typedef struct {
  TSNode node;
  TSSymbol symbol;
  TSFieldId field;  // 0 for an anonymous child (only named ones match an item)
  bool named;
} kid;

typedef HG_VEC(kid) kid_vec;

typedef struct {
  uint32_t pattern, first;
  uint16_t n;
} found;

// The children of one node: kids[base .. base + n) of the walker's cached or stacked children.
typedef struct {
  bool cached;
  size_t base, n;
  size_t last_named;  // the index of the last named one (SIZE_MAX: none)
} kids_ref;

typedef struct {
  const void *id;  // the node's
  kids_ref kids;
} cached_read;

// A node the walk is inside: its children are wkids[base .. base + n), `next` the next to visit.
typedef struct {
  size_t base, n, next;
} frame;

typedef struct {
  const void *id;
  uint32_t gen;  // the slot is empty unless it is the walker's current generation
  uint32_t read; // the cached_read's index
} cache_slot;

struct hg_walker {
  const hg_item *items;
  HG_VEC(TSQueryCapture) stack;  // the captures of the match being built
  HG_VEC(TSQueryCapture) caps;   // of the matches kept
  HG_VEC(found) found;
  // The children of the node the patterns are tried at, and of the nodes CACHE_DEPTH below it (the
  // call, its argument list, its keyword arguments): read once for all the patterns tried there,
  // those tried below, and the walk (cache, found through slots, a hash table whose entries of an
  // earlier generation count as empty: emptied by counting, for each tree and past
  // CACHE_KIDS_MAX children). Deeper ones are read onto a stack (kids) and dropped when their
  // item is done.
  kid_vec ckids;
  HG_VEC(cached_read) cache;
  cache_slot *slots;
  size_t n_slots;  // a power of two, at least twice the cached reads
  uint32_t gen;
  kid_vec kids;
  size_t next;
  TSTreeCursor cursor;  // reset for each node whose children are read
  bool have_cursor;
  uint32_t pattern;  // being tried
  // Per shape (dispatch.same), the matches the last try of one of its patterns (`by`) left
  // (found[from .. to)) and the node it was at (the walk's count of nodes tried: `tried`), for the
  // patterns of that shape tried after it there.
  struct tried {
    uint64_t at;
    uint32_t from, to, by;
    bool sorted;  // its matches' captures were put in the order of their ids (keep_distinct)
  } *tries;
  uint32_t n_tries;
  uint64_t tried;
  // Per key of the gate's checks: its answer at the node tried `at`.
  struct key_answer {
    uint64_t at;
    bool ok;
  } *keys;
  uint32_t n_keys;
  // Per place of the gate's checks: its nodes at the node tried `at`, reached[first .. first + n).
  struct place_nodes {
    uint64_t at;
    uint32_t first, n;
  } *places;
  uint32_t n_places;
  HG_VEC(TSNode) reached;  // the nodes of the places found at the node being tried
  uint64_t walk_base;  // `tried` when the walk began
  HG_VEC(TSNode) kept;  // the last walk's nodes of the type it was asked to keep
  // The walk's path: the children of each node it is inside (wkids), a frame per such node.
  kid_vec wkids;
  HG_VEC(frame) frames;
};

hg_walker *hg_walker_new(void) { return hg_xcalloc(1, sizeof(hg_walker)); }

void hg_walker_free(hg_walker *self) {
  if (!self) return;
  free(self->stack.items);
  free(self->caps.items);
  free(self->found.items);
  free(self->ckids.items);
  free(self->cache.items);
  free(self->slots);
  free(self->kids.items);
  free(self->tries);
  free(self->keys);
  free(self->places);
  free(self->reached.items);
  free(self->kept.items);
  free(self->wkids.items);
  free(self->frames.items);
  if (self->have_cursor) ts_tree_cursor_delete(&self->cursor);
  free(self);
}

#define KIDS_OF(w, r) ((r).cached ? (w)->ckids.items : (w)->kids.items)

static void cursor_at(hg_walker *w, TSNode node) {
  if (!w->have_cursor) {
    w->cursor = ts_tree_cursor_new(node);
    w->have_cursor = true;
  } else {
    ts_tree_cursor_reset(&w->cursor, node);
  }
}

// Appends the children of `node` to `to` (the walker's ckids or kids). An anonymous child's field
// is not asked for: only named children match an item.
static kids_ref read_kids(hg_walker *w, TSNode node, bool cached) {
  cursor_at(w, node);
  kid_vec *to = cached ? &w->ckids : &w->kids;
  kids_ref r = {cached, to->len, 0, SIZE_MAX};
  if (ts_tree_cursor_goto_first_child(&w->cursor)) {
    do {
      TSNode n = ts_tree_cursor_current_node(&w->cursor);
      bool named = ts_node_is_named(n);
      if (named) r.last_named = to->len - r.base;
      TSFieldId field = named ? ts_tree_cursor_current_field_id(&w->cursor) : 0;
      HG_VEC_PUSH(to, ((kid){n, ts_node_symbol(n), field, named}));
    } while (ts_tree_cursor_goto_next_sibling(&w->cursor));
  }
  r.n = to->len - r.base;
  return r;
}

// What follows a match: a function and what it needs.
typedef struct cont cont;
struct cont {
  void (*fn)(hg_walker *w, const cont *self);
  const cont *up;        // after the sequence
  uint32_t first, i, n;  // the sequence's items, first + i the one just taken
  kids_ref kids;         // its children
  uint32_t at;           // the child the item was taken at
  unsigned depth;        // of the node whose children they are, below the node the pattern is tried at
  bool *hit;             // probe: set when the item matched
};

static void match(hg_walker *w, uint32_t item, const kid *node, unsigned depth, const cont *k);
static void seq(hg_walker *w, uint32_t first, uint32_t i, uint32_t n, kids_ref kids, uint32_t pos, bool again,
                unsigned depth, const cont *up);

// Item i of a sequence was taken at child k->at: on to the next item, or, repeated, to another
// occurrence of it right after.
static void taken(hg_walker *w, const cont *k) {
  const hg_item *it = &w->items[k->first + k->i];
  bool repeats = it->quant == HG_QUANT_STAR || it->quant == HG_QUANT_PLUS;
  seq(w, k->first, repeats ? k->i : k->i + 1, k->n, k->kids, k->at + 1, repeats, k->depth, k->up);
}

static void probe_hit(hg_walker *w, const cont *k) {
  (void)w;
  *k->hit = true;
}

// Does item `item` match child c (its field, its place, the item itself)?
static bool takes(hg_walker *w, const hg_item *it, uint32_t item, kids_ref kids, uint32_t c, unsigned depth) {
  kid kd = KIDS_OF(w, kids)[kids.base + c];  // a copy: the children may move while it is matched
  if (!kd.named || (it->field && kd.field != it->field) || (it->last && kids.last_named != c)) return false;
  bool hit = false;
  cont k = {.fn = probe_hit, .hit = &hit};
  match(w, item, &kd, depth + 1, &k);
  return hit;
}

// A repeated item that captures nothing: its occurrences add no captures, so only where a run of
// them may end matters. One pass over the children marks each named child that ends a run (it
// matches, and it may start one or the named child before it ended one), and the items after the
// repeat go on from each; the stack does not grow with the run (a call with 50,000 comments
// between its arguments).
static void repeat(hg_walker *w, uint32_t first, uint32_t i, uint32_t n, kids_ref kids, uint32_t pos, unsigned depth,
                   const cont *up) {
  const hg_item *it = &w->items[first + i];
  if (it->quant == HG_QUANT_STAR) seq(w, first, i + 1, n, kids, pos, false, depth, up);
  bool first_named = true, before_ended = false;
  for (uint32_t c = pos; c < kids.n; c++) {
    if (!KIDS_OF(w, kids)[kids.base + c].named) continue;
    bool ends = takes(w, it, first + i, kids, c, depth) && (!it->immediate || first_named || before_ended);
    if (ends) seq(w, first, i + 1, n, kids, c + 1, false, depth, up);
    if (it->immediate && !ends) break;  // an anchored run starts at the first named child, or not at all
    first_named = false;
    before_ended = ends;
  }
}

// Matches items first+i .. first+n against the children from `pos` on, then goes on with `up`.
// `again`: item i, repeated, was taken just before: it may stop, or occur again anchored.
static void seq(hg_walker *w, uint32_t first, uint32_t i, uint32_t n, kids_ref kids, uint32_t pos, bool again,
                unsigned depth, const cont *up) {
  if (i == n) {
    up->fn(w, up);
    return;
  }
  const hg_item *it = &w->items[first + i];
  if ((it->quant == HG_QUANT_STAR || it->quant == HG_QUANT_PLUS) && !it->has_captures) {
    repeat(w, first, i, n, kids, pos, depth, up);
    return;
  }
  if (again || it->quant == HG_QUANT_OPT || it->quant == HG_QUANT_STAR)
    seq(w, first, i + 1, n, kids, pos, false, depth, up);  // without it (or without more of it)
  bool anchored = it->immediate || again;
  for (uint32_t c = pos; c < kids.n; c++) {
    const kid *kd = &KIDS_OF(w, kids)[kids.base + c];
    if (!kd->named) continue;  // only named nodes match an item; anonymous ones are passed over
    if ((!it->field || kd->field == it->field) && !(it->last && kids.last_named != c) &&
        (it->kind != HG_ITEM_NODE || kd->symbol == it->symbol)) {
      cont k = {taken, up, first, i, n, kids, c, depth, NULL};
      kid copy = *kd;  // the children may move while it is matched
      match(w, first + i, &copy, depth + 1, &k);
    }
    if (anchored) break;  // no named node may be passed over
  }
}

// The children of the nodes down to CACHE_DEPTH below a node patterns are tried at are kept (for
// the other patterns tried there, those tried further down, and the walk) until more than
// CACHE_KIDS_MAX are (10 KB: more saves no instruction on corpus C and costs page faults, some
// 6 µs each on a virtual machine: 4,096 added 157 to a pre-commit run's 1,027).
enum { CACHE_DEPTH = 2, CACHE_KIDS_MAX = 1 << 8 };

static size_t slot_of(const hg_walker *w, const void *id) {
  uintptr_t h = (uintptr_t)id;
  h ^= h >> 17;
  h *= UINT64_C(0x9E3779B97F4A7C15);
  size_t i = (size_t)(h >> 20) & (w->n_slots - 1);
  while (w->slots[i].gen == w->gen && w->slots[i].id != id) i = (i + 1) & (w->n_slots - 1);
  return i;
}

// A new generation of the cache: every entry of the earlier ones emptied at once.
static void new_generation(hg_walker *w) {
  w->cache.len = w->ckids.len = 0;
  if (++w->gen == 0) {
    memset(w->slots, 0, w->n_slots * sizeof(cache_slot));
    w->gen = 1;
  }
}

// The children of `node` the patterns tried at the last node read, if they read them.
static const kids_ref *cached_only(const hg_walker *w, const void *id) {
  if (!w->n_slots) return NULL;
  size_t i = slot_of(w, id);
  return w->slots[i].gen == w->gen ? &w->cache.items[w->slots[i].read].kids : NULL;
}

// The cached children of `node`, read now if they were not.
static kids_ref cached_kids(hg_walker *w, TSNode node) {
  if (2 * (w->cache.len + 1) > w->n_slots) {  // grow, keeping this generation's entries
    free(w->slots);
    w->n_slots = w->n_slots ? 2 * w->n_slots : 64;
    w->slots = hg_xcalloc(w->n_slots, sizeof(cache_slot));
    w->gen = 1;
    for (size_t r = 0; r < w->cache.len; r++) {
      size_t i = slot_of(w, w->cache.items[r].id);
      w->slots[i] = (cache_slot){w->cache.items[r].id, w->gen, (uint32_t)r};
    }
  }
  size_t i = slot_of(w, node.id);
  if (w->slots[i].gen != w->gen) {
    w->slots[i] = (cache_slot){node.id, w->gen, (uint32_t)w->cache.len};
    HG_VEC_PUSH(&w->cache, ((cached_read){node.id, read_kids(w, node, true)}));
  }
  return w->cache.items[w->slots[i].read].kids;
}

// The node's children against item `it`'s child items, then k.
static void children(hg_walker *w, const hg_item *it, const kid *node, unsigned depth, const cont *k) {
  if (depth > CACHE_DEPTH) {
    size_t mark = w->kids.len;
    seq(w, it->first, 0, it->n, read_kids(w, node->node, false), 0, false, depth, k);
    w->kids.len = mark;
    return;
  }
  seq(w, it->first, 0, it->n, cached_kids(w, node->node), 0, false, depth, k);
}

static void match(hg_walker *w, uint32_t item, const kid *node, unsigned depth, const cont *k) {
  const hg_item *it = &w->items[item];
  if (it->kind == HG_ITEM_NODE ? node->symbol != it->symbol
      : it->kind == HG_ITEM_WILDCARD ? !node->named || node->symbol == (TSSymbol)-1
                                     : false)
    return;
  size_t mark = w->stack.len;
  for (uint8_t c = 0; c < it->n_captures; c++)
    HG_VEC_PUSH(&w->stack, ((TSQueryCapture){node->node, it->captures[c]}));
  if (it->kind == HG_ITEM_ALT) {
    for (uint32_t b = 0; b < it->n; b++) match(w, it->first + b, node, depth, k);
  } else if (it->n) {
    children(w, it, node, depth, k);
  } else {
    k->fn(w, k);
  }
  w->stack.len = mark;
}

// A whole match: kept.
static void record(hg_walker *w, const cont *k) {
  (void)k;
  found f = {w->pattern, (uint32_t)w->caps.len, (uint16_t)w->stack.len};
  for (size_t i = 0; i < w->stack.len; i++) HG_VEC_PUSH(&w->caps, w->stack.items[i]);
  HG_VEC_PUSH(&w->found, f);
}

// Does every capture of match a appear in match b?
static bool within(const hg_walker *w, const found *a, const found *b) {
  for (uint16_t i = 0; i < a->n; i++) {
    const TSQueryCapture *x = &w->caps.items[a->first + i];
    bool in = false;
    for (uint16_t j = 0; j < b->n && !in; j++) {
      const TSQueryCapture *y = &w->caps.items[b->first + j];
      in = x->index == y->index && x->node.id == y->node.id;
    }
    if (!in) return false;
  }
  return true;
}

// The matches of one pattern at one node from `from` on: one whose captures another holds too is
// dropped (of equal ones, the first stays).
static void keep_longest(hg_walker *w, size_t from) {
  size_t out = from;
  for (size_t i = from; i < w->found.len; i++) {
    bool drop = false;
    for (size_t j = from; j < w->found.len && !drop; j++)
      drop = j != i && within(w, &w->found.items[i], &w->found.items[j]) &&
             (j < i || !within(w, &w->found.items[j], &w->found.items[i]));
    if (!drop) w->found.items[out++] = w->found.items[i];
  }
  w->found.len = out;
}

// Matches of a fixed pattern hold each of its captures once: one holds another's captures only when
// they are the same. Each match's captures put in the order of their ids, the matches are sorted to
// find the equal ones (not compared pair by pair: a call with 20,000 comments before its first
// argument has 20,000 matches of `(argument_list . (comment)* . (_) @command)`), and of equal ones
// the first stays, in the order they were found.
static int cmp_found(const void *pa, const void *pb, void *ctx) {
  const hg_walker *sorting = ctx;
  const found *a = &sorting->found.items[*(const size_t *)pa], *b = &sorting->found.items[*(const size_t *)pb];
  for (uint16_t i = 0; i < a->n && i < b->n; i++) {
    const TSQueryCapture *x = &sorting->caps.items[a->first + i], *y = &sorting->caps.items[b->first + i];
    if (x->index != y->index) return x->index < y->index ? -1 : 1;
    if (x->node.id != y->node.id) return (uintptr_t)x->node.id < (uintptr_t)y->node.id ? -1 : 1;
  }
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

static void keep_distinct(hg_walker *w, size_t from) {
  size_t k = w->found.len - from;
  for (size_t i = from; i < w->found.len; i++) {  // captures in the order of their ids
    if (w->found.items[i].n < 2) continue;          // (none at all: no captures vector)
    TSQueryCapture *c = &w->caps.items[w->found.items[i].first];
    for (uint16_t a = 1; a < w->found.items[i].n; a++)
      for (uint16_t b = a; b > 0 && c[b - 1].index > c[b].index; b--) {
        TSQueryCapture t = c[b];
        c[b] = c[b - 1];
        c[b - 1] = t;
      }
  }
  size_t *order = hg_xcalloc(k, sizeof(size_t));
  bool *dup = hg_xcalloc(k, sizeof(bool));
  for (size_t i = 0; i < k; i++) order[i] = from + i;
  qsort_r(order, k, sizeof(size_t), cmp_found, w);
  for (size_t i = 1; i < k; i++) {
    const found *a = &w->found.items[order[i - 1]], *b = &w->found.items[order[i]];
    bool same = a->n == b->n;
    for (uint16_t c = 0; c < a->n && same; c++)
      same = w->caps.items[a->first + c].index == w->caps.items[b->first + c].index &&
             w->caps.items[a->first + c].node.id == w->caps.items[b->first + c].node.id;
    if (same) dup[order[i] - from] = true;  // the later of two equal ones (sorted by index on ties)
  }
  size_t out = from;
  for (size_t i = from; i < w->found.len; i++)
    if (!dup[i - from]) w->found.items[out++] = w->found.items[i];
  w->found.len = out;
  free(order);
  free(dup);
}

static void try_pattern(hg_walker *w, const hg_dispatch *d, uint32_t p, const kid *node) {
  static const cont done = {.fn = record};
  size_t from = w->found.len;
  struct tried *t = &w->tries[d->same[p]];
  if (t->at == w->tried) {  // a pattern of its shape was tried here: its matches, as they were kept
    const uint16_t *to = d->to_shape[t->by], *back = d->from_shape[p];
    for (uint32_t i = t->from; i < t->to; i++) {
      found f = w->found.items[i];
      f.pattern = p;
      if (to || back) {  // the captures under this pattern's ids, in their order if keep_distinct ordered them
        f.first = (uint32_t)w->caps.len;
        for (uint16_t c = 0; c < f.n; c++) {
          TSQueryCapture k = w->caps.items[w->found.items[i].first + c];
          if (to) k.index = to[k.index];
          if (back) k.index = back[k.index];
          HG_VEC_PUSH(&w->caps, k);
        }
        TSQueryCapture *c = &w->caps.items[f.first];
        for (uint16_t a = 1; t->sorted && a < f.n; a++)
          for (uint16_t b = a; b > 0 && c[b - 1].index > c[b].index; b--) {
            TSQueryCapture x = c[b];
            c[b] = c[b - 1];
            c[b - 1] = x;
          }
      }
      HG_VEC_PUSH(&w->found, f);
    }
    return;
  }
  w->pattern = p;
  match(w, hg_shapes_get(d->shapes, p)->root, node, 0, &done);
  bool several = w->found.len - from > 1;
  if (several) (d->fixed[p] ? keep_distinct : keep_longest)(w, from);
  *t = (struct tried){w->tried, (uint32_t)from, (uint32_t)w->found.len, p, several && d->fixed[p]};
}

// The nodes in `place`, from its step `depth` on below `node`, appended to w->reached in pre-order.
// The children on the way are read into the cache: the patterns tried here read them anyway, and
// the walk copies them from there.
static void reach(hg_walker *w, const hg_walk_place *place, TSNode node, uint8_t depth) {
  if (depth == place->depth) {
    HG_VEC_PUSH(&w->reached, node);
    return;
  }
  TSFieldId field = place->step[depth].field;
  TSSymbol symbol = place->step[depth].symbol;
  kids_ref kids = cached_kids(w, node);
  for (size_t i = 0; i < kids.n; i++) {
    kid kd = w->ckids.items[kids.base + i];  // a copy: reading further down moves them
    if (kd.named && (!field || kd.field == field) && (!symbol || kd.symbol == symbol)) reach(w, place, kd.node, depth + 1);
  }
}

// Does a node in check k's place pass it? The place's nodes are found once a node tried, for every
// test asked of them there; they are asked in pre-order, up to the first that passes.
static bool admitted_in_place(hg_walker *w, const hg_walk_gate *g, uint32_t p, const hg_walk_check *k, TSNode at) {
  struct place_nodes *pl = &w->places[k->place_id];
  if (pl->at != w->tried) {
    size_t first = w->reached.len;
    reach(w, &k->place, at, 0);
    *pl = (struct place_nodes){w->tried, (uint32_t)first, (uint32_t)(w->reached.len - first)};
  }
  for (uint32_t i = 0; i < pl->n; i++)
    if (g->admits(g->ctx, p, k->test, w->reached.items[pl->first + i])) return true;
  return false;
}

// Does every check of pattern p pass at `at`? Each key's answer is kept for the other patterns
// tried at the node (the walk's count of nodes tried marks it), a file's for the whole walk.
static bool admitted(hg_walker *w, const hg_walk_gate *g, uint32_t p, const kid *at) {
  for (uint32_t c = g->checks->first[p]; c < g->checks->first[p + 1]; c++) {
    const hg_walk_check *k = &g->checks->checks[c];
    struct key_answer *a = &w->keys[k->key];
    if (k->file ? a->at <= w->walk_base : a->at != w->tried)  // a file's test: of any node
      *a = (struct key_answer){w->tried, k->file ? g->admits(g->ctx, p, k->test, at->node)
                                                 : admitted_in_place(w, g, p, k, at->node)};
    if (!a->ok) return false;
  }
  return true;
}

// The patterns whose root may be `at`, tried there in index order (those `gate` admits); `at` kept
// if `keep` says its type is.
static void visit(hg_walker *self, const hg_dispatch *d, const uint8_t *enabled, const hg_walk_gate *gate,
                  const kid *at, const uint8_t *keep) {
  TSSymbol sym = at->symbol;
  if (keep && sym < d->n_symbols && keep[sym]) HG_VEC_PUSH(&self->kept, at->node);
  const uint32_t *ids = NULL;
  uint32_t n_ids = 0, n_wild = 0;
  if (sym < d->n_symbols) {
    ids = d->ids + d->offsets[sym];
    n_ids = d->offsets[sym + 1] - d->offsets[sym];
  }
  if (at->named && sym != (TSSymbol)-1) n_wild = d->n_wild;
  if (!n_ids && !n_wild) return;
  // What the patterns tried above read stays for these ones and for the walk below, up to a bound.
  if (self->ckids.len > CACHE_KIDS_MAX) new_generation(self);
  self->tried++;
  self->reached.len = 0;
  // Both lists ascend: their patterns are tried in index order.
  for (uint32_t a = 0, b = 0; a < n_ids || b < n_wild;) {
    bool from_ids = b == n_wild || (a < n_ids && ids[a] < d->wild[b]);
    uint32_t p = from_ids ? ids[a++] : d->wild[b++];
    if (enabled && !enabled[p]) continue;
    if (!from_ids && d->wild_field[b - 1] && ts_node_is_null(ts_node_child_by_field_id(at->node, d->wild_field[b - 1])))
      continue;
    if (gate && gate->checks->first[p] != gate->checks->first[p + 1] && !admitted(self, gate, p, at)) continue;
    try_pattern(self, d, p, at);
  }
}

// Appends the children of `node` to the walk's path: those the patterns just tried read, copied,
// or else read now (without their fields: the walk does not ask for them).
static void walk_kids(hg_walker *w, TSNode node) {
  const kids_ref *c = cached_only(w, node.id);
  if (c) {
    for (size_t i = 0; i < c->n; i++) HG_VEC_PUSH(&w->wkids, w->ckids.items[c->base + i]);
    return;
  }
  cursor_at(w, node);
  if (!ts_tree_cursor_goto_first_child(&w->cursor)) return;
  do {
    TSNode n = ts_tree_cursor_current_node(&w->cursor);
    HG_VEC_PUSH(&w->wkids, ((kid){n, ts_node_symbol(n), 0, ts_node_is_named(n)}));
  } while (ts_tree_cursor_goto_next_sibling(&w->cursor));
}

// The walk goes down the tree in pre-order with a list of children per level: a node's children are
// read once, by the patterns tried at a node above when they look that deep (the call's argument
// list and its arguments), else by the walk (a cursor's steps cost some 480 instructions each).
void hg_walker_exec(hg_walker *self, const hg_dispatch *d, const uint8_t *enabled, const hg_walk_gate *gate,
                    TSNode root, const uint8_t *keep) {
  self->items = hg_shapes_items(d->shapes);
  self->caps.len = self->found.len = self->stack.len = self->kids.len = self->kept.len = 0;
  self->next = 0;
  uint32_t n = hg_shapes_count(d->shapes);
  if (self->n_tries < n) {
    free(self->tries);
    self->tries = hg_xcalloc(n, sizeof(*self->tries));
    self->n_tries = n;
  }
  if (gate && self->n_keys < gate->checks->n_keys) {
    free(self->keys);
    self->keys = hg_xcalloc(gate->checks->n_keys, sizeof(*self->keys));
    self->n_keys = gate->checks->n_keys;
  }
  if (gate && self->n_places < gate->checks->n_places) {
    free(self->places);
    self->places = hg_xcalloc(gate->checks->n_places, sizeof(*self->places));
    self->n_places = gate->checks->n_places;
  }
  self->walk_base = self->tried;
  new_generation(self);  // nothing read from an earlier tree (its nodes' addresses may be reused)
  self->wkids.len = self->frames.len = 0;
  HG_VEC_PUSH(&self->wkids, ((kid){root, ts_node_symbol(root), 0, ts_node_is_named(root)}));
  HG_VEC_PUSH(&self->frames, ((frame){0, 1, 0}));
  while (self->frames.len) {
    frame *f = &self->frames.items[self->frames.len - 1];
    if (f->next == f->n) {
      self->wkids.len = f->base;
      self->frames.len--;
      continue;
    }
    kid at = self->wkids.items[f->base + f->next++];
    visit(self, d, enabled, gate, &at, keep);
    if (!ts_node_child_count(at.node)) continue;
    size_t base = self->wkids.len;
    walk_kids(self, at.node);
    HG_VEC_PUSH(&self->frames, ((frame){base, self->wkids.len - base, 0}));
  }
}

const TSNode *hg_walker_kept(const hg_walker *self, size_t *n) {
  *n = self->kept.len;
  return self->kept.items;
}

bool hg_walker_next_match(hg_walker *self, TSQueryMatch *m) {
  if (self->next >= self->found.len) return false;
  const found *f = &self->found.items[self->next++];
  m->id = (uint32_t)self->next;
  m->pattern_index = (uint16_t)f->pattern;
  m->capture_count = f->n;
  m->captures = f->n ? self->caps.items + f->first : NULL;  // none at all: no captures vector
  return true;
}
