#include "surfaces/python/resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/resolve_internal.h"
#include "surfaces/python/follow.h"
#include "surfaces/python/handon.h"
#include "surfaces/python/scope.h"

// ---- following a name through its scope ---------------------------------------------------------

// Charges `n` steps to the file's budget; false (and the follow marked spent) once it is out.
bool hg_follow__charge(follow *f, size_t n) {
  size_t *b = f->r->budget;
  if (!b)
    return true;
  if (*b < n) {
    *b = 0;
    f->spent = true;
    return false;
  }
  *b -= n;
  return true;
}

// What a follow that ran out of budget stands for.
hg_value hg_follow__over_budget(const hg_resolver *self, TSNode use) {
  return hg_resolve__unknown(self, use, self->budget_why ? self->budget_why : HG_RESOLVE_BUDGET_ORIGIN);
}

bool hg_follow__is_name(const follow *f, TSNode n) {
  if (ts_node_is_null(n) || !hg_node_is(n, "identifier"))
    return false;
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return b - a == f->len && memcmp(f->r->src + a, f->name, f->len) == 0;
}

static hg_value outer_value(const follow *f);

// A change to a name not assigned in this scope changes what it held coming in: a parameter,
// a module-level value, an import.
static void ensure_defined(follow *f) {
  if (f->defined)
    return;
  f->cur = outer_value(f);
  f->defined = true;
}

// Does the mapping being built hold `key`: 1 on every path (an item under it set unconditionally),
// 0 on none (every item known, none under it), -1 maybe (a spread, or an item on some paths).
static int holds_key(const follow *f, const char *key) {
  int held = 0;
  for (size_t i = 0; i < f->items.len; i++) {
    const hg_value *v = &f->items.items[i];
    if (!v->key || (!strcmp(v->key, key) && v->conditional))
      held = held == 1 ? 1 : -1;  // a spread, or an item on some paths, may hold it
    else if (!strcmp(v->key, key))
      held = v->kind == HG_VAL_NONE ? -1 : 1;  // None: set so, or popped (pop leaves one)
  }
  return held;
}

static void to_container(follow *f, hg_value_kind kind) {
  f->changes++;
  ensure_defined(f);
  if (f->container)
    return;
  f->items.len = 0;
  if (f->defined && f->cur.kind == kind && (kind == HG_VAL_DICT || kind == HG_VAL_LIST)) {
    // A known container (a parameter bound by a caller, a module's dict): its items, changed.
    for (size_t i = 0; i < f->cur.n_items; i++)
      HG_VEC_PUSH(&f->items, f->cur.items[i]);
  } else if (f->defined) {
    hg_value v = f->cur;
    v.splat = true;
    v.key = NULL;
    HG_VEC_PUSH(&f->items, v);
  }
  f->container = true;
  f->cur.kind = kind;
}

// Appends the items of `v` (a container of the same kind), or `v` itself as a spread.
void hg_follow__add_items(follow *f, hg_value_kind kind, hg_value v, bool cond) {
  to_container(f, kind);
  f->defined = true;
  if (v.kind == kind) {
    for (size_t i = 0; i < v.n_items; i++) {
      hg_value item = v.items[i];
      item.conditional |= cond;
      HG_VEC_PUSH(&f->items, item);
    }
    return;
  }
  v.splat = true;
  v.key = NULL;
  v.conditional |= cond;
  HG_VEC_PUSH(&f->items, v);
}

void hg_follow__set_value(follow *f, hg_value v, bool cond) {
  f->changes++;
  f->rebinds++;
  if (!cond || !f->defined) {
    f->container = false;
    f->items.len = 0;
    f->defined = true;
    f->cur = v;
    if (v.kind == HG_VAL_DICT || v.kind == HG_VAL_LIST) {
      f->container = true;
      for (size_t i = 0; i < v.n_items; i++) {
        hg_value item = v.items[i];
        item.conditional |= cond;
        HG_VEC_PUSH(&f->items, item);
      }
    } else if (cond) {
      f->cur.conditional = true;
    }
    return;
  }
  // A reassignment on some paths only: neither the old nor the new value is guaranteed.
  hg_value_kind kind =
      v.kind == HG_VAL_LIST || (f->container && f->cur.kind == HG_VAL_LIST) ? HG_VAL_LIST : HG_VAL_DICT;
  to_container(f, kind);
  for (size_t i = 0; i < f->items.len; i++)
    f->items.items[i].conditional = true;
  hg_follow__add_items(f, kind, v, true);
}

