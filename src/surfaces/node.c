#include "surfaces/node.h"

#include <stdint.h>
#include <string.h>

#include <pthread.h>

const TSLanguage *tree_sitter_python(void);

// Most nodes asked about are of another type: the first letters, compared inline, tell most apart.
bool hg_node_is(TSNode n, const char *type) {
  if (ts_node_is_null(n)) return false;
  const char *t = ts_node_type(n);
  return t[0] == type[0] && (!t[0] || strcmp(t + 1, type + 1) == 0);
}

bool hg_node_text_has(TSNode n, const char *src, const char *s, size_t len) {
  if (ts_node_is_null(n))
    return false;
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return memmem(src + a, b - a, s, len) != NULL;
}

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

// The field ids of the names asked for, by language and the name's address (libtree-sitter looks a
// name up by comparing it with each field's, on every call): one thread's, a few entries. An entry
// is trusted only when its id's name is the name asked for, so a name at an address reused for
// another one is looked up again.
enum { FIELD_CACHE = 64 };
static _Thread_local struct {
  const TSLanguage *lang;
  const char *name;
  TSFieldId id;
} field_cache[FIELD_CACHE];

static TSFieldId field_id(const TSLanguage *lang, const char *name) {
  uintptr_t h = (uintptr_t)name ^ ((uintptr_t)lang >> 4);
  h ^= h >> 7;
  size_t i = (size_t)(h ^ (h >> 13)) % FIELD_CACHE;
  if (field_cache[i].name == name && field_cache[i].lang == lang && field_cache[i].id &&
      !strcmp(ts_language_field_name_for_id(lang, field_cache[i].id), name))
    return field_cache[i].id;
  TSFieldId id = ts_language_field_id_for_name(lang, name, (uint32_t)strlen(name));
  field_cache[i].lang = lang, field_cache[i].name = name, field_cache[i].id = id;
  return id;
}

TSNode hg_node_field(TSNode n, const char *name) {
  if (ts_node_is_null(n))
    return n;
  TSFieldId id = field_id(ts_tree_language(n.tree), name);
  return id ? ts_node_child_by_field_id(n, id) : (TSNode){0};
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

TSNode hg_node_root(TSNode n) { return ts_node_is_null(n) ? n : ts_tree_root_node(n.tree); }

// The path from the root down to n (n excluded) by n's bytes, into out in that order; false when
// it does not reach n or is longer than cap.
static bool descend_to(TSNode n, TSNode *out, size_t cap, size_t *len) {
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(n.tree));
  bool reached = false;
  *len = 0;
  for (;;) {
    TSNode cur = ts_tree_cursor_current_node(&c);
    if (cur.id == n.id && ts_node_start_byte(cur) == start) {
      reached = true;
      break;
    }
    if (*len == cap || ts_tree_cursor_goto_first_child_for_byte(&c, start) < 0)
      break;
    out[(*len)++] = cur;
    TSNode child = ts_tree_cursor_current_node(&c);
    // libtree-sitter 0.20.7 may stop at a child that ends before n starts (`client.containers`
    // for the `run` of `client.containers.run`): step on to the sibling that holds n, instead of
    // climbing parent by parent, which costs a descent from the root for each parent.
    while (ts_node_end_byte(child) < start + (end > start) && ts_tree_cursor_goto_next_sibling(&c))
      child = ts_tree_cursor_current_node(&c);
    if (ts_node_start_byte(child) > start || ts_node_end_byte(child) < end)
      break;  // the bytes lead elsewhere
  }
  ts_tree_cursor_delete(&c);
  return reached;
}

size_t hg_node_ancestors(TSNode n, TSNode *out, size_t cap) {
  if (ts_node_is_null(n))
    return 0;
  size_t len;
  if (cap && descend_to(n, out, cap, &len)) {
    for (size_t i = 0, j = len; i + 1 < j; i++, j--) {  // parent first
      TSNode t = out[i];
      out[i] = out[j - 1];
      out[j - 1] = t;
    }
    return len;
  }
  size_t k = 0;
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p), k++)
    if (k < cap)
      out[k] = p;
  return k;
}
