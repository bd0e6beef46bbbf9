#include "surfaces/node.h"

#include <string.h>

#include <pthread.h>

const TSLanguage *tree_sitter_python(void);

bool hg_node_is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

bool hg_node_text_eq(TSNode n, const char *src, const char *s, size_t len) {
  if (ts_node_is_null(n))
    return false;
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return b - a == len && memcmp(src + a, s, len) == 0;
}

const char *hg_node_text(TSNode n, const char *src, hg_arena *arena) {
  if (ts_node_is_null(n))
    return "";
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return hg_arena_strndup(arena, src + a, b - a);
}

TSNode hg_node_field(TSNode n, const char *name) {
  if (ts_node_is_null(n))
    return n;
  return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

static TSFieldId field_ids[HG_FIELD_COUNT];
static pthread_once_t fields_once = PTHREAD_ONCE_INIT;
static void fields_init(void) {
  static const char *const names[HG_FIELD_COUNT] = {"attribute", "object", "function", "arguments"};
  for (int i = 0; i < HG_FIELD_COUNT; i++)
    field_ids[i] = ts_language_field_id_for_name(tree_sitter_python(), names[i], (uint32_t)strlen(names[i]));
}

TSNode hg_node_child(TSNode n, hg_field f) {
  pthread_once(&fields_once, fields_init);
  if (ts_node_is_null(n))
    return n;
  return ts_node_child_by_field_id(n, field_ids[f]);
}

uint32_t hg_node_arg_count(TSNode n) {
  uint32_t count = 0;
  for (uint32_t i = 0, k = ts_node_is_null(n) ? 0 : ts_node_named_child_count(n); i < k; i++)
    count += !hg_node_is(ts_node_named_child(n, i), "comment");
  return count;
}

TSNode hg_node_arg(TSNode n, uint32_t index) {
  for (uint32_t i = 0, k = ts_node_is_null(n) ? 0 : ts_node_named_child_count(n); i < k; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (!hg_node_is(c, "comment") && index-- == 0)
      return c;
  }
  return (TSNode){0};
}

bool hg_node_contains(TSNode outer, TSNode inner) {
  return !ts_node_is_null(outer) && !ts_node_is_null(inner) && ts_node_start_byte(outer) <= ts_node_start_byte(inner) &&
         ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}
