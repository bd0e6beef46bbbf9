#include "surfaces/python/project/defs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/scope.h"

typedef enum { P_PLAIN, P_STAR, P_DSTAR, P_MARK } param_kind;

typedef struct {
  const char *name;
  size_t len;
  TSNode dflt;
  param_kind kind;
  bool bound;
  hg_value value;
} param;

static TSNode param_name(TSNode p) {
  if (hg_node_is(p, "identifier"))
    return p;
  TSNode id = hg_node_field(p, "name");
  if (ts_node_is_null(id))
    id = ts_node_named_child_count(p) ? ts_node_named_child(p, 0) : (TSNode){0};
  for (int k = 0; k < 2 && !ts_node_is_null(id) && !hg_node_is(id, "identifier"); k++)
    id = ts_node_named_child_count(id) ? ts_node_named_child(id, 0) : (TSNode){0};
  return hg_node_is(id, "identifier") ? id : (TSNode){0};
}

static size_t read_params(const hg_module *m, TSNode fn, param *out, size_t max) {
  TSNode params = hg_node_field(fn, "parameters");
  size_t n = 0;
  for (uint32_t i = 0, k = ts_node_named_child_count(params); i < k && n < max; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (hg_node_is(p, "comment"))
      continue;
    param q = {.kind = P_PLAIN};
    TSNode inner = p;
    if (hg_node_is(p, "typed_parameter") && ts_node_named_child_count(p))
      inner = ts_node_named_child(p, 0);
    if (hg_node_is(inner, "list_splat_pattern"))
      q.kind = P_STAR;
    else if (hg_node_is(inner, "dictionary_splat_pattern"))
      q.kind = P_DSTAR;
    else if (hg_node_is(p, "keyword_separator") || hg_node_is(p, "positional_separator"))
      q.kind = P_MARK;
    TSNode id = q.kind == P_MARK ? (TSNode){0} : param_name(inner);
    if (q.kind != P_MARK && ts_node_is_null(id))
      continue;
    if (!ts_node_is_null(id)) {
      q.name = m->src + ts_node_start_byte(id);
      q.len = ts_node_end_byte(id) - ts_node_start_byte(id);
    }
    q.dflt = hg_node_field(p, "value");
    out[n++] = q;
  }
  return n;
}

enum { MAX_PARAMS = 64 };

static param *param_named(param *ps, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (ps[i].kind == P_PLAIN && ps[i].len == len && !memcmp(ps[i].name, name, len))
      return &ps[i];
  return NULL;
}

// The next positional parameter (before a *args) takes `v`; past them, `v` is an extra positional.
static void bind_positional(param *ps, size_t n, size_t *next, hg_value v, hg_value_vec *extra) {
  while (*next < n && ps[*next].kind != P_PLAIN)
    *next = ps[*next].kind == P_STAR ? n : *next + 1;
  if (*next < n) {
    ps[*next].bound = true;
    ps[(*next)++].value = v;
  } else {
    HG_VEC_PUSH(extra, v);
  }
}

// The parameter named `v.key` takes `v`; a name no parameter has is an extra keyword (for
// **kwargs). A value a **mapping holds on some paths only (`spread`) binds nothing: false.
static bool bind_keyword(param *ps, size_t n, hg_value v, bool spread, hg_value_vec *extra) {
  param *p = v.key ? param_named(ps, n, v.key, strlen(v.key)) : NULL;
  if (!p) {
    HG_VEC_PUSH(extra, v);
    return true;
  }
  if (spread && v.conditional)
    return false;
  p->bound = true;
  p->value = v;
  p->value.key = NULL;
  return true;
}

// The arguments a keyword-form forwarding call hands on (`args=(a, b)`, `kwargs={"x": 1}`), bound
// as `*args` and `**kwargs` would be; its other arguments are its own. *lost names a sequence or
// mapping that cannot be followed.
static void bind_handed(const hg_resolver *caller, TSNode args, const hg_forward *how, param *ps, size_t n,
                        size_t *next, hg_value_vec *extra_pos, hg_value_vec *extra_kw, const char **lost,
                        TSNode *lost_at, int depth) {
  for (uint32_t i = 0, k = hg_node_arg_count(args); i < k; i++) {
    TSNode a = hg_node_arg(args, i), name = hg_node_field(a, "name");
    if (!hg_node_is(a, "keyword_argument"))
      continue;
    bool pos = hg_node_text_eq(name, caller->src, how->args_kw, how->args_len);
    if (!pos && !(how->kwargs_kw && hg_node_text_eq(name, caller->src, how->kwargs_kw, how->kwargs_len)))
      continue;
    hg_value v = hg_resolve_value_at(caller, hg_node_field(a, "value"), depth + 1);
    if (pos && v.kind == HG_VAL_LIST) {
      for (size_t j = 0; j < v.n_items; j++)
        bind_positional(ps, n, next, v.items[j], extra_pos);
    } else if (pos) {
      *lost = "a sequence of arguments hardguard cannot follow";
      *lost_at = a;
      *next = n;
    } else if (v.kind == HG_VAL_DICT) {
      for (size_t j = 0; j < v.n_items; j++)
        if (!bind_keyword(ps, n, v.items[j], true, extra_kw)) {
          *lost = "a value passed on some paths only";
          *lost_at = a;
        }
    } else {
      *lost = "a mapping of arguments hardguard cannot follow";
      *lost_at = a;
      v.splat = true;
      HG_VEC_PUSH(extra_kw, v);
    }
  }
}

