/* Loading the policy, shared by the files that read its parts (policy.c drives them): each loader
 * fills its part of `p` from the YAML, or returns -1 with `err` set. */
#ifndef HG_POLICY_LOAD_H
#define HG_POLICY_LOAD_H

#include "base/yamldoc.h"
#include "rules/policy.h"

// dialect.c
int hg_policy__load_dialects(hg_yaml *y, hg_policy *p, yaml_node_t *node, hg_error *err);
// spelling.c
int hg_policy__load_requirement(hg_yaml *y, const hg_policy *p, yaml_node_t *key, yaml_node_t *node, hg_requirement *r,
                                hg_error *err);
int hg_policy__load_forbidden(hg_yaml *y, const hg_policy *p, yaml_node_t *key, yaml_node_t *node, hg_forbidden *f,
                              hg_error *err);
void hg_policy__spellings_free(const hg_policy *p, hg_spelling *spell);
// cligrammar.c
int hg_policy__load_wrappers(hg_yaml *y, hg_policy *p, yaml_node_t *node, hg_error *err);
/** Sorts a list of names (strcmp order) that is then searched by halves: cli.boolean_flags,
 *  cli.repeatable_flags and cli.process_calls, whose order means nothing. */
void hg_policy__sort_names(char **v, size_t n);

#endif
