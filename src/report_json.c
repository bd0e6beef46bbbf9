/* The JSON contract (README "JSON output"): {"tool", "sites", "errors", "summary"}. Every site
 * is listed, passing ones too. Written with jansson. */
#include <jansson.h>
#include <stdlib.h>

#include "report.h"

// A JSON string for bytes that may not be UTF-8 (file names, source text): invalid bytes
// become U+FFFD rather than making jansson refuse the whole document.
static json_t *jstr(const char *s) {
  json_t *j = json_string(s);
  if (j) return j;
  hg_buf b = {0};
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p < 0x80)
      hg_buf_putc(&b, (char)*p);
    else
      hg_buf_puts(&b, "\xEF\xBF\xBD");
  }
  j = json_string(b.data ? b.data : "");
  hg_buf_free(&b);
  return j ? j : json_string("");
}

static void begin(const hg_report_input *in, void **state) {
  (void)in;
  *state = json_array();
}

static void finding(const hg_report_input *in, void *state, const hg_finding *f) {
  (void)in;
  json_t *rules = json_array(), *missing = json_array();
  if (f->rule != HG_RULE_NONE) json_array_append_new(rules, json_string(hg_rules[f->rule].id));
  for (size_t i = 0; i < f->n_missing; i++) json_array_append_new(missing, json_string(f->missing[i]));
  json_t *site = json_pack("{s:o, s:I, s:I, s:I, s:I, s:s, s:s, s:s, s:o, s:o, s:o}", "path", jstr(f->path), "line",
                           (json_int_t)f->line, "column", (json_int_t)f->col, "end_line", (json_int_t)f->end_line,
                           "end_column", (json_int_t)f->end_col, "kind", f->kind, "verdict",
                           f->rule == HG_RULE_NONE ? "pass" : "fail", "via", hg_via_names[f->via], "rules", rules,
                           "missing", missing, "message", jstr(f->message ? f->message : ""));
  json_object_set_new(site, "fix", f->fix ? jstr(f->fix) : json_null());
  json_array_append_new(state, site);
}

static void end(const hg_report_input *in, void *state) {
  json_t *errors = json_array();
  size_t unreadable = 0;
  for (size_t i = 0; i < in->errors->len; i++) {
    const hg_file_error *e = &in->errors->items[i];
    json_t *o = json_pack("{s:o, s:s, s:o}", "path", jstr(e->path), "kind",
                          e->kind == HG_FILE_SYNTAX ? "syntax" : "unreadable", "message", jstr(e->message));
    unreadable += e->kind == HG_FILE_UNREADABLE;
    if (e->kind == HG_FILE_SYNTAX) {
      json_object_set_new(o, "line", json_integer(e->line));
      json_object_set_new(o, "column", json_integer(e->col));
    }
    json_array_append_new(errors, o);
  }
  const hg_scan_stats *st = in->stats;
  json_t *root = json_pack("{s:{s:s, s:s}, s:o, s:o, s:{s:I, s:I, s:I, s:I, s:I}}", "tool", "name", "hardguard",
                           "version", HG_VERSION, "sites", state, "errors", errors, "summary", "files",
                           (json_int_t)st->files, "parsed", (json_int_t)st->parsed, "sites", (json_int_t)st->sites,
                           "failing", (json_int_t)st->failing, "unreadable", (json_int_t)unreadable);
  char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
  fputs(text, in->out);
  fputc('\n', in->out);
  free(text);
  json_decref(root);
}

const hg_reporter hg_reporter_json = {.name = "json", .begin = begin, .finding = finding, .end = end};