static void on_call(follow *f, TSNode call, bool cond) {
  TSNode fn = hg_node_child(call, HG_FIELD_FUNCTION);
  if (ts_node_is_null(fn) || !hg_node_is(fn, "attribute") || !hg_follow__is_name(f, hg_node_field(fn, "object")))
    return;
  TSNode attr = hg_node_child(fn, HG_FIELD_ATTRIBUTE);
  TSNode args = hg_node_field(call, "arguments");
  uint32_t a = ts_node_start_byte(attr), b = ts_node_end_byte(attr);
  const char *m = f->r->src + a;
  size_t n = b - a;
#define METHOD(s) (n == sizeof(s) - 1 && memcmp(m, s, n) == 0)
  TSNode arg0 = hg_node_arg_count(args) > 0 ? hg_node_arg(args, 0) : (TSNode){0};
  if (METHOD("update")) {
    hg_follow__add_items(f, HG_VAL_DICT, hg_resolve__keyword_dict(f->r, args, f->depth + 1), cond);
  } else if (METHOD("extend") && !ts_node_is_null(arg0)) {
    hg_follow__add_items(f, HG_VAL_LIST, hg_resolve_value_at(f->r, arg0, f->depth + 1), cond);
  } else if (METHOD("append") && !ts_node_is_null(arg0)) {
    hg_value item = hg_resolve_value_at(f->r, arg0, f->depth + 1);
    to_container(f, HG_VAL_LIST);
    f->defined = true;
    item.conditional |= cond;
    HG_VEC_PUSH(&f->items, item);
  } else if (METHOD("insert") && hg_node_arg_count(args) == 2) {
    hg_value at = hg_resolve_value_at(f->r, arg0, f->depth + 1);
    hg_value item = hg_resolve_value_at(f->r, hg_node_arg(args, 1), f->depth + 1);
    to_container(f, HG_VAL_LIST);
    f->defined = true;
    long index = at.kind == HG_VAL_NUM ? strtol(at.text, NULL, 10) : -1;
    item.conditional |= cond;
    HG_VEC_PUSH(&f->items, item);
    if (!cond && index >= 0 && (size_t)index < f->items.len - 1) {
      // move the new item into place
      memmove(&f->items.items[index + 1], &f->items.items[index],
              (f->items.len - 1 - (size_t)index) * sizeof(hg_value));
      f->items.items[index] = item;
    }
  } else if (METHOD("setdefault") || METHOD("pop") || METHOD("popitem") || METHOD("clear") || METHOD("remove")) {
    // setdefault sets only a missing key; pop/clear/remove take options away: either way what
    // the name held is no longer guaranteed.
    hg_value key = ts_node_is_null(arg0) ? (hg_value){0} : hg_resolve_value_at(f->r, arg0, f->depth + 1);
    to_container(f, f->container ? f->cur.kind : HG_VAL_DICT);
    f->defined = true;
    if (METHOD("setdefault") && key.kind == HG_VAL_STR && hg_node_arg_count(args) == 2) {
      int held = f->cur.kind == HG_VAL_DICT ? holds_key(f, key.text) : -1;
      // It sets the key where the mapping lacks it: on every path where it surely does (a mapping
      // known item by item), on none where it surely holds the key, else on only some paths.
      hg_value item = hg_resolve_item_at(f->r, key.text, strlen(key.text), hg_node_arg(args, 1), f->depth + 1);
      item.key = key.text;
      item.conditional = held != 0 || cond;
      if (held != 1)
        HG_VEC_PUSH(&f->items, item);
    } else if (METHOD("pop") && key.kind == HG_VAL_STR && f->cur.kind == HG_VAL_DICT) {
      hg_value gone = {.kind = HG_VAL_NONE,
                       .text = "None",
                       .key = key.text,
                       .conditional = cond,
                       .line = ts_node_start_point(call).row + 1};
      HG_VEC_PUSH(&f->items, gone);
    } else {
      for (size_t i = 0; i < f->items.len; i++)
        f->items.items[i].conditional = true;
    }
  }
#undef METHOD
}

