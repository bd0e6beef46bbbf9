#include "surfaces/python/names.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/eval.h"
#include "surfaces/python/project/summary.h"

static bool qualify(void *model, TSNode node, hg_buf *out) {
  const hg_python_model *m = model;
  return m->resolver ? hg_resolve_qualify(m->resolver, node, out) : hg_python_qualify_imported(model, node, out);
}

// Most calls end in some other name than the ones asked for: ruled out before qualifying.
static bool may_end_in(void *model, TSNode node, char *const *lasts, const size_t *lens, size_t n) {
  hg_python_model *m = model;
  if (!m->resolver)
    return true;
  if (!node.id || !ts_node_eq(m->end_of, node)) {
    hg_resolve_callee_end(m->resolver, node, &m->end);
    m->end_of = node;
  }
  for (size_t i = 0; i < n; i++)
    if (hg_resolve_may_end_in(&m->end, lasts[i], lens[i]))
      return true;
  return false;
}

// Before the file's names are known: a callee whose syntax alone rules out every last name (an
// attribute ending in another one, what may_end_in then says of it whatever the names).
static bool ends_elsewhere(void *model, TSNode node, char *const *lasts, const size_t *lens, size_t n) {
  hg_python_model *m = model;
  if (!m->tail_of.id || !ts_node_eq(m->tail_of, node)) {
    hg_callee_tail(m->src, node, &m->tail);
    m->tail_of = node;
  }
  if (m->tail.any || (m->tail.bare && m->tail.text))
    return false;  // a call, or a bare name an import or an assignment may bind
  for (size_t i = 0; i < n; i++)  // an attribute: its own last identifier (hg_resolve_may_end_in's test)
    if (m->tail.len == lens[i] && memcmp(m->tail.text, lasts[i], lens[i]) == 0)
      return false;
  return true;
}

static const char *string_value(void *model, TSNode node) {
  const hg_python_model *m = model;
  if (!m->resolver)
    return NULL;
  hg_value v = hg_resolve_value(m->resolver, node);
  // `self.runtime`, `self._config.container_runtime` in a method: what the constructor leaves there.
  if (v.kind == HG_VAL_UNKNOWN && hg_node_is(node, "attribute"))
    v = hg_summary_self_state(m->resolver, node);
  if (v.kind != HG_VAL_ALT)
    return v.kind == HG_VAL_STR ? v.text : NULL;
  // One of several strings (ENGINE = "docker" if x else "podman"): each on a line of its own.
  hg_buf b = {0};
  for (size_t i = 0; i < v.n_items; i++)
    if (v.items[i].kind == HG_VAL_STR)
      hg_buf_printf(&b, "%s\n", v.items[i].text);
  const char *out = b.len ? hg_arena_strndup(m->resolver->arena, b.data, b.len) : NULL;
  hg_buf_free(&b);
  return out;
}

static bool defined(void *model, TSNode node) {
  const hg_python_model *m = model;
  return m->resolver && hg_summary_defined(m->resolver, node);
}

// A value that is a mapping on every path: a dict, or one of several. A dict's spread stands for
// the entries of a mapping (`{**x}` needs one), except one on only some paths of what is not a
// mapping: the value the name held on the other paths (`HC = None`, then `HC = {...}` in an `if`).
static bool holds_mapping(const hg_value *v) {
  if (v->kind == HG_VAL_ALT) {
    for (size_t i = 0; i < v->n_items; i++)
      if (!holds_mapping(&v->items[i]))
        return false;
    return v->n_items > 0;
  }
  if (v->kind != HG_VAL_DICT)
    return false;
  for (size_t i = 0; i < v->n_items; i++)
    if (v->items[i].splat && v->items[i].conditional && !holds_mapping(&v->items[i]))
      return false;
  return true;
}

static bool mapping(void *model, TSNode node) {
  const hg_python_model *m = model;
  while (hg_node_is(node, "parenthesized_expression") && ts_node_named_child_count(node) == 1)
    node = ts_node_named_child(node, 0);
  if (hg_node_is(node, "dictionary"))
    return true; // a dict display, whatever it spreads
  if (!m->resolver)
    return false;
  hg_value v = hg_resolve_value(m->resolver, node);
  return holds_mapping(&v);
}

const hg_names hg_python_names = {
    .qualify = qualify,
    .may_end_in = may_end_in,
    .ends_elsewhere = ends_elsewhere,
    .imports = hg_python_imports,
    .string_value = string_value,
    .defined = defined,
    .mapping = mapping};
