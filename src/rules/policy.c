#include "rules/policy.h"

#include <stdlib.h>
#include <string.h>

#include "base/yamldoc.h"

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
  static const char *const keys[] = {"reads", "subject", "like", "fold_case", "traps", "at", NULL};
  d->id = hg_xstrdup((const char *)key->data.scalar.value);
  d->like = -1;
  char what[160];
  snprintf(what, sizeof(what), "dialect '%s'", d->id);
  if (hg_yaml_mapping(y, node, keys, what, err) != 0)
    return -1;
  yaml_node_t *reads = hg_yaml_get(y, node, "reads"), *subject = hg_yaml_get(y, node, "subject"),
              *like = hg_yaml_get(y, node, "like"), *fold = hg_yaml_get(y, node, "fold_case"),
              *traps = hg_yaml_get(y, node, "traps"), *at = hg_yaml_get(y, node, "at");
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

static int load_dialects(hg_yaml *y, hg_policy *p, yaml_node_t *node, hg_error *err) {
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
    spell[d].given = true;
    if (hg_matchers_load(y, hg_yaml_node(y, pair->value), what, &spell[d].m, &spell[d].n, err) != 0)
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
    spell[d] = spell[from];
    spell[d].given = false;
    spell[d].borrowed = true;
  }
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

static int load_requirement(hg_yaml *y, const hg_policy *p, yaml_node_t *key, yaml_node_t *node, hg_requirement *r,
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
    if (!r->spell[d].given)
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

static int load_forbidden(hg_yaml *y, const hg_policy *p, yaml_node_t *key, yaml_node_t *node, hg_forbidden *f,
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

// Optional lists of strings under `parent`, each into its own field.
typedef struct {
  const char *key;
  char ***list;
  size_t *n;
} string_list;

static int load_lists(hg_yaml *y, yaml_node_t *parent, const char *where, string_list *lists, size_t n,
                      hg_error *err) {
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *l = hg_yaml_get(y, parent, lists[i].key);
    char what[64];
    snprintf(what, sizeof(what), "%s.%s", where, lists[i].key);
    if (l && hg_yaml_strings(y, l, what, lists[i].list, lists[i].n, err) != 0)
      return -1;
  }
  return 0;
}

// init: {module: name, callables: {function: dialect}}: every requirement needs a `set:` value in
// each dialect named (own or borrowed), so that what init writes is the full set.
static int load_init(hg_yaml *y, hg_policy *p, yaml_node_t *init, hg_error *err) {
  static const char *const keys[] = {"module", "callables", NULL};
  if (hg_yaml_mapping(y, init, keys, "init", err) != 0)
    return -1;
  yaml_node_t *module = hg_yaml_get(y, init, "module"), *callables = hg_yaml_get(y, init, "callables");
  const char *s;
  if (!module || !callables || callables->type != YAML_MAPPING_NODE)
    return hg_yaml_error(y, init, err, "init: needs 'module' and 'callables' (a mapping of function to dialect)");
  if (hg_yaml_scalar(y, module, "init.module", &s, err) != 0)
    return -1;
  if (!hg_dotted_name(s, strlen(s)) || strchr(s, '.'))
    return hg_yaml_error(y, module, err, "init.module: expected a module name without dots, got '%s'", s);
  p->init_module = hg_xstrdup(s);
  size_t n = (size_t)(callables->data.mapping.pairs.top - callables->data.mapping.pairs.start);
  p->init_callables = hg_xcalloc(n + 1, sizeof(char *));
  p->init_dialects = hg_xcalloc(n + 1, sizeof(int));
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *k = hg_yaml_node(y, callables->data.mapping.pairs.start[i].key),
                *v = hg_yaml_node(y, callables->data.mapping.pairs.start[i].value);
    const char *fn, *dialect;
    if (hg_yaml_scalar(y, k, "init.callables", &fn, err) != 0 || hg_yaml_scalar(y, v, "init.callables", &dialect, err))
      return -1;
    int d = hg_policy_dialect(p, dialect);
    if (d < 0 || p->dialects[d].shape == HG_SHAPE_MAPPING)
      return hg_yaml_error(y, v, err, "init.callables.%s: '%s' is not a keyword or command-line dialect", fn, dialect);
    if (!hg_dotted_name(fn, strlen(fn)) || strchr(fn, '.'))
      return hg_yaml_error(y, k, err, "init.callables: expected a function name, got '%s'", fn);
    for (size_t r = 0; r < p->n_req; r++)
      if (!p->req[r].spell[d].n_set)
        return hg_yaml_error(y, v, err, "init.callables.%s: requirement '%s' has no 'set.%s' value", fn, p->req[r].id,
                             dialect);
    p->init_callables[i] = hg_xstrdup(fn);
    p->init_dialects[i] = d;
    p->n_init = i + 1;
  }
  return 0;
}

