/* The audit as Markdown, for pasting into an issue or a pull request: every site, grouped by
 * file in a table with its kind, verdict, how it is hardened, what is missing and why; files
 * that could not be checked; stale baseline entries; totals by kind and verdict. */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "base/utf8.h"

enum { MAX_KINDS = 64 };

typedef struct {
  const char *last_path;
  const char *kinds[MAX_KINDS];
  size_t n_kinds;
  size_t by_kind[MAX_KINDS][HG_STATUS_COUNT];
  size_t total[HG_STATUS_COUNT];
} md_state;

// Outside code spans: CommonMark lets any ASCII punctuation be backslash-escaped; these are the
// characters that could start emphasis, a link, HTML, an entity or a strikethrough, or end a cell.
static const char SPECIAL[] = "\\`*_[]<>|&~";

void hg_markdown_escape(hg_buf *out, const char *s) {
  char *clean = hg_utf8_sanitized(s);
  size_t ticks = 0;
  for (const char *p = clean; *p; p++) ticks += *p == '`';
  bool spans = ticks % 2 == 0;  // keep `code` spans only when the backticks pair up
  bool in_code = false;
  for (const char *p = clean; *p; p++) {
    if (*p == '\r') continue;
    if (*p == '\n') {
      hg_buf_puts(out, in_code ? " " : "<br>");
    } else if (spans && *p == '`') {
      in_code = !in_code;
      hg_buf_putc(out, '`');
    } else if (*p == '|') {
      hg_buf_puts(out, "\\|");  // GFM: a pipe escaped inside a cell stays a pipe, in code too
    } else if (!in_code && strchr(SPECIAL, *p)) {
      hg_buf_putc(out, '\\');
      hg_buf_putc(out, *p);
    } else {
      hg_buf_putc(out, *p);
    }
  }
  free(clean);
}