// Binds `args` (an argument_list of the caller's, or a null node) to the parameters of `fn` in
// module m, with `self` (when given) as the first; values are the caller's. Unbound parameters
// take their defaults, read in the definition's module.
void hg_bind__forwarded(const hg_resolver *caller, const hg_module *m, TSNode fn, TSNode args, const hg_forward *how,
                        const hg_value *self, hg_frame *out, int depth) {
  uint32_t skip = how ? how->skip : 0;
  bool later = how && how->later;
  param ps[MAX_PARAMS];
  size_t n = read_params(m, fn, ps, MAX_PARAMS), next = 0;
  param *star = NULL, *dstar = NULL;
  for (size_t i = 0; i < n; i++) {
    if (ps[i].kind == P_STAR)
      star = &ps[i];
    if (ps[i].kind == P_DSTAR)
      dstar = &ps[i];
  }
  if (self && n > 0 && ps[0].kind == P_PLAIN) {
    ps[0].bound = true;
    ps[0].value = *self;
    next = 1;
  }
  hg_value_vec extra_pos = {0}, extra_kw = {0};
  const char *lost = NULL; // a *args or **kwargs argument hid which parameters it fills
  TSNode lost_at = args;
  if (how && how->args_kw)
    bind_handed(caller, args, how, ps, n, &next, &extra_pos, &extra_kw, &lost, &lost_at, depth);
  for (uint32_t i = 0, k = how && how->args_kw ? 0 : hg_node_arg_count(args); i < k; i++) {
    TSNode a = hg_node_arg(args, i);
    if (i < skip && !hg_node_is(a, "keyword_argument"))
      continue;  // a forwarding call's own arguments, up to the callable it is handed
    if (hg_node_is(a, "keyword_argument")) {
      TSNode name = hg_node_field(a, "name");
      uint32_t s = ts_node_start_byte(name), e = ts_node_end_byte(name);
      // One that no parameter takes joins the callee's **kwargs, spread on into the site: an
      // item of its options (host_config=api.create_host_config(...), read as hg_resolve_item_at
      // reads it); a parameter's value is the callee's, whatever its name.
      hg_value v = param_named(ps, n, caller->src + s, e - s)
                       ? hg_resolve_value_at(caller, hg_node_field(a, "value"), depth + 1)
                       : hg_resolve_item_at(caller, caller->src + s, e - s, hg_node_field(a, "value"), depth + 1);
      v.key = hg_arena_strndup(caller->arena, caller->src + s, e - s);
      bind_keyword(ps, n, v, false, &extra_kw);
    } else if (hg_node_is(a, "dictionary_splat")) {
      hg_value v = hg_resolve_value_at(caller, hg_node_arg(a, 0), depth + 1);
      for (size_t j = 0; v.kind == HG_VAL_DICT && j < v.n_items; j++) {
        if (!bind_keyword(ps, n, v.items[j], true, &extra_kw)) {
          lost = "a value passed on some paths only";
          lost_at = a;
        }
      }
      if (v.kind != HG_VAL_DICT) {
        lost = "a **mapping argument hardguard cannot follow";
        lost_at = a;
        v.splat = true;
        HG_VEC_PUSH(&extra_kw, v);
      }
    } else if (hg_node_is(a, "list_splat")) {
      hg_value v = hg_resolve_value_at(caller, hg_node_arg(a, 0), depth + 1);
      if (v.kind == HG_VAL_LIST) {
        for (size_t j = 0; j < v.n_items; j++)
          bind_positional(ps, n, &next, v.items[j], &extra_pos);
      } else {
        lost = "a *sequence argument hardguard cannot follow";
        lost_at = a;
        next = n;
      }
    } else {
      bind_positional(ps, n, &next, hg_resolve_value_at(caller, a, depth + 1), &extra_pos);
    }
  }
  hg_resolver def_scope = hg_project__in_module(caller, m);
  hg_frame *f = out;
  static _Thread_local uint64_t bound;
  f->fn = fn;
  f->id = ++bound;
  f->n = 0;
  f->names = hg_arena_alloc(caller->arena, (n ? n : 1) * sizeof(char *));
  hg_value *values = hg_arena_alloc(caller->arena, (n ? n : 1) * sizeof(hg_value));
  f->values = values;
  for (size_t i = 0; i < n; i++) {
    param *p = &ps[i];
    if (p->kind == P_MARK)
      continue;
    hg_value v;
    if (later && (p == star || p == dstar)) {  // the later call may add to them
      hg_value more = hg_resolve_unknown(caller, ts_node_parent(args), "what the later call of what this binds adds");
      more.splat = true;
      if (p == star)
        HG_VEC_PUSH(&extra_pos, more);
      else
        HG_VEC_PUSH(&extra_kw, more);
    }
    if (p == star) {
      v = hg_values_finish(caller->arena, (hg_value){.kind = HG_VAL_LIST, .text = "*args", .line = line_of(fn)},
                           &extra_pos);
      extra_pos = (hg_value_vec){0};
    } else if (p == dstar) {
      v = hg_values_finish(caller->arena, (hg_value){.kind = HG_VAL_DICT, .text = "**kwargs", .line = line_of(fn)},
                           &extra_kw);
      extra_kw = (hg_value_vec){0};
    } else if (p->bound) {
      v = p->value;
    } else if (lost) {
      v = hg_resolve_unknown(caller, lost_at, lost);
    } else if (later) {
      v = hg_resolve_unknown(caller, ts_node_parent(args),
                             hg_project__printf(caller->arena, "parameter `%.*s` left to the later call of what "
                                                               "this binds", (int)p->len, p->name));
    } else if (!ts_node_is_null(p->dflt)) {
      v = hg_resolve_value_at(&def_scope, p->dflt, depth + 1);
    } else {
      v = hg_resolve_unknown(
          &def_scope, fn,
          hg_project__printf(caller->arena, "parameter `%.*s` not given at the call", (int)p->len, p->name));
    }
    f->names[f->n] = hg_arena_strndup(caller->arena, p->name, p->len);
    values[f->n++] = v;
  }
  free(extra_pos.items);
  free(extra_kw.items);
}

