#include "cli/options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const char hg_cli_usage[] =
    "usage: hardguard [options] [PATH...]\n"
    "\n"
    "Finds every place that creates a container or opens a Docker client, in Python, shell scripts,\n"
    "Makefiles, CI steps (GitHub Actions, GitLab CI) and compose files, and fails the sites that\n"
    "neither apply the shared hardening builder nor pass the full hardening flags.\n"
    "PATHs are files or directories (default: .).\n"
    "\n"
    "options:\n"
    "  --format FORMAT        text (default), json, sarif (code scanning), github (workflow\n"
    "                         annotations), markdown (the audit, for an issue or pull request),\n"
    "                         html (the audit as a self-contained page)\n"
    "  --audit                list every site with its verdict and how it is hardened\n"
    "  --diff REF             judge only the files changed since git commit REF (committed,\n"
    "                         staged, unstaged or untracked); alias --changed-since REF\n"
    "  --baseline FILE        fail only on findings FILE does not list; report its stale entries\n"
    "  --write-baseline FILE  record the failing findings in FILE and exit 0\n"
    "  --fix                  apply the configured builder at the failing sites it can fix (in a\n"
    "                         shell script: add the missing flags), then report what is left\n"
    "  --show-fixes           with --fix: print the fixes as a unified diff (with --format sarif: as\n"
    "                         the results' fixes) and write nothing\n"
    "  --config FILE          use FILE instead of the nearest .hardguard.yml\n"
    "  --rules DIR            use the rules in DIR (<surface>/*.scm, <surface>/facts/*.scm, policy.yml)\n"
    "  --config-from REF      read the config, the --baseline file and the --rules directory from\n"
    "                         git commit REF (e.g. the target branch) instead of the work tree\n"
    "  --strict               with --diff, a change that relaxes the gate (gate-relaxed) fails;\n"
    "                         a file named as a PATH that no surface reads exits 2 (it was not\n"
    "                         checked; without --strict it is said on stderr and skipped)\n"
    "  --shard K/N            judge only the files whose path hashes to shard K of N (1 <= K <= N),\n"
    "                         so that N CI jobs share a tree; their reports add up to the whole\n"
    "  --allow-empty          pass when the config's excludes leave no file to check\n"
    "  -j, --jobs N           worker threads (default: one per online core)\n"
    "  --color WHEN           auto (default), always, never; NO_COLOR=1 also turns colour off\n"
    "  -q, --quiet            findings only: no summary line, no stale-baseline warnings\n"
    "  --list-rules           list the rules and site kinds\n"
    "  init [DIR]             write a hardening builder and a .hardguard.yml (hardguard init --help)\n"
    "  --explain RULE         what RULE checks, why, how to fix it, with examples\n"
    "  --version, -h/--help\n"
    "\n"
    "exit status: 0 every site passes, 1 a site fails, 2 could not check (usage, configuration,\n"
    "unreadable input, unwritable output)\n";

int hg_cli_usage_error(FILE *err, const char *fmt, const char *arg) {
  fputs("hardguard: ", err);
  fprintf(err, fmt, arg);
  fputs("\nTry 'hardguard --help'.\n", err);
  return HG_EXIT_ERROR;
}

// getopt's '?': an unknown short option inside a cluster (-qz), a long option given a value it
// does not take (--audit=x), or an unknown option.
int hg_cli_bad_option(FILE *err, const char *arg) {
  const char *eq = strchr(arg, '=');
  if (arg[0] == '-' && arg[1] == '-' && eq && optopt != 0) {
    fprintf(err, "hardguard: option '%.*s' takes no value\nTry 'hardguard --help'.\n", (int)(eq - arg), arg);
    return HG_EXIT_ERROR;
  }
  // A short option, alone or in a cluster whose rest getopt has not passed yet (-x.py: `arg` is
  // then the argument before it).
  if (optopt > 0 && optopt < 256 && !(arg[0] == '-' && arg[1] == '-')) {
    char opt[3] = {'-', (char)optopt, '\0'};
    return hg_cli_usage_error(err, "unknown option '%s'", opt);
  }
  return hg_cli_usage_error(err, "unknown option '%s'", arg);
}

