// The policy's dialects: how each SDK or tool spells options, and which sites read them.
#include "rules/policy.h"

#include <stdlib.h>
#include <string.h>

#include "base/yamldoc.h"
#include "rules/policy_load.h"

// ---- dialects -----------------------------------------------------------------------------------

int hg_policy_dialect(const hg_policy *self, const char *id) {
  for (size_t i = 0; i < self->n_dialects; i++)
    if (!strcmp(self->dialects[i].id, id))
      return (int)i;
  return -1;
}

int hg_policy_site_dialect(const hg_policy *self, int reads, int dialect) {
  if (dialect >= 0 && (size_t)dialect < self->n_dialects)
    return dialect;
  for (size_t i = 0; i < self->n_dialects; i++)
    if (self->dialects[i].reads & (UINT32_C(1) << reads))
      return (int)i;
  return -1;
}

static int load_dialect(hg_yaml *y, hg_policy *p, yaml_node_t *key, yaml_node_t *node, hg_dialect *d, hg_error *err) {
  static const char *const keys[] = {"reads", "subject", "like", "fold_case", "traps", "at", "paths", "fix_into",
                                     NULL};
  d->id = hg_xstrdup((const char *)key->data.scalar.value);
  d->like = -1;
  char what[160];
  snprintf(what, sizeof(what), "dialect '%s'", d->id);
  if (hg_yaml_mapping(y, node, keys, what, err) != 0)
    return -1;
  yaml_node_t *reads = hg_yaml_get(y, node, "reads"), *subject = hg_yaml_get(y, node, "subject"),
              *like = hg_yaml_get(y, node, "like"), *fold = hg_yaml_get(y, node, "fold_case"),
              *traps = hg_yaml_get(y, node, "traps"), *at = hg_yaml_get(y, node, "at"),
              *paths = hg_yaml_get(y, node, "paths"), *fix_into = hg_yaml_get(y, node, "fix_into");
  if (!reads)
    return hg_yaml_error(y, node, err, "%s: needs 'reads' (the reading modes it spells)", what);
  char **modes = NULL;
  size_t n_modes = 0;
  if (hg_yaml_strings(y, reads, what, &modes, &n_modes, err) != 0)
    return -1;
  int shape = -1, rc = 0;
  for (size_t i = 0; i < n_modes && rc == 0; i++) {
    int m = hg_reads_by_name(modes[i]);
    int s = m >= 0 ? hg_readings[m].shape : -1;
    if (s < 0)
      rc = hg_yaml_error(y, reads, err, "%s: reads: '%s' is not a reading mode with options (kwargs, argv, shell, "
                         "command, script, compose, body)", what, modes[i]);
    else if (shape >= 0 && s != shape)
      rc = hg_yaml_error(y, reads, err, "%s: reads: '%s' is judged unlike '%s'", what, modes[i], modes[0]);
    else
      d->reads |= UINT32_C(1) << m, shape = s;
  }
  hg_strv_free(modes, n_modes);
  if (rc != 0)
    return -1;
  if (!n_modes)
    return hg_yaml_error(y, reads, err, "%s: reads: at least one reading mode", what);
  d->shape = (hg_shape)shape;
  const char *s;
  if (subject) {
    if (hg_yaml_scalar(y, subject, what, &s, err) != 0)
      return -1;
    d->subject = hg_xstrdup(s);
  }
  if (fix_into) {
    if (hg_yaml_scalar(y, fix_into, what, &s, err) != 0)
      return -1;
    d->fix_into = hg_xstrdup(s);
  }
  if (like) {
    if (hg_yaml_scalar(y, like, what, &s, err) != 0)
      return -1;
    d->like = hg_policy_dialect(p, s);
    if (d->like < 0)
      return hg_yaml_error(y, like, err, "%s: like: '%s' is not a dialect declared before it", what, s);
    if (p->dialects[d->like].shape != d->shape)
      return hg_yaml_error(y, like, err, "%s: like: '%s' is judged unlike it", what, s);
  }
  if (at) {
    if (hg_yaml_scalar(y, at, what, &s, err) != 0)
      return -1;
    if (d->shape != HG_SHAPE_MAPPING || !*s)
      return hg_yaml_error(y, at, err, "%s: at: a dotted name, for a dialect that reads a mapping", what);
    d->at = hg_xstrdup(s);
  }
  if (paths) {
    if (hg_yaml_scalar(y, paths, what, &s, err) != 0)
      return -1;
    if (strcmp(s, "dotted") != 0 && strcmp(s, "subscript") != 0)
      return hg_yaml_error(y, paths, err, "%s: paths: expected dotted or subscript, found '%s'", what, s);
    if (d->shape != HG_SHAPE_MAPPING)
      return hg_yaml_error(y, paths, err, "%s: paths: for a dialect that reads a mapping", what);
    d->dotted = !strcmp(s, "dotted");
  }
  if (fold) {
    if (hg_yaml_scalar(y, fold, what, &s, err) != 0)
      return -1;
    if (strcmp(s, "true") != 0 && strcmp(s, "false") != 0)
      return hg_yaml_error(y, fold, err, "%s: fold_case: expected true or false, found '%s'", what, s);
    d->fold_case = !strcmp(s, "true");
  }
  if (traps) {
    if (traps->type != YAML_MAPPING_NODE)
      return hg_yaml_error(y, traps, err, "%s: traps: expected a mapping of option name to what it does", what);
    size_t n = (size_t)(traps->data.mapping.pairs.top - traps->data.mapping.pairs.start);
    d->traps = hg_xcalloc(n ? n : 1, sizeof(hg_trap));
    for (size_t i = 0; i < n; i++) {
      yaml_node_pair_t *pair = &traps->data.mapping.pairs.start[i];
      const char *k, *v;
      if (hg_yaml_scalar(y, hg_yaml_node(y, pair->key), what, &k, err) != 0 ||
          hg_yaml_scalar(y, hg_yaml_node(y, pair->value), what, &v, err) != 0)
        return -1;
      d->traps[i] = (hg_trap){hg_xstrdup(k), hg_xstrdup(v)};
      d->n_traps = i + 1;
    }
  }
  return 0;
}

