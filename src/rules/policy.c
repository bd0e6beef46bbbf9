// The policy (rules/policy.yml): loading it (its dialects in dialect.c, its requirements and
// forbidden options in spelling.c, the command-line grammar in cligrammar.c) and freeing it.
#include "rules/policy.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/yamldoc.h"
#include "rules/policy_load.h"

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

static int load(hg_policy *p, hg_yaml *y, hg_error *err) {
  static const char *const top[] = {"dialects", "require", "forbid", "cli", "classes", "init", NULL};
  static const char *const class_keys[] = {"field_decorators", "field_bases", "field_calls", "property_decorators",
                                           "mapping_calls", "forwarding_calls", "partial_calls",
                                           "inspecting_calls", NULL};
  static const char *const cli_keys[] = {"subcommands",  "boolean_flags", "repeatable_flags", "process_calls",
                                         "programs",     "verbs",         "wrappers",         "global_value_flags",
                                         NULL};
  yaml_node_t *root = hg_yaml_root(y);
  if (hg_yaml_mapping(y, root, top, "policy", err) != 0)
    return -1;
  if (hg_policy__load_dialects(y, p, hg_yaml_get(y, root, "dialects"), err) != 0)
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
    if (hg_policy__load_requirement(y, p, key, hg_yaml_node(y, pair->value), &p->req[i], err) != 0)
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
      if (hg_policy__load_forbidden(y, p, key, hg_yaml_node(y, pair->value), &p->forbid[i], err) != 0)
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
                           {"property_decorators", &p->property_decorators, &p->n_property_decorators},
                           {"mapping_calls", &p->mapping_calls, &p->n_mapping_calls},
                           {"forwarding_calls", &p->forwarding_calls, &p->n_forwarding_calls},
                           {"partial_calls", &p->partial_calls, &p->n_partial_calls},
                           {"inspecting_calls", &p->inspecting_calls, &p->n_inspecting_calls}};
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
  if (wrappers && hg_policy__load_wrappers(y, p, wrappers, err) != 0)
    return -1;
  if (hg_yaml_strings(y, bools, "cli.boolean_flags", &p->boolean_flags, &p->n_boolean_flags, err) != 0)
    return -1;
  // Asked about for every flag of every command line: sorted, and searched by halves.
  hg_policy__sort_names(p->boolean_flags, p->n_boolean_flags);
  hg_policy__sort_names(p->repeatable_flags, p->n_repeatable_flags);
  hg_policy__sort_names(p->process_calls, p->n_process_calls);
  return 0;
}

int hg_policy_load_doc(hg_policy **out, hg_yaml *y, bool known_good, hg_error *err) {
  *out = NULL;
  hg_policy *p = hg_xcalloc(1, sizeof(hg_policy));
  p->path = hg_xstrdup(y->path);
  p->lazy_regexes = known_good;
  if (load(p, y, err) != 0) {
    hg_policy_free(p);
    return -1;
  }
  *out = p;
  return 0;
}

int hg_policy_load(hg_policy **out, const char *path, const char *bytes, size_t len, hg_error *err) {
  *out = NULL;
  hg_yaml y;
  int rc = hg_yaml_load(&y, path, bytes, len, err);
  if (rc == 0)
    rc = hg_policy_load_doc(out, &y, false, err);
  hg_yaml_free(&y);
  return rc;
}

void hg_policy_free(hg_policy *self) {
  if (!self)
    return;
  for (size_t i = 0; i < self->n_req; i++) {
    free(self->req[i].id);
    free(self->req[i].summary);
    hg_policy__spellings_free(self, self->req[i].spell);
  }
  free(self->req);
  for (size_t i = 0; i < self->n_forbid; i++) {
    free(self->forbid[i].id);
    free(self->forbid[i].message);
    hg_policy__spellings_free(self, self->forbid[i].spell);
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
  hg_strv_free(self->mapping_calls, self->n_mapping_calls);
  hg_strv_free(self->forwarding_calls, self->n_forwarding_calls);
  hg_strv_free(self->partial_calls, self->n_partial_calls);
  hg_strv_free(self->inspecting_calls, self->n_inspecting_calls);
  hg_strv_free(self->property_decorators, self->n_property_decorators);
  for (size_t i = 0; i < self->n_dialects; i++) {
    hg_dialect *d = &self->dialects[i];
    free(d->id);
    free(d->subject);
    free(d->at);
    free(d->fix_into);
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

size_t hg_policy_call_name(const char *entry, const char **at) {
  size_t n = strcspn(entry, "@");
  *at = entry[n] == '@' ? entry + n + 1 : entry + n;
  return n;
}

size_t hg_policy_call_keyword(const char *at) {
  return isalpha((unsigned char)*at) || *at == '_' ? strcspn(at, "(") : 0;
}
