/* Compiler-style text: each failing site with its source line, a caret and the fix; with --audit
 * every site, grouped by file, with its verdict, how it is hardened and what is missing, then
 * what the configuration relaxes and totals by kind and verdict; stale baseline entries; with
 * --diff, what the change relaxes in the gate (warning[gate-relaxed]); a closing summary. */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "base/utf8.h"

enum { MAX_KINDS = 64 };

typedef struct {
  char *last_path;  // a copy: findings may be freed once reported (hg_report_stream)
  hg_buf scratch;  // a path escaped for one line of output
  int kind_width;   // the audit's kind column, for the file being listed
  const char *kinds[MAX_KINDS];
  size_t n_kinds;
  size_t by_kind[MAX_KINDS][HG_STATUS_COUNT];
  size_t total[HG_STATUS_COUNT];
} text_state;

static const char *c(const hg_report_input *in, const char *code) { return in->color ? code : ""; }
#define BOLD "\033[1m"
#define RED "\033[1;31m"
#define YELLOW "\033[1;33m"
#define GREEN "\033[32m"
#define BLUE "\033[1;34m"
#define RESET "\033[0m"

static void begin(const hg_report_input *in, void **state) {
  (void)in;
  *state = hg_xcalloc(1, sizeof(text_state));
}

static void count(text_state *s, const hg_finding *f, hg_status st) {
  s->total[st]++;
  size_t k = 0;
  while (k < s->n_kinds && strcmp(s->kinds[k], f->kind) != 0) k++;
  if (k == s->n_kinds) {
    if (k == MAX_KINDS) return;
    s->kinds[s->n_kinds++] = f->kind;
  }
  s->by_kind[k][st]++;
}

static void caret_block(const hg_report_input *in, const hg_finding *f) {
  FILE *o = in->out;
  int w = snprintf(NULL, 0, "%u", f->line);
  fprintf(o, "%*s %s|%s\n", w, "", c(in, BLUE), c(in, RESET));
  fprintf(o, "%s%u |%s %s\n", c(in, BLUE), f->line, c(in, RESET), f->source_line);
  fprintf(o, "%*s %s|%s ", w, "", c(in, BLUE), c(in, RESET));
  // Reproduce the line's tabs so the caret lands under the column on any tab width.
  const char *p = f->source_line;
  for (uint32_t col = f->source_col > 1 ? f->source_col : 1; col < f->col && *p; p++) {
    if (((unsigned char)*p & 0xC0) == 0x80) continue;
    fputc(*p == '\t' ? '\t' : ' ', o);
    col++;
  }
  fprintf(o, "%s^ %s%s\n", c(in, RED), f->kind, c(in, RESET));
  if (f->fix) fprintf(o, "%*s %s=%s fix: %s\n", w, "", c(in, BLUE), c(in, RESET), f->fix);
  fputc('\n', o);
}

static void audit_line(const hg_report_input *in, text_state *s, const hg_finding *f, hg_status st) {
  FILE *o = in->out;
  if (!s->last_path || strcmp(s->last_path, f->path) != 0) {
    fprintf(o, "%s%s%s\n", c(in, BOLD), hg_utf8_escaped(&s->scratch, f->path), c(in, RESET));
    free(s->last_path);
    s->last_path = hg_xstrdup(f->path);
    // The kind column as wide as the longest built-in kind (quadlet-container), or a longer one of
    // the findings at hand (a rule of the user's), so that every row keeps its columns: measured
    // once per file, not per row.
    s->kind_width = 17;
    for (size_t i = 0; in->findings && i < in->findings->len; i++) {
      int n = (int)strlen(in->findings->items[i].kind);
      if (n > s->kind_width) s->kind_width = n;
    }
  }
  char pos[32];
  snprintf(pos, sizeof(pos), "%u:%u", f->line, f->col);
  const char *colour = st == HG_STATUS_FAIL ? RED : st == HG_STATUS_PASS || st == HG_STATUS_ALLOWED ? GREEN : YELLOW;
  fprintf(o, "  %-9s %-*s %s%-10s%s  via %-7s  ", pos, s->kind_width, f->kind, c(in, colour),
          st == HG_STATUS_FAIL ? "FAIL" : hg_status_names[st], c(in, RESET), hg_via_names[f->via]);
  if (f->rule != HG_RULE_NONE) fprintf(o, "%s: ", hg_rules[f->rule].id);
  fputs(f->message ? f->message : "", o);
  // The reason, unless the message already gives it.
  bool reason_given = f->justification && f->message && strstr(f->message, f->justification);
  if (f->suppression != HG_SUPPRESSION_NONE && !reason_given)
    fprintf(o, " (%s: %s)", f->suppression == HG_SUPPRESSION_SUPPRESSED ? "suppressed" : "allowed",
            f->justification ? f->justification : "no reason given");
  fputc('\n', o);
}

