#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/path.h"
#include "base/spare.h"
#include "app/baseline.h"
#include "app/configref.h"
#include "app/fix.h"
#include "app/gate.h"
#include "app/project.h"
#include "app/repo.h"
#include "app/scan.h"
#include "app/shard.h"
#include "app/walk.h"
#include "cli/info.h"
#include "cli/init.h"
#include "cli/options.h"
#include "report/report.h"
#include "rules/config.h"
#include "rules/ruleset.h"

// Keeps the files git reports changed since the ref; frees the others.
static int keep_changed(hg_repo *repo, const char *ref, hg_paths *files, hg_error *e) {
  hg_strings changed = {0};
  if (hg_repo_changed(repo, ref, &changed, e) != 0) return -1;
  size_t w = 0;
  for (size_t i = 0; i < files->len; i++) {
    char *rel = hg_repo_relpath(repo, files->items[i]);
    if (hg_strings_contains(&changed, rel)) files->items[w++] = files->items[i];
    else free(files->items[i]);
    free(rel);
  }
  files->len = w;
  hg_strvec_free(&changed);
  return 0;
}

typedef struct {
  hg_baseline entries;   // sorted by hg_baseline_match
  bool *baselined;       // per finding
  const hg_baseline_entry **stale;
  size_t n_stale;
} baseline_result;

static bool under(const char *path, const char *dir) {
  return !strcmp(dir, ".") || !strcmp(path, dir) || hg_path_below(path, dir, strlen(dir));
}

