#include "rules/prefilter.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef hg_prefilter_needle needle;  // its text owned by the prefilter

struct hg_prefilter {
  char *source;  // "" when off
  bool on;
  // The alternation compiled, when first asked for (a seeded prefilter may never need it).
  pthread_mutex_t lock;
  atomic_bool compiled;
  pcre2_code *code;
  needle *needles;
  size_t n_needles;
  hg_needles *search;  // the needles, searched in one pass
};

// ---- deriving the literals ----------------------------------------------------------------------

typedef struct {
  const char *text;
  bool whole;
} literal;

typedef struct {
  HG_VEC(literal) lits;
  unsigned group;
} group_lits;

typedef struct {
  HG_VEC(group_lits) groups;
} lit_collector;

typedef HG_VEC(char *) str_vec;

static void collect(void *ctx, unsigned group, const char *lit, bool whole) {
  lit_collector *c = ctx;
  if (!c->groups.len || c->groups.items[c->groups.len - 1].group != group)
    HG_VEC_PUSH(&c->groups, (group_lits){.group = group});
  HG_VEC_PUSH(&c->groups.items[c->groups.len - 1].lits, (literal){lit, whole});
}

static size_t shortest(const group_lits *g) {
  size_t m = SIZE_MAX;
  for (size_t i = 0; i < g->lits.len; i++)
    if (strlen(g->lits.items[i].text) < m) m = strlen(g->lits.items[i].text);
  return m;
}

// The literal quoted for pcre2: \Q...\E, or char by char when it holds "\E" itself.
static void quote(hg_buf *re, const char *text) {
  if (!strstr(text, "\\E")) {
    hg_buf_printf(re, "\\Q%s\\E", text);
    return;
  }
  for (const char *s = text; *s; s++) {
    if (!hg_needles_word_char((unsigned char)*s) && (unsigned char)*s < 0x80) hg_buf_putc(re, '\\');
    hg_buf_putc(re, *s);
  }
}

static needle *find_needle(hg_prefilter *self, const char *text) {
  for (size_t i = 0; i < self->n_needles; i++)
    if (!strcmp(self->needles[i].text, text)) return &self->needles[i];
  return NULL;
}

static void add_needle(hg_prefilter *self, const char *text, bool before, bool after, hg_units units) {
  needle *nd = find_needle(self, text);
  if (!nd) {
    self->needles = hg_xrealloc(self->needles, (self->n_needles + 1) * sizeof(needle));
    nd = &self->needles[self->n_needles++];
    *nd = (needle){hg_xstrdup(text), strlen(text), 0, 0};
  }
  nd->combos |= 1u << (2 * before + after);
  nd->units |= units;
}

// A literal that stands as a whole token is bounded by \b where it starts or ends with a word
// character, so `operating_system` does not let a file through for `system`.
static void add_literal(hg_prefilter *self, hg_buf *re, str_vec *seen, const literal *lit, hg_units units) {
  size_t n = strlen(lit->text);
  bool before = lit->whole && hg_needles_word_char((unsigned char)lit->text[0]);
  bool after = lit->whole && hg_needles_word_char((unsigned char)lit->text[n - 1]);
  add_needle(self, lit->text, before, after, units);
  hg_buf alt = {0};
  hg_buf_puts(&alt, before ? "\\b" : "");
  quote(&alt, lit->text);
  hg_buf_puts(&alt, after ? "\\b" : "");
  for (size_t s = 0; s < seen->len; s++)
    if (strcmp(seen->items[s], alt.data) == 0) {
      hg_buf_free(&alt);
      return;
    }
  hg_buf_puts(re, re->len ? "|" : "");
  hg_buf_puts(re, alt.data);
  HG_VEC_PUSH(seen, hg_buf_detach(&alt));
}

static void clear(hg_prefilter *self) {
  hg_needles_free(self->search);
  self->search = NULL;
  for (size_t i = 0; i < self->n_needles; i++) free((char *)self->needles[i].text);
  free(self->needles);
  self->needles = NULL;
  self->n_needles = 0;
  pcre2_code_free(self->code);
  self->code = NULL;
  free(self->source);
  self->source = NULL;
}

