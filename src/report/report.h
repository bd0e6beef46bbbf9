/* Reporters: one vtable per output format, filled with designated initialisers in
 * report_<format>.c and listed in report.c. Every reporter reads the same sorted findings and file
 * errors: all at once (hg_report), or file by file while the scan runs (hg_report_stream, for the
 * formats that stream); report.c also holds what they share: a finding's status in this run, its
 * path relative to the repository root, and escaping for the formats. */
#ifndef HG_REPORT_H
#define HG_REPORT_H

#include <stdio.h>

#include "app/baseline.h"
#include "judge/finding.h"
#include "app/gate.h"
#include "app/repo.h"
#include "app/scan.h"
#include "report/jsonw.h"

typedef struct {
  FILE *out;
  bool color;
  bool audit;  // list passing sites too
  bool quiet;  // findings only: no summary
  const hg_findings *findings;
  const hg_file_errors *errors;
  const hg_scan_stats *stats;  // `failing` counts what fails the run: not what the baseline accepts
  // Set when the format or the baseline needs paths relative to the repository root, else NULL.
  hg_repo *repo;
  const char *const *relpaths;  // per finding, its path relative to the root
  // With --baseline, else NULL and 0.
  const char *baseline_path;
  const bool *baselined;  // per finding: a failing finding the baseline accepts
  const hg_baseline_entry *const *stale;  // baseline entries that matched nothing in scope
  size_t n_stale;
  const struct hg_fix_report *fixes;  // --fix --show-fixes: the fixes proposed (fix/apply.h), else NULL
  const char *automation_id;  // --shard: SARIF's runs[0].automationDetails.id; NULL: none
  const hg_gate *gate;  // what the configuration relaxes, and gate-relaxed warnings; NULL: nothing
} hg_report_input;

typedef struct {
  const char *name;
  // Reads the run's totals (stats, stale entries, errors) only in `end`, and a finding only while
  // it is passed to `finding`: so it can be fed file by file while the scan runs
  // (hg_report_stream), and memory does not grow with the number of sites.
  bool streams;
  void (*begin)(const hg_report_input *in, void **state);
  void (*finding)(const hg_report_input *in, void *state, const hg_finding *f);
  void (*end)(const hg_report_input *in, void *state);
} hg_reporter;

extern const hg_reporter hg_reporter_text;
extern const hg_reporter hg_reporter_json;
extern const hg_reporter hg_reporter_sarif;
extern const hg_reporter hg_reporter_github;
extern const hg_reporter hg_reporter_markdown;
extern const hg_reporter hg_reporter_html;

/** The reporter called `name`, or NULL. */
const hg_reporter *hg_reporter_find(const char *name);
/** The names of every format, comma-separated, for usage text. */
const char *hg_reporter_names(void);
/** Does the reporter name files relative to the repository root (so the run must find it)? */
bool hg_reporter_wants_root(const hg_reporter *r);
/** Runs a reporter over the input: begin, each finding, end. */
void hg_report(const hg_reporter *r, const hg_report_input *in);

/** A reporter fed during the scan: hg_report_stream_file is the scan's sink (scan.h). */
typedef struct {
  const hg_reporter *r;
  hg_report_input in;  // findings, relpaths and baselined: the file being reported
  void *state;
  hg_baseline *baseline;  // sorted (hg_baseline_sort), or NULL
  bool *used;             // per baseline entry: matched by a finding
  size_t baselined;       // failing findings the baseline accepted
} hg_report_stream;

/** Begins the report; `in` gives everything but the findings, the stats and the stale entries.
 *  With `baseline` (its entries), each finding is matched against them as it comes. */
void hg_report_stream_begin(hg_report_stream *self, const hg_reporter *r, const hg_report_input *in,
                            hg_baseline *baseline);
/** The sink: reports one file's findings, then frees them. */
void hg_report_stream_file(void *self, hg_findings *file);
/** Ends the report once the scan is done. stats->failing counts every failing finding; the report
 *  shows it less what the baseline accepted. */
