/* Shared setup for the unit tests: the repository's own policy, a config with one builder, and a
 * small deterministic generator. */
#ifndef HG_TEST_HELPERS_H
#define HG_TEST_HELPERS_H

#include <stdint.h>

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

/** A number below `n` from the generator `*state` (xorshift64*, seeded non-zero): reproducible on
 *  every platform, so a failure names a case that can be re-run. */
uint32_t hg_test_rnd(uint64_t *state, uint32_t n);

#endif
