#include "judge/worlds.h"

#include <stdlib.h>
#include <string.h>

bool hg_value_has_alt(const hg_value *v) {
  if (v->kind == HG_VAL_ALT)
    return true;
  for (size_t i = 0; i < v->n_items; i++)
    if (hg_value_has_alt(&v->items[i]))
      return true;
  return false;
}

// ---- one world: the values with every alternative replaced by the one it chooses ----------------

// The choices of the world being built, as an odometer over the alternatives met in reading
// order: position k is the k-th alternative met, `at` the next one to meet. Positions past `len`
// take their first arm and are appended, with how many arms they have.
typedef struct {
  size_t choice[HG_WORLDS_MAX_CHOICES], arms[HG_WORLDS_MAX_CHOICES];
  const hg_value *taken[HG_WORLDS_MAX_CHOICES]; // the arm chosen at each position
  size_t len, at;
  bool contexts; // an alternative of calling contexts was met in this world
  bool is_ctx[HG_WORLDS_MAX_CHOICES]; // ... at this position
  size_t made; // values copied for the site's worlds so far (HG_WORLDS_MAX_VALUES)
  hg_judge *j; // keeps what the world allocates
} world;

static void *keep(world *w, size_t bytes) {
  void *p = hg_xcalloc(1, bytes ? bytes : 1);
  HG_VEC_PUSH(&w->j->kept, p);
  return p;
}

static char *keep_str(world *w, char *s) {
  HG_VEC_PUSH(&w->j->kept, s);
  return s;
}

// What stands in for an alternative past the budget.
static hg_value over_budget(world *w, const hg_value *alt, const char *which) {
  hg_value u = *alt;
  u.kind = HG_VAL_UNKNOWN;
  u.items = NULL;
  u.n_items = 0;
  u.origin = keep_str(w, hg_xasprintf("one of %zu alternatives, past hardguard's budget of %s", alt->n_items, which));
  return u;
}

typedef HG_VEC(hg_value) value_vec;

static hg_value instantiate(world *w, const hg_value *v);

// The arm an alternative takes in this world, instantiated, with the alternative's own place
// (key, spread, keyword group, path) kept.
static hg_value choose(world *w, const hg_value *alt) {
  if (alt->n_items > HG_WORLDS_MAX_ARMS)
    return over_budget(w, alt, "64 arms in one alternative");
  if (w->at >= HG_WORLDS_MAX_CHOICES)
    return over_budget(w, alt, "8 alternatives in one site");
  size_t k = w->at++;
  if (k >= w->len) {
    w->choice[k] = 0;
    w->arms[k] = alt->n_items ? alt->n_items : 1;
    w->len = k + 1;
  }
  w->taken[k] = NULL;
  w->is_ctx[k] = false;
  if (!alt->n_items)
    return over_budget(w, alt, "none");
  const hg_value *arm = &alt->items[w->choice[k]];
  w->taken[k] = arm;
  w->contexts |= alt->contexts;
  w->is_ctx[k] = alt->contexts;
  hg_value out = instantiate(w, arm);
  out.key = alt->key;
  out.splat |= alt->splat;
  out.group = alt->group;
  out.conditional |= alt->conditional;
  if (!out.line)
    out.line = alt->line;
  if (!out.path)
    out.path = alt->path;
  if (!out.via)
    out.via = alt->via;
  return out;
}

// `v` in this world. Values without alternatives are shared, not copied.
static hg_value instantiate(world *w, const hg_value *v) {
  if (v->kind == HG_VAL_ALT)
    return choose(w, v);
  if (!v->n_items || !hg_value_has_alt(v))
    return *v;
  if (w->made + v->n_items > HG_WORLDS_MAX_VALUES) {
    // A big tree with alternatives everywhere (a compose anchor merged into itself): past the budget
    // the rest is not read.
    return (hg_value){.kind = HG_VAL_UNKNOWN,
                      .text = "...",
                      .key = v->key,
                      .splat = v->splat,
                      .conditional = v->conditional,
                      .group = v->group,
                      .line = v->line,
                      .path = v->path,
                      .origin = "a value with alternatives too big to read in each of them, past hardguard's "
                                "budget of 262,144 values"};
  }
  w->made += v->n_items;
  value_vec items = {0};
  for (size_t i = 0; i < v->n_items; i++) {
    const hg_value *item = &v->items[i];
    hg_value one = instantiate(w, item);
    // A spread alternative splices the list or mapping it takes (nothing, for an empty one).
    bool spliced = item->kind == HG_VAL_ALT && item->splat &&
                   (one.kind == HG_VAL_LIST || one.kind == HG_VAL_DICT) && one.kind == (v->kind == HG_VAL_DICT ? HG_VAL_DICT : HG_VAL_LIST);
    if (!spliced) {
      HG_VEC_PUSH(&items, one);
      continue;
    }
    for (size_t k = 0; k < one.n_items; k++) {
      hg_value e = one.items[k];
      e.conditional |= one.conditional;
      if (v->kind == HG_VAL_DICT && e.key && !e.group)
        e.group = one.group;
      HG_VEC_PUSH(&items, e);
    }
  }
  hg_value out = *v;
  out.items = keep(w, items.len * sizeof(hg_value));
  if (items.len)
    memcpy(out.items, items.items, items.len * sizeof(hg_value));
  out.n_items = items.len;
  free(items.items);
  return out;
}