void hg_report_stream_end(hg_report_stream *self, const hg_scan_stats *stats, const hg_file_errors *errors,
                          const hg_baseline_entry *const *stale, size_t n_stale);

/** What the run made of a site. */
typedef enum {
  HG_STATUS_PASS,        // no rule fails
  HG_STATUS_FAIL,        // fails the run
  HG_STATUS_SUPPRESSED,  // a rule fails, but a suppression at the site accepts it
  HG_STATUS_ALLOWED,     // passes with requirements relaxed by an allow at the site
  HG_STATUS_BASELINED,   // a failing finding the baseline accepts
  HG_STATUS_COUNT,
} hg_status;

extern const char *const hg_status_names[HG_STATUS_COUNT];

hg_status hg_report_status(const hg_report_input *in, const hg_finding *f);
/** The finding's path relative to the root when the run has one, else as reached. Owned by in. */
const char *hg_report_path(const hg_report_input *in, const hg_finding *f);
/** Any other path (a file error's, the baseline's) relative to the root when the run has one,
 *  else as given. New heap string. */
char *hg_report_relpath(const hg_report_input *in, const char *path);

/** Counts of a run's sites by status, as reporters tally them. */
typedef size_t hg_status_totals[HG_STATUS_COUNT];
/** The closing summary line of the text and github formats: files, sites, failing, then each
 *  relaxation that is not zero (suppressed, allowed, accepted by the baseline, stale entries,
 *  excluded paths, trusted builders, gate-relaxed warnings) and unreadable paths. */
void hg_report_summary_line(const hg_report_input *in, const hg_status_totals total, size_t unreadable);
/** A relaxation as one line of prose: its message, and " -- reason" when it gives one. */
void hg_report_relaxation(hg_buf *out, const hg_relaxation *r);
/** Do gate-relaxed warnings fail this run (--strict)? */
bool hg_report_gate_fails(const hg_report_input *in);

/** An effect's id, type (requirement or forbidden) and status, as the JSON and SARIF formats open
 *  their objects for it (the writer of report/jsonw.h). */
void hg_report_effect_head(hg_jw *w, const hg_effect *e);

/* Escaping, shared and unit-tested. Input may hold any bytes: bytes that are not well-formed UTF-8
 * come out as U+FFFD (or percent-escaped, in URIs). */
struct json_t;
/** A jansson string for any bytes. */
struct json_t *hg_json_string(const char *s);
/** Writes jansson's dump of `value` (`flags`, with JSON_INDENT) as it stands at depth `indent`
 *  (spaces) of a bigger document: each line indented. A dump holds no raw newline inside a
 *  string, so this is safe. SARIF's gate-relaxed results are written so; sites and results of
 *  findings go through the writer of report/jsonw.h, which unit/jsonw holds equal to this. */
void hg_json_dump_indented(FILE *out, const struct json_t *value, size_t flags, size_t indent);
/** GitHub workflow command data (the message): %, CR and LF escaped. */
void hg_github_escape_data(hg_buf *out, const char *s);
/** GitHub workflow command property values: also ':' and ','. */
void hg_github_escape_property(hg_buf *out, const char *s);
/** Text for Markdown prose or a table cell: Markdown and HTML punctuation escaped, '|' escaped,
 *  line breaks as <br>; `code spans` are kept when the backticks pair up. */
void hg_markdown_escape(hg_buf *out, const char *s);
/** `n` bytes as HTML text or a quoted attribute value: & < > " ' as character references, NUL,
 *  other control characters (not tab, LF or CR) and bytes that are not UTF-8 as U+FFFD. A NUL
 *  must follow somewhere at or after `s + n` (a C string, or a line of a NUL-terminated file). */
void hg_html_escape(hg_buf *out, const char *s, size_t n);
/** A relative path as a URI reference: bytes outside RFC 3986's unreserved set, sub-delims, ':',
 *  '@' and '/' percent-encoded. */
void hg_uri_escape_path(hg_buf *out, const char *path);

#endif