// cli.wrappers: a mapping of each wrapper's name to its grammar ({value_options, stops, operands,
// assignments}, all optional; an empty value: none), or a plain list of names without one.
static int load_wrappers(hg_yaml *y, hg_policy *p, yaml_node_t *node, hg_error *err) {
  static const char *const keys[] = {"value_options", "stops", "operands", "assignments", NULL};
  if (node->type == YAML_SEQUENCE_NODE || node->type == YAML_SCALAR_NODE) {
    char **names = NULL;
    size_t n = 0;
    if (hg_yaml_strings(y, node, "cli.wrappers", &names, &n, err) != 0)
      return -1;
    p->wrappers = hg_xcalloc(n ? n : 1, sizeof(hg_wrapper));
    for (size_t i = 0; i < n; i++)
      p->wrappers[i].name = names[i];
    p->n_wrappers = n;
    free(names);
    return 0;
  }
  if (node->type != YAML_MAPPING_NODE)
    return hg_yaml_error(y, node, err, "cli.wrappers: expected a mapping of wrapper name to its grammar");
  size_t n = (size_t)(node->data.mapping.pairs.top - node->data.mapping.pairs.start);
  p->wrappers = hg_xcalloc(n ? n : 1, sizeof(hg_wrapper));
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *k = hg_yaml_node(y, node->data.mapping.pairs.start[i].key),
                *v = hg_yaml_node(y, node->data.mapping.pairs.start[i].value);
    const char *name;
    if (hg_yaml_scalar(y, k, "cli.wrappers", &name, err) != 0)
      return -1;
    hg_wrapper *w = &p->wrappers[i];
    w->name = hg_xstrdup(name);
    p->n_wrappers = i + 1;
    char what[160];
    snprintf(what, sizeof(what), "cli.wrappers.%s", name);
    if (v->type == YAML_SCALAR_NODE && !v->data.scalar.length)
      continue; // `nohup:`: no options that take a value, no operands
    if (hg_yaml_mapping(y, v, keys, what, err) != 0)
      return -1;
    yaml_node_t *opts = hg_yaml_get(y, v, "value_options"), *stops = hg_yaml_get(y, v, "stops"),
                *operands = hg_yaml_get(y, v, "operands"), *assign = hg_yaml_get(y, v, "assignments");
    if (opts && hg_yaml_strings(y, opts, what, &w->value_options, &w->n_value_options, err) != 0)
      return -1;
    if (stops && hg_yaml_strings(y, stops, what, &w->stops, &w->n_stops, err) != 0)
      return -1;
    const char *s;
    if (operands) {
      if (hg_yaml_scalar(y, operands, what, &s, err) != 0)
        return -1;
      char *end;
      long count = strtol(s, &end, 10);
      if (!*s || *end || count < 0 || count > 16)
        return hg_yaml_error(y, operands, err, "%s: operands: expected a count from 0 to 16, found '%s'", what, s);
      w->operands = (unsigned)count;
    }
    if (assign) {
      if (hg_yaml_scalar(y, assign, what, &s, err) != 0)
        return -1;
      if (strcmp(s, "true") != 0 && strcmp(s, "false") != 0)
        return hg_yaml_error(y, assign, err, "%s: assignments: expected true or false, found '%s'", what, s);
      w->assignments = !strcmp(s, "true");
    }
  }
  return 0;
}