static void on_assignment(follow *f, TSNode asg, bool cond) {
  // a = b = value: the targets are every `left`, the value the innermost `right`
  TSNode value = asg;
  while (hg_node_is(value, "assignment")) {
    TSNode right = hg_node_field(value, "right");
    if (ts_node_is_null(right))
      return; // an annotation without a value
    value = right;
  }
  for (TSNode t = asg; hg_node_is(t, "assignment"); t = hg_node_field(t, "right")) {
    TSNode left = hg_node_field(t, "left");
    if (hg_follow__is_name(f, left)) {
      hg_follow__set_value(f, hg_resolve_value_at(f->r, value, f->depth + 1), cond);
    } else if (hg_node_is(left, "subscript") && hg_follow__is_name(f, hg_node_field(left, "value"))) {
      TSNode sub = hg_node_field(left, "subscript");
      hg_value key = ts_node_is_null(sub) ? (hg_value){0} : hg_resolve_value_at(f->r, sub, f->depth + 1);
      hg_value item = key.kind == HG_VAL_STR ? hg_resolve_item_at(f->r, key.text, strlen(key.text), value, f->depth + 1)
                                             : hg_resolve_value_at(f->r, value, f->depth + 1);
      to_container(f, HG_VAL_DICT);
      f->defined = true;
      if (key.kind == HG_VAL_STR && !strchr(key.text, HG_HOLE)) {
        item.key = key.text;
      } else {
        item = hg_resolve__unknown(f->r, left, "an item set under a computed key");
        item.splat = true;
      }
      item.conditional |= cond;
      HG_VEC_PUSH(&f->items, item);
    } else if (hg_node_is(left, "pattern_list") || hg_node_is(left, "tuple_pattern") ||
               hg_node_is(left, "list_pattern")) {
      uint32_t n = ts_node_named_child_count(left);
      for (uint32_t i = 0; i < n; i++)
        if (hg_follow__is_name(f, ts_node_named_child(left, i)))
          hg_follow__set_value(f, hg_resolve__unknown(f->r, value, "a value unpacked from a sequence"), cond);
    }
  }
}

// `del name[key]` takes an option away as pop does; `del name[i]` or a slice, any item; `del name`
// leaves nothing known.
static void on_delete(follow *f, TSNode target, bool cond) {
  if (hg_node_is(target, "expression_list")) {
    for (uint32_t i = 0, n = ts_node_named_child_count(target); i < n; i++)
      on_delete(f, ts_node_named_child(target, i), cond);
    return;
  }
  if (hg_follow__is_name(f, target)) {
    hg_follow__set_value(f, hg_resolve__unknown(f->r, target, "a deleted name"), cond);
    return;
  }
  if (!hg_node_is(target, "subscript") || !hg_follow__is_name(f, hg_node_field(target, "value")))
    return;
  TSNode sub = hg_node_field(target, "subscript");
  hg_value key = ts_node_is_null(sub) ? (hg_value){0} : hg_resolve_value_at(f->r, sub, f->depth + 1);
  to_container(f, f->container ? f->cur.kind : HG_VAL_DICT);
  f->defined = true;
  if (f->cur.kind == HG_VAL_DICT && key.kind == HG_VAL_STR && !strchr(key.text, HG_HOLE)) {
    hg_value gone = {.kind = HG_VAL_NONE,
                     .text = "None",
                     .key = key.text,
                     .conditional = cond,
                     .line = ts_node_start_point(target).row + 1};
    HG_VEC_PUSH(&f->items, gone);
  } else {
    for (size_t i = 0; i < f->items.len; i++)
      f->items.items[i].conditional = true;
  }
}

static bool apply_stmt(follow *f, hg_stmt s);