int hg_policy__load_dialects(hg_yaml *y, hg_policy *p, yaml_node_t *node, hg_error *err) {
  if (!node || node->type != YAML_MAPPING_NODE || node->data.mapping.pairs.top == node->data.mapping.pairs.start)
    return hg_yaml_error(y, node ? node : hg_yaml_root(y), err,
                         "policy: 'dialects' must be a non-empty mapping (how each SDK, the command line and compose "
                         "spell the options)");
  size_t n = (size_t)(node->data.mapping.pairs.top - node->data.mapping.pairs.start);
  if (n > HG_POLICY_MAX_DIALECTS)
    return hg_yaml_error(y, node, err, "policy: at most %d dialects", HG_POLICY_MAX_DIALECTS);
  p->dialects = hg_xcalloc(n, sizeof(hg_dialect));
  for (size_t i = 0; i < n; i++) {
    yaml_node_pair_t *pair = &node->data.mapping.pairs.start[i];
    yaml_node_t *key = hg_yaml_node(y, pair->key);
    if (key->type != YAML_SCALAR_NODE)
      return hg_yaml_error(y, key, err, "policy: dialect ids are strings");
    if (hg_policy_dialect(p, (const char *)key->data.scalar.value) >= 0)
      return hg_yaml_error(y, key, err, "policy: dialect '%s' declared twice", key->data.scalar.value);
    p->n_dialects = i + 1;
    if (load_dialect(y, p, key, hg_yaml_node(y, pair->value), &p->dialects[i], err) != 0)
      return -1;
  }
  return 0;
}