// A code span holding `s` verbatim: the fence is one backtick longer than any run inside it.
static void code(hg_buf *out, const char *s) {
  char *clean = hg_utf8_sanitized(s);
  size_t longest = 0, run = 0;
  for (const char *p = clean; *p; p++) {
    run = *p == '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  for (size_t i = 0; i <= longest; i++) hg_buf_putc(out, '`');
  hg_buf_puts(out, clean[0] == '`' ? " " : "");
  for (const char *p = clean; *p; p++) {
    if (*p == '|') hg_buf_puts(out, "\\|");
    else if (*p == '\n' || *p == '\r') hg_buf_putc(out, ' ');
    else hg_buf_putc(out, *p);
  }
  size_t n = strlen(clean);
  hg_buf_puts(out, n && clean[n - 1] == '`' ? " " : "");
  for (size_t i = 0; i <= longest; i++) hg_buf_putc(out, '`');
  free(clean);
}

static void begin(const hg_report_input *in, void **state) {
  md_state *s = hg_xcalloc(1, sizeof(md_state));
  const hg_scan_stats *st = in->stats;
  fprintf(in->out, "# hardguard audit\n\nhardguard %s: %zu file%s scanned, %zu site%s found.\n", HG_VERSION, st->files,
          st->files == 1 ? "" : "s", st->sites, st->sites == 1 ? "" : "s");
  *state = s;
}

static const char *verdict_cell(hg_status st) {
  switch (st) {
  case HG_STATUS_FAIL: return "**FAIL**";
  case HG_STATUS_PASS: return "pass";
  default: return hg_status_names[st];
  }
}

static void finding(const hg_report_input *in, void *state, const hg_finding *f) {
  md_state *s = state;
  FILE *o = in->out;
  hg_status st = hg_report_status(in, f);
  s->total[st]++;
  size_t k = 0;
  while (k < s->n_kinds && strcmp(s->kinds[k], f->kind) != 0) k++;
  if (k == s->n_kinds && k < MAX_KINDS) s->kinds[s->n_kinds++] = f->kind;
  if (k < MAX_KINDS) s->by_kind[k][st]++;

  hg_buf b = {0};
  if (!s->last_path || strcmp(s->last_path, f->path) != 0) {
    hg_buf_puts(&b, "\n## ");
    code(&b, f->path);
    hg_buf_puts(&b, "\n\n| Line | Kind | Verdict | Hardened via | Missing | Details |\n"
                    "| ---: | --- | --- | --- | --- | --- |\n");
  }
  s->last_path = f->path;
  hg_buf_printf(&b, "| %u:%u | ", f->line, f->col);
  code(&b, f->kind);
  hg_buf_printf(&b, " | %s | %s | ", verdict_cell(st), hg_via_names[f->via]);
  for (size_t i = 0; i < f->n_missing; i++) {
    if (i) hg_buf_puts(&b, ", ");
    hg_markdown_escape(&b, f->missing[i]);
  }
  hg_buf_puts(&b, f->n_missing ? " | " : "— | ");
  if (f->rule != HG_RULE_NONE) {
    code(&b, hg_rules[f->rule].id);
    hg_buf_puts(&b, ": ");
  }
  hg_markdown_escape(&b, f->message ? f->message : "");
  if (f->fix && st != HG_STATUS_PASS) {
    hg_buf_puts(&b, "<br>**Fix:** ");
    hg_markdown_escape(&b, f->fix);
  }
  bool reason_given = f->justification && f->message && strstr(f->message, f->justification);
  if (f->suppression != HG_SUPPRESSION_NONE && !reason_given) {
    hg_buf_printf(&b, "<br>**%s:** ", f->suppression == HG_SUPPRESSION_SUPPRESSED ? "Suppressed" : "Allowed");
    hg_markdown_escape(&b, f->justification ? f->justification : "no reason given");
  }
  hg_buf_puts(&b, " |\n");
  fputs(b.data, o);
  hg_buf_free(&b);
}

static void relaxation_list(hg_buf *b, const hg_relaxations *v) {
  hg_buf text = {0};
  for (size_t i = 0; i < v->len; i++) {
    const hg_relaxation *r = &v->items[i];
    hg_buf_puts(b, "- ");
    code(b, r->path);
    if (r->line) hg_buf_printf(b, " line %u", r->line);
    hg_buf_puts(b, ": ");
    text.len = 0;
    hg_report_relaxation(&text, r);
    hg_markdown_escape(b, text.data);
    hg_buf_putc(b, '\n');
  }
  hg_buf_free(&text);
}

// What the configuration relaxes and, with --diff, what the change relaxes.
static void relaxations(const hg_report_input *in, hg_buf *b) {
  const hg_gate *g = in->gate;
  size_t excluded = in->stats->excluded;
  if (g && g->added.len) {
    hg_buf_printf(b, "\n## Gate relaxed by this change\n\n%s: review these before the code they let through.\n\n",
                  hg_report_gate_fails(in) ? "Errors (`--strict`)" : "Warnings");
    relaxation_list(b, &g->added);
  }
  if ((!g || !g->in_force.len) && !excluded) return;
  hg_buf_puts(b, "\n## Relaxations in force\n\n");
  if (excluded) hg_buf_printf(b, "%zu path%s excluded from the check.\n\n", excluded, excluded == 1 ? "" : "s");
  if (g) relaxation_list(b, &g->in_force);
}

static void end(const hg_report_input *in, void *state) {
  md_state *s = state;
  FILE *o = in->out;
  hg_buf b = {0};
  if (!in->findings->len) hg_buf_puts(&b, "\nNo sites found.\n");
  if (in->errors->len) {
    hg_buf_puts(&b, "\n## Files not fully checked\n\n");
    for (size_t i = 0; i < in->errors->len; i++) {
      const hg_file_error *e = &in->errors->items[i];
      hg_buf_puts(&b, "- ");
      code(&b, e->path);
      if (e->kind == HG_FILE_SYNTAX) hg_buf_printf(&b, " (syntax error at %u:%u): ", e->line, e->col);
      else hg_buf_puts(&b, " (**not checked**): ");
      hg_markdown_escape(&b, e->message);
      hg_buf_putc(&b, '\n');
    }
  }
  if (in->n_stale) {
    hg_buf_puts(&b, "\n## Stale baseline entries\n\nNo finding matches these entries any more; delete them or rerun "
                    "`--write-baseline`.\n\n");
    for (size_t i = 0; i < in->n_stale; i++) {
      const hg_baseline_entry *e = in->stale[i];
      hg_buf_printf(&b, "- line %u: ", e->line);
      code(&b, e->path);
      hg_buf_puts(&b, " ");
      code(&b, e->rule);
      hg_buf_puts(&b, " ");
      code(&b, e->kind);
      hg_buf_puts(&b, ": ");
      code(&b, e->code);
      hg_buf_putc(&b, '\n');
    }
  }
  relaxations(in, &b);
  size_t cols = in->baselined ? HG_STATUS_COUNT : HG_STATUS_BASELINED;
  hg_buf_puts(&b, "\n## Totals\n\n| Kind |");
  for (size_t v = 0; v < cols; v++) hg_buf_printf(&b, " %s |", hg_status_names[v]);
  hg_buf_puts(&b, "\n| --- |");
  for (size_t v = 0; v < cols; v++) hg_buf_puts(&b, " ---: |");
  hg_buf_putc(&b, '\n');
  for (size_t k = 0; k <= s->n_kinds; k++) {
    const size_t *row = k < s->n_kinds ? s->by_kind[k] : s->total;
    hg_buf_puts(&b, "| ");
    if (k < s->n_kinds) code(&b, s->kinds[k]);
    else hg_buf_puts(&b, "**total**");
    hg_buf_puts(&b, " |");
    for (size_t v = 0; v < cols; v++) hg_buf_printf(&b, " %zu |", row[v]);
    hg_buf_putc(&b, '\n');
  }
  fputs(b.data, o);
  hg_buf_free(&b);
  free(s);
}

const hg_reporter hg_reporter_markdown = {.name = "markdown", .begin = begin, .finding = finding, .end = end};
