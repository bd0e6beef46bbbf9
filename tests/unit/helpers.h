/* Shared setup for the unit tests: the repository's own policy and a config with one builder. */
#ifndef HG_TEST_HELPERS_H
#define HG_TEST_HELPERS_H

#include "config.h"
#include "policy.h"

/** rules/policy.yml from the source tree, loaded; NULL (the reason printed) when it fails. */
hg_policy *hg_test_policy(void);
/** A config rooted at "." with one builder `module` exporting `callable`. Free with hg_config_free. */
hg_config *hg_test_config_with_builder(const char *module, const char *callable);

#endif