// Does the arm taken at a position hold the value that decided a requirement (the arm itself, or
// an item, at any depth up to 8, of the list or mapping it spliced in)? Values are copied, their
// texts shared.
static bool holds_at(const hg_value *arm, const hg_value *decided, int depth) {
  if (arm->text == decided->text)
    return true;
  for (size_t i = 0; depth < 8 && i < arm->n_items; i++)
    if (holds_at(&arm->items[i], decided, depth + 1))
      return true;
  return false;
}

static bool holds(const hg_value *arm, const hg_value *decided) {
  return arm && decided && decided->text && holds_at(arm, decided, 0);
}

// The positions whose arms' conditions select this world for `decided`: those of the arms holding
// it when one does, else of every arm with a condition (as bits); false when a value outside every
// alternative decides (the same in every world).
static bool named_positions(const world *w, const hg_value *decided, unsigned *mask) {
  bool any = false;
  for (size_t k = 0; k < w->len && k < w->at && !any; k++)
    any = holds(w->taken[k], decided);
  *mask = 0;
  if (decided && !any)
    return false;
  for (size_t k = 0; k < w->len && k < w->at; k++)
    if (w->taken[k] && w->taken[k]->cond && (!any || holds(w->taken[k], decided)))
      *mask |= 1u << k;
  return true;
}

// "`D.exists()`" or "`D.exists()` and `not color`": the conditions of the arms `taken` at the
// positions in mask.
static char *conditions_at(const hg_value *const *taken, size_t len, unsigned mask) {
  hg_buf b = {0};
  for (size_t k = 0; k < len; k++)
    if (mask & (1u << k))
      hg_buf_printf(&b, "%s`%s`", b.len ? " and " : "", taken[k]->cond);
  return hg_buf_detach(&b);
}

// What selects this world, from the conditions of the arms it took — only those of the arm holding
// `decided` when one does; NULL when none has a condition.
static char *world_conditions(const world *w, const hg_value *decided) {
  unsigned mask;
  return named_positions(w, decided, &mask) ? conditions_at(w->taken, w->len < w->at ? w->len : w->at, mask) : NULL;
}

// The calling contexts a requirement's reason names at most; the finding's related places (JSON
// `related`, SARIF `relatedLocations`) list every one.
#define CONTEXTS_NAMED 4

// Does calling context c lack requirement r? Plainly, when the site plainly misses it: a context
// where only a spread might carry it is not one that must change.
static bool lacking(const hg_judge *j, const hg_judge_context *c, size_t r) {
  return ((j->req[r] == HG_UNSAT ? c->surely : c->lacks) & (UINT64_C(1) << r)) != 0;
}

// "`called from app.py:3` or `called from app.py:9`": the calling contexts that lack requirement
// r, each once, in the order first met, the first CONTEXTS_NAMED of them ("... or 3 more calling
// contexts"); NULL when none has a condition.
static char *contexts_lacking(const hg_judge *j, size_t r) {
  hg_buf b = {0};
  size_t named = 0, more = 0;
  for (size_t i = 0; i < j->ctx.len; i++) {
    const hg_judge_context *c = &j->ctx.items[i];
    if (!(lacking(j, c, r)) || !c->arm->cond)
      continue;
    bool said = false;
    for (size_t e = 0; e < i && !said; e++)
      said = lacking(j, &j->ctx.items[e], r) && j->ctx.items[e].arm->cond &&
             !strcmp(j->ctx.items[e].arm->cond, c->arm->cond);
    if (said)
      continue;
    if (named == CONTEXTS_NAMED) {
      more++;
      continue;
    }
    hg_buf_printf(&b, "%s`%s`", b.len ? " or " : "", c->arm->cond);
    named++;
  }
  if (more)
    hg_buf_printf(&b, " or %zu more calling context%s", more, more == 1 ? "" : "s");
  return hg_buf_detach(&b);
}

