#include "report/report.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

static const hg_reporter *const REPORTERS[] = {&hg_reporter_text, &hg_reporter_json, &hg_reporter_sarif,
                                               &hg_reporter_github, &hg_reporter_markdown, &hg_reporter_html};

void hg_report_stream_begin(hg_report_stream *self, const hg_reporter *r, const hg_report_input *in,
                            hg_baseline *baseline) {
  *self = (hg_report_stream){.r = r, .in = *in, .baseline = baseline};
  if (baseline) self->used = hg_xcalloc(baseline->len + 1, sizeof(bool));
  if (r->begin) r->begin(&self->in, &self->state);
}

void hg_report_stream_file(void *ctx, hg_findings *file) {
  hg_report_stream *self = ctx;
  hg_report_input *in = &self->in;
  // Every finding of a file has its path; the relative one is worked out once.
  char *rel = in->repo && file->len ? hg_repo_relpath(in->repo, file->items[0].path) : NULL;
  const char **relpaths = rel ? hg_xcalloc(file->len, sizeof(char *)) : NULL;
  for (size_t i = 0; relpaths && i < file->len; i++) relpaths[i] = rel;
  bool *baselined = self->baseline ? hg_xcalloc(file->len + 1, sizeof(bool)) : NULL;
  if (baselined) hg_baseline_match_sorted(self->baseline, file, relpaths, baselined, self->used);
  in->findings = file;
  in->relpaths = relpaths;
  in->baselined = baselined;
  for (size_t i = 0; i < file->len; i++) {
    self->r->finding(in, self->state, &file->items[i]);
    if (baselined) self->baselined += baselined[i];
  }
  in->findings = NULL;
  in->relpaths = NULL;
  in->baselined = NULL;
  free(baselined);
  free(relpaths);
  free(rel);
  hg_findings_free(file);
}

void hg_report_stream_end(hg_report_stream *self, const hg_scan_stats *stats, const hg_file_errors *errors,
                          const hg_baseline_entry *const *stale, size_t n_stale) {
  hg_scan_stats shown = *stats;
  shown.failing -= self->baselined;
  hg_findings none = {0};
  hg_report_input *in = &self->in;
  in->findings = &none;
  in->stats = &shown;
  in->errors = errors;
  in->stale = stale;
  in->n_stale = n_stale;
  if (self->r->end) self->r->end(in, self->state);
  free(self->used);
}

const hg_reporter *hg_reporter_find(const char *name) {
  for (size_t i = 0; i < HG_ARRAY_LEN(REPORTERS); i++)
    if (strcmp(REPORTERS[i]->name, name) == 0) return REPORTERS[i];
  return NULL;
}

const char *hg_reporter_names(void) { return "text, json, sarif, github, markdown, html"; }

bool hg_reporter_wants_root(const hg_reporter *r) { return r == &hg_reporter_sarif || r == &hg_reporter_github; }

void hg_report(const hg_reporter *r, const hg_report_input *in) {
  void *state = NULL;
  if (r->begin) r->begin(in, &state);
  for (size_t i = 0; i < in->findings->len; i++) r->finding(in, state, &in->findings->items[i]);
  if (r->end) r->end(in, state);
}

const char *const hg_status_names[HG_STATUS_COUNT] = {
    [HG_STATUS_PASS] = "pass",           [HG_STATUS_FAIL] = "fail",         [HG_STATUS_SUPPRESSED] = "suppressed",
    [HG_STATUS_ALLOWED] = "allowed",     [HG_STATUS_BASELINED] = "baselined",
};

static size_t index_of(const hg_report_input *in, const hg_finding *f) {
  return (size_t)(f - in->findings->items);
}

hg_status hg_report_status(const hg_report_input *in, const hg_finding *f) {
  if (hg_finding_fails(f))
    return in->baselined && in->baselined[index_of(in, f)] ? HG_STATUS_BASELINED : HG_STATUS_FAIL;
  if (f->rule != HG_RULE_NONE) return HG_STATUS_SUPPRESSED;
  return f->suppression == HG_SUPPRESSION_ALLOWED ? HG_STATUS_ALLOWED : HG_STATUS_PASS;
}

const char *hg_report_path(const hg_report_input *in, const hg_finding *f) {
  return in->relpaths ? in->relpaths[index_of(in, f)] : f->path;
}

char *hg_report_relpath(const hg_report_input *in, const char *path) {
  return in->repo ? hg_repo_relpath(in->repo, path) : hg_xstrdup(path);
}