static hg_prefilter *alloc(void) {
  hg_prefilter *self = hg_xcalloc(1, sizeof(hg_prefilter));
  pthread_mutex_init(&self->lock, NULL);
  return self;
}

static pcre2_code *compile(const char *source) {
  int code;
  PCRE2_SIZE eoff;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)source, PCRE2_ZERO_TERMINATED, 0, &code, &eoff, NULL);
  if (re) pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
  return re;
}

// Does literal `m`, searched anyway, find every file `lit` would let through? The same text with
// no more boundaries, or a text anywhere (not whole) inside it.
static bool implies(const literal *m, const literal *lit) {
  if (!strcmp(m->text, lit->text)) return !m->whole || lit->whole;
  return !m->whole && strstr(lit->text, m->text);
}

// Is every literal of group `g` implied by a literal of the chosen group of a pattern that searches
// its own (`own`)? Then choosing `g` adds no search.
static bool free_group(const group_lits *g, const lit_collector *c, const size_t *best, const bool *own, size_t n,
                       size_t self) {
  for (size_t k = 0; k < g->lits.len; k++) {
    bool covered = false;
    for (size_t j = 0; j < n && !covered; j++) {
      if (j == self || !own[j]) continue;
      const group_lits *o = &c[j].groups.items[best[j]];
      for (size_t m = 0; m < o->lits.len && !covered; m++) covered = implies(&o->lits.items[m], &g->lits.items[k]);
    }
    if (!covered) return false;
  }
  return true;
}

hg_prefilter *hg_prefilter_new(const hg_predicates *const *patterns, size_t n) {
  return hg_prefilter_new_units(patterns, NULL, n);
}

hg_prefilter *hg_prefilter_new_units(const hg_predicates *const *patterns, const unsigned *units, size_t n) {
  hg_prefilter *self = alloc();
  hg_buf re = {0};
  str_vec seen = {0};
  bool off = n == 0;
  // Of each pattern the predicate with the most selective literals (the longest shortest one)...
  lit_collector *c = hg_xcalloc(n ? n : 1, sizeof(lit_collector));
  size_t *best = hg_xcalloc(n ? n : 1, sizeof(size_t));
  bool *own = hg_xcalloc(n ? n : 1, sizeof(bool)); // its literals are searched for
  for (size_t i = 0; i < n; i++) {
    hg_predicates_literals(patterns[i], collect, &c[i]);
    best[i] = SIZE_MAX;
    own[i] = true;
    for (size_t g = 0; g < c[i].groups.len; g++)
      if (shortest(&c[i].groups.items[g]) > 0 &&
          (best[i] == SIZE_MAX || shortest(&c[i].groups.items[g]) > shortest(&c[i].groups.items[best[i]])))
        best[i] = g;
    off |= best[i] == SIZE_MAX;
  }
  // ... unless another of its predicates needs only what other patterns search for anyway (every
  // distinct literal is one more pass over each file): then it searches nothing of its own. A
  // pattern relying on another never lends its literals; one whose lender turns out to rely on
  // others in turn goes back to its own (each going back only adds literals, so one pass more
  // than the last change settles it).
  size_t *free_g = hg_xcalloc(n ? n : 1, sizeof(size_t));
  for (size_t i = 0; i < n && !off; i++) {
    free_g[i] = SIZE_MAX;
    for (size_t g = 0; g < c[i].groups.len && free_g[i] == SIZE_MAX; g++)
      if (shortest(&c[i].groups.items[g]) > 0 && free_group(&c[i].groups.items[g], c, best, own, n, i))
        free_g[i] = g;
    if (free_g[i] != SIZE_MAX) own[i] = false;
  }
  for (bool changed = true; changed && !off;) {
    changed = false;
    for (size_t i = 0; i < n; i++)
      if (!own[i] && !free_group(&c[i].groups.items[free_g[i]], c, best, own, n, i)) own[i] = changed = true;
  }
#define UNIT(i) ((hg_units)1 << (units ? units[i] : 0))
  for (size_t i = 0; i < n && !off; i++)
    for (size_t k = 0; own[i] && k < c[i].groups.items[best[i]].lits.len; k++)
      add_literal(self, &re, &seen, &c[i].groups.items[best[i]].lits.items[k], UNIT(i));
  // A pattern relying on literals others search announces its unit through each one implying
  // one of its own.
  for (size_t i = 0; i < n && !off; i++) {
    const group_lits *g = own[i] ? NULL : &c[i].groups.items[free_g[i]];
    for (size_t k = 0; g && k < g->lits.len; k++)
      for (size_t j = 0; j < n; j++) {
        const group_lits *o = own[j] ? &c[j].groups.items[best[j]] : NULL;
        for (size_t m = 0; o && m < o->lits.len; m++)
          if (implies(&o->lits.items[m], &g->lits.items[k])) find_needle(self, o->lits.items[m].text)->units |= UNIT(i);
      }
  }
#undef UNIT
  free(free_g);
  free(own);
  for (size_t i = 0; i < n; i++) {
    for (size_t g = 0; g < c[i].groups.len; g++) free(c[i].groups.items[g].lits.items);
    free(c[i].groups.items);
  }
  free(c);
  free(best);
  for (size_t i = 0; i < seen.len; i++) free(seen.items[i]);
  free(seen.items);
  self->source = hg_buf_detach(&re);
  if (!off) self->code = compile(self->source);
  if (!self->code) {  // off
    clear(self);
    self->source = hg_xstrdup("");
  }
  self->on = self->code != NULL;
  self->search = hg_needles_new(self->needles, self->n_needles);
  atomic_store(&self->compiled, true);
  return self;
}

