#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "report.h"
#include "ruleset.h"
#include "scan.h"
#include "walk.h"

typedef enum { CMD_CHECK, CMD_LIST_RULES, CMD_EXPLAIN, CMD_HELP, CMD_VERSION } command;

typedef struct {
  command cmd;
  const hg_reporter *reporter;
  const char *config_path;
  const char *rules_dir;
  const char *explain;
  unsigned jobs;
  bool audit, quiet;
  int color;  // -1 auto, 0 never, 1 always
  const char *const *paths;
  size_t n_paths;
} hg_options;

static const char USAGE[] =
    "usage: hardguard [options] [PATH...]\n"
    "\n"
    "Finds every place Python code creates a Docker container or opens a Docker client and fails\n"
    "the sites that neither apply the shared hardening builder nor pass the full hardening flags.\n"
    "PATHs are files or directories (default: .).\n"
    "\n"
    "options:\n"
    "  --format FORMAT   output format: text (default), json\n"
    "  --audit           list every site with its verdict and how it is hardened\n"
    "  --config FILE     use FILE instead of the nearest .hardguard.yml\n"
    "  --rules DIR       use the rules in DIR (python/*.scm, python/facts/*.scm, policy.yml)\n"
    "  -j, --jobs N      worker threads (default: one per online core)\n"
    "  --color WHEN      auto (default), always, never; NO_COLOR=1 also turns colour off\n"
    "  -q, --quiet       findings only, no summary line\n"
    "  --list-rules      list the rules and site kinds\n"
    "  --explain RULE    what RULE checks, why, and how to fix it\n"
    "  --version, -h/--help\n"
    "\n"
    "exit status: 0 every site passes, 1 a site fails, 2 could not check (usage, configuration,\n"
    "unreadable input)\n";

static int usage_error(FILE *err, const char *fmt, const char *arg) {
  fputs("hardguard: ", err);
  fprintf(err, fmt, arg);
  fputs("\nTry 'hardguard --help'.\n", err);
  return HG_EXIT_ERROR;
}

