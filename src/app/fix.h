/* `hardguard --fix`: applies the project's hardening builder (or, in a shell script, the missing
 * flags) at the failing sites a run found, file by file — plans the edits (fix/plan.h), picks for
 * each site the first configured builder callable that makes it pass when the edited text is
 * checked again, checks the whole edited file once more, and rewrites it atomically (a temporary
 * file in the same directory, then rename), or with `dry_run` only renders the diff. Prints
 * nothing: the caller reports. */
#ifndef HG_APP_FIX_H
#define HG_APP_FIX_H

#include "rules/config.h"
#include "judge/finding.h"

struct hg_ruleset;
struct hg_projects;

typedef struct {
  const struct hg_ruleset *rules;
  const hg_config *config;
  const struct hg_projects *projects; // where builders are read (what they yield)
  const char *root;       // the project root: files outside it are not touched
  const char *start;      // the run's first path (a project state made afresh starts there)
  bool dry_run;           // --show-fixes: the diff, nothing written
} hg_fix_options;

/** What became of one failing finding. */
typedef enum {
  HG_FIX_FIXED,     // the builder was applied (or, dry run, would be)
  HG_FIX_NOT_FIXED, // left as it is: text says why
  HG_FIX_RESOLVED,  // a client-without-builder finding the added import settles (the fixed sites
                    // of its module apply the builder); counted neither fixed nor not fixable
} hg_fix_status;

/** One replacement of a fix, in the file's lines and character columns (1-based, as findings
 *  count them; the end is exclusive, equal to the start for an insertion). */
typedef struct {
  uint32_t line, col, end_line, end_col;
  char *text; // what replaces the range
} hg_fix_change;

typedef struct {
  char *path;
  uint32_t line, col;
  hg_rule_id rule;
  hg_fix_status status;
  char *text;             // what was done, or why not
  hg_fix_change *changes; // FIXED: the site's own edits and the import it needs, in file order,
  size_t n_changes;       // each fix applicable on its own (SARIF `fixes`)
} hg_fix_outcome;

typedef struct hg_fix_report {
  HG_VEC(hg_fix_outcome) outcomes; // by file, in the findings' order (a file's clients last)
  hg_file_errors refused;          // files left untouched that had fixes (exit 2): a symlink, outside
                                   // the root, read-only, changed on disk, failing its re-check, I/O
  hg_buf diff;                     // dry_run: the unified diff of every file
  size_t fixed, not_fixable, files_changed;
} hg_fix_report;

/** Fixes what `findings` (of one run, sorted) allow. 0; -1 with err only for an operational error
 *  (none today: per-file problems go into `refused`). */
int hg_fix_run(hg_fix_report *out, const hg_fix_options *o, const hg_findings *findings, hg_error *err);
void hg_fix_report_free(hg_fix_report *self);
/** The outcome of the finding at `path`, line and column that fails `rule`, or NULL. */
const hg_fix_outcome *hg_fix_report_find(const hg_fix_report *self, const char *path, uint32_t line, uint32_t col,
                                         hg_rule_id rule);
/** What --fix does with findings of `rule` (one or two sentences, for --explain). */
const char *hg_fix_explain(hg_rule_id rule);

#endif