hg_prefilter *hg_prefilter_from_seed(const hg_prefilter_seed *seed) {
  hg_prefilter *self = alloc();
  self->source = hg_xstrdup(seed->source);
  self->on = *seed->source != '\0';
  self->needles = hg_xcalloc(seed->n_needles ? seed->n_needles : 1, sizeof(needle));
  for (size_t i = 0; i < seed->n_needles; i++) {
    self->needles[i] = seed->needles[i];
    self->needles[i].text = hg_xstrdup(seed->needles[i].text);
  }
  self->n_needles = seed->n_needles;
  self->search = hg_needles_new(self->needles, self->n_needles);
  return self;
}

hg_prefilter_seed hg_prefilter_seed_of(const hg_prefilter *self) {
  return (hg_prefilter_seed){self->source, self->needles, self->n_needles};
}

bool hg_prefilter_equal(const hg_prefilter *a, const hg_prefilter *b) {
  if (strcmp(a->source, b->source) || a->n_needles != b->n_needles) return false;
  for (size_t i = 0; i < a->n_needles; i++) {
    const needle *x = &a->needles[i], *y = &b->needles[i];
    if (strcmp(x->text, y->text) || x->combos != y->combos || x->units != y->units) return false;
  }
  return true;
}

void hg_prefilter_free(hg_prefilter *self) {
  if (!self) return;
  clear(self);
  pthread_mutex_destroy(&self->lock);
  free(self);
}

bool hg_prefilter_on(const hg_prefilter *self) { return self->on; }
const char *hg_prefilter_source(const hg_prefilter *self) { return self->source; }
const pcre2_code *hg_prefilter_code(const hg_prefilter *cself) {
  if (!cself->on) return NULL;
  hg_prefilter *self = (hg_prefilter *)cself;  // compiled once, under the lock; read-only after
  if (!atomic_load_explicit(&self->compiled, memory_order_acquire)) {
    pthread_mutex_lock(&self->lock);
    if (!atomic_load_explicit(&self->compiled, memory_order_relaxed)) {
      self->code = compile(self->source);
      if (!self->code) abort();  // the alternation compiled when the seed was made
      atomic_store_explicit(&self->compiled, true, memory_order_release);
    }
    pthread_mutex_unlock(&self->lock);
  }
  return self->code;
}

// ---- matching -----------------------------------------------------------------------------------

bool hg_prefilter_match(const hg_prefilter *self, const char *data, size_t len) {
  return !self->on || hg_needles_any(self->search, data, len);
}

hg_units hg_prefilter_units(const hg_prefilter *self, const char *data, size_t len) {
  return self->on ? hg_needles_units(self->search, data, len) : HG_UNITS_ALL;
}