// A mapping or list the name holds, handed to a call that may change it or changed in an item in
// place (handon.h): that item, or what the call may add, is not known after it. A scalar, or what
// is already unknown, stays.
static void handed_on(follow *f, TSNode stmt, bool cond) {
  hg_value_kind kind = f->cur.kind;
  if (kind != HG_VAL_DICT && kind != HG_VAL_LIST)
    return;
  hg_handon h = hg_handon_find(&(hg_named){.r = f->r, .name = f->name, .len = f->len}, stmt);
  if (ts_node_is_null(h.call))
    return;
  hg_value u = hg_resolve__unknown(f->r, h.call, h.why);
  if (!hg_node_is(h.call, "call"))  // a statement too long to read: named by its line, not its text
    u.text = hg_arena_printf(f->r->arena, "the statement at line %u", ts_node_start_point(h.call).row + 1);
  if (h.item && h.key && kind == HG_VAL_DICT) {
    u.key = h.key;  // that item, on some paths (setdefault keeps one already there, changed too)
    u.conditional |= cond;
    hg_follow__add_items(f, HG_VAL_DICT, (hg_value){.kind = HG_VAL_DICT, .items = &u, .n_items = 1}, false);
    return;
  }
  hg_follow__add_items(f, kind, u, cond);
}

// A statement between a name's creation and its use; each costs one step of the budget, and one
// per item it adds.
bool hg_follow__on_stmt(void *ctx, hg_stmt s) {
  follow *f = ctx;
  size_t before = f->items.len;
  // Whatever a statement does to the name, it names it (hg_follow__is_name): a statement whose
  // bytes do not hold the name leaves it as it was, and costs its step all the same.
  bool go_on = !hg_node_text_has(s.stmt, f->r->src, f->name, f->len) || apply_stmt(f, s);
  return hg_follow__charge(f, 1 + (f->items.len > before ? f->items.len - before : 0)) && go_on;
}

static bool apply_stmt(follow *f, hg_stmt s) {
  if (hg_node_is(s.stmt, "delete_statement") && ts_node_named_child_count(s.stmt) > 0) {
    on_delete(f, ts_node_named_child(s.stmt, 0), s.conditional);
    return true;
  }
  if (!hg_node_is(s.stmt, "expression_statement") || ts_node_named_child_count(s.stmt) == 0)
    return true;
  TSNode e = ts_node_named_child(s.stmt, 0);
  if (hg_node_is(e, "assignment")) {
    on_assignment(f, e, s.conditional);
  } else if (hg_node_is(e, "augmented_assignment")) {
    TSNode left = hg_node_field(e, "left"), right = hg_node_field(e, "right");
    TSNode op = hg_node_field(e, "operator");
    if (!hg_follow__is_name(f, left) || ts_node_is_null(right) || ts_node_is_null(op))
      return true;
    const char *o = f->r->src + ts_node_start_byte(op);
    hg_value v = hg_resolve_value_at(f->r, right, f->depth + 1);
    if (!strncmp(o, "+=", 2))
      hg_follow__add_items(f, HG_VAL_LIST, v, s.conditional);
    else if (!strncmp(o, "|=", 2))
      hg_follow__add_items(f, HG_VAL_DICT, v, s.conditional);
    else
      hg_follow__set_value(f, hg_resolve__unknown(f->r, e, "an augmented assignment"), s.conditional);
  } else if (hg_node_is(e, "call")) {
    on_call(f, e, s.conditional);
  }
  if (f->defined)
    handed_on(f, s.stmt, s.conditional);
  return true;
}

hg_value hg_follow__value(follow *f, TSNode use) {
  if (f->spent) {
    free(f->items.items);
    return hg_follow__over_budget(f->r, use);
  }
  hg_value v = f->cur;
  if (f->container) {
    v = (hg_value){.kind = f->cur.kind, .text = hg_resolve__text(f->r, use), .line = ts_node_start_point(use).row + 1};
    return hg_values_finish(f->r->arena, v, &f->items);
  }
  free(f->items.items);
  return v;
}

static const char *origin(const hg_resolver *self, const char *fmt, TSNode name_node, uint32_t line) {
  char buf[256];
  uint32_t a = ts_node_start_byte(name_node), b = ts_node_end_byte(name_node);
  snprintf(buf, sizeof(buf), fmt, (int)(b - a > 80 ? 80 : b - a), self->src + a, line);
  return hg_arena_strndup(self->arena, buf, strlen(buf));
}

