#include "rules/matches.h"

#include <stdlib.h>

#include "base/util.h"
#include "rules/walk.h"

struct hg_matches {
  hg_walker *walker;
  TSQueryCursor *cursor;  // the reference engine's, made when first needed
  const hg_rules_query *q;
};

hg_matches *hg_matches_new(void) {
  hg_matches *self = hg_xcalloc(1, sizeof(hg_matches));
  self->walker = hg_walker_new();
  return self;
}

void hg_matches_free(hg_matches *self) {
  if (!self) return;
  hg_walker_free(self->walker);
  if (self->cursor) ts_query_cursor_delete(self->cursor);
  free(self);
}

// The gate's test: predicate `test` of the pattern, of the node.
typedef struct {
  const hg_rules_query *q;
  hg_predctx *pctx;
} gate_ctx;

static bool admits(void *ctx, uint32_t pattern, uint32_t test, TSNode node) {
  const gate_ctx *g = ctx;
  return hg_predicates_may_hold(g->q->patterns[pattern].predicates, test, node, g->pctx);
}

const TSNode *hg_matches_exec_keeping(hg_matches *self, const hg_rules_query *q, TSNode root, const uint8_t *keep,
                                     hg_predctx *pctx, size_t *n) {
  self->q = q;
  *n = 0;
  if (pctx && pctx->words != q->words) {  // its #file-contains? strings, found in one pass
    pctx->words = q->words;
    pctx->words_read = false;
  }
  if (q->reference) {
    if (!self->cursor) self->cursor = ts_query_cursor_new();
    ts_query_cursor_exec(self->cursor, q->reference, root);
    return NULL;
  }
  gate_ctx g = {q, pctx};
  hg_walk_gate gate = {admits, &g, q->checks};
  hg_walker_exec(self->walker, q->dispatch, q->enabled, pctx ? &gate : NULL, root, keep);
  static const TSNode none;  // none kept: an empty list, not NULL
  const TSNode *kept = hg_walker_kept(self->walker, n);
  return kept ? kept : &none;
}

void hg_matches_exec(hg_matches *self, const hg_rules_query *q, TSNode root, hg_predctx *pctx) {
  size_t n;
  hg_matches_exec_keeping(self, q, root, NULL, pctx, &n);
}

bool hg_matches_next(hg_matches *self, TSQueryMatch *m) {
  if (!self->q->reference) return hg_walker_next_match(self->walker, m);
  while (ts_query_cursor_next_match(self->cursor, m))
    if (self->q->enabled[m->pattern_index]) return true;
  return false;
}