int hg_cli_options(hg_options *o, int argc, char **argv, FILE *err) {
  enum {
    OPT_FORMAT = 256, OPT_AUDIT, OPT_CONFIG, OPT_RULES, OPT_COLOR, OPT_LIST_RULES, OPT_EXPLAIN, OPT_VERSION,
    OPT_DIFF, OPT_BASELINE, OPT_WRITE_BASELINE, OPT_CONFIG_FROM, OPT_STRICT, OPT_ALLOW_EMPTY, OPT_FIX,
    OPT_SHOW_FIXES, OPT_SHARD,
  };
  static const struct option longs[] = {
      {"format", required_argument, NULL, OPT_FORMAT},
      {"audit", no_argument, NULL, OPT_AUDIT},
      {"diff", required_argument, NULL, OPT_DIFF},
      {"changed-since", required_argument, NULL, OPT_DIFF},
      {"baseline", required_argument, NULL, OPT_BASELINE},
      {"write-baseline", required_argument, NULL, OPT_WRITE_BASELINE},
      {"fix", no_argument, NULL, OPT_FIX},
      {"show-fixes", no_argument, NULL, OPT_SHOW_FIXES},
      {"config", required_argument, NULL, OPT_CONFIG},
      {"rules", required_argument, NULL, OPT_RULES},
      {"config-from", required_argument, NULL, OPT_CONFIG_FROM},
      {"strict", no_argument, NULL, OPT_STRICT},
      {"allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY},
      {"shard", required_argument, NULL, OPT_SHARD},
      {"jobs", required_argument, NULL, 'j'},
      {"color", required_argument, NULL, OPT_COLOR},
      {"quiet", no_argument, NULL, 'q'},
      {"list-rules", no_argument, NULL, OPT_LIST_RULES},
      {"explain", required_argument, NULL, OPT_EXPLAIN},
      {"version", no_argument, NULL, OPT_VERSION},
      {"help", no_argument, NULL, 'h'},
      {0, 0, 0, 0},
  };
  *o = (hg_options){.cmd = CMD_CHECK, .reporter = &hg_reporter_text, .color = -1};
  optind = 0;  // reset getopt (glibc: 0 also re-reads GNU extensions), so tests can call twice
  opterr = 0;
  int ch;
  // '+': stop at the first path; ':': a missing value is reported as such, not as unknown.
  while ((ch = getopt_long(argc, argv, "+:j:qh", longs, NULL)) != -1) {
    switch (ch) {
    case OPT_FORMAT:
      if (!(o->reporter = hg_reporter_find(optarg))) {
        fprintf(err, "hardguard: unknown format '%s' (expected one of %s)\nTry 'hardguard --help'.\n", optarg,
                hg_reporter_names());
        return HG_EXIT_ERROR;
      }
      break;
    case OPT_AUDIT: o->audit = true; break;
    case OPT_DIFF:
    case OPT_CONFIG_FROM:
      // A ref that starts with '-' is an option git would act on (or the next option, swallowed).
      if (optarg[0] == '-' || optarg[0] == '\0')
        return hg_cli_usage_error(err,
                           ch == OPT_DIFF ? "--diff expects a git commit (a branch, tag or hash), got '%s'"
                                          : "--config-from expects a git commit (a branch, tag or hash), got '%s'",
                           optarg);
      *(ch == OPT_DIFF ? &o->diff_ref : &o->config_from) = optarg;
      break;
    case OPT_BASELINE: o->baseline = optarg; break;
    case OPT_WRITE_BASELINE: o->write_baseline = optarg; break;
    case OPT_FIX: o->fix = true; break;
    case OPT_SHOW_FIXES: o->show_fixes = true; break;
    case OPT_CONFIG: o->config_path = optarg; break;
    case OPT_RULES: o->rules_dir = optarg; break;
    case OPT_STRICT: o->strict = true; break;
    case OPT_ALLOW_EMPTY: o->allow_empty = true; break;
    case OPT_SHARD:
      if (!hg_shard_parse(optarg, &o->shard))
        return hg_cli_usage_error(err, "--shard expects K/N, shard K of N with 1 <= K <= N <= 4096 (e.g. 2/4), got '%s'",
                                  optarg);
      break;
    case 'j': {
      char *end;
      long n = strtol(optarg, &end, 10);
      if (*optarg == '\0' || *end != '\0' || n < 1 || n > 256)
        return hg_cli_usage_error(err, "--jobs expects a number from 1 to 256, got '%s'", optarg);
      o->jobs = (unsigned)n;
      break;
    }
    case OPT_COLOR:
      if (!strcmp(optarg, "auto")) o->color = -1;
      else if (!strcmp(optarg, "always")) o->color = 1;
      else if (!strcmp(optarg, "never")) o->color = 0;
      else return hg_cli_usage_error(err, "--color expects auto, always or never, got '%s'", optarg);
      break;
    case 'q': o->quiet = true; break;
    case OPT_LIST_RULES: o->cmd = CMD_LIST_RULES; break;
    case OPT_EXPLAIN: o->cmd = CMD_EXPLAIN; o->explain = optarg; break;
    case OPT_VERSION: o->cmd = CMD_VERSION; break;
    case 'h': o->cmd = CMD_HELP; break;
    case ':': return hg_cli_usage_error(err, "option '%s' needs a value", argv[optind - 1]);
    default: return hg_cli_bad_option(err, argv[optind - 1]);
    }
  }
  if (o->write_baseline && o->diff_ref)
    return hg_cli_usage_error(err, "%s", "--write-baseline records a whole run; it cannot be combined with --diff");
  if (o->write_baseline && o->shard.n)
    return hg_cli_usage_error(err, "%s", "--write-baseline records a whole run; it cannot be combined with --shard");
  if (o->show_fixes && !o->fix) return hg_cli_usage_error(err, "%s", "--show-fixes goes with --fix");
  if (o->fix && o->write_baseline)
    return hg_cli_usage_error(err, "%s", "--fix and --write-baseline: fix first, then record the rest");
  static const char *const here[] = {"."};
  if (optind < argc) {
    o->paths = (const char *const *)argv + optind;
    o->n_paths = (size_t)(argc - optind);
  } else {
    o->paths = here;
    o->n_paths = 1;
  }
  return 0;
}

int hg_cli_parse(int argc, char **argv, FILE *err) {
  hg_options o;
  return hg_cli_options(&o, argc, argv, err);
}