static int parse_args(hg_options *o, int argc, char **argv, FILE *err) {
  enum { OPT_FORMAT = 256, OPT_AUDIT, OPT_CONFIG, OPT_RULES, OPT_COLOR, OPT_LIST_RULES, OPT_EXPLAIN, OPT_VERSION };
  static const struct option longs[] = {
      {"format", required_argument, NULL, OPT_FORMAT}, {"audit", no_argument, NULL, OPT_AUDIT},
      {"config", required_argument, NULL, OPT_CONFIG}, {"rules", required_argument, NULL, OPT_RULES},
      {"jobs", required_argument, NULL, 'j'},          {"color", required_argument, NULL, OPT_COLOR},
      {"quiet", no_argument, NULL, 'q'},               {"list-rules", no_argument, NULL, OPT_LIST_RULES},
      {"explain", required_argument, NULL, OPT_EXPLAIN}, {"version", no_argument, NULL, OPT_VERSION},
      {"help", no_argument, NULL, 'h'},                {0, 0, 0, 0},
  };
  *o = (hg_options){.cmd = CMD_CHECK, .reporter = &hg_reporter_text, .color = -1};
  optind = 0;  // reset getopt (glibc: 0 also re-reads GNU extensions), so tests can call twice
  opterr = 0;
  int ch;
  while ((ch = getopt_long(argc, argv, "+j:qh", longs, NULL)) != -1) {
    switch (ch) {
    case OPT_FORMAT:
      if (!(o->reporter = hg_reporter_find(optarg)))
        return usage_error(err, "unknown format '%s' (expected text or json)", optarg);
      break;
    case OPT_AUDIT: o->audit = true; break;
    case OPT_CONFIG: o->config_path = optarg; break;
    case OPT_RULES: o->rules_dir = optarg; break;
    case 'j': {
      char *end;
      long n = strtol(optarg, &end, 10);
      if (*optarg == '\0' || *end != '\0' || n < 1 || n > 256)
        return usage_error(err, "--jobs expects a number from 1 to 256, got '%s'", optarg);
      o->jobs = (unsigned)n;
      break;
    }
    case OPT_COLOR:
      if (!strcmp(optarg, "auto")) o->color = -1;
      else if (!strcmp(optarg, "always")) o->color = 1;
      else if (!strcmp(optarg, "never")) o->color = 0;
      else return usage_error(err, "--color expects auto, always or never, got '%s'", optarg);
      break;
    case 'q': o->quiet = true; break;
    case OPT_LIST_RULES: o->cmd = CMD_LIST_RULES; break;
    case OPT_EXPLAIN: o->cmd = CMD_EXPLAIN; o->explain = optarg; break;
    case OPT_VERSION: o->cmd = CMD_VERSION; break;
    case 'h': o->cmd = CMD_HELP; break;
    case ':': return usage_error(err, "option '%s' needs a value", argv[optind - 1]);
    default: return usage_error(err, "unknown option '%s'", argv[optind - 1]);
    }
  }
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

static int list_rules(const hg_ruleset *rules, FILE *out) {
  fputs("rules:\n", out);
  for (size_t i = 0; i < HG_RULE_COUNT; i++) fprintf(out, "  %-24s %s\n", hg_rules[i].id, hg_rules[i].summary);
  const char *const *kinds;
  size_t n = hg_ruleset_kinds(rules, &kinds);
  fputs("site kinds:\n", out);
  for (size_t i = 0; i < n; i++) fprintf(out, "  %s\n", kinds[i]);
  const hg_policy *p = hg_ruleset_policy(rules);
  fputs("requirements:\n", out);
  for (size_t i = 0; i < p->n_req; i++) fprintf(out, "  %-24s %s\n", p->req[i].id, p->req[i].summary);
  const char *pre = hg_ruleset_prefilter_source(rules);
  fprintf(out, "prefilter: %s\n", *pre ? pre : "off (a site pattern has no literal)");
  return HG_EXIT_CLEAN;
}

static int explain(const char *id, FILE *out, FILE *err) {
  const hg_rule *r = hg_rule_find(id);
  if (!r) return usage_error(err, "unknown rule '%s' (see --list-rules)", id);
  fprintf(out, "%s: %s\n\nWhat it checks\n  %s\n\nWhy it matters\n  %s\n\nHow to fix\n  %s\n\n", r->id, r->summary,
          r->what, r->why, r->fix);
  fprintf(out, "Fails\n  %s\n\nPasses\n  %s\n", r->example_fail, r->example_pass);
  return HG_EXIT_CLEAN;
}

static int check(const hg_options *o, const hg_ruleset *rules, FILE *out, FILE *err) {
  hg_error e;
  hg_config *config = NULL;
  int rc = o->config_path ? hg_config_load(&config, o->config_path, &e) : hg_config_discover(&config, o->paths[0], &e);
  if (rc != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
    return HG_EXIT_ERROR;
  }
  hg_paths files = {0};
  hg_findings findings = {0};
  hg_file_errors errors = {0};
  hg_scan_stats stats = {0};
  hg_walk(o->paths, o->n_paths, config, &files, &errors);
  hg_scan_options so = {.rules = rules, .config = config, .jobs = o->jobs};
  if (hg_scan(&so, files.items, files.len, &findings, &errors, &stats, &e) != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
    rc = HG_EXIT_ERROR;
  } else {
    bool color = o->color == 1 || (o->color == -1 && !getenv("NO_COLOR") && isatty(fileno(out)));
    hg_report_input in = {.out = out, .color = color, .audit = o->audit, .quiet = o->quiet,
                          .findings = &findings, .errors = &errors, .stats = &stats};
    hg_report(o->reporter, &in);
    rc = stats.failing ? HG_EXIT_FINDINGS : HG_EXIT_CLEAN;
    for (size_t i = 0; i < errors.len; i++)
      if (errors.items[i].kind == HG_FILE_UNREADABLE) rc = HG_EXIT_ERROR;
  }
  fflush(out);
  hg_paths_free(&files);
  hg_findings_free(&findings);
  hg_file_errors_free(&errors);
  hg_config_free(config);
  return rc;
}

int hg_cli_main(int argc, char **argv, FILE *out, FILE *err) {
  hg_options o;
  int rc = parse_args(&o, argc, argv, err);
  if (rc != 0) return rc;
  if (o.cmd == CMD_HELP) {
    fputs(USAGE, out);
    return HG_EXIT_CLEAN;
  }
  if (o.cmd == CMD_VERSION) {
    fprintf(out, "hardguard %s\n", HG_VERSION);
    return HG_EXIT_CLEAN;
  }
  if (o.cmd == CMD_EXPLAIN) return explain(o.explain, out, err);
  hg_ruleset *rules;
  hg_error e;
  if (hg_ruleset_load(&rules, o.rules_dir, &e) != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
    return HG_EXIT_ERROR;
  }
  rc = o.cmd == CMD_LIST_RULES ? list_rules(rules, out) : check(&o, rules, out, err);
  hg_ruleset_free(rules);
  return rc;
}