// ---- merging the worlds' readings ---------------------------------------------------------------

// In a reading with a spread hardguard cannot follow, a requirement not met is not known to be
// missing: the spread may carry it. Another world that lacks it without such a spread decides
// that it is missing (the site fails for sure, and the spread is named as well).
static void carried(hg_judge *jw) {
  if (!jw->carrier)
    return;
  for (size_t r = 0; r < jw->policy->n_req; r++)
    if (jw->req[r] == HG_UNSAT) {
      jw->req[r] = HG_UNVERIFIABLE;
      jw->unverifiable[r] = jw->carrier;
      jw->carried |= UINT64_C(1) << r;
    }
}

// Requirement r's state in reading x, where what only a spread might carry counts as unmet: worlds
// that differ just by such a spread do not select the requirement's shortfall by their conditions.
static hg_state unmet_unless_carried(const hg_judge *x, size_t r) {
  return (x->carried & (UINT64_C(1) << r)) ? HG_UNSAT : x->req[r];
}

// The value that decided requirement r in reading x, whose alternatives name its conditions: not
// the spread that might carry it (every requirement it leaves unmet would name the same arms).
static const hg_value *decided(const hg_judge *x, size_t r) {
  if (x->unverifiable[r] && !(x->carried & (UINT64_C(1) << r)))
    return x->unverifiable[r];
  return x->src[r];
}

// Notes what the calling contexts world w takes fall short of in its reading jw.
static void note_contexts(hg_judge *j, const hg_judge *jw, const world *w) {
  if (!w->contexts)
    return;
  uint64_t lacks = 0, surely = 0;
  for (size_t r = 0; r < j->policy->n_req; r++) {
    if (jw->req[r] != HG_SAT)
      lacks |= UINT64_C(1) << r;
    if (jw->req[r] == HG_UNSAT)
      surely |= UINT64_C(1) << r;
  }
  bool forbids = false;
  for (size_t f = 0; f < j->policy->n_forbid && !forbids; f++)
    forbids = jw->forbid_hit[f] != NULL;
  for (size_t k = 0; k < w->len && k < w->at; k++) {
    if (!w->is_ctx[k])
      continue;
    size_t i = 0;
    while (i < j->ctx.len && j->ctx.items[i].arm != w->taken[k])
      i++;
    if (i == j->ctx.len)
      HG_VEC_PUSH(&j->ctx, ((hg_judge_context){.arm = w->taken[k]}));
    j->ctx.items[i].lacks |= lacks;
    j->ctx.items[i].surely |= surely;
    j->ctx.items[i].forbids |= forbids;
  }
}

// Per requirement, whether the worlds read so far decide it differently: by state, and by state
// where what only a spread might carry counts as unmet.
typedef struct {
  bool state[HG_POLICY_MAX_REQ], unmet[HG_POLICY_MAX_REQ];
} differences;

