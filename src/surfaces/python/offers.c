/* What the configured builders yield, read by the value model from their definitions in the
 * project — for the fix line (only a builder that yields every requirement is offered) and for
 * --fix (which keywords applying one would pass twice). */
#include "surfaces/python/offers.h"

#include <string.h>

#include "surfaces/python/eval.h"
#include "surfaces/python/project/summary.h"

hg_value hg_python_builder_value(hg_index *index, hg_arena *arena, const hg_builder *b, const char *callable,
                                 const char *from_path) {
  if (strchr(callable, '.'))
    return (hg_value){.kind = HG_VAL_NONE, .text = callable}; // a Class.method: not read here
  const hg_module *m = index ? hg_index_module(index, b->module, strlen(b->module), from_path, NULL) : NULL;
  const hg_policy *policy = index ? hg_index_policy(index) : NULL;
  if (!m || !policy) {
    if (b->trust)
      return (hg_value){.kind = HG_VAL_BUILDER, .text = callable}; // taken at its word
    return (hg_value){.kind = HG_VAL_UNKNOWN,
                      .text = callable,
                      .origin = hg_arena_printf(arena, "module %s is not in this project", b->module)};
  }
  hg_resolver r = {.engine = &hg_python_engine,
                   .src = m->src,
                   .imports = m->imports,
                   .config = hg_index_config(index),
                   .policy = policy,
                   .arena = arena,
                   .module = m,
                   .index = index,
                   .cache = hg_summary_cache_new(arena)};
  r.memo = hg_name_memo_new(arena);
  size_t budget = HG_RESOLVE_BUDGET;
  r.budget = &budget;
  return hg_summary_builder(&r, m, callable);
}

const hg_value *hg_python_builder_offers(hg_index *index, hg_arena *arena, const hg_config *config,
                                         const char *from_path, size_t *n) {
  *n = 0;
  for (size_t i = 0; i < config->n_builders; i++)
    *n += config->builders[i].n_callables;
  hg_value *out = hg_arena_alloc(arena, (*n ? *n : 1) * sizeof(hg_value));
  size_t f = 0;
  for (size_t i = 0; i < config->n_builders; i++)
    for (size_t k = 0; k < config->builders[i].n_callables; k++)
      out[f++] = hg_python_builder_value(index, arena, &config->builders[i], config->builders[i].callables[k],
                                         from_path);
  return out;
}

// The keys of the options `v` yields: false when some cannot be told (an unknown spread). The
// alternatives of a value give the keys of every arm.
static bool keys_of(const hg_value *v, char ***keys, size_t *n, size_t *cap, int depth) {
  if (depth > 16)
    return false;
  switch (v->kind) {
  case HG_VAL_BUILDER: return v->n_items == 1 && keys_of(&v->items[0], keys, n, cap, depth + 1);
  case HG_VAL_ALT:
    for (size_t i = 0; i < v->n_items; i++)
      if (!keys_of(&v->items[i], keys, n, cap, depth + 1))
        return false;
    return true;
  case HG_VAL_DICT:
    for (size_t i = 0; i < v->n_items; i++) {
      const hg_value *it = &v->items[i];
      if (it->key) {
        bool seen = false;
        for (size_t k = 0; k < *n && !seen; k++)
          seen = !strcmp((*keys)[k], it->key);
        if (seen)
          continue;
        if (*n == *cap) {
          *cap = *cap ? 2 * *cap : 8;
          *keys = hg_xrealloc(*keys, *cap * sizeof(char *));
        }
        (*keys)[(*n)++] = hg_xstrdup(it->key);
      } else if (!keys_of(it, keys, n, cap, depth + 1)) {
        return false;
      }
    }
    return true;
  default: return false;
  }
}

bool hg_python_builder_keys(const hg_value *v, char ***keys, size_t *n) {
  size_t cap = 0;
  *keys = NULL;
  *n = 0;
  if (keys_of(v, keys, n, &cap, 0))
    return true;
  hg_strv_free(*keys, *n);
  *keys = NULL;
  *n = 0;
  return false;
}
