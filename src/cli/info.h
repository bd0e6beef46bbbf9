/* What hardguard knows, printed: --list-rules (rules, site kinds, requirements, surfaces and
 * their prefilters) and --explain RULE. */
#ifndef HG_CLI_INFO_H
#define HG_CLI_INFO_H

#include <stdio.h>

#include "rules/ruleset.h"

int hg_cli_list_rules(const hg_ruleset *rules, FILE *out);
/** What rule `id` checks, why, how to fix it, with examples; a usage error for an unknown id. */
int hg_cli_explain(const char *id, FILE *out, FILE *err);

#endif
