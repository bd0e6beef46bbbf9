#include "rules/checks.h"

#include <stdlib.h>

#include "base/util.h"

typedef HG_VEC(hg_walk_check) check_vec;
typedef struct {
  const hg_dispatch *d;
  uint32_t pattern;
  check_vec *out;
  size_t first;  // the pattern's first check in out
} check_builder;

static unsigned rank(const hg_walk_check *k) { return k->file ? 0 : 1u + k->place.depth; }

static void add_check(void *ctx, uint32_t test, uint32_t capture) {
  check_builder *b = ctx;
  hg_walk_check k = {.file = capture == UINT32_MAX, .test = test};
  if (!k.file && !hg_dispatch_capture_place(b->d, b->pattern, capture, &k.place)) return;
  HG_VEC_PUSH(b->out, k);
  // The file's tests first, then the nearest places: a check that fails spares reading further down.
  hg_walk_check *v = b->out->items;
  for (size_t i = b->out->len - 1; i > b->first && rank(&v[i - 1]) > rank(&v[i]); i--) {
    hg_walk_check t = v[i];
    v[i] = v[i - 1];
    v[i - 1] = t;
  }
}

static bool same_place(const hg_walk_check *x, const hg_walk_check *y) {
  const hg_walk_place *a = &x->place, *b = &y->place;
  if (x->file != y->file || a->depth != b->depth) return false;
  for (uint8_t i = 0; i < a->depth; i++)
    if (a->step[i].field != b->step[i].field || a->step[i].symbol != b->step[i].symbol) return false;
  return true;
}

// Each check's key: that of the first check asking the same test of the same place (sdk-run's
// patterns ask one call's callee the same #resolves-to-suffix?); and its place's id, that of the
// first check of the same place (the callee's last name is asked #eq?, #any-of? and
// #resolves-to-suffix? by one pattern or another).
void hg_checks_build(hg_checks *out, const hg_dispatch *d, const hg_pattern *patterns, uint32_t n) {
  check_vec checks = {0};
  out->first = hg_xcalloc(n + 1, sizeof(uint32_t));
  for (uint32_t p = 0; p < n; p++) {
    out->first[p] = (uint32_t)checks.len;
    check_builder b = {d, p, &checks, checks.len};
    hg_predicates_node_tests(patterns[p].predicates, add_check, &b);
  }
  out->first[n] = (uint32_t)checks.len;
  out->checks = checks.items;
  const hg_predicates **of = hg_xcalloc(checks.len ? checks.len : 1, sizeof(*of));  // each check's pattern's
  for (uint32_t p = 0; p < n; p++)
    for (uint32_t i = out->first[p]; i < out->first[p + 1]; i++) of[i] = patterns[p].predicates;
  out->n_keys = out->n_places = 0;
  for (size_t i = 0; i < checks.len; i++) {
    hg_walk_check *k = &out->checks[i];
    size_t j = 0;
    while (j < i && !(same_place(&out->checks[j], k) && hg_predicates_same_test(of[j], out->checks[j].test, of[i], k->test)))
      j++;
    k->key = j < i ? out->checks[j].key : out->n_keys++;
    for (j = 0; j < i && (out->checks[j].file || !same_place(&out->checks[j], k)); j++) {}
    k->place_id = k->file ? UINT32_MAX : j < i ? out->checks[j].place_id : out->n_places++;
  }
  free(of);
}

void hg_checks_free(hg_checks *self) {
  free(self->first);
  free(self->checks);
  *self = (hg_checks){0};
}
