/* GitHub Actions workflow commands: `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`
 * for each site that fails the run, so that findings show inline on a pull request without code
 * scanning; `::warning` for files with syntax errors, stale baseline entries and what a change
 * relaxes in the gate (gate-relaxed, `::error` with --strict). Files are named
 * relative to the repository root, as GitHub expects. Unless --quiet, a plain summary line ends
 * the output, with the same counts as the text format's (stale entries are left out with --quiet
 * too). */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "base/utf8.h"

// `s` with bytes that are not UTF-8 as U+FFFD, then %, CR and LF (in a property, : and , too) as
// %XX; what needs no escape is copied a run at a time.
static void escape(hg_buf *out, const char *s, bool property) {
  hg_buf clean = {0};
  hg_utf8_sanitize(&clean, s);
  const char *p = clean.data ? clean.data : "", *run = p;
  for (; *p; p++) {
    const char *e = *p == '%' ? "%25" : *p == '\r' ? "%0D" : *p == '\n' ? "%0A" : !property ? NULL
                    : *p == ':' ? "%3A" : *p == ',' ? "%2C" : NULL;
    if (!e) continue;
    hg_buf_add(out, run, (size_t)(p - run));
    hg_buf_add(out, e, 3);
    run = p + 1;
  }
  hg_buf_add(out, run, (size_t)(p - run));
  hg_buf_free(&clean);
}

void hg_github_escape_data(hg_buf *out, const char *s) { escape(out, s, false); }
void hg_github_escape_property(hg_buf *out, const char *s) { escape(out, s, true); }

// One workflow command; line 0 leaves the position out, end_line 0 the end.
static void command(FILE *o, const char *level, const char *path, uint32_t line, uint32_t col, uint32_t end_line,
                    uint32_t end_col, const char *title, const char *message) {
  hg_buf b = {0};
  hg_buf_printf(&b, "::%s file=", level);
  hg_github_escape_property(&b, path);
  if (line) hg_buf_printf(&b, ",line=%u,col=%u", line, col);
  if (line && end_line) hg_buf_printf(&b, ",endLine=%u,endColumn=%u", end_line, end_col);
  hg_buf_puts(&b, ",title=");
  hg_github_escape_property(&b, title);
  hg_buf_puts(&b, "::");
  hg_github_escape_data(&b, message);
  hg_buf_putc(&b, '\n');
  fputs(b.data, o);
  hg_buf_free(&b);
}

// The state: how many sites the run gave each status, for the summary.
static void begin(const hg_report_input *in, void **state) {
  (void)in;
  *state = hg_xcalloc(HG_STATUS_COUNT, sizeof(size_t));
}

static void finding(const hg_report_input *in, void *state, const hg_finding *f) {
  hg_status st = hg_report_status(in, f);
  ((size_t *)state)[st]++;
  if (st != HG_STATUS_FAIL) return;
  const char *id = hg_rules[f->rule].id;
  char *title = hg_xasprintf("hardguard %s (%s)", id, f->kind);
  char *message = f->fix ? hg_xasprintf("%s\nfix: %s", f->message, f->fix) : hg_xstrdup(f->message);
  command(in->out, "error", hg_report_path(in, f), f->line, f->col, f->end_line, f->end_col, title, message);
  free(title);
  free(message);
}

static void end(const hg_report_input *in, void *state) {
  size_t total[HG_STATUS_COUNT];
  memcpy(total, state, sizeof(total));
  free(state);
  size_t unreadable = 0;
  for (size_t i = 0; i < in->errors->len; i++) {
    const hg_file_error *e = &in->errors->items[i];
    char *path = hg_report_relpath(in, e->path);
    if (e->kind == HG_FILE_SYNTAX) {
      command(in->out, "warning", path, e->line, e->col, 0, 0, "hardguard: syntax error", e->message);
    } else {
      unreadable++;
      char *msg = hg_xasprintf("%s; the file was not checked", e->message);
      command(in->out, "error", path, 0, 0, 0, 0, "hardguard: unreadable", msg);
      free(msg);
    }
    free(path);
  }
  if (in->n_stale && !in->quiet) {
    char *path = hg_report_relpath(in, in->baseline_path);
    for (size_t i = 0; i < in->n_stale; i++) {
      const hg_baseline_entry *e = in->stale[i];
      char *msg = hg_xasprintf("%s: no %s finding (%s) matches `%s` any more; delete the line or rerun "
                               "--write-baseline",
                               e->path, e->rule, e->kind, e->code);
      command(in->out, "warning", path, e->line, 1, 0, 0, "hardguard: stale baseline entry", msg);
      free(msg);
    }
    free(path);
  }
  bool strict = hg_report_gate_fails(in);
  for (size_t i = 0; in->gate && i < in->gate->added.len; i++) {
    const hg_relaxation *r = &in->gate->added.items[i];
    char *path = hg_report_relpath(in, r->path);
    hg_buf msg = {0};
    hg_report_relaxation(&msg, r);
    command(in->out, strict ? "error" : "warning", path, r->line, r->line ? 1 : 0, 0, 0, "hardguard gate-relaxed",
            msg.data);
    hg_buf_free(&msg);
    free(path);
  }
  // The text format's summary line, word for word, so a log reads the same.
  if (!in->quiet) hg_report_summary_line(in, total, unreadable);
}

const hg_reporter hg_reporter_github = {.name = "github", .streams = true, .begin = begin, .finding = finding, .end = end};
