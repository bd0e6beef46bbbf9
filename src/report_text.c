/* Compiler-style text: each failing site with its source line, a caret and the fix; with
 * --audit every site, grouped by file, with how it is hardened; a closing summary. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

typedef struct {
  const char *last_path;
  size_t by_kind_pass[64], by_kind_fail[64];
  const char *kinds[64];
  size_t n_kinds;
} text_state;

static const char *c(const hg_report_input *in, const char *code) { return in->color ? code : ""; }
#define BOLD "\033[1m"
#define RED "\033[1;31m"
#define GREEN "\033[32m"
#define BLUE "\033[1;34m"
#define RESET "\033[0m"

static void begin(const hg_report_input *in, void **state) {
  (void)in;
  *state = hg_xcalloc(1, sizeof(text_state));
}

static void count_kind(text_state *s, const hg_finding *f) {
  size_t k = 0;
  while (k < s->n_kinds && strcmp(s->kinds[k], f->kind) != 0) k++;
  if (k == s->n_kinds) {
    if (k == HG_ARRAY_LEN(s->kinds)) return;
    s->kinds[s->n_kinds++] = f->kind;
  }
  if (f->rule == HG_RULE_NONE)
    s->by_kind_pass[k]++;
  else
    s->by_kind_fail[k]++;
}

static void caret_block(const hg_report_input *in, const hg_finding *f) {
  FILE *o = in->out;
  int w = snprintf(NULL, 0, "%u", f->line);
  fprintf(o, "%*s %s|%s\n", w, "", c(in, BLUE), c(in, RESET));
  fprintf(o, "%s%u |%s %s\n", c(in, BLUE), f->line, c(in, RESET), f->source_line);
  fprintf(o, "%*s %s|%s ", w, "", c(in, BLUE), c(in, RESET));
  // Reproduce the line's tabs so the caret lands under the column on any tab width.
  const char *p = f->source_line;
  for (uint32_t col = 1; col < f->col && *p; p++) {
    if (((unsigned char)*p & 0xC0) == 0x80) continue;
    fputc(*p == '\t' ? '\t' : ' ', o);
    col++;
  }
  fprintf(o, "%s^ %s%s\n", c(in, RED), f->kind, c(in, RESET));
  if (f->fix) fprintf(o, "%*s %s=%s fix: %s\n", w, "", c(in, BLUE), c(in, RESET), f->fix);
  fputc('\n', o);
}

static void finding(const hg_report_input *in, void *state, const hg_finding *f) {
  text_state *s = state;
  FILE *o = in->out;
  count_kind(s, f);
  if (in->audit) {
    if (!s->last_path || strcmp(s->last_path, f->path) != 0) fprintf(o, "%s%s%s\n", c(in, BOLD), f->path, c(in, RESET));
    s->last_path = f->path;
    char pos[32];
    snprintf(pos, sizeof(pos), "%u:%u", f->line, f->col);
    if (f->rule == HG_RULE_NONE)
      fprintf(o, "  %-9s %-10s %spass%s  via %-7s  %s\n", pos, f->kind, c(in, GREEN), c(in, RESET),
              hg_via_names[f->via], f->message);
    else
      fprintf(o, "  %-9s %-10s %sFAIL%s  via %-7s  %s: %s\n", pos, f->kind, c(in, RED), c(in, RESET),
              hg_via_names[f->via], hg_rules[f->rule].id, f->message);
    return;
  }
  if (f->rule == HG_RULE_NONE) return;
  fprintf(o, "%s%s:%u:%u:%s %serror[%s]%s%s: %s%s\n", c(in, BOLD), f->path, f->line, f->col, c(in, RESET), c(in, RED),
          hg_rules[f->rule].id, c(in, RESET), c(in, BOLD), f->message, c(in, RESET));
  caret_block(in, f);
}

static void end(const hg_report_input *in, void *state) {
  text_state *s = state;
  FILE *o = in->out;
  for (size_t i = 0; i < in->errors->len; i++) {
    const hg_file_error *e = &in->errors->items[i];
    if (e->kind == HG_FILE_SYNTAX)
      fprintf(o, "%s:%u:%u: warning[syntax]: %s\n", e->path, e->line, e->col, e->message);
    else
      fprintf(o, "%s: %serror[unreadable]%s: %s; the file was not checked\n", e->path, c(in, RED), c(in, RESET),
              e->message);
  }
  if (in->audit && s->n_kinds) {
    fprintf(o, "%s\n", in->findings->len ? "" : "no sites");
    fprintf(o, "  %-12s %6s %6s\n", "kind", "pass", "fail");
    for (size_t k = 0; k < s->n_kinds; k++)
      fprintf(o, "  %-12s %6zu %6zu\n", s->kinds[k], s->by_kind_pass[k], s->by_kind_fail[k]);
  }
  if (!in->quiet) {
    size_t unreadable = 0;
    for (size_t i = 0; i < in->errors->len; i++) unreadable += in->errors->items[i].kind == HG_FILE_UNREADABLE;
    const hg_scan_stats *st = in->stats;
    fprintf(o, "hardguard: %zu file%s scanned, %zu site%s found, %zu failing", st->files, st->files == 1 ? "" : "s",
            st->sites, st->sites == 1 ? "" : "s", st->failing);
    if (unreadable) fprintf(o, ", %zu path%s could not be read", unreadable, unreadable == 1 ? "" : "s");
    fputc('\n', o);
  }
  free(s);
}

const hg_reporter hg_reporter_text = {.name = "text", .begin = begin, .finding = finding, .end = end};