// Takes world `jw`'s reading into `j`: the first world whole, the others where they fall short.
static void merge(hg_judge *j, hg_judge *jw, const world *w, bool first, differences *diff) {
  const hg_policy *p = j->policy;
  for (size_t r = 0; r < p->n_req; r++) {
    uint64_t bit = UINT64_C(1) << r;
    if (!first && jw->req[r] != j->req[r])
      diff->state[r] = true;
    if (!first && unmet_unless_carried(jw, r) != unmet_unless_carried(j, r))
      diff->unmet[r] = true;
    // The world that falls shortest decides: a plain miss, then what only a spread might carry,
    // then a value hardguard cannot read.
    bool shorter = jw->req[r] < j->req[r] ||
                   (jw->req[r] == j->req[r] && unmet_unless_carried(jw, r) < unmet_unless_carried(j, r));
    if (first || shorter) {
      j->req[r] = jw->req[r];
      j->src[r] = jw->src[r];
      j->src_name[r] = jw->src_name[r];
      j->src_value[r] = jw->src_value[r];
      j->unverifiable[r] = jw->unverifiable[r];
      j->carried = (j->carried & ~bit) | (jw->carried & bit);
      free(j->alt_cond[r]);
      j->alt_cond[r] = world_conditions(w, decided(jw, r));
    } else if (w->contexts && jw->req[r] == j->req[r] && unmet_unless_carried(jw, r) == unmet_unless_carried(j, r) &&
               j->req[r] != HG_SAT && j->alt_cond[r] && strlen(j->alt_cond[r]) < 400) {
      // Every calling context that lacks it is named: the callers are what must change.
      char *more = world_conditions(w, decided(jw, r));
      if (more && !strstr(j->alt_cond[r], more)) {
        char *joined = hg_xasprintf("%s or %s", j->alt_cond[r], more);
        free(j->alt_cond[r]);
        j->alt_cond[r] = joined;
      }
      free(more);
    }
    j->cond_seen[r] |= jw->cond_seen[r];
  }
  for (size_t f = 0; f < p->n_forbid; f++)
    if (!j->forbid_hit[f] && jw->forbid_hit[f]) {
      j->forbid_hit[f] = jw->forbid_hit[f];
      j->forbid_name[f] = jw->forbid_name[f];
      j->forbid_value[f] = jw->forbid_value[f];
      j->forbid_cond[f] = world_conditions(w, jw->forbid_value[f] ? jw->forbid_value[f] : jw->forbid_hit[f]);
    }
  const hg_dialect *d = &p->dialects[j->dialect];
  for (size_t t = 0; t < d->n_traps; t++)
    if (!j->trap_hit[t])
      j->trap_hit[t] = jw->trap_hit[t];
  if (!j->carrier)
    j->carrier = jw->carrier;
  if (!j->undoer)
    j->undoer = jw->undoer, j->undoer_forbid = jw->undoer_forbid;
  if (!j->mismatch)
    j->mismatch = jw->mismatch;
  // A builder counts only when every world applies it, safely; trusted likewise.
  j->builder = first ? jw->builder : j->builder && jw->builder;
  j->builder_safe = first ? jw->builder_safe : j->builder_safe && jw->builder_safe;
  j->trusted = first ? jw->trusted : j->trusted && jw->trusted;
  if (!j->trusted_by)
    j->trusted_by = jw->trusted_by;
  if (!j->overrider)
    j->overrider = jw->overrider;
  if (!j->applied)
    j->applied = jw->applied;
  j->contexts |= w->contexts;
  note_contexts(j, jw, w);
  if (jw->words)
    HG_VEC_PUSH(&j->kept, jw->words);
  jw->words = NULL;
}

// ---- the conditions a shortfall needs ----------------------------------------------------------

// How short world reading x falls of requirement r (lower: shorter), as merge() ranks the worlds.
static uint8_t rank_of(const hg_judge *x, size_t r) {
  return (uint8_t)(x->req[r] * 4 + unmet_unless_carried(x, r));
}

// A world read, for reduce(): the arms it took and how short it fell of each requirement; and, for
// the requirements it decided, the positions its conditions were named at.
typedef struct {
  const hg_value *taken[HG_WORLDS_MAX_CHOICES];
  size_t len;
  uint8_t rank[HG_POLICY_MAX_REQ];
} world_seen;

// Does world s take every arm world d took at the positions in mask?
static bool takes_arms(const world_seen *s, const world_seen *d, unsigned mask) {
  for (size_t k = 0; k < d->len; k++) {
    if (!(mask & (1u << k)))
      continue;
    bool found = false;
    for (size_t i = 0; i < s->len && !found; i++)
      found = s->taken[i] == d->taken[k];
    if (!found)
      return false;
  }
  return true;
}

// The conditions that select the shortfall of requirement r in world d (named at the positions in
// mask), without those it does not need: a condition is left out when every world read that takes
// the arms of the others falls as short (`enable_gpu` and `not kwargs`, where every world without
// the kwargs lacks the flag: `not kwargs`). Each world's arms are compared, not its positions,
// which another choice before them may shift.
static unsigned reduce(const world_seen *seen, size_t n, const world_seen *d, size_t r, unsigned mask) {
  for (size_t k = 0; k < d->len; k++) {
    if (!(mask & (1u << k)))
      continue;
    unsigned fewer = mask & ~(1u << k);
    bool as_short = true;
    for (size_t i = 0; i < n && as_short; i++)
      as_short = !takes_arms(&seen[i], d, fewer) || seen[i].rank[r] == d->rank[r];
    if (as_short)
      mask = fewer;
  }
  return mask;
}

