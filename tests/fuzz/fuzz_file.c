/* libFuzzer harness: the whole per-file pipeline. The bytes are one Python file; it goes through
 * the prefilter, the parse, extraction, resolution, evaluation and suppressions (hg_scan_bytes)
 * with the built-in rules, and every finding is freed. The first byte picks the config: an empty
 * one, or one with a builder, so that builder imports and calls are followed too. */
#include <stdint.h>
#include <stdlib.h>

#include "config.h"
#include "ruleset.h"
#include "scan.h"

static hg_ruleset *rules;
static hg_config *plain, *with_builder;

static const char CONFIG[] =
    "builders:\n"
    "  - module: sandbox.container_hardening\n"
    "    callables: [hardening_kwargs, hardening_argv, Hardening.kwargs]\n"
    "  - module: hardening\n"
    "    callables: [hardening_kwargs, hardening_argv]\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  hg_error err;
  if (hg_ruleset_load(&rules, NULL, &err) != 0 ||
      hg_config_parse(&with_builder, "./.hardguard.yml", CONFIG, sizeof(CONFIG) - 1, &err) != 0)
    abort();
  plain = hg_config_empty(".");
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const hg_config *config = size && (data[0] & 1) ? with_builder : plain;
  hg_scan_options opts = {.rules = rules, .config = config, .jobs = 1};
  hg_findings findings = {0};
  hg_file_errors errors = {0};
  hg_scan_bytes(&opts, "pkg/mod/input.py", (const char *)data, size, &findings, &errors);
  hg_findings_free(&findings);
  hg_file_errors_free(&errors);
  return 0;
}
