/* The checks the walk asks before it tries a pattern at a node (walk.h's gate), made once per
 * compiled rules from the patterns' predicates: each predicate that can be decided on one node
 * (hg_predicates_node_tests) whose capture stands in a place known before the pattern is matched
 * (hg_dispatch_capture_place), and each that reads the file. A pattern's file tests come first,
 * then its places from the nearest; checks asking the same test of the same place share a key. */
#ifndef HG_RULES_CHECKS_H
#define HG_RULES_CHECKS_H

#include <stdint.h>

#include "rules/pattern.h"
#include "rules/walk.h"

/** The checks of the `n` patterns (as set up by hg_pattern_setup) of the shapes `d` was built on. */
void hg_checks_build(hg_checks *out, const hg_dispatch *d, const hg_pattern *patterns, uint32_t n);
void hg_checks_free(hg_checks *self);

#endif