static void finding(const hg_report_input *in, void *state, const hg_finding *f) {
  text_state *s = state;
  hg_status st = hg_report_status(in, f);
  count(s, f, st);
  if (in->audit) {
    audit_line(in, s, f, st);
    return;
  }
  if (st != HG_STATUS_FAIL) return;
  fprintf(in->out, "%s%s:%u:%u:%s %serror[%s]%s%s: %s%s\n", c(in, BOLD), hg_utf8_escaped(&s->scratch, f->path),
          f->line, f->col, c(in, RESET),
          c(in, RED), hg_rules[f->rule].id, c(in, RESET), c(in, BOLD), f->message, c(in, RESET));
  caret_block(in, f);
}

static void totals(const hg_report_input *in, const text_state *s) {
  FILE *o = in->out;
  // The baselined column only when a baseline was given; the others always, so the table's shape
  // does not depend on what was found.
  size_t cols = in->baseline_path ? HG_STATUS_COUNT : HG_STATUS_BASELINED;
  size_t sites = 0;
  for (size_t v = 0; v < HG_STATUS_COUNT; v++) sites += s->total[v];
  fprintf(o, "%s\n  %-12s", sites ? "" : "no sites", "kind");
  for (size_t v = 0; v < cols; v++) fprintf(o, " %10s", hg_status_names[v]);
  fputc('\n', o);
  for (size_t k = 0; k <= s->n_kinds; k++) {
    const size_t *row = k < s->n_kinds ? s->by_kind[k] : s->total;
    fprintf(o, "  %-12s", k < s->n_kinds ? s->kinds[k] : "total");
    for (size_t v = 0; v < cols; v++) fprintf(o, " %10zu", row[v]);
    fputc('\n', o);
  }
}

static void stale_entries(const hg_report_input *in) {
  for (size_t i = 0; i < in->n_stale; i++) {
    const hg_baseline_entry *e = in->stale[i];
    hg_buf b = {0};
    hg_baseline_escape(&b, e->code);
    fprintf(in->out,
            "%s:%u: %swarning[stale-baseline]%s: %s: no %s finding (%s) matches `%s` any more; delete the line or "
            "rerun --write-baseline\n",
            in->baseline_path, e->line, c(in, YELLOW), c(in, RESET), e->path, e->rule, e->kind, b.data ? b.data : "");
    hg_buf_free(&b);
  }
}

// path:line: warning[gate-relaxed]: ... for what the change relaxes (error[...] under --strict);
// with --audit, first what the configuration relaxes.
static void gate_lines(const hg_report_input *in, text_state *s) {
  const hg_gate *g = in->gate;
  if (!g) return;
  hg_buf b = {0};
  if (in->audit && g->in_force.len) {
    fputs("relaxations in force:\n", in->out);
    for (size_t i = 0; i < g->in_force.len; i++) {
      const hg_relaxation *r = &g->in_force.items[i];
      b.len = 0;
      hg_report_relaxation(&b, r);
      fprintf(in->out, "  %s:%u: %s\n", hg_utf8_escaped(&s->scratch, r->path), r->line, b.data);
    }
  }
  bool strict = hg_report_gate_fails(in);
  for (size_t i = 0; i < g->added.len; i++) {
    const hg_relaxation *r = &g->added.items[i];
    b.len = 0;
    hg_report_relaxation(&b, r);
    fprintf(in->out, "%s", hg_utf8_escaped(&s->scratch, r->path));
    if (r->line) fprintf(in->out, ":%u", r->line);
    fprintf(in->out, ": %s%s[gate-relaxed]%s: %s\n", c(in, strict ? RED : YELLOW), strict ? "error" : "warning",
            c(in, RESET), b.data);
  }
  hg_buf_free(&b);
}

static void end(const hg_report_input *in, void *state) {
  text_state *s = state;
  FILE *o = in->out;
  size_t unreadable = 0;
  for (size_t i = 0; i < in->errors->len; i++) {
    const hg_file_error *e = &in->errors->items[i];
    unreadable += e->kind == HG_FILE_UNREADABLE;
    const char *path = hg_utf8_escaped(&s->scratch, e->path);
    if (e->kind == HG_FILE_SYNTAX)
      fprintf(o, "%s:%u:%u: warning[syntax]: %s\n", path, e->line, e->col, e->message);
    else
      fprintf(o, "%s: %serror[unreadable]%s: %s; the file was not checked\n", path, c(in, RED), c(in, RESET),
              e->message);
  }
  if (!in->quiet) stale_entries(in);
  gate_lines(in, s);
  if (in->audit && s->n_kinds) totals(in, s);
  if (!in->quiet) hg_report_summary_line(in, s->total, unreadable);
  hg_buf_free(&s->scratch);
  free(s->last_path);
  free(s);
}

const hg_reporter hg_reporter_text = {.name = "text", .streams = true, .begin = begin, .finding = finding, .end = end};
