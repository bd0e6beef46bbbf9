/* Subscripts of known values: `LIMITS["processes"]` of a dict constant, `FLAGS[0]` of a list, each
 * alternative of an ALT; `os.environ["X"]` is the environment. What cannot be told is UNKNOWN with
 * the reason (never the key's absence taken for a value). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/resolve_internal.h"

static bool integer(const hg_value *k, long *out) {
  if (k->kind != HG_VAL_NUM || k->conditional)
    return false;
  char *end;
  long v = strtol(k->text, &end, 10);
  if (*end || end == k->text)
    return false;
  *out = v;
  return true;
}

static hg_value entry(const hg_resolver *self, TSNode n, const hg_value *c, const hg_value *k) {
  if (c->kind == HG_VAL_ALT) {
    hg_value alts[HG_ALT_MAX];
    const char *conds[HG_ALT_MAX];
    size_t m = c->n_items < HG_ALT_MAX ? c->n_items : HG_ALT_MAX;
    for (size_t i = 0; i < m; i++) {
      alts[i] = entry(self, n, &c->items[i], k);
      conds[i] = c->items[i].cond;
    }
    return hg_resolve_alt(self, n, alts, conds, m);
  }
  if (c->kind == HG_VAL_DICT && k->kind == HG_VAL_STR && !strchr(k->text, HG_HOLE) && !k->conditional) {
    for (size_t i = c->n_items; i-- > 0;) {
      const hg_value *it = &c->items[i];
      if (!it->key) {
        if (it->splat)
          return hg_resolve__unknown(self, n, "an entry of a mapping spread from a value hardguard cannot read");
        continue;
      }
      if (strcmp(it->key, k->text))
        continue;
      if (it->conditional)
        return hg_resolve__unknown(self, n, "an entry set on some paths only");
      hg_value v = *it;
      v.key = NULL;
      v.splat = false;
      return v;
    }
    return hg_resolve__unknown(self, n, "a key the mapping does not hold");
  }
  long at;
  if (c->kind == HG_VAL_LIST && integer(k, &at)) {
    size_t len = c->n_items;
    for (size_t i = 0; i < len; i++)
      if (c->items[i].splat || c->items[i].conditional)
        return hg_resolve__unknown(self, n, "an item of a list whose items are not all known");
    if (at < 0)
      at += (long)len;
    if (at < 0 || (size_t)at >= len)
      return hg_resolve__unknown(self, n, "an index past the end of the list");
    hg_value v = c->items[at];
    v.key = NULL;
    return v;
  }
  if (c->kind == HG_VAL_UNKNOWN) {
    hg_value u = hg_resolve__unknown(self, n, c->origin);
    return u;
  }
  return hg_resolve__unknown(self, n, "an item of a value hardguard cannot index");
}

hg_value hg_resolve__subscript(const hg_resolver *self, TSNode n, int depth) {
  TSNode obj = hg_node_field(n, "value"), key = hg_node_field(n, "subscript");
  if (ts_node_is_null(obj) || ts_node_is_null(key) || hg_node_is(key, "slice") ||
      ts_node_named_child_count(n) != 2)
    return hg_resolve__unknown(self, n, "an expression");
  if (hg_node_is(obj, "attribute")) {
    hg_buf q = {0};
    bool environ = hg_resolve_qualify(self, obj, &q) && !strcmp(q.data, "os.environ");
    hg_buf_free(&q);
    if (environ) {
      hg_value name = hg_resolve_value_at(self, key, depth + 1);
      char buf[160];
      snprintf(buf, sizeof(buf), "the environment variable %s",
               name.kind == HG_VAL_STR && !strchr(name.text, HG_HOLE) && strlen(name.text) < 100
                   ? name.text
                   : "named by an expression");
      return hg_resolve__unknown(self, n, hg_arena_strndup(self->arena, buf, strlen(buf)));
    }
  }
  hg_value c = hg_resolve_value_at(self, obj, depth + 1);
  hg_value k = hg_resolve_value_at(self, key, depth + 1);
  hg_value v = entry(self, n, &c, &k);
  if (!v.via)
    v.via = c.via;
  return v;
}