void hg_bind__call(const hg_resolver *caller, const hg_module *m, TSNode fn, TSNode args, const hg_value *self,
                   hg_frame *out, int depth) {
  hg_bind__forwarded(caller, m, fn, args, NULL, self, out, depth);
}

bool hg_bind__fits(const hg_module *m, TSNode fn, const char *src, TSNode args, bool self) {
  // (the parameters' names are m's text, the arguments' src's)
  param ps[MAX_PARAMS];
  size_t n = read_params(m, fn, ps, MAX_PARAMS), next = self && n > 0 && ps[0].kind == P_PLAIN ? 1 : 0;
  bool star = false, dstar = false;
  for (size_t i = 0; i < n; i++) {
    star |= ps[i].kind == P_STAR;
    dstar |= ps[i].kind == P_DSTAR;
  }
  if (next)
    ps[0].bound = true;
  hg_value_vec extra = {0};
  bool fits = true, open = false;
  for (uint32_t i = 0, k = hg_node_arg_count(args); i < k && fits; i++) {
    TSNode a = hg_node_arg(args, i);
    if (hg_node_is(a, "list_splat") || hg_node_is(a, "dictionary_splat")) {
      open = true;  // which parameters it fills cannot be told
    } else if (hg_node_is(a, "keyword_argument")) {
      TSNode name = hg_node_field(a, "name");
      param *p = param_named(ps, n, src + ts_node_start_byte(name), ts_node_end_byte(name) - ts_node_start_byte(name));
      if (p)
        fits = !p->bound, p->bound = true;
      else
        fits = dstar;
    } else if (!hg_node_is(a, "comment") && !open) {
      bind_positional(ps, n, &next, (hg_value){0}, &extra);
      fits = star || !extra.len;
    }
  }
  free(extra.items);
  // Every parameter without a default bound (keyword-only ones too), unless a spread may bind it.
  for (size_t i = 0; i < n && fits && !open; i++)
    fits = ps[i].kind != P_PLAIN || ps[i].bound || !ts_node_is_null(ps[i].dflt);
  return fits;
}

bool hg_summary_bound(const hg_resolver *r, TSNode fn, const char *name, size_t len, hg_value *out) {
  const hg_frame *f = r->frame;
  if (!f || !ts_node_eq(f->fn, fn))
    return false;
  for (size_t i = 0; i < f->n; i++)
    if (strlen(f->names[i]) == len && !memcmp(f->names[i], name, len)) {
      *out = f->values[i];
      return true;
    }
  return false;
}
