// The policy's requirements and forbidden options, with each dialect's spellings of them.
#include "rules/policy.h"

#include <stdlib.h>
#include <string.h>

#include "base/yamldoc.h"
#include "rules/policy_load.h"

// ---- requirements and forbidden options ---------------------------------------------------------

// Each key of a requirement or forbidden option other than `fixed` (summary, fix, message) is a
// dialect's spelling: one matcher mapping or a list of them (an empty list: none).
static int load_spellings(hg_yaml *y, const hg_policy *p, yaml_node_t *node, const char *const *fixed,
                          const char *what, hg_spelling *spell, hg_error *err) {
  if (node->type != YAML_MAPPING_NODE)
    return hg_yaml_mapping(y, node, NULL, what, err); // says what was found instead
  for (yaml_node_pair_t *pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top; pair++) {
    yaml_node_t *key = hg_yaml_node(y, pair->key);
    const char *k = key->type == YAML_SCALAR_NODE ? (const char *)key->data.scalar.value : "";
    bool known = false;
    for (const char *const *f = fixed; *f && !known; f++)
      known = !strcmp(*f, k);
    if (known)
      continue;
    int d = hg_policy_dialect(p, k);
    if (d < 0)
      return hg_yaml_error(y, key, err, "%s: unknown key '%s' (not a dialect of the policy's 'dialects')", what, k);
    if (spell[d].given) // a mapping with a key twice: the second would replace the first unread
      return hg_yaml_error(y, key, err, "%s: '%s' is given twice", what, k);
    spell[d].given = true;
    if (hg_matchers_load(y, hg_yaml_node(y, pair->value), what, p->lazy_regexes, &spell[d].m, &spell[d].n, err) != 0)
      return -1;
  }
  return 0;
}

// Dialects `like` another take its spelling wherever they give none (in declaration order, so a
// chain of likes resolves).
static void borrow(const hg_policy *p, hg_spelling *spell) {
  for (size_t d = 0; d < p->n_dialects; d++) {
    int from = p->dialects[d].like;
    if (spell[d].given || from < 0 || !spell[from].n)
      continue;
    char *own_fix = spell[d].fix; // a fix text of its own for the spelling it borrows
    spell[d] = spell[from];
    spell[d].given = false;
    spell[d].borrowed = true;
    if (own_fix) {
      spell[d].fix = own_fix;
      spell[d].own_fix = true;
    }
  }
}

// Does dialect d borrow a spelling with matchers from the dialects it is `like`?
static bool borrows(const hg_policy *p, const hg_spelling *spell, int d) {
  for (int from = p->dialects[d].like, hops = 0; from >= 0 && hops < 64; from = p->dialects[from].like, hops++)
    if (spell[from].given)
      return spell[from].n > 0;
  return false;
}

// set: {dialect: {keyword: 'expression', ...} | [word, ...]}: what `hardguard init` writes, in the
// shape of the dialect (keywords as a mapping, flags as a list of words).
static int load_set(hg_yaml *y, const hg_policy *p, yaml_node_t *set, const char *what, hg_spelling *spell,
                    hg_error *err) {
  if (set->type != YAML_MAPPING_NODE)
    return hg_yaml_error(y, set, err, "%s: 'set' is a mapping of dialect to the value init writes", what);
  for (yaml_node_pair_t *pair = set->data.mapping.pairs.start; pair < set->data.mapping.pairs.top; pair++) {
    yaml_node_t *k = hg_yaml_node(y, pair->key), *v = hg_yaml_node(y, pair->value);
    const char *name = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
    int d = hg_policy_dialect(p, name);
    if (d < 0 || !spell[d].given)
      return hg_yaml_error(y, k, err, "%s: set.%s: not a dialect with a spelling of this requirement", what, name);
    hg_shape shape = p->dialects[d].shape;
    if (shape == HG_SHAPE_FLAGS) {
      if (v->type != YAML_SEQUENCE_NODE || hg_yaml_strings(y, v, what, &spell[d].set, &spell[d].n_set, err) != 0)
        return v->type != YAML_SEQUENCE_NODE
                   ? hg_yaml_error(y, v, err, "%s: set.%s: a list of command-line words", what, name)
                   : -1;
      continue;
    }
    if (shape != HG_SHAPE_KEYWORDS || v->type != YAML_MAPPING_NODE)
      return hg_yaml_error(y, v, err, "%s: set.%s: a mapping of keyword to Python expression", what, name);
    size_t n = (size_t)(v->data.mapping.pairs.top - v->data.mapping.pairs.start);
    spell[d].set = hg_xcalloc(2 * n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++) {
      const char *kw, *expr;
      if (hg_yaml_scalar(y, hg_yaml_node(y, v->data.mapping.pairs.start[i].key), what, &kw, err) != 0 ||
          hg_yaml_scalar(y, hg_yaml_node(y, v->data.mapping.pairs.start[i].value), what, &expr, err) != 0)
        return -1;
      spell[d].set[2 * i] = hg_xstrdup(kw);
      spell[d].set[2 * i + 1] = hg_xstrdup(expr);
      spell[d].n_set = 2 * i + 2;
    }
  }
  return 0;
}