// Which baseline entries this run could have matched: those of files it scanned, and of files
// that are gone from under the paths it was given. Entries of files outside the run (other paths,
// unchanged files with --diff, excluded or unreadable files) are neither matched nor stale.
static bool in_scope(const hg_baseline_entry *e, const hg_strings *scanned, char *const *args, size_t n_args,
                     const char *root) {
  if (hg_strings_contains(scanned, e->path)) return true;
  bool below = false;
  for (size_t i = 0; i < n_args && !below; i++) below = under(e->path, args[i]);
  if (!below) return false;
  char *abs = e->path[0] == '/' ? hg_xstrdup(e->path) : hg_xasprintf("%s/%s", root, e->path);
  struct stat st;
  bool gone = lstat(abs, &st) != 0 && errno == ENOENT;
  free(abs);
  return gone;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// The baseline entries (sorted) that no finding used and that the run could have matched.
static void find_stale(baseline_result *b, const hg_options *o, hg_repo *repo, const hg_paths *files,
                       const hg_file_errors *errors, const bool *used) {
  hg_strings scanned = {0};
  for (size_t i = 0; i < files->len; i++) {
    bool unreadable = false;
    for (size_t k = 0; k < errors->len && !unreadable; k++)
      unreadable = errors->items[k].kind == HG_FILE_UNREADABLE && !strcmp(errors->items[k].path, files->items[i]);
    if (!unreadable) HG_VEC_PUSH(&scanned, hg_repo_relpath(repo, files->items[i]));
  }
  if (scanned.len) qsort(scanned.items, scanned.len, sizeof(char *), cmp_str);
  char **args = hg_xcalloc(o->n_paths, sizeof(char *));
  for (size_t i = 0; i < o->n_paths; i++) args[i] = hg_repo_relpath(repo, o->paths[i]);
  b->stale = hg_xcalloc(b->entries.len, sizeof(hg_baseline_entry *));
  for (size_t j = 0; j < b->entries.len; j++)
    if (!used[j] && hg_shard_holds(&o->shard, b->entries.items[j].path) &&
        in_scope(&b->entries.items[j], &scanned, args, o->n_paths, hg_repo_root(repo)))
      b->stale[b->n_stale++] = &b->entries.items[j];
  // Stale entries in the order they stand in the file.
  for (size_t i = 1; i < b->n_stale; i++)
    for (size_t k = i; k > 0 && b->stale[k - 1]->line > b->stale[k]->line; k--) {
      const hg_baseline_entry *t = b->stale[k];
      b->stale[k] = b->stale[k - 1];
      b->stale[k - 1] = t;
    }
  hg_strv_free(args, o->n_paths);
  hg_strvec_free(&scanned);
}

static void apply_baseline(baseline_result *b, const hg_options *o, hg_repo *repo, const hg_paths *files,
                           const hg_file_errors *errors, const hg_findings *findings, const char *const *relpaths) {
  b->baselined = hg_xcalloc(findings->len + 1, sizeof(bool));
  bool *used = hg_xcalloc(b->entries.len + 1, sizeof(bool));
  hg_baseline_match(&b->entries, findings, relpaths, b->baselined, used);
  find_stale(b, o, repo, files, errors, used);
  free(used);
}

// A reported run's exit status: unreadable paths, else failing findings (those the baseline does
// not accept) or gate-relaxed warnings under --strict, else clean.
static int exit_status(size_t failing, const hg_report_input *in, const hg_file_errors *errors) {
  for (size_t i = 0; i < errors->len; i++)
    if (errors->items[i].kind == HG_FILE_UNREADABLE) return HG_EXIT_ERROR;
  return failing || hg_report_gate_fails(in) ? HG_EXIT_FINDINGS : HG_EXIT_CLEAN;
}

// The scan feeds the reporter file by file (hg_report_stream), so that memory holds the files in
// flight, not every finding: a run without --fix or --write-baseline, in a format that streams.
static int scan_streaming(const hg_options *o, const hg_scan_options *so, const hg_report_input *in,
                          baseline_result *base, hg_paths *files, hg_file_errors *errors, hg_scan_stats *stats,
                          FILE *err) {
  hg_report_stream rs;
  if (o->baseline) hg_baseline_sort(&base->entries);
  hg_report_stream_begin(&rs, o->reporter, in, o->baseline ? &base->entries : NULL);
  hg_scan_options with_sink = *so;
  with_sink.sink = hg_report_stream_file;
  with_sink.sink_ctx = &rs;
  hg_error e;
  int rc = 0;
  if (hg_scan(&with_sink, files->items, files->len, NULL, errors, stats, &e) != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
    rc = HG_EXIT_ERROR;
  }
  if (o->baseline) find_stale(base, o, in->repo, files, errors, rs.used);
  size_t accepted = rs.baselined;
  hg_report_stream_end(&rs, stats, errors, base->stale, base->n_stale);
  return rc ? rc : exit_status(stats->failing - accepted, &rs.in, errors);
}

// --fix: fixes what the findings allow (fix/apply.h), says what became of each failing site on
// err, and, when files changed, scans them all again so that the report shows what is left.
// --show-fixes prints the diff on `out` instead and writes nothing. HG_EXIT_ERROR when a file with
// fixes was left untouched (a symlink, read-only, changed on disk, failing its re-check).
static int fix(const hg_options *o, const hg_ruleset *rules, const hg_config *config, hg_projects **projects,
               const hg_walk_claims *claims, hg_paths *files, hg_findings *findings, hg_file_errors *errors, hg_scan_stats *stats,
               hg_fix_report *fr, FILE *out, FILE *err) {
  hg_findings_sort(findings);
  hg_fix_options fo = {.rules = rules, .config = config, .projects = *projects,
                       .root = config->path ? config->root : ".", .start = o->paths[0],
                       .dry_run = o->show_fixes};
  hg_error e;
  if (hg_fix_run(fr, &fo, findings, &e) != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
    return HG_EXIT_ERROR;
  }
  for (size_t i = 0; i < fr->outcomes.len; i++) {
    const hg_fix_outcome *oc = &fr->outcomes.items[i];
    const char *what = oc->status == HG_FIX_FIXED      ? (o->show_fixes ? "fixable" : "fixed")
                       : oc->status == HG_FIX_RESOLVED ? "resolved"
                                                       : "not fixed";
    fprintf(err, "%s:%u:%u: %s [%s]: %s\n", oc->path, oc->line, oc->col, what, hg_rules[oc->rule].id, oc->text);
  }
  for (size_t i = 0; i < fr->refused.len; i++)
    fprintf(err, "hardguard: %s: %s\n", fr->refused.items[i].path, fr->refused.items[i].message);
  // The text format gets the diff instead of a report; SARIF carries the fixes in its results.
  if (o->show_fixes && o->reporter == &hg_reporter_text) fputs(fr->diff.data ? fr->diff.data : "", out);
  if (!o->quiet)
    fprintf(err, "hardguard: %s %zu site%s in %zu file%s; %zu not fixable\n", o->show_fixes ? "would fix" : "fixed",
            fr->fixed, fr->fixed == 1 ? "" : "s", fr->files_changed, fr->files_changed == 1 ? "" : "s", fr->not_fixable);
  int rc = fr->refused.len ? HG_EXIT_ERROR : 0;
  if (fr->files_changed && !o->show_fixes) {
    // Judge the tree as it is now; the project state has read the modules as they were.
    hg_findings_free(findings);
    hg_file_errors_free(errors);
    *findings = (hg_findings){0};
    *errors = (hg_file_errors){0};
    size_t excluded = stats->excluded;
    *stats = (hg_scan_stats){.excluded = excluded};
    hg_projects_free(*projects);
    *projects = hg_projects_new(rules, config, o->paths[0]);
    hg_scan_options so = {.rules = rules, .config = config, .projects = *projects, .claims = claims, .jobs = o->jobs};
    if (hg_scan(&so, files->items, files->len, findings, errors, stats, &e) != 0) {
      fprintf(err, "hardguard: %s\n", e.message);
      rc = HG_EXIT_ERROR;
    }
  }
  return rc;
}

// With --config-from, the run's config and baseline come from the commit `trusted` (else NULL).
static int load_config(const hg_options *o, hg_repo *repo, const char *trusted, baseline_result *base,
                       hg_config **config, hg_error *e) {
  if (o->baseline && (trusted ? hg_configref_baseline(&base->entries, repo, trusted, o->config_from, o->baseline,
                                                      false, e)
                              : hg_baseline_load(&base->entries, o->baseline, e)) != 0)
    return -1;
  bool found;
  int rc = trusted ? hg_configref_config(config, o->config_path ? NULL : &found, repo, trusted, o->config_from,
                                         o->config_path, o->paths[0], e)
           : o->config_path ? hg_config_load(config, o->config_path, e)
                            : hg_config_discover(config, o->paths[0], e);
  return rc;
}

static int check(const hg_options *o, const hg_ruleset *rules, hg_repo *repo, const char *trusted, FILE *out,
                 FILE *err) {
  hg_error e;
  baseline_result base = {0};
  hg_config *config = NULL;
  int rc = load_config(o, repo, trusted, &base, &config, &e);
  if (rc == 0 && (rc = hg_config_check(config, hg_ruleset_policy(rules), &e)) != 0) {
    hg_config_free(config);
    config = NULL;
  }
  if (rc != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
    hg_baseline_free(&base.entries);
    hg_config_free(config);
    return HG_EXIT_ERROR;
  }
  // The repository root, only when something names files relative to it.
  bool want_root = o->diff_ref || o->shard.n || o->baseline || o->write_baseline || hg_reporter_wants_root(o->reporter);
  // Outside git: the directory of the .hardguard.yml, else the working directory.
  bool own_repo = want_root && !repo;
  if (own_repo) repo = hg_repo_open(o->paths[0], config->path ? config->root : ".");
  hg_paths files = {0};
  hg_findings findings = {0};
  hg_file_errors errors = {0};
  hg_scan_stats stats = {0};
  hg_gate gate = {.strict = o->strict || config->strict};
  char **relpaths = NULL;
  int fix_rc = 0;
  hg_fix_report fixes = {0};
  hg_walk_extra extra = {0};
  char *automation_id = NULL;  // --shard: the SARIF run's automationDetails.id
  hg_walk(o->paths, o->n_paths, config, &files, &errors, &stats.excluded, &extra);
  // --shard: what the walk could not read and what it skipped belong to their files' shards; the
  // files themselves are split once the excludes and --diff have had their say.
  hg_shard_keep_errors(&o->shard, repo, &errors);
  hg_shard_keep_paths(&o->shard, repo, &extra.skipped);
  // A file named that no surface reads is said (under --strict it fails the run: not checked).
  if (!o->quiet || o->strict)
    for (size_t i = 0; i < extra.skipped.len; i++)
      fprintf(err, "hardguard: %s: skipped, no surface reads it\n", extra.skipped.items[i]);
  hg_projects *projects = hg_projects_new(rules, config, o->paths[0]);
  hg_scan_options so = {.rules = rules, .config = config, .projects = projects, .claims = &extra.claims, .jobs = o->jobs};
  hg_gate_init(&gate, config);
  if ((!o->allow_empty &&
       hg_gate_check_empty(o->paths, o->n_paths, config, files.len, stats.excluded, &e) != 0) ||
      hg_gate_check_builders(config, projects, &e) != 0 ||
      (o->diff_ref && keep_changed(repo, o->diff_ref, &files, &e) != 0) ||
      (hg_shard_keep_paths(&o->shard, repo, &files), false) ||
      (o->diff_ref && hg_gate_review(&gate, repo, o->diff_ref, o->config_path, o->paths[0], trusted ? NULL : config,
                                     o->baseline, &files, &e) != 0)) {
    fprintf(err, "hardguard: %s\n", e.message);
    rc = HG_EXIT_ERROR;
    goto cleanup;
  }
  hg_shard_keep_relaxations(&o->shard, repo, &gate.added);
  automation_id = hg_shard_automation_id(&o->shard);
  bool color = o->color == 1 || (o->color == -1 && !getenv("NO_COLOR") && isatty(fileno(out)));
  if (o->reporter->streams && !o->fix && !o->write_baseline) {
    hg_report_input in = {.out = out, .color = color, .audit = o->audit, .quiet = o->quiet, .repo = repo,
                          .automation_id = automation_id,
                          .baseline_path = o->baseline, .gate = &gate};
    rc = scan_streaming(o, &so, &in, &base, &files, &errors, &stats, err);
    goto cleanup;
  }
  if (hg_scan(&so, files.items, files.len, &findings, &errors, &stats, &e) != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
    rc = HG_EXIT_ERROR;
    goto cleanup;
  }
  if (o->fix) {
    int frc = fix(o, rules, config, &projects, &extra.claims, &files, &findings, &errors, &stats, &fixes, out, err);
    if (frc == HG_EXIT_ERROR) fix_rc = frc;
    if (o->show_fixes && o->reporter == &hg_reporter_text) {
      rc = frc ? frc : (stats.failing ? HG_EXIT_FINDINGS : HG_EXIT_CLEAN);
      goto cleanup;
    }
  }
  if (repo) {
    relpaths = hg_xcalloc(findings.len + 1, sizeof(char *));
    for (size_t i = 0; i < findings.len; i++) relpaths[i] = hg_repo_relpath(repo, findings.items[i].path);
  }
  const char *baseline_path = o->baseline;
  if (o->write_baseline) {
    if (hg_baseline_write(o->write_baseline, &findings, (const char *const *)relpaths, &e) != 0) {
      fprintf(err, "hardguard: %s\n", e.message);
      rc = HG_EXIT_ERROR;
      goto cleanup;
    }
    // Report the run as the new baseline sees it: everything that fails is now accepted.
    hg_baseline_free(&base.entries);
    free(base.baselined);
    base = (baseline_result){.baselined = hg_xcalloc(findings.len + 1, sizeof(bool))};
    size_t n = 0;
    for (size_t i = 0; i < findings.len; i++) n += base.baselined[i] = hg_finding_fails(&findings.items[i]);
    if (!o->quiet)
      fprintf(err, "hardguard: wrote %zu finding%s to %s\n", n, n == 1 ? "" : "s", o->write_baseline);
    baseline_path = o->write_baseline;
  } else if (o->baseline) {
    apply_baseline(&base, o, repo, &files, &errors, &findings, (const char *const *)relpaths);
  }
  // `failing` is what fails the run: findings the baseline accepts do not.
  hg_scan_stats shown = stats;
  if (base.baselined)
    for (size_t i = 0; i < findings.len; i++) shown.failing -= base.baselined[i];
  hg_report_input in = {
      .out = out, .color = color, .audit = o->audit, .quiet = o->quiet, .findings = &findings, .errors = &errors,
      .stats = &shown, .repo = repo, .relpaths = (const char *const *)relpaths, .baseline_path = baseline_path,
      .baselined = base.baselined, .stale = base.stale, .n_stale = base.n_stale, .gate = &gate,
      .fixes = o->show_fixes ? &fixes : NULL, .automation_id = automation_id,
  };
  hg_report(o->reporter, &in);
  rc = fix_rc ? fix_rc : exit_status(shown.failing, &in, &errors);
cleanup:
  if (o->strict && extra.skipped.len && rc != HG_EXIT_ERROR) rc = HG_EXIT_ERROR;
  hg_walk_extra_free(&extra);
  free(automation_id);
  hg_fix_report_free(&fixes);
  if (relpaths) hg_strv_free(relpaths, findings.len);
  hg_baseline_free(&base.entries);
  free(base.baselined);
  free(base.stale);
  hg_strvec_free(&files);
  hg_findings_free(&findings);
  hg_file_errors_free(&errors);
  if (own_repo) hg_repo_free(repo);
  hg_gate_free(&gate);
  hg_projects_free(projects);
  hg_config_free(config);
  return rc;
}

static int run(int argc, char **argv, FILE *out, FILE *err) {
  // A subcommand: `hardguard init` (a directory named init is ./init).
  if (argc >= 2 && !strcmp(argv[1], "init")) return hg_cli_init(argc - 1, argv + 1, out, err);
  hg_options o;
  int rc = hg_cli_options(&o, argc, argv, err);
  if (rc != 0) return rc;
  if (o.cmd == CMD_HELP) {
    fputs(hg_cli_usage, out);
    return HG_EXIT_CLEAN;
  }
  if (o.cmd == CMD_VERSION) {
    fprintf(out, "hardguard %s\n", HG_VERSION);
    return HG_EXIT_CLEAN;
  }
  if (o.cmd == CMD_EXPLAIN) return hg_cli_explain(o.explain, out, err);
  // The scan's other threads, started before the rules load (base/spare.h: a new thread may wait a
  // few milliseconds for a CPU); hg_cli_main lets go those the scan did not take.
  if (o.cmd == CMD_CHECK) hg_spare_start(hg_scan_threads_ahead(o.jobs, o.paths, o.n_paths) - 1);
  hg_ruleset *rules = NULL;
  hg_error e;
  // --config-from: the commit, resolved once, and the rules directory as it stands there.
  hg_repo *repo = o.config_from ? hg_repo_open(o.paths[0], ".") : NULL;
  char *trusted = NULL, *rules_copy = NULL;
  rc = repo ? hg_repo_commit(repo, "--config-from", o.config_from, &trusted, &e) : 0;
  if (rc == 0 && trusted && o.rules_dir) rc = hg_configref_rules(&rules_copy, repo, trusted, o.config_from, o.rules_dir, &e);
  if (rc == 0) rc = hg_ruleset_load(&rules, rules_copy ? rules_copy : o.rules_dir, &e);
  if (rc != 0) {
    fprintf(err, "hardguard: %s\n", e.message);
    rc = HG_EXIT_ERROR;
  } else {
    rc = o.cmd == CMD_LIST_RULES ? hg_cli_list_rules(rules, out) : check(&o, rules, repo, trusted, out, err);
  }
  hg_ruleset_free(rules);
  hg_configref_rules_remove(rules_copy);
  hg_repo_free(repo);
  free(trusted);
  return rc;
}

int hg_cli_main(int argc, char **argv, FILE *out, FILE *err) {
  int rc = run(argc, argv, out, err);
  hg_spare_release();
  // A report that did not reach its reader in full (a full disk, a closed descriptor) is no
  // verdict: the run fails as on any other error, whatever the findings were.
  errno = 0;
  if (fflush(out) != 0 || ferror(out)) {
    // errno is the last write's, when that one failed (an earlier failure is only in ferror).
    fprintf(err, "hardguard: cannot write the output%s%s%s: the report is incomplete\n", errno ? " (" : "",
            errno ? strerror(errno) : "", errno ? ")" : "");
    rc = HG_EXIT_ERROR;
  }
  return rc;
}
