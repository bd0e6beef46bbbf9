#include "model/site.h"

#include <stdlib.h>
#include <string.h>

hg_value hg_values_finish(hg_arena *arena, hg_value v, hg_value_vec *items) {
  v.n_items = items->len;
  v.items = hg_arena_alloc(arena, (items->len ? items->len : 1) * sizeof(hg_value));
  if (items->len)
    memcpy(v.items, items->items, items->len * sizeof(hg_value));
  free(items->items);
  return v;
}
