#include "report.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

static const hg_reporter *const REPORTERS[] = {&hg_reporter_text, &hg_reporter_json, &hg_reporter_sarif,
                                               &hg_reporter_github, &hg_reporter_markdown, &hg_reporter_html};

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
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr(keep, *p))
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
