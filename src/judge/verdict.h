/* The verdict on one site: does it apply a configured builder, or carry every requirement of the
 * policy literally, and if not, which rule does it fail and what is missing. Pure: reads an
 * hg_site, the policy and the config, never tree-sitter. */
#ifndef HG_EVALUATE_H
#define HG_EVALUATE_H

#include "rules/config.h"
#include "judge/finding.h"
#include "rules/policy.h"
#include "model/site.h"

typedef struct {
  hg_rule_id rule;  // HG_RULE_NONE when the site passes; else the first failing rule
  uint32_t also;    // bit r: rule r fails too (weakening-option comes with whatever else fails)
  hg_via via;
  uint64_t missing;  // bit i: policy requirement i is not guaranteed
  uint64_t relaxed;  // bit i: requirement i was missing and an allow[...] marker relaxed it
  char *message;     // heap: why it fails, or how it passes
  char *fix;         // heap; NULL when the site passes
  hg_effect *effective;  // heap, one block: what reached the site per requirement and forbidden option
  size_t n_effective;
  hg_related *related;  // heap: the calls of the calling contexts that fail (finding.h)
  size_t n_related;
  bool at_callers;      // the fix is the callers' to make: they hand the site its options
} hg_verdict;

/** Judges `site`. `md` is the calling thread's pcre2 match data. Free with hg_verdict_clear. */
void hg_evaluate(hg_verdict *out, const hg_policy *policy, const hg_config *config, const hg_site *site,
                 pcre2_match_data *md);
void hg_verdict_clear(hg_verdict *self);

#endif
