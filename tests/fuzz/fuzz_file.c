/* libFuzzer harness: the whole per-file pipeline. The bytes are one Python file; it goes through
 * the prefilter, the parse, extraction, resolution (with the project stage: a small project of
 * builder modules written at start to a temporary directory, or to $HG_FUZZ_PROJECT_DIR), evaluation and suppressions
 * (hg_scan_bytes) with the built-in rules, and every finding is freed. The first byte picks the
 * config: an empty one, or one with builders, so that builder imports and calls are followed too. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules/config.h"
#include "app/project.h"
#include "rules/ruleset.h"
#include "app/scan.h"

static hg_ruleset *rules;
static hg_config *plain, *with_builder;
static hg_projects *plain_index, *builder_index;
static char dir[64] = "/tmp/hg-fuzz-project-XXXXXX", input_path[128];

// The project the fuzzed file belongs to: builders that a generated file can import and call,
// with parameters, a dataclass, a condition on an attribute and a constant.
static const char BUILDERS[] =
    "from dataclasses import dataclass\n"
    "BASE = {'pids_limit': 64, 'mem_limit': '512m'}\n"
    "def hardening_kwargs(network='none', **extra):\n"
    "    kw = {**BASE, 'network_mode': network, 'read_only': True, 'nano_cpus': 10}\n"
    "    kw.update(security_opt=['no-new-privileges'], cap_drop=['ALL'])\n"
    "    kw.update(extra)\n"
    "    return kw\n"
    "def hardening_argv():\n"
    "    return ['--network', 'none', '--read-only', '--memory', '1g', '--cpus', '1', '--pids-limit', '64',\n"
    "            '--security-opt', 'no-new-privileges', '--cap-drop', 'ALL']\n"
    "@dataclass\n"
    "class Hardening:\n"
    "    strict: bool = False\n"
    "    def kwargs(self):\n"
    "        kw = hardening_kwargs()\n"
    "        if not self.strict:\n"
    "            kw.pop('cap_drop')\n"
    "        return kw\n";

static void put(const char *rel, const char *text) {
  char path[256];
  snprintf(path, sizeof(path), "%s/%s", dir, rel);
  char *slash = strrchr(path, '/');
  *slash = '\0';
  mkdir(path, 0755);
  *slash = '/';
  FILE *f = fopen(path, "w");
  if (!f) abort();
  fputs(text, f);
  fclose(f);
}

static const char CONFIG[] =
    "builders:\n"
    "  - module: sandbox.container_hardening\n"
    "    callables: [hardening_kwargs, hardening_argv, Hardening.kwargs]\n"
    "  - module: hardening\n"
    "    callables: [hardening_kwargs, hardening_argv]\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  hg_error err;
  // A random name would reach the fuzzer (through the string comparisons it watches) and change
  // what a run with a fixed -seed tries: the reproducible runs of tests/fuzz/run.sh name the
  // directory themselves.
  const char *fixed = getenv("HG_FUZZ_PROJECT_DIR");
  if (fixed && *fixed) {
    if (snprintf(dir, sizeof(dir), "%s", fixed) >= (int)sizeof(dir) || (mkdir(dir, 0755) != 0 && errno != EEXIST))
      abort();
  } else if (!mkdtemp(dir)) {
    abort();
  }
  put("sandbox/container_hardening.py", BUILDERS);
  put("hardening.py", "from sandbox.container_hardening import hardening_kwargs, hardening_argv\n");
  char config_path[128];
  snprintf(config_path, sizeof(config_path), "%s/.hardguard.yml", dir);
  snprintf(input_path, sizeof(input_path), "%s/pkg/mod/input.py", dir);
  if (hg_ruleset_load(&rules, NULL, &err) != 0 ||
      hg_config_parse(&with_builder, config_path, CONFIG, sizeof(CONFIG) - 1, &err) != 0)
    abort();
  plain = hg_config_empty(dir);
  plain_index = hg_projects_new(rules, plain, dir);
  builder_index = hg_projects_new(rules, with_builder, dir);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bool builders = size && (data[0] & 1);
  hg_scan_options opts = {.rules = rules, .config = builders ? with_builder : plain,
                          .projects = builders ? builder_index : plain_index, .jobs = 1};
  hg_findings findings = {0};
  hg_file_errors errors = {0};
  hg_scan_bytes(&opts, input_path, (const char *)data, size, &findings, &errors);
  hg_findings_free(&findings);
  hg_file_errors_free(&errors);
  return 0;
}