static int load(hg_policy *p, hg_yaml *y, hg_error *err) {
  static const char *const top[] = {"dialects", "require", "forbid", "cli", "classes", "init", NULL};
  static const char *const class_keys[] = {"field_decorators", "field_bases", "field_calls", "property_decorators",
                                           NULL};
  static const char *const cli_keys[] = {"subcommands",  "boolean_flags", "repeatable_flags", "process_calls",
                                         "programs",     "verbs",         "wrappers",         "global_value_flags",
                                         NULL};
  yaml_node_t *root = hg_yaml_root(y);
  if (hg_yaml_mapping(y, root, top, "policy", err) != 0)
    return -1;
  if (load_dialects(y, p, hg_yaml_get(y, root, "dialects"), err) != 0)
    return -1;
  yaml_node_t *req = hg_yaml_get(y, root, "require"), *cli = hg_yaml_get(y, root, "cli");
  if (!req || req->type != YAML_MAPPING_NODE || req->data.mapping.pairs.top == req->data.mapping.pairs.start)
    return hg_yaml_error(y, req ? req : root, err, "policy: 'require' must be a non-empty mapping");
  size_t n = (size_t)(req->data.mapping.pairs.top - req->data.mapping.pairs.start);
  if (n > HG_POLICY_MAX_REQ)
    return hg_yaml_error(y, req, err, "policy: at most %d requirements", HG_POLICY_MAX_REQ);
  p->req = hg_xcalloc(n, sizeof(hg_requirement));
  for (size_t i = 0; i < n; i++) {
    yaml_node_pair_t *pair = &req->data.mapping.pairs.start[i];
    yaml_node_t *key = hg_yaml_node(y, pair->key);
    p->n_req = i + 1;
    if (key->type != YAML_SCALAR_NODE)
      return hg_yaml_error(y, key, err, "policy: requirement ids are strings");
    if (load_requirement(y, p, key, hg_yaml_node(y, pair->value), &p->req[i], err) != 0)
      return -1;
  }
  yaml_node_t *forbid = hg_yaml_get(y, root, "forbid");
  if (forbid) {
    if (forbid->type != YAML_MAPPING_NODE)
      return hg_yaml_error(y, forbid, err, "policy: 'forbid' must be a mapping");
    size_t nf = (size_t)(forbid->data.mapping.pairs.top - forbid->data.mapping.pairs.start);
    p->forbid = hg_xcalloc(nf ? nf : 1, sizeof(hg_forbidden));
    for (size_t i = 0; i < nf; i++) {
      yaml_node_pair_t *pair = &forbid->data.mapping.pairs.start[i];
      yaml_node_t *key = hg_yaml_node(y, pair->key);
      p->n_forbid = i + 1;
      if (key->type != YAML_SCALAR_NODE)
        return hg_yaml_error(y, key, err, "policy: forbidden option ids are strings");
      if (load_forbidden(y, p, key, hg_yaml_node(y, pair->value), &p->forbid[i], err) != 0)
        return -1;
    }
  }
  yaml_node_t *classes = hg_yaml_get(y, root, "classes");
  if (classes) {
    if (hg_yaml_mapping(y, classes, class_keys, "classes", err) != 0)
      return -1;
    string_list lists[] = {{"field_decorators", &p->field_decorators, &p->n_field_decorators},
                           {"field_bases", &p->field_bases, &p->n_field_bases},
                           {"field_calls", &p->field_calls, &p->n_field_calls},
                           {"property_decorators", &p->property_decorators, &p->n_property_decorators}};
    if (load_lists(y, classes, "classes", lists, sizeof(lists) / sizeof(lists[0]), err) != 0)
      return -1;
  }
  yaml_node_t *init = hg_yaml_get(y, root, "init");
  if (init && load_init(y, p, init, err) != 0)
    return -1;
  if (!cli)
    return hg_yaml_error(y, root, err, "policy: missing 'cli'");
  if (hg_yaml_mapping(y, cli, cli_keys, "cli", err) != 0)
    return -1;
  yaml_node_t *sub = hg_yaml_get(y, cli, "subcommands"), *bools = hg_yaml_get(y, cli, "boolean_flags"),
              *rep = hg_yaml_get(y, cli, "repeatable_flags"), *proc = hg_yaml_get(y, cli, "process_calls");
  if (!sub || !bools)
    return hg_yaml_error(y, cli, err, "cli: needs 'subcommands' and 'boolean_flags'");
  if (hg_yaml_strings(y, sub, "cli.subcommands", &p->subcommands, &p->n_subcommands, err) != 0)
    return -1;
  if (rep && hg_yaml_strings(y, rep, "cli.repeatable_flags", &p->repeatable_flags, &p->n_repeatable_flags, err) != 0)
    return -1;
  if (proc && hg_yaml_strings(y, proc, "cli.process_calls", &p->process_calls, &p->n_process_calls, err) != 0)
    return -1;
  string_list more[] = {{"programs", &p->programs, &p->n_programs},
                        {"verbs", &p->verbs, &p->n_verbs},
                        {"global_value_flags", &p->global_value_flags, &p->n_global_value_flags}};
  if (load_lists(y, cli, "cli", more, sizeof(more) / sizeof(more[0]), err) != 0)
    return -1;
  yaml_node_t *wrappers = hg_yaml_get(y, cli, "wrappers");
  if (wrappers && load_wrappers(y, p, wrappers, err) != 0)
    return -1;
  return hg_yaml_strings(y, bools, "cli.boolean_flags", &p->boolean_flags, &p->n_boolean_flags, err);
}

