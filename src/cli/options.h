/* The command line's options: argv into hg_options, --help's text, and the usage errors. */
#ifndef HG_CLI_OPTIONS_H
#define HG_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "app/shard.h"
#include "report/report.h"

typedef enum { CMD_CHECK, CMD_LIST_RULES, CMD_EXPLAIN, CMD_HELP, CMD_VERSION } hg_cli_command;

typedef struct {
  hg_cli_command cmd;
  const hg_reporter *reporter;
  const char *config_path;
  const char *rules_dir;
  const char *explain;
  const char *diff_ref;        // --diff / --changed-since
  const char *baseline;        // --baseline
  const char *write_baseline;  // --write-baseline
  const char *config_from;     // --config-from: config, baseline and rules from this git commit
  hg_shard shard;              // --shard K/N (n 0: the whole run)
  unsigned jobs;
  bool audit, quiet;
  bool fix, show_fixes;  // --fix, --show-fixes
  bool strict;       // --strict: gate-relaxed warnings fail the run
  bool allow_empty;  // --allow-empty: excludes may leave nothing to check
  int color;  // -1 auto, 0 never, 1 always
  const char *const *paths;
  size_t n_paths;
} hg_options;

/** --help's text. */
extern const char hg_cli_usage[];
/** Parses argv into o (usage errors go to err): 0, or HG_EXIT_ERROR. */
int hg_cli_options(hg_options *o, int argc, char **argv, FILE *err);
/** Prints "hardguard: <fmt with arg>" and the pointer to --help on err; HG_EXIT_ERROR. */
int hg_cli_usage_error(FILE *err, const char *fmt, const char *arg);
/** The usage error for getopt's '?' at `arg`. */
int hg_cli_bad_option(FILE *err, const char *arg);

#endif