// What a name held before its scope changed it: a parameter, else (in a function) what the
// module's statements left in it, else an import.
static void walk(const follow *f, TSNode scope, TSNode point);

static hg_value outer_value(const follow *f) {
  const hg_resolver *self = f->r;
  TSNode use = f->use, fn = f->fn;
  if (!ts_node_is_null(fn)) {
    hg_value bound;
    if (self->engine->bound(self, fn, f->name, f->len, &bound))
      return bound;
    if (hg_scope_is_parameter(fn, self->src, f->name, f->len)) {
      TSNode fname = hg_node_field(fn, "name");
      const char *why = self->frame ? NULL : hg_resolve_param_read(self, fn, false);
      const char *o = origin(self, "a parameter of %.*s() at line %u", fname, ts_node_start_point(fn).row + 1);
      return hg_resolve__unknown(self, use, why ? hg_arena_printf(self->arena, "%s, %s", o, why) : o);
    }
    // A name a nested function reads from the function around it (a closure): what that function's
    // statements left in it, walked to its end as the module's are (it ran to the call, or returned
    // the nested function), else what it held coming in there; inward out.
    TSNode around;
    TSNode around_scope = hg_scope_of(self->scopes, fn, &around);
    if (!ts_node_is_null(around)) {
      follow o = {.r = self, .name = f->name, .len = f->len, .depth = f->depth + 1, .use = use, .fn = around};
      if (o.depth <= HG_RESOLVE_MAX_DEPTH)
        walk(&o, around_scope, (TSNode){0});
      if (o.defined || o.spent)
        return hg_follow__value(&o, use);
      free(o.items.items);
      return outer_value(&o);
    }
    // A module-level name read inside a function: the module ran to its end before the call.
    TSNode module = hg_node_root(fn);
    follow m = {.r = self, .name = f->name, .len = f->len, .depth = f->depth + 1, .use = use};
    if (m.depth <= HG_RESOLVE_MAX_DEPTH)
      walk(&m, module, (TSNode){0});
    if (m.defined || m.spent)
      return hg_follow__value(&m, use);
    free(m.items.items);
  }
  const char *q = hg_imports_lookup(self->imports, f->name, f->len);
  if (q)
    return self->engine->imported(self, q, use, f->depth + 1);
  return hg_resolve__unknown(self, use, "a name not assigned in this file");
}

// Walks `scope` for a follow; inside a function being evaluated, conditions with known values
// decide which branches run.
static void walk(const follow *f, TSNode scope, TSNode point) {
  hg_scope_walk_full(f->r->scopes, scope, point, hg_follow__on_stmt, f->r->frame ? f->r->engine->decide : NULL, hg_follow__compound,
                     (void *)f);
}

hg_value hg_resolve_global(const hg_resolver *self, TSNode name, int depth) {
  TSNode module = hg_node_root(name);
  uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
  follow m = {.r = self, .name = self->src + a, .len = b - a, .depth = depth, .use = name};
  if (m.depth <= HG_RESOLVE_MAX_DEPTH)
    walk(&m, module, (TSNode){0});
  if (m.defined || m.spent)
    return hg_follow__value(&m, name);
  free(m.items.items);
  return hg_resolve__unknown(self, name, "a name not assigned in this file");
}

// The value of identifier `use` where it stands: the statements of its scope before it, else
// what it held coming into the scope.
hg_value hg_resolve__name(const hg_resolver *self, TSNode use, int depth) {
  uint32_t ua = ts_node_start_byte(use), ub = ts_node_end_byte(use);
  for (const hg_binding *b = self->bindings; b; b = b->prev)
    if (b->len == ub - ua && !memcmp(b->name, self->src + ua, b->len) && hg_node_contains(b->scope, use))
      return b->value; // a loop variable of the comprehension or loop being read
  TSNode fn;
  TSNode scope = hg_scope_of(self->scopes, use, &fn);
  uint32_t a = ts_node_start_byte(use), b = ts_node_end_byte(use);
  follow f = {.r = self, .name = self->src + a, .len = b - a, .depth = depth, .use = use, .fn = fn};
  walk(&f, scope, use);
  if (f.defined || f.spent)
    return hg_follow__value(&f, use);
  free(f.items.items);
  return outer_value(&f);
}
