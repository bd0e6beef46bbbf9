#include "cli/init.h"

#include <getopt.h>
#include <string.h>

#include "app/init.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "rules/ruleset.h"

static const char INIT_USAGE[] =
    "usage: hardguard init [--module PKG.MODULE] [--rules DIR] [DIR]\n"
    "\n"
    "Writes the project's hardening builder into DIR (default: .): a module whose functions yield\n"
    "the policy's full hardening set, and a .hardguard.yml naming them. Without --module, the module\n"
    "goes into the project's one package (under src/ or at the top), else at the top. Writes only\n"
    "new files: when one exists, nothing is written (exit 2).\n";

// hardguard init [--module M] [--rules DIR] [DIR]
int hg_cli_init(int argc, char **argv, FILE *out, FILE *err) {
  enum { OPT_MODULE = 256, OPT_RULES };
  static const struct option longs[] = {
      {"module", required_argument, NULL, OPT_MODULE},
      {"rules", required_argument, NULL, OPT_RULES},
      {"help", no_argument, NULL, 'h'},
      {0, 0, 0, 0},
  };
  const char *module = NULL, *rules_dir = NULL;
  optind = 0;
  opterr = 0;
  int ch;
  while ((ch = getopt_long(argc, argv, "+:h", longs, NULL)) != -1) {
    switch (ch) {
    case OPT_MODULE: module = optarg; break;
    case OPT_RULES: rules_dir = optarg; break;
    case 'h': fputs(INIT_USAGE, out); return HG_EXIT_CLEAN;
    case ':': return hg_cli_usage_error(err, "option '%s' needs a value", argv[optind - 1]);
    default: return hg_cli_bad_option(err, argv[optind - 1]);
    }
  }
  if (argc - optind > 1) return hg_cli_usage_error(err, "init takes one directory, got also '%s'", argv[optind + 1]);
  const char *dir = optind < argc ? argv[optind] : ".";
  hg_ruleset *rules;
  hg_error e;
  if (hg_ruleset_load(&rules, rules_dir, &e) != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
    return HG_EXIT_ERROR;
  }
  hg_init_result r;
  int rc = hg_init_run(&r, hg_ruleset_policy(rules), dir, module, &e);
  if (rc != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
  } else {
    for (size_t i = 0; i < r.n_created; i++) fprintf(out, "wrote %s\n", r.created[i]);
    fprintf(out, "hardguard: the builder is %s; apply it at each site with `hardguard --fix`\n", r.module);
  }
  hg_init_result_free(&r);
  hg_ruleset_free(rules);
  return rc ? HG_EXIT_ERROR : HG_EXIT_CLEAN;
}
