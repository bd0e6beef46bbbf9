/* SARIF 2.1.0 for code scanning (GitHub's upload-sarif, GitLab, IDE viewers). One run: the driver
 * lists every rule of the catalogue; each site that fails a rule is a result — suppressed ones
 * carry an inSource suppression with its justification, and with --baseline each says whether it
 * is new or unchanged. Passing sites are not results. Files are named relative to the repository
 * root under uriBaseId %SRCROOT%, and each result has a partial fingerprint that ignores line
 * numbers (see hg_fingerprint), so alerts follow code that moves. With --diff, what the change
 * relaxes in the gate is a gate-relaxed result of level warning; what the configuration relaxes is
 * a toolConfigurationNotification. The document around the results is jansson's; each site's
 * result is written with the writer that gives jansson's bytes (jsonw.h). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/jsonw.h"
#include "report/report.h"
#include "report/sarifresult.h"

#ifndef HG_INFORMATION_URI
#define HG_INFORMATION_URI "https://github.com/hardguard/hardguard"
#endif

// Results are written one at a time as they come, as the JSON reporter writes its sites: the bytes
// are those jansson gives for the whole document, which is dumped with an empty results array to
// find what goes before and after them.
typedef struct {
  size_t results;  // written so far
  size_t indent;   // of a result in the document
  // Occurrences of each fingerprint within the current file (findings arrive sorted by path, and
  // the path is part of the fingerprint, so equal ones are never in different files).
  char *path;  // a copy: findings may be freed once reported (hg_report_stream)
  char (*seen)[17];
  size_t n_seen, cap_seen;
  hg_buf out;  // the result being written
} sarif_state;

#define jstr hg_json_string

// "unhardened-site" -> "UnhardenedSite": SARIF's rule name is an identifier-like label.
static json_t *pascal_name(const char *id) {
  hg_buf b = {0};
  bool up = true;
  for (const char *p = id; *p; p++) {
    if (*p == '-' || *p == '_') {
      up = true;
      continue;
    }
    hg_buf_putc(&b, up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p);
    up = false;
  }
  json_t *j = jstr(b.data ? b.data : "");
  hg_buf_free(&b);
  return j;
}

static void md_code_block(hg_buf *b, const char *code) {
  hg_buf_printf(b, "\n```python\n%s\n```\n", code);
}

static json_t *rule_descriptor(const hg_rule *r) {
  hg_buf text = {0}, md = {0};
  hg_buf_printf(&text, "%s\n\nWhy it matters: %s\n\nHow to fix: %s\n\nFails:\n%s\n\nPasses:\n%s\n", r->what, r->why,
                r->fix, r->example_fail, r->example_pass);
  // Prose escaped for Markdown (`**kwargs` is not bold), examples as code blocks.
  hg_markdown_escape(&md, r->what);
  hg_buf_puts(&md, "\n\n**Why it matters.** ");
  hg_markdown_escape(&md, r->why);
  hg_buf_puts(&md, "\n\n**How to fix.** ");
  hg_markdown_escape(&md, r->fix);
  hg_buf_puts(&md, "\n\nFails:\n");
  md_code_block(&md, r->example_fail);
  hg_buf_puts(&md, "\nPasses:\n");
  md_code_block(&md, r->example_pass);
  hg_buf_printf(&md, "\nRun `hardguard --explain %s` for the same text.\n", r->id);
  const char *level = r == &hg_rules[HG_RULE_GATE_RELAXED] ? "warning" : "error";
  json_t *d = json_pack("{s:o, s:o, s:{s:o}, s:{s:o}, s:{s:o, s:o}, s:{s:s}, s:{s:[s, s, s], s:s, s:s}}", "id",
                        jstr(r->id), "name", pascal_name(r->id), "shortDescription", "text", jstr(r->summary),
                        "fullDescription", "text", jstr(r->what), "help", "text", jstr(text.data), "markdown",
                        jstr(md.data), "defaultConfiguration", "level", level, "properties", "tags", "security",
                        "containers", "docker", "precision", "high", "problem.severity", level);
  hg_buf_free(&text);
  hg_buf_free(&md);
  return d;
}

// The same location as jansson's value, for the few that go into the document's notifications:
// written once, by the writer, and read back.
static json_t *location(const char *relpath, uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col) {
  hg_buf b = {0};
  hg_jw w = hg_jw_new(&b, 0);
  hg_sarif_location_open(&w, relpath, line, col, end_line, end_col);
  hg_jw_end_object(&w);
  json_t *loc = json_loads(b.data, 0, NULL);
  hg_buf_free(&b);
  if (!loc) abort();  // the writer's own bytes (or out of memory)
  return loc;
}

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII)
#define RESULTS_KEY "\"results\": ["

// The document with no results, dumped; `invocation` is taken (NULL: an empty one). *at: where
// its results array opens (the '[' after RESULTS_KEY). A sharded run names its shard in
// automationDetails (GitHub's code scanning keeps one analysis per category: the id up to its
// last slash).
static char *document(const hg_report_input *in, json_t *invocation, char **at) {
  json_t *rules = json_array();
  for (size_t i = 0; i < HG_RULE_COUNT; i++) json_array_append_new(rules, rule_descriptor(&hg_rules[i]));
  json_t *run = json_pack("{s:{s:{s:s, s:s, s:s, s:s, s:o}}, s:s, s:[], s:[o]}", "tool", "driver", "name", "hardguard",
                          "version", HG_VERSION, "semanticVersion", HG_VERSION, "informationUri", HG_INFORMATION_URI,
                          "rules", rules, "columnKind", "unicodeCodePoints", "results", "invocations",
                          invocation ? invocation : json_object());
  if (in->automation_id) json_object_set_new(run, "automationDetails", json_pack("{s:s}", "id", in->automation_id));
  json_t *root = json_pack("{s:s, s:s, s:[o]}", "$schema",
                           "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
                           "version", "2.1.0", "runs", run);
  char *text = json_dumps(root, DUMP_FLAGS);
  json_decref(root);
  *at = strstr(strstr(text, "\"columnKind\""), RESULTS_KEY) + strlen(RESULTS_KEY) - 1;
  return text;
}

static void begin(const hg_report_input *in, void **state) {
  sarif_state *s = hg_xcalloc(1, sizeof(sarif_state));
  char *at, *text = document(in, NULL, &at);
  fwrite(text, 1, (size_t)(at + 1 - text), in->out);
  // A result's indent: the key's, one level deeper.
  const char *key = at - strlen(RESULTS_KEY) + 1, *line = key;
  while (line > text && line[-1] != '\n') line--;
  s->indent = (size_t)(key - line) + 2;
  free(text);
  *state = s;
}

// A result given as jansson's value (gate-relaxed: a few per run).
static void put_result(const hg_report_input *in, sarif_state *s, json_t *r) {
  fputs(s->results++ ? ",\n" : "\n", in->out);
  hg_json_dump_indented(in->out, r, DUMP_FLAGS, s->indent);
  json_decref(r);
}

static unsigned occurrence(sarif_state *s, const char *path, const char fp[17]) {
  if (!s->path || strcmp(s->path, path) != 0) {
    s->n_seen = 0;
    free(s->path);
    s->path = hg_xstrdup(path);
  }
  unsigned n = 1;
  for (size_t i = 0; i < s->n_seen; i++) n += strcmp(s->seen[i], fp) == 0;
  if (s->n_seen == s->cap_seen) {
    s->cap_seen = s->cap_seen ? 2 * s->cap_seen : 16;
    s->seen = hg_xrealloc(s->seen, s->cap_seen * sizeof(*s->seen));
  }
  memcpy(s->seen[s->n_seen++], fp, 17);
  return n;
}

static void finding(const hg_report_input *in, void *state, const hg_finding *f) {
  sarif_state *s = state;
  hg_status st = hg_report_status(in, f);
  if (f->rule == HG_RULE_NONE) return;  // passing sites (allowed ones too) are not results
  const char *path = hg_report_path(in, f);
  char fp[17];
  hg_fingerprint(fp, f, path);
  char *fingerprint = hg_xasprintf("%s:%u", fp, occurrence(s, path, fp));
  hg_buf msg = {0};
  hg_buf_puts(&msg, f->message ? f->message : hg_rules[f->rule].summary);
  if (f->fix) hg_buf_printf(&msg, "\nFix: %s", f->fix);
  hg_jw w = hg_jw_item(&s->out, &s->results, s->indent);
  hg_sarif_result(&w, in, f, st, path, fingerprint, msg.data);
  fwrite(s->out.data, 1, s->out.len, in->out);
  free(fingerprint);
  hg_buf_free(&msg);
}

static json_t *notification(const char *level, const char *text, json_t *loc) {
  return json_pack("{s:s, s:{s:o}, s:[o]}", "level", level, "message", "text", jstr(text), "locations", loc);
}

// What the change relaxes: results of rule gate-relaxed, level warning (error under --strict), on
// the whole line (or file) that relaxes it, with a fingerprint of the file, the kind and the
// message, so that an alert follows the line when it moves. What the configuration relaxes: notes
// about the tool's configuration, with their reasons.
static void gate(const hg_report_input *in, sarif_state *s, json_t *invocation) {
  if (!in->gate) return;
  hg_buf msg = {0}, key = {0};
  const char *level = hg_report_gate_fails(in) ? "error" : "warning";
  for (size_t i = 0; i < in->gate->added.len; i++) {
    const hg_relaxation *r = &in->gate->added.items[i];
    char *path = hg_report_relpath(in, r->path);
    msg.len = key.len = 0;
    hg_report_relaxation(&msg, r);
    hg_buf_printf(&key, "%s%c%s%c%s", path, 0, hg_relax_names[r->kind], 0, msg.data);
    char fp[17];
    snprintf(fp, sizeof(fp), "%016llx", (unsigned long long)hg_hash(key.data, key.len));
    char *fingerprint = hg_xasprintf("%s:%u", fp, occurrence(s, path, fp));
    json_t *loc = location(path, 0, 0, 0, 0);
    if (r->line)
      json_object_set_new(json_object_get(loc, "physicalLocation"), "region",
                          json_pack("{s:I}", "startLine", (json_int_t)r->line));
    put_result(in, s,
               json_pack("{s:s, s:I, s:s, s:{s:o}, s:[o], s:{s:s}, s:{s:s}}", "ruleId", "gate-relaxed", "ruleIndex",
                         (json_int_t)HG_RULE_GATE_RELAXED, "level", level, "message", "text", jstr(msg.data),
                         "locations", loc, "partialFingerprints", "hardguardGate/v1", fingerprint, "properties",
                         "kind", hg_relax_names[r->kind]));
    free(fingerprint);
    free(path);
  }
  free(s->path);
  s->path = NULL;
  hg_buf_free(&key);
  json_t *notes = json_array();
  for (size_t i = 0; i < in->gate->in_force.len; i++) {
    const hg_relaxation *r = &in->gate->in_force.items[i];
    char *path = hg_report_relpath(in, r->path);
    msg.len = 0;
    hg_buf_puts(&msg, "relaxation in force: ");
    hg_report_relaxation(&msg, r);
    json_array_append_new(notes, notification("note", msg.data, location(path, r->line, r->line ? 1 : 0, 0, 0)));
    free(path);
  }
  if (json_array_size(notes)) json_object_set(invocation, "toolConfigurationNotifications", notes);
  json_decref(notes);
  hg_buf_free(&msg);
}

static void end(const hg_report_input *in, void *state) {
  sarif_state *s = state;
  // Files that could not be read or parsed, and stale baseline entries, are notifications about
  // the run, not results.
  json_t *notes = json_array();
  bool ok = true;
  for (size_t i = 0; i < in->errors->len; i++) {
    const hg_file_error *e = &in->errors->items[i];
    char *rel = hg_report_relpath(in, e->path);
    bool syntax = e->kind == HG_FILE_SYNTAX;
    ok &= syntax;
    char *text = syntax ? hg_xstrdup(e->message) : hg_xasprintf("%s; the file was not checked", e->message);
    json_array_append_new(notes, notification(syntax ? "warning" : "error", text,
                                              location(rel, e->line, e->col, 0, 0)));
    free(text);
    free(rel);
  }
  char *baseline = in->n_stale ? hg_report_relpath(in, in->baseline_path) : NULL;
  for (size_t i = 0; i < in->n_stale; i++) {
    const hg_baseline_entry *e = in->stale[i];
    char *text = hg_xasprintf("stale baseline entry: %s: no %s finding (%s) matches `%s` any more; delete the line "
                              "or rerun --write-baseline",
                              e->path, e->rule, e->kind, e->code);
    json_array_append_new(notes, notification("warning", text, location(baseline, e->line, 1, 0, 0)));
    free(text);
  }
  free(baseline);
  json_t *invocation = json_pack("{s:b}", "executionSuccessful", ok);
  if (json_array_size(notes))
    json_object_set(invocation, "toolExecutionNotifications", notes);
  free(s->path);
  s->path = NULL;  // fingerprints counted afresh, per file of the gate
  gate(in, s, invocation);
  json_decref(notes);
  // The results array closes as jansson closes it, then the rest of the document.
  char *at, *text = document(in, invocation, &at);
  if (s->results) fprintf(in->out, "\n%*s]", (int)s->indent - 2, "");
  else fputc(']', in->out);
  fputs(at + 2, in->out);  // after the empty array's "[]"
  fputc('\n', in->out);
  free(text);
  free(s->seen);
  free(s->path);
  hg_buf_free(&s->out);
  free(s);
}

const hg_reporter hg_reporter_sarif = {.name = "sarif", .streams = true, .begin = begin, .finding = finding, .end = end};