int hg_policy_load(hg_policy **out, const char *path, const char *bytes, size_t len, hg_error *err) {
  *out = NULL;
  hg_yaml y;
  if (hg_yaml_load(&y, path, bytes, len, err) != 0) {
    hg_yaml_free(&y);
    return -1;
  }
  hg_policy *p = hg_xcalloc(1, sizeof(hg_policy));
  p->path = hg_xstrdup(path);
  int rc = load(p, &y, err);
  hg_yaml_free(&y);
  if (rc != 0) {
    hg_policy_free(p);
    return -1;
  }
  *out = p;
  return 0;
}

static void spellings_free(const hg_policy *p, hg_spelling *spell) {
  for (size_t d = 0; spell && d < p->n_dialects; d++) {
    if (spell[d].borrowed)
      continue;
    for (size_t j = 0; j < spell[d].n; j++)
      hg_matcher_clear(&spell[d].m[j]);
    free(spell[d].m);
    free(spell[d].fix);
    hg_strv_free(spell[d].set, spell[d].n_set);
  }
  free(spell);
}

void hg_policy_free(hg_policy *self) {
  if (!self)
    return;
  for (size_t i = 0; i < self->n_req; i++) {
    free(self->req[i].id);
    free(self->req[i].summary);
    spellings_free(self, self->req[i].spell);
  }
  free(self->req);
  for (size_t i = 0; i < self->n_forbid; i++) {
    free(self->forbid[i].id);
    free(self->forbid[i].message);
    spellings_free(self, self->forbid[i].spell);
  }
  free(self->forbid);
  hg_strv_free(self->boolean_flags, self->n_boolean_flags);
  hg_strv_free(self->subcommands, self->n_subcommands);
  hg_strv_free(self->programs, self->n_programs);
  hg_strv_free(self->verbs, self->n_verbs);
  for (size_t i = 0; i < self->n_wrappers; i++) {
    free(self->wrappers[i].name);
    hg_strv_free(self->wrappers[i].value_options, self->wrappers[i].n_value_options);
    hg_strv_free(self->wrappers[i].stops, self->wrappers[i].n_stops);
  }
  free(self->wrappers);
  hg_strv_free(self->global_value_flags, self->n_global_value_flags);
  hg_strv_free(self->repeatable_flags, self->n_repeatable_flags);
  hg_strv_free(self->process_calls, self->n_process_calls);
  hg_strv_free(self->field_decorators, self->n_field_decorators);
  hg_strv_free(self->field_bases, self->n_field_bases);
  hg_strv_free(self->field_calls, self->n_field_calls);
  hg_strv_free(self->property_decorators, self->n_property_decorators);
  for (size_t i = 0; i < self->n_dialects; i++) {
    hg_dialect *d = &self->dialects[i];
    free(d->id);
    free(d->subject);
    free(d->at);
    for (size_t k = 0; k < d->n_traps; k++) {
      free(d->traps[k].name);
      free(d->traps[k].text);
    }
    free(d->traps);
  }
  free(self->dialects);
  free(self->init_module);
  hg_strv_free(self->init_callables, self->n_init);
  free(self->init_dialects);
  free(self->path);
  free(self);
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

static bool in(char *const *v, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(v[i], s) == 0)
      return true;
  return false;
}