void hg_report_summary_line(const hg_report_input *in, const hg_status_totals total, size_t unreadable) {
  const hg_scan_stats *st = in->stats;
  const hg_gate *g = in->gate;
  FILE *o = in->out;
  fprintf(o, "hardguard: %zu file%s scanned, %zu site%s found, %zu failing", st->files, st->files == 1 ? "" : "s",
          st->sites, st->sites == 1 ? "" : "s", total[HG_STATUS_FAIL]);
  if (total[HG_STATUS_SUPPRESSED]) fprintf(o, ", %zu suppressed", total[HG_STATUS_SUPPRESSED]);
  if (total[HG_STATUS_ALLOWED]) fprintf(o, ", %zu allowed", total[HG_STATUS_ALLOWED]);
  if (in->baseline_path) fprintf(o, ", %zu accepted by the baseline", total[HG_STATUS_BASELINED]);
  if (in->n_stale) fprintf(o, ", %zu stale baseline entr%s", in->n_stale, in->n_stale == 1 ? "y" : "ies");
  if (st->excluded) fprintf(o, ", %zu path%s excluded", st->excluded, st->excluded == 1 ? "" : "s");
  if (g && g->trusted_builders)
    fprintf(o, ", %zu trusted builder%s", g->trusted_builders, g->trusted_builders == 1 ? "" : "s");
  if (g && g->added.len)
    fprintf(o, ", %zu gate-relaxed %s%s", g->added.len, g->strict ? "error" : "warning", g->added.len == 1 ? "" : "s");
  if (unreadable) fprintf(o, ", %zu path%s could not be read", unreadable, unreadable == 1 ? "" : "s");
  fputc('\n', o);
}

void hg_report_relaxation(hg_buf *out, const hg_relaxation *r) {
  hg_buf_puts(out, r->message);
  if (r->reason) hg_buf_printf(out, " -- %s", r->reason);
}

bool hg_report_gate_fails(const hg_report_input *in) { return in->gate && in->gate->strict && in->gate->added.len; }

void hg_json_dump_indented(FILE *out, const json_t *value, size_t flags, size_t indent) {
  char *text = json_dumps(value, flags);
  if (!text) abort();  // out of memory (hg_x* allocators abort too)
  hg_buf b = {0};
  for (const char *p = text, *nl;; p = nl + 1) {
    hg_jw_indent(&b, indent);
    nl = strchr(p, '\n');
    if (!nl) {
      hg_buf_puts(&b, p);
      break;
    }
    hg_buf_add(&b, p, (size_t)(nl - p + 1));
  }
  fwrite(b.data, 1, b.len, out);
  hg_buf_free(&b);
  free(text);
}

json_t *hg_json_string(const char *s) {
  json_t *j = json_string(s);
  if (j) return j;
  char *clean = hg_utf8_sanitized(s);
  j = json_string(clean);
  free(clean);
  return j ? j : json_string("");
}

void hg_uri_escape_path(hg_buf *out, const char *path) {
  static const char keep[] = "-._~!$&'()*+,;=:@/";
  // RFC 3986 4.2: a ':' in the first segment would read as a scheme ("main:.hardguard.yml").
  const char *first_slash = strchr(path, '/');
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    bool scheme_like = *p == ':' && (!first_slash || (const char *)p < first_slash);
    if (!scheme_like &&
        ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr(keep, *p)))
      hg_buf_putc(out, (char)*p);
    else
      hg_buf_printf(out, "%%%02X", *p);
  }
}

void hg_html_escape(hg_buf *out, const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)s[i];
    size_t seq = ch ? hg_utf8_seq(s + i) : 0;
    if (seq > n - i) seq = 0;  // a sequence cut by the end of the range
    if (seq > 1) {
      hg_buf_add(out, s + i, seq);
      i += seq;
      continue;
    }
    i++;
    switch (ch) {
    case '&': hg_buf_puts(out, "&amp;"); break;
    case '<': hg_buf_puts(out, "&lt;"); break;
    case '>': hg_buf_puts(out, "&gt;"); break;
    case '"': hg_buf_puts(out, "&quot;"); break;
    case '\'': hg_buf_puts(out, "&#39;"); break;
    default:
      if (seq == 0 || ch == 0x7F || (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r'))
        hg_buf_puts(out, "\xEF\xBF\xBD");
      else
        hg_buf_putc(out, (char)ch);
    }
  }
}

void hg_report_effect_head(hg_jw *w, const hg_effect *e) {
  hg_jw_field_string(w, "id", e->id);
  hg_jw_field_string(w, "type", e->forbidden ? "forbidden" : "requirement");
  hg_jw_field_string(w, "status", hg_effect_names[e->status]);
}
