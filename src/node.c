#include "node.h"

#include <string.h>

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
