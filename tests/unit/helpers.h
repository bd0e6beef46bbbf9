/* Shared setup for the unit tests: the repository's own policy and a config with one builder. */
#ifndef HG_TEST_HELPERS_H
#define HG_TEST_HELPERS_H

#include "rules/config.h"
#include "rules/policy.h"

/** The requirement bits of rules/policy.yml, in policy order (hg_verdict.missing and friends). */
enum {
  NNP = 1 << 0,
  CAP = 1 << 1,
  NET = 1 << 2,
  RO = 1 << 3,
  MEM = 1 << 4,
  CPU = 1 << 5,
  PIDS = 1 << 6,
  ALL_REQ = 0x7F,
};

/** rules/policy.yml from the source tree, loaded; NULL (the reason printed) when it fails. */
hg_policy *hg_test_policy(void);
/** A config rooted at "." with one builder `module` exporting `callable`. Free with hg_config_free. */
hg_config *hg_test_config_with_builder(const char *module, const char *callable);

#endif
