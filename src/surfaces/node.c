#define HG_NODE_DELETES_TREES  // the one file that calls ts_tree_delete (node.h)
#include "surfaces/node.h"

#include <stdint.h>
#include <string.h>

#include <pthread.h>
#include <stdatomic.h>

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
  return hg_find(src + a, b - a, s, len) != NULL;
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
// name up by comparing it with each field's, on every call): one thread's, a few entries, each name
// in one of FIELD_WAYS slots from its hash (with one slot each, two hot names whose addresses met
// there, as a new string in the binary may make them, took turns: 11,000 look-ups on B's first 200
// files). An entry is trusted only when its id's name is the name asked for, so a name at an
// address reused for another one is looked up again.
enum { FIELD_CACHE = 64, FIELD_WAYS = 4 };
static _Thread_local struct {
  const TSLanguage *lang;
  const char *name;
  TSFieldId id;
} field_cache[FIELD_CACHE];
static _Thread_local unsigned field_next;  // the slot of a name's ways its next miss takes

static TSFieldId field_id(const TSLanguage *lang, const char *name) {
  uintptr_t h = (uintptr_t)name ^ ((uintptr_t)lang >> 4);
  h ^= h >> 7;
  size_t i = (size_t)(h ^ (h >> 13)) % FIELD_CACHE;
  for (size_t w = 0; w < FIELD_WAYS; w++) {
    size_t k = (i + w) % FIELD_CACHE;
    if (field_cache[k].name == name && field_cache[k].lang == lang && field_cache[k].id &&
        !strcmp(ts_language_field_name_for_id(lang, field_cache[k].id), name))
      return field_cache[k].id;
  }
  TSFieldId id = ts_language_field_id_for_name(lang, name, (uint32_t)strlen(name));
  size_t k = (i + field_next++ % FIELD_WAYS) % FIELD_CACHE;
  field_cache[k].lang = lang, field_cache[k].name = name, field_cache[k].id = id;
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

void hg_ancestors_of(hg_ancestors *up, TSNode n) {
  up->n = hg_node_ancestors(n, up->node, HG_ANCESTORS_KEPT);
  up->far_i = 0;
}

TSNode hg_ancestor(hg_ancestors *up, size_t i) {
  if (i >= up->n)
    return (TSNode){0};
  if (i < HG_ANCESTORS_KEPT)
    return up->node[i];
  if (up->far_i < HG_ANCESTORS_KEPT)
    up->far = up->node[HG_ANCESTORS_KEPT - 1], up->far_i = HG_ANCESTORS_KEPT - 1;
  for (; up->far_i < i; up->far_i++)
    up->far = ts_node_parent(up->far);
  return up->far;
}

bool hg_node_contains(TSNode outer, TSNode inner) {
  return !ts_node_is_null(outer) && !ts_node_is_null(inner) && ts_node_start_byte(outer) <= ts_node_start_byte(inner) &&
         ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

bool hg_cursor_next(TSTreeCursor *cur, bool descend) {
  if (descend && ts_tree_cursor_goto_first_child(cur))
    return true;
  while (!ts_tree_cursor_goto_next_sibling(cur))
    if (!ts_tree_cursor_goto_parent(cur))
      return false;
  return true;
}

TSNode hg_node_root(TSNode n) { return ts_node_is_null(n) ? n : ts_tree_root_node(n.tree); }

// Counted each time a tree is deleted (hg_tree_delete): what a thread keeps of a tree's nodes is
// trusted only while the count is what it was when they were kept, since a deleted tree's nodes can
// come back at the same addresses in the next one.
static atomic_uint trees_deleted;

void hg_tree_delete(TSTree *tree) {
  atomic_fetch_add_explicit(&trees_deleted, 1, memory_order_release);
  ts_tree_delete(tree);
}

// The last path a descent reached its node by, root first, that node last: the nodes asked about
// one after another are mostly close (the names of one call), and a descent starts from the
// deepest node of it that holds the new node with bytes to spare on both sides. Such a node is on
// the new node's path too: each node before it among its parent's children ends before the new node
// starts, and it ends after the new node does (so does each of its ancestors on the path). A start
// that did not hold the node would not reach it (the parents are climbed then): what is kept
// decides how fast, never what is found, as long as its tree is alive.
enum { PATH_KEPT = 64 };
static _Thread_local struct {
  const TSTree *tree;  // NULL: nothing kept
  unsigned deleted;    // trees_deleted when kept
  size_t len;
  TSNode node[PATH_KEPT];
} last_path;

// Is the kept path of this tree, and still to be trusted?
static bool kept_for(const TSTree *tree) {
  return last_path.tree == tree && last_path.deleted == atomic_load_explicit(&trees_deleted, memory_order_acquire);
}

// How many nodes of the kept path, from the root, hold [start, end) with bytes to spare.
static size_t kept_holding(const TSTree *tree, uint32_t start, uint32_t end) {
  size_t k = 0;
  if (kept_for(tree))
    while (k < last_path.len && ts_node_start_byte(last_path.node[k]) < start && end < ts_node_end_byte(last_path.node[k]))
      k++;
  return k;
}

size_t hg_node_kept_path(const TSTree *tree) { return kept_for(tree) ? last_path.len : 0; }

static void keep_path(TSNode n, const TSNode *path, size_t len) {
  last_path.tree = n.tree;
  last_path.deleted = atomic_load_explicit(&trees_deleted, memory_order_acquire);
  size_t k = len < PATH_KEPT ? len : PATH_KEPT;
  memcpy(last_path.node, path, k * sizeof(TSNode));
  if (k < PATH_KEPT) last_path.node[k++] = n;
  last_path.len = k;
}

// The path from the root down to n (n excluded) by n's bytes, into out in that order; false when
// it does not reach n or is longer than cap. Starts below the root where the kept path allows.
static bool descend_to(TSNode n, TSNode *out, size_t cap, size_t *len) {
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  TSNode from = ts_tree_root_node(n.tree);
  *len = 0;
  size_t k = kept_holding(n.tree, start, end);
  if (k > cap + 1) k = cap + 1;
  if (k) {  // the k - 1 nodes above the deepest one holding n are n's first ancestors
    memcpy(out, last_path.node, (k - 1) * sizeof(TSNode));
    *len = k - 1;
    from = last_path.node[k - 1];
  }
  TSTreeCursor c = ts_tree_cursor_new(from);
  bool reached = false;
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
  if (reached) keep_path(n, out, *len);
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
