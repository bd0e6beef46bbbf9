/* The JSON contract (docs/json-output.md): {"tool", "sites", "errors", "summary"}. Every site
 * is listed, passing ones too. Fields that only some runs have (a site's suppression, the
 * baseline) appear only there, so the output of a plain run never changes. The head and the tail
 * are written with jansson, each site with the writer that gives jansson's bytes (jsonw.h). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/jsonw.h"
#include "report/report.h"

#define jstr hg_json_string

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII)

// Sites are written one at a time as they come, so that memory does not grow with their number:
// the output is the same bytes jansson would give for the whole document, built piece by piece
// (each site at its depth in the sites array).
typedef struct {
  size_t sites;                    // written so far
  size_t totals[HG_STATUS_COUNT];  // sites by status
  hg_buf out;                      // the site being written
} json_state;

static void begin(const hg_report_input *in, void **state) {
  *state = hg_xcalloc(1, sizeof(json_state));
  json_t *head = json_pack("{s:{s:s, s:s}}", "tool", "name", "hardguard", "version", HG_VERSION);
  char *text = json_dumps(head, DUMP_FLAGS);
  size_t n = strlen(text);
  fwrite(text, 1, n - 2, in->out);  // without the closing "\n}"
  fputs(",\n  \"sites\": [", in->out);
  free(text);
  json_decref(head);
}

// What reached the site per requirement and forbidden option, with where each came from.
static void effective(hg_jw *w, const hg_finding *f) {
  hg_jw_array(w);
  for (size_t i = 0; i < f->n_effective; i++) {
    const hg_effect *e = &f->effective[i];
    hg_jw_object(w);
    hg_report_effect_head(w, e);
    hg_jw_field_string(w, "value", e->value);
    hg_jw_key(w, "origin");
    if (e->line) {
      // Paths as reached, like the site's own: another module's relative to the working directory.
      hg_jw_object(w);
      hg_jw_field_string(w, "path", e->path ? e->path : f->path);
      hg_jw_field_int(w, "line", (long long)e->line);
      hg_jw_field_string(w, "via", e->via);
      hg_jw_end_object(w);
    } else {
      hg_jw_null(w);
    }
    if (e->reason) hg_jw_field_string(w, "reason", e->reason);
    hg_jw_end_object(w);
  }
  hg_jw_end_array(w);
}

static void finding(const hg_report_input *in, void *state, const hg_finding *f) {
  json_state *js = state;
  // pass | fail, or the named exception that decided it: suppressed (ignore[...]), allowed
  // (allow[...] relaxed what was missing and the site passes)
  const char *verdict = f->suppression == HG_SUPPRESSION_SUPPRESSED ? "suppressed"
                        : f->rule != HG_RULE_NONE                  ? "fail"
                        : f->suppression == HG_SUPPRESSION_ALLOWED ? "allowed"
                                                                   : "pass";
  hg_jw w = hg_jw_item(&js->out, &js->sites, 4);
  hg_jw_object(&w);
  hg_jw_field_string(&w, "path", f->path);
  hg_jw_field_int(&w, "line", (long long)f->line);
  hg_jw_field_int(&w, "column", (long long)f->col);
  hg_jw_field_int(&w, "end_line", (long long)f->end_line);
  hg_jw_field_int(&w, "end_column", (long long)f->end_col);
  hg_jw_field_string(&w, "kind", f->kind);
  hg_jw_field_string(&w, "verdict", verdict);
  hg_jw_field_string(&w, "via", hg_via_names[f->via]);
  hg_jw_key(&w, "rules");
  hg_jw_array(&w);
  if (f->rule != HG_RULE_NONE) hg_jw_string(&w, hg_rules[f->rule].id);
  for (int r = 0; r < HG_RULE_COUNT; r++)
    if (f->also & (UINT32_C(1) << r)) hg_jw_string(&w, hg_rules[r].id);
  hg_jw_end_array(&w);
  hg_jw_key(&w, "missing");
  hg_jw_array(&w);
  for (size_t i = 0; i < f->n_missing; i++) hg_jw_string(&w, f->missing[i]);
  hg_jw_end_array(&w);
  hg_jw_field_string(&w, "message", f->message ? f->message : "");
  hg_jw_field_string(&w, "dialect", f->dialect);
  hg_jw_field_string(&w, "fix", f->fix);
  hg_jw_key(&w, "effective");
  effective(&w, f);
  if (f->n_related) {
    // The calls of the calling contexts that fail: the callers that must change.
    hg_jw_key(&w, "related");
    hg_jw_array(&w);
    for (size_t i = 0; i < f->n_related; i++) {
      hg_jw_object(&w);
      hg_jw_field_string(&w, "path", f->related[i].path);
      hg_jw_field_int(&w, "line", (long long)f->related[i].line);
      hg_jw_field_int(&w, "column", (long long)f->related[i].col);
      hg_jw_field_string(&w, "message", f->related[i].message);
      hg_jw_end_object(&w);
    }
    hg_jw_end_array(&w);
  }
  if (f->suppression != HG_SUPPRESSION_NONE) {
    hg_jw_field_string(&w, "suppression", f->suppression == HG_SUPPRESSION_SUPPRESSED ? "suppressed" : "allowed");
    hg_jw_field_string(&w, "justification", f->justification);
  }
  hg_status st = hg_report_status(in, f);
  if (in->baselined) {
    hg_jw_key(&w, "baselined");
    hg_jw_bool(&w, st == HG_STATUS_BASELINED);
  }
  hg_jw_end_object(&w);
  js->totals[st]++;
  fwrite(js->out.data, 1, js->out.len, in->out);
}

// [{path, line, kind, message, reason}], and each one's level when given.
static json_t *relaxations(const hg_relaxations *v, const char *level) {
  json_t *a = json_array();
  for (size_t i = 0; i < v->len; i++) {
    const hg_relaxation *r = &v->items[i];
    json_t *o = json_pack("{s:o, s:I, s:s, s:o}", "path", jstr(r->path), "line", (json_int_t)r->line, "kind",
                          hg_relax_names[r->kind], "message", jstr(r->message));
    json_object_set_new(o, "reason", r->reason ? jstr(r->reason) : json_null());
    if (level) json_object_set_new(o, "level", json_string(level));
    json_array_append_new(a, o);
  }
  return a;
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
  json_t *root = json_pack("{s:o, s:{s:I, s:I, s:I, s:I, s:I, s:I}}", "errors", errors, "summary", "files",
                           (json_int_t)st->files, "parsed", (json_int_t)st->parsed, "modules_indexed",
                           (json_int_t)st->modules_indexed, "sites", (json_int_t)st->sites, "failing",
                           (json_int_t)st->failing, "unreadable", (json_int_t)unreadable);
  // What the run's exceptions account for, zero or not, so a reader sees that nothing was relaxed.
  json_state *js = state;
  const size_t *totals = js->totals;
  json_t *summary = json_object_get(root, "summary");
  json_object_set_new(summary, "excluded", json_integer((json_int_t)st->excluded));
  json_object_set_new(summary, "suppressed", json_integer((json_int_t)totals[HG_STATUS_SUPPRESSED]));
  json_object_set_new(summary, "allowed", json_integer((json_int_t)totals[HG_STATUS_ALLOWED]));
  json_object_set_new(summary, "baselined", json_integer((json_int_t)totals[HG_STATUS_BASELINED]));
  json_object_set_new(summary, "trusted_builders", json_integer(in->gate ? (json_int_t)in->gate->trusted_builders : 0));
  if (in->gate && in->gate->in_force.len) json_object_set_new(root, "relaxations", relaxations(&in->gate->in_force, NULL));
  if (in->gate && in->gate->reviewed) {
    json_object_set_new(summary, "gate_relaxed", json_integer((json_int_t)in->gate->added.len));
    json_object_set_new(root, "gate_relaxed",
                        relaxations(&in->gate->added, hg_report_gate_fails(in) ? "error" : "warning"));
  }
  if (in->baseline_path) {
    json_t *stale = json_array();
    size_t accepted = totals[HG_STATUS_BASELINED];
    for (size_t i = 0; i < in->n_stale; i++) {
      const hg_baseline_entry *e = in->stale[i];
      json_array_append_new(stale, json_pack("{s:I, s:o, s:o, s:o, s:o}", "line", (json_int_t)e->line, "path",
                                             jstr(e->path), "rule", jstr(e->rule), "kind", jstr(e->kind), "code",
                                             jstr(e->code)));
    }
    json_object_set_new(root, "baseline", json_pack("{s:o, s:I, s:o}", "path", jstr(in->baseline_path), "accepted",
                                                    (json_int_t)accepted, "stale", stale));
  }
  fputs(js->sites ? "\n  ],\n" : "],\n", in->out);
  char *text = json_dumps(root, DUMP_FLAGS);
  fputs(text + 2, in->out);  // the rest of the document, after the "{\n" that opened it
  fputc('\n', in->out);
  free(text);
  json_decref(root);
  hg_buf_free(&js->out);
  free(js);
}

const hg_reporter hg_reporter_json = {.name = "json", .streams = true, .begin = begin, .finding = finding, .end = end};
