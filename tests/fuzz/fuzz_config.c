/* libFuzzer harness: the YAML loaders on arbitrary bytes, the repository config
 * (.hardguard.yml, hg_config_parse) and the policy (rules/policy.yml, hg_policy_load). A config
 * that loads is also asked about a few paths, which runs its exclude globs. */
#include <stdint.h>
#include <stdlib.h>

#include "rules/config.h"
#include "rules/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hg_error err;
  hg_config *config;
  if (hg_config_parse(&config, "./.hardguard.yml", (const char *)data, size, &err) == 0) {
    static const char *const paths[] = {"a.py", "./src/pkg/b.py", "vendor/x/y/z.py", "tests/.hidden/c.py", ""};
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) (void)hg_config_excludes(config, paths[i]);
    hg_config_free(config);
  }
  hg_policy *policy;
  if (hg_policy_load(&policy, "policy.yml", (const char *)data, size, &err) == 0) {
    pcre2_match_data *md = pcre2_match_data_create(16, NULL);
    // Every dialect's spellings, borrowed ones included (they are shared, not copied).
    for (size_t i = 0; i < policy->n_req; i++)
      for (size_t d = 0; d < policy->n_dialects; d++)
        for (size_t k = 0; k < policy->req[i].spell[d].n; k++) {
          (void)hg_matcher_value_ok(&policy->req[i].spell[d].m[k], "ALL", md);
          (void)hg_matcher_unlimited(&policy->req[i].spell[d].m[k], "0", md);
        }
    for (size_t r = 0; r < 12; r++) (void)hg_policy_site_dialect(policy, (int)r % 10, (int)r - 2);
    (void)hg_policy_is_boolean_flag(policy, "--read-only");
    (void)hg_policy_is_subcommand(policy, "run");
    pcre2_match_data_free(md);
    hg_policy_free(policy);
  }
  return 0;
}