void hg_judge_read_worlds(hg_judge *j, hg_judge_reader read, const hg_value *flags) {
  if (!hg_value_has_alt(flags)) {
    j->n_worlds = 1;
    read(j, flags);
    carried(j);
    return;
  }
  world w = {.j = j};
  differences differs = {0};
  size_t n = 0;
  world_seen *seen = hg_xcalloc(HG_WORLDS_MAX, sizeof(world_seen));
  size_t decider[HG_POLICY_MAX_REQ] = {0};  // the world whose conditions a requirement's are
  unsigned named[HG_POLICY_MAX_REQ] = {0};  // ... at these positions
  bool whole[HG_POLICY_MAX_REQ] = {0};      // ... when some are (merge() joins none without calling contexts)
  for (;;) {
    w.at = 0;
    w.contexts = false;
    // Kept, not on the stack: what the reading notes may point at the whole value (the carrier).
    hg_value *v = keep(&w, sizeof(hg_value));
    *v = instantiate(&w, flags);
    hg_judge jw;
    hg_judge_init(&jw, j->policy, (int)j->dialect, j->md);
    read(&jw, v);
    carried(&jw);
    world_seen *ws = &seen[n];
    ws->len = w.len < w.at ? w.len : w.at;
    memcpy(ws->taken, w.taken, ws->len * sizeof(ws->taken[0]));
    for (size_t r = 0; r < j->policy->n_req; r++) {
      ws->rank[r] = rank_of(&jw, r);
      if (n == 0 || ws->rank[r] < rank_of(j, r)) {
        decider[r] = n;
        whole[r] = named_positions(&w, decided(&jw, r), &named[r]);
      }
    }
    merge(j, &jw, &w, n == 0, &differs);
    hg_judge_free(&jw);
    n++;
    // The next world: the last position with an arm left takes it; the ones after it start over.
    while (w.len && w.choice[w.len - 1] + 1 >= w.arms[w.len - 1])
      w.len--;
    if (!w.len)
      break;
    if (n >= HG_WORLDS_MAX) {
      // More combinations than the budget: what the rest would give is not known.
      static const hg_value budget = {.kind = HG_VAL_UNKNOWN,
                                      .text = "(alternatives)",
                                      .origin = "more than 256 combinations of alternatives, past hardguard's budget"};
      hg_value *u = keep(&w, sizeof(hg_value));
      *u = budget;
      u->text = flags->text ? flags->text : budget.text;
      u->line = flags->line;
      if (!j->carrier)
        j->carrier = u;
      break;
    }
    w.choice[w.len - 1]++;
  }
  j->n_worlds = n;
  // An option one world sets is reported as set (when ...); that another world's value might set
  // it too adds nothing.
  if (j->undoer && j->forbid_hit[j->undoer_forbid])
    j->undoer = NULL;
  // A requirement every world decides alike is not conditional: no condition is named, but for the
  // calling contexts that lack it (the callers are what must change), and only those. With calling
  // contexts, worlds that differ only by what a spread might carry are alike: the contexts that
  // plainly lack it are named, not every arm their worlds took.
  for (size_t r = 0; r < j->policy->n_req; r++)
    if (!differs.unmet[r] && (!differs.state[r] || j->contexts)) {
      free(j->alt_cond[r]);
      j->alt_cond[r] = j->contexts && j->req[r] != HG_SAT ? contexts_lacking(j, r) : NULL;
      j->ctx_only[r] = j->alt_cond[r] != NULL;
    } else if (j->alt_cond[r] && whole[r] && !j->contexts) {
      const world_seen *d = &seen[decider[r]];
      unsigned needed = reduce(seen, n, d, r, named[r]);
      if (needed && needed != named[r]) {
        free(j->alt_cond[r]);
        j->alt_cond[r] = conditions_at(d->taken, d->len, needed);
      }
    }
  free(seen);
}

uint64_t hg_judge_yields(const hg_judge *parent, const hg_value *builder, bool flags) {
  hg_judge j;
  hg_judge_init(&j, parent->policy, (int)parent->dialect, parent->md);
  const hg_value *y = builder->n_items == 1 ? &builder->items[0] : NULL;
  if (y && !flags && y->kind == HG_VAL_DICT)
    hg_judge_read_worlds(&j, hg_judge_read_kwargs, y);
  else if (y && flags && y->kind == HG_VAL_LIST)
    hg_judge_read_worlds(&j, hg_judge_read_words, y);
  uint64_t sat = 0;
  for (size_t r = 0; r < j.policy->n_req; r++)
    if (j.req[r] == HG_SAT)
      sat |= UINT64_C(1) << r;
  hg_judge_free(&j);
  return sat;
}
