// The policy's command-line grammar (cli:): programs, verbs, subcommand words, flags, the calls
// that run a process, and the wrappers a command runs through, each with its own grammar.
#include "rules/policy.h"

#include <stdlib.h>
#include <string.h>

#include "base/yamldoc.h"
#include "rules/policy_load.h"

// cli.wrappers: a mapping of each wrapper's name to its grammar ({value_options, stops, operands,
// assignments}, all optional; an empty value: none), or a plain list of names without one.
int hg_policy__load_wrappers(hg_yaml *y, hg_policy *p, yaml_node_t *node, hg_error *err) {
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

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void hg_policy__sort_names(char **v, size_t n) {
  if (n > 1) qsort(v, n, sizeof(char *), name_cmp);
}

static bool in(char *const *v, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(v[i], s) == 0)
      return true;
  return false;
}

// Is s in v, a list hg_policy__sort_names sorted?
static bool in_sorted(char *const *v, size_t n, const char *s) {
  return n && bsearch(&s, v, n, sizeof(char *), name_cmp) != NULL;
}

bool hg_policy_is_boolean_flag(const hg_policy *self, const char *flag) {
  return in_sorted(self->boolean_flags, self->n_boolean_flags, flag);
}

bool hg_policy_is_repeatable_flag(const hg_policy *self, const char *flag) {
  return in_sorted(self->repeatable_flags, self->n_repeatable_flags, flag);
}

bool hg_policy_list_has(char *const *list, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(list[i]) == len && !memcmp(list[i], name, len))
      return true;
  return false;
}

bool hg_policy_is_process_call(const hg_policy *self, const char *qualified) {
  return in_sorted(self->process_calls, self->n_process_calls, qualified);
}

bool hg_policy_is_partial_call(const hg_policy *self, const char *qualified) {
  return self && hg_policy_list_has(self->partial_calls, self->n_partial_calls, qualified, strlen(qualified));
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
