/* The builders the fix line offers (offer.h): each configured callable as the site's surface read
 * it, judged by what it yields, as an applied builder is. */
#include "judge/offer.h"

#include <stdlib.h>
#include <string.h>

#include "judge/worlds.h"

typedef enum { OFFERED, OTHER_SHAPE, LACKS, UNREADABLE } offer; // OTHER_SHAPE: another kind of site's

// The first item of an alternative, through nested alternatives: the shape a builder yields.
static const hg_value *shape_of(const hg_value *v) {
  for (int i = 0; i < 16 && v && v->kind == HG_VAL_ALT; i++)
    v = v->n_items ? &v->items[0] : NULL;
  return v;
}

// A callable the policy's `init:` writes for another dialect (podman_hardening_kwargs at a docker-py
// site) is that dialect's builder, not an incomplete one of this site's.
static bool other_dialects(const hg_policy *p, size_t dialect, const char *name) {
  for (size_t i = 0; i < p->n_init; i++)
    if (!strcmp(p->init_callables[i], name))
      return p->init_dialects[i] != (int)dialect;
  return false;
}

static offer judge_offer(const hg_judge *j, const hg_value *o, const char *name, bool flags, uint64_t *lacks) {
  *lacks = 0;
  if (other_dialects(j->policy, j->dialect, name))
    return OTHER_SHAPE;
  if (o->kind == HG_VAL_NONE || (o->kind == HG_VAL_BUILDER && o->n_items == 0))
    return OFFERED; // not read by the surface (a Class.method), or taken at its word
  if (o->kind != HG_VAL_BUILDER)
    return UNREADABLE;
  const hg_value *y = shape_of(&o->items[0]);
  if (!y || y->kind != (flags ? HG_VAL_LIST : HG_VAL_DICT))
    return y && (y->kind == HG_VAL_LIST || y->kind == HG_VAL_DICT) ? OTHER_SHAPE : UNREADABLE;
  uint64_t all = j->policy->n_req >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << j->policy->n_req) - 1;
  *lacks = all & ~hg_judge_yields(j, o, flags);
  return *lacks ? LACKS : OFFERED;
}

size_t hg_offer_builders(hg_buf *b, hg_buf *not_offered, const hg_judge *j, const hg_config *c, const hg_site *site,
                         bool flags, const char *apply, const char *apply_end) {
  size_t n = 0;
  for (size_t i = 0; i < c->n_builders; i++)
    n += c->builders[i].n_callables;
  offer *offers = calloc(n + 1, sizeof(offer));
  size_t offered = 0, f = 0, last_i = 0, last_k = 0;
  for (size_t i = 0; i < c->n_builders; i++)
    for (size_t k = 0; k < c->builders[i].n_callables; k++, f++) {
      uint64_t lacks = 0;
      const char *name = c->builders[i].callables[k];
      offers[f] = f < site->n_offers && site->offers ? judge_offer(j, &site->offers[f], name, flags, &lacks) : OFFERED;
      if (offers[f] == OFFERED) {
        offered++;
        last_i = i, last_k = k;
      } else if (offers[f] == LACKS) {
        hg_buf_printf(not_offered, "%s`%s()`, which lacks ", not_offered->len ? "; " : "", name);
        bool first = true;
        for (size_t r = 0; r < j->policy->n_req; r++)
          if (lacks & (UINT64_C(1) << r)) {
            hg_buf_printf(not_offered, "%s%s", first ? "" : ", ", j->policy->req[r].id);
            first = false;
          }
      } else if (offers[f] == UNREADABLE) {
        const hg_value *o = &site->offers[f];
        hg_buf_printf(not_offered, "%s`%s()`, whose options cannot be read (%s)", not_offered->len ? "; " : "", name,
                      o->kind == HG_VAL_UNKNOWN && o->origin ? o->origin : "not options");
      }
    }
  if (offered == 1) {
    hg_buf_printf(b, "apply `%s%s%s` from %s", apply, c->builders[last_i].callables[last_k], apply_end,
                  c->builders[last_i].module);
  } else if (offered) {
    f = 0;
    bool any_module = false;
    for (size_t i = 0; i < c->n_builders; i++) {
      bool named = false;
      for (size_t k = 0; k < c->builders[i].n_callables; k++, f++) {
        if (offers[f] != OFFERED)
          continue;
        if (!named)
          hg_buf_printf(b, "%s%s: ", any_module ? "; " : "apply a hardening builder (", c->builders[i].module);
        hg_buf_printf(b, "%s%s", named ? ", " : "", c->builders[i].callables[k]);
        named = any_module = true;
      }
    }
    hg_buf_puts(b, ")");
  }
  free(offers);
  return offered;
}
