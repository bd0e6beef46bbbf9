/* libFuzzer harness: the whole per-file pipeline for the surfaces other than Python. The first
 * byte picks the surface by the file's name (a shell script, a Makefile, a GitHub workflow, a
 * GitLab CI file) or by its content (a YAML file that may be a compose file); the rest is the file. It goes through the prefilter, the parse (tree-sitter-bash,
 * tree-sitter-make or libyaml, and the shell code embedded in Makefile recipes and CI steps),
 * extraction, evaluation and suppressions (hg_scan_bytes) with the built-in rules, and every
 * finding is freed. */
#include <stdint.h>
#include <stdlib.h>

#include "rules/config.h"
#include "rules/ruleset.h"
#include "app/scan.h"

static hg_ruleset *rules;
static hg_config *config;

// Byte 4 picks a YAML file no surface names, read as compose when its content is one (the
// surface row's `claims`); bytes 5 and up the files named below (devcontainer, Quadlet, Go ...);
// any other byte picks as its two low bits say.
static const char *const PATHS[] = {"scripts/run.sh", "Makefile", ".github/workflows/ci.yml", ".gitlab-ci.yml",
                                    "deploy/stack.yml", ".devcontainer/devcontainer.json",
                                    "deploy/sandbox.container", "cmd/sandbox/main.go", "src/sandbox.ts"};
static const size_t N_PATHS = sizeof(PATHS) / sizeof(PATHS[0]);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  hg_error err;
  if (hg_ruleset_load(&rules, NULL, &err) != 0)
    abort();
  config = hg_config_empty(".");
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  hg_scan_options opts = {.rules = rules, .config = config, .jobs = 1};
  hg_findings findings = {0};
  hg_file_errors errors = {0};
  hg_scan_bytes(&opts, PATHS[data[0] >= 4 && data[0] < N_PATHS ? data[0] : data[0] & 3], (const char *)data + 1, size - 1, &findings, &errors);
  hg_findings_free(&findings);
  hg_file_errors_free(&errors);
  return 0;
}