bool hg_policy_is_boolean_flag(const hg_policy *self, const char *flag) {
  return in(self->boolean_flags, self->n_boolean_flags, flag);
}

bool hg_policy_is_repeatable_flag(const hg_policy *self, const char *flag) {
  return in(self->repeatable_flags, self->n_repeatable_flags, flag);
}

bool hg_policy_list_has(char *const *list, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(list[i]) == len && !memcmp(list[i], name, len))
      return true;
  return false;
}

bool hg_policy_is_process_call(const hg_policy *self, const char *qualified) {
  return in(self->process_calls, self->n_process_calls, qualified);
}

bool hg_policy_is_program(const hg_policy *self, const char *word) {
  return in(self->programs, self->n_programs, word);
}
bool hg_policy_is_verb(const hg_policy *self, const char *word) { return in(self->verbs, self->n_verbs, word); }
static const char *base_of(const char *word) {
  const char *slash = strrchr(word, '/');
  return slash ? slash + 1 : word;
}

const hg_wrapper *hg_policy_wrapper(const hg_policy *self, const char *word) {
  word = base_of(word);
  for (size_t i = 0; i < self->n_wrappers; i++)
    if (!strcmp(self->wrappers[i].name, word))
      return &self->wrappers[i];
  return NULL;
}

bool hg_policy_is_wrapper(const hg_policy *self, const char *word) { return hg_policy_wrapper(self, word) != NULL; }

// NAME=value
static bool is_assignment(const char *w) {
  if (!((*w >= 'A' && *w <= 'Z') || (*w >= 'a' && *w <= 'z') || *w == '_'))
    return false;
  for (w++; (*w >= 'A' && *w <= 'Z') || (*w >= 'a' && *w <= 'z') || (*w >= '0' && *w <= '9') || *w == '_'; w++) {
  }
  return *w == '=';
}

// How many words option word `o` of wrapper `w` takes after itself (0 or 1), or -1 when the
// wrapper then runs no command. getopt's reading: `--long=value` is one word; a cluster of short
// options `-abc` ends where one takes a value, which is the rest of the word or the next word.
static int option_takes(const hg_wrapper *w, const char *o) {
  if (in(w->stops, w->n_stops, o))
    return -1;
  if (o[1] == '-')
    return !strchr(o, '=') && in(w->value_options, w->n_value_options, o);
  for (const char *c = o + 1; *c; c++) {
    char one[3] = {'-', *c, 0};
    if (in(w->stops, w->n_stops, one))
      return -1;
    if (in(w->value_options, w->n_value_options, one))
      return c[1] == '\0';
  }
  return 0;
}

size_t hg_policy_skip_wrappers(const hg_policy *self, const char *const *words, size_t n) {
  size_t i = 0;
  const hg_wrapper *w;
  // Each wrapper takes at least its own word: the loop is linear in n however deep the chain.
  while (i < n && words[i] && (w = hg_policy_wrapper(self, words[i]))) {
    i++;
    // Its options and assignments.
    while (i < n) {
      const char *o = words[i];
      if (!o) {
        // Not known: the operand when one is due; an option when a program or a wrapper follows
        // (`sudo $SUDO_OPTS docker run`); else the command itself.
        const char *next = i + 1 < n ? words[i + 1] : NULL;
        if (w->operands || !next || !(hg_policy_is_program(self, base_of(next)) || hg_policy_wrapper(self, next)))
          break;
        i++;
        continue;
      }
      if (!strcmp(o, "--")) {
        i++;
        break;
      }
      if (o[0] == '-' && o[1]) {
        int takes = option_takes(w, o);
        if (takes < 0)
          return n;
        i += 1 + (size_t)takes;
        continue;
      }
      if (w->assignments && is_assignment(o)) {
        i++;
        continue;
      }
      break;
    }
    // Its operands (timeout's DURATION, flock's FILE), known or not.
    for (unsigned k = 0; k < w->operands && i < n; k++)
      i++;
  }
  return i < n ? i : n;
}
bool hg_policy_is_global_value_flag(const hg_policy *self, const char *word) {
  return in(self->global_value_flags, self->n_global_value_flags, word);
}

bool hg_policy_is_subcommand(const hg_policy *self, const char *word) {
  return in(self->subcommands, self->n_subcommands, word);
}