int hg_policy__load_requirement(hg_yaml *y, const hg_policy *p, yaml_node_t *key, yaml_node_t *node, hg_requirement *r,
                            hg_error *err) {
  static const char *const fixed[] = {"summary", "fix", "set", NULL};
  r->id = hg_xstrdup((const char *)key->data.scalar.value);
  r->spell = hg_xcalloc(p->n_dialects, sizeof(hg_spelling));
  char what[160];
  snprintf(what, sizeof(what), "requirement '%s'", r->id);
  if (load_spellings(y, p, node, fixed, what, r->spell, err) != 0)
    return -1;
  const char *s;
  yaml_node_t *summary = hg_yaml_get(y, node, "summary"), *fix = hg_yaml_get(y, node, "fix");
  if (!summary || !fix)
    return hg_yaml_error(y, node, err, "%s: needs 'summary' and 'fix'", what);
  if (hg_yaml_scalar(y, summary, what, &s, err) != 0)
    return -1;
  r->summary = hg_xstrdup(s);
  if (fix->type != YAML_MAPPING_NODE)
    return hg_yaml_error(y, fix, err, "%s: 'fix' is a mapping of dialect to how it is written", what);
  for (yaml_node_pair_t *pair = fix->data.mapping.pairs.start; pair < fix->data.mapping.pairs.top; pair++) {
    yaml_node_t *k = hg_yaml_node(y, pair->key);
    const char *name = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
    int d = hg_policy_dialect(p, name);
    if (d < 0)
      return hg_yaml_error(y, k, err, "%s: fix: unknown key '%s' (not a dialect of the policy's 'dialects')", what,
                           name);
    // A spelling without its fix text would leave a finding without a hint, and a fix text
    // without a spelling would suggest what can never satisfy the requirement.
    // (A dialect `like` another may write the fix of the spelling it borrows in its own language.)
    if (!r->spell[d].given && !borrows(p, r->spell, d))
      return hg_yaml_error(y, k, err, "%s: fix.%s without a '%s' spelling", what, name, name);
    if (hg_yaml_scalar(y, hg_yaml_node(y, pair->value), what, &s, err) != 0)
      return -1;
    r->spell[d].fix = hg_xstrdup(s);
  }
  for (size_t d = 0; d < p->n_dialects; d++)
    if (r->spell[d].given && r->spell[d].n && !r->spell[d].fix)
      return hg_yaml_error(y, fix, err, "%s: '%s' needs 'fix.%s'", what, p->dialects[d].id, p->dialects[d].id);
  yaml_node_t *set = hg_yaml_get(y, node, "set");
  if (set && load_set(y, p, set, what, r->spell, err) != 0)
    return -1;
  borrow(p, r->spell);
  return 0;
}

int hg_policy__load_forbidden(hg_yaml *y, const hg_policy *p, yaml_node_t *key, yaml_node_t *node, hg_forbidden *f,
                          hg_error *err) {
  static const char *const fixed[] = {"message", NULL};
  f->id = hg_xstrdup((const char *)key->data.scalar.value);
  f->spell = hg_xcalloc(p->n_dialects, sizeof(hg_spelling));
  char what[160];
  snprintf(what, sizeof(what), "forbidden option '%s'", f->id);
  if (load_spellings(y, p, node, fixed, what, f->spell, err) != 0)
    return -1;
  yaml_node_t *message = hg_yaml_get(y, node, "message");
  bool any = false;
  for (size_t d = 0; d < p->n_dialects; d++)
    any |= f->spell[d].n > 0;
  if (!message || !any)
    return hg_yaml_error(y, node, err, "%s: needs 'message' and a dialect's spelling", what);
  const char *s;
  if (hg_yaml_scalar(y, message, what, &s, err) != 0)
    return -1;
  f->message = hg_xstrdup(s);
  borrow(p, f->spell);
  return 0;
}

void hg_policy__spellings_free(const hg_policy *p, hg_spelling *spell) {
  for (size_t d = 0; spell && d < p->n_dialects; d++) {
    if (spell[d].borrowed) {
      if (spell[d].own_fix)
        free(spell[d].fix);
      continue;
    }
    for (size_t j = 0; j < spell[d].n; j++)
      hg_matcher_clear(&spell[d].m[j]);
    free(spell[d].m);
    free(spell[d].fix);
    hg_strv_free(spell[d].set, spell[d].n_set);
  }
  free(spell);
}

const hg_requirement *hg_policy_requirement(const hg_policy *self, const char *id, size_t *index) {
  for (size_t i = 0; i < self->n_req; i++)
    if (strcmp(self->req[i].id, id) == 0) {
      if (index)
        *index = i;
      return &self->req[i];
    }
  return NULL;
}
