#include "surfaces/python/project/calls.h"

#include <stdlib.h>
#include <string.h>

#include "base/table.h"
#include "surfaces/node.h"

typedef HG_VEC(TSNode) node_vec;

struct hg_calls {
  hg_table by_name; // name (in the module's source) -> index into lists
  node_vec *lists;  // in the arena
};

hg_calls *hg_calls_from(const hg_module *m, const TSNode *calls, size_t n, hg_arena *arena) {
  hg_calls *self = hg_arena_alloc(arena, sizeof(hg_calls));
  hg_table_init(&self->by_name, arena, 0);
  HG_VEC(node_vec) lists = {0};
  for (size_t i = 0; i < n; i++) {
    TSNode f = hg_node_field(calls[i], "function");
    TSNode last = hg_node_is(f, "attribute") ? hg_node_field(f, "attribute") : f;
    if (hg_node_is(last, "identifier")) {
      bool added;
      size_t *slot = hg_table_put(&self->by_name, m->src + ts_node_start_byte(last),
                                  ts_node_end_byte(last) - ts_node_start_byte(last), &added);
      if (added) {
        *slot = lists.len;
        HG_VEC_PUSH(&lists, (node_vec){0});
      }
      HG_VEC_PUSH(&lists.items[*slot], calls[i]);
    }
  }
  // Into the arena, so that the table goes with it.
  self->lists = hg_arena_alloc(arena, (lists.len ? lists.len : 1) * sizeof(node_vec));
  for (size_t i = 0; i < lists.len; i++) {
    node_vec *l = &self->lists[i];
    l->len = l->cap = lists.items[i].len;
    l->items = hg_arena_alloc(arena, l->len * sizeof(TSNode));
    memcpy(l->items, lists.items[i].items, l->len * sizeof(TSNode));
    free(lists.items[i].items);
  }
  free(lists.items);
  return self;
}

hg_calls *hg_calls_of(const hg_module *m, hg_arena *arena) {
  if (m->calls)
    return hg_calls_from(m, m->calls, m->n_calls, arena);
  node_vec calls = {0};
  TSTreeCursor c = ts_tree_cursor_new(m->root);
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (hg_node_is(n, "call"))
      HG_VEC_PUSH(&calls, n);
    if (ts_tree_cursor_goto_first_child(&c))
      continue;
    while (!(more = ts_tree_cursor_goto_next_sibling(&c)) && ts_tree_cursor_goto_parent(&c))
      ;
  }
  ts_tree_cursor_delete(&c);
  hg_calls *self = hg_calls_from(m, calls.items, calls.len, arena);
  free(calls.items);
  return self;
}

const TSNode *hg_calls_named(const hg_calls *self, const char *name, size_t len, size_t *n) {
  const size_t *at = hg_table_get(&self->by_name, name, len);
  *n = at ? self->lists[*at].len : 0;
  return at ? self->lists[*at].items : NULL;
}
