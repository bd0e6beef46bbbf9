#include "report/sarifresult.h"

#include <stdlib.h>
#include <string.h>

#include "app/fix.h"

#define FINGERPRINT_KEY "hardguardSite/v1"

// An artifactLocation's fields: within the repository root, relative to %SRCROOT%; outside it,
// an absolute file URI with no base.
static void artifact(hg_jw *w, const char *relpath) {
  hg_buf b = {0};
  if (relpath[0] == '/') hg_buf_puts(&b, "file://");
  hg_uri_escape_path(&b, relpath);
  hg_jw_object(w);
  hg_jw_key(w, "uri");
  hg_jw_string(w, b.data ? b.data : "");
  if (relpath[0] != '/') {
    hg_jw_key(w, "uriBaseId");
    hg_jw_string(w, "%SRCROOT%");
  }
  hg_jw_end_object(w);
  hg_buf_free(&b);
}

// {"text": text} under `key`: a message, a description, inserted content.
static void text_field(hg_jw *w, const char *key, const char *text) {
  hg_jw_key(w, key);
  hg_jw_object(w);
  hg_jw_field_string(w, "text", text);
  hg_jw_end_object(w);
}

void hg_sarif_location_open(hg_jw *w, const char *relpath, uint32_t line, uint32_t col, uint32_t end_line,
                            uint32_t end_col) {
  hg_jw_object(w);
  hg_jw_key(w, "physicalLocation");
  hg_jw_object(w);
  hg_jw_key(w, "artifactLocation");
  artifact(w, relpath);
  if (line) {
    hg_jw_key(w, "region");
    hg_jw_object(w);
    hg_jw_field_int(w, "startLine", line);
    hg_jw_field_int(w, "startColumn", col ? col : 1);
    if (end_line) {
      hg_jw_field_int(w, "endLine", end_line);
      hg_jw_field_int(w, "endColumn", end_col ? end_col : 1);
    }
    hg_jw_end_object(w);
  }
  hg_jw_end_object(w);
}

// The fix --fix would apply: the site's replacements and the import it needs.
static void fixes(hg_jw *w, const hg_fix_outcome *fx, const char *path) {
  hg_jw_key(w, "fixes");
  hg_jw_array(w);
  hg_jw_object(w);
  text_field(w, "description", fx->text);
  hg_jw_key(w, "artifactChanges");
  hg_jw_array(w);
  hg_jw_object(w);
  hg_jw_key(w, "artifactLocation");
  artifact(w, path);
  hg_jw_key(w, "replacements");
  hg_jw_array(w);
  for (size_t i = 0; i < fx->n_changes; i++) {
    const hg_fix_change *c = &fx->changes[i];
    hg_jw_object(w);
    hg_jw_key(w, "deletedRegion");
    hg_jw_object(w);
    hg_jw_field_int(w, "startLine", c->line);
    hg_jw_field_int(w, "startColumn", c->col);
    hg_jw_field_int(w, "endLine", c->end_line);
    hg_jw_field_int(w, "endColumn", c->end_col);
    hg_jw_end_object(w);
    text_field(w, "insertedContent", c->text);
    hg_jw_end_object(w);
  }
  hg_jw_end_array(w);
  hg_jw_end_object(w);
  hg_jw_end_array(w);
  hg_jw_end_object(w);
  hg_jw_end_array(w);
}

// One of a result's related locations, numbered from 0 by *n (the first opens the array).
static void related(hg_jw *w, size_t *n, const char *relpath, uint32_t line, uint32_t col, uint32_t end_line,
                    uint32_t end_col, const char *message) {
  if (!*n) {
    hg_jw_key(w, "relatedLocations");
    hg_jw_array(w);
  }
  hg_sarif_location_open(w, relpath, line, col, end_line, end_col);
  hg_jw_field_int(w, "id", (long long)(*n)++);
  text_field(w, "message", message);
  hg_jw_end_object(w);
}

void hg_sarif_result(hg_jw *w, const hg_report_input *in, const hg_finding *f, hg_status st, const char *path,
                     const char *fingerprint, const char *message) {
  hg_jw_object(w);
  hg_jw_field_string(w, "ruleId", hg_rules[f->rule].id);
  hg_jw_field_int(w, "ruleIndex", (long long)f->rule);
  hg_jw_field_string(w, "level", "error");
  text_field(w, "message", message);
  hg_jw_key(w, "locations");
  hg_jw_array(w);
  hg_sarif_location_open(w, path, f->line, f->col, f->end_line, f->end_col);
  hg_jw_end_object(w);
  hg_jw_end_array(w);
  hg_jw_key(w, "partialFingerprints");
  hg_jw_object(w);
  hg_jw_field_string(w, FINGERPRINT_KEY, fingerprint);
  hg_jw_end_object(w);
  hg_jw_key(w, "properties");
  hg_jw_object(w);
  hg_jw_field_string(w, "kind", f->kind);
  hg_jw_field_string(w, "via", hg_via_names[f->via]);
  hg_jw_key(w, "missing");
  hg_jw_array(w);
  for (size_t i = 0; i < f->n_missing; i++) hg_jw_string(w, f->missing[i]);
  hg_jw_end_array(w);
  // What reached the site, and the lines in other files (a builder, a constant) it came from.
  hg_jw_key(w, "effective");
  hg_jw_array(w);
  char **epaths = hg_xcalloc(f->n_effective ? f->n_effective : 1, sizeof(char *));
  size_t n_related = 0;
  for (size_t i = 0; i < f->n_effective; i++) {
    const hg_effect *e = &f->effective[i];
    hg_jw_object(w);
    hg_report_effect_head(w, e);
    if (e->value) hg_jw_field_string(w, "value", e->value);
    epaths[i] = e->line ? hg_report_relpath(in, e->path ? e->path : f->path) : NULL;
    if (epaths[i]) {
      hg_jw_field_string(w, "path", epaths[i]);
      hg_jw_field_int(w, "line", e->line);
    }
    if (e->via) hg_jw_field_string(w, "via", e->via);
    hg_jw_end_object(w);
  }
  hg_jw_end_array(w);
  hg_jw_end_object(w);
  // Each line in another file once, then the calls of the calling contexts that fail: the
  // callers that must change.
  for (size_t i = 0; i < f->n_effective; i++) {
    const hg_effect *e = &f->effective[i];
    bool seen = false;
    for (size_t k = 0; k < i && e->path && !seen; k++)
      seen = f->effective[k].path && !strcmp(f->effective[k].path, e->path) && f->effective[k].line == e->line;
    if (e->path && !seen) related(w, &n_related, epaths[i], e->line, 0, 0, 0, e->via ? e->via : e->id);
  }
  for (size_t i = 0; i < f->n_effective; i++) free(epaths[i]);
  free(epaths);
  for (size_t i = 0; i < f->n_related; i++) {
    char *rpath = hg_report_relpath(in, f->related[i].path);
    related(w, &n_related, rpath, f->related[i].line, f->related[i].col, f->related[i].end_line,
            f->related[i].end_col, f->related[i].message);
    free(rpath);
  }
  if (n_related) hg_jw_end_array(w);
  if (st == HG_STATUS_SUPPRESSED) {
    hg_jw_key(w, "suppressions");
    hg_jw_array(w);
    hg_jw_object(w);
    hg_jw_field_string(w, "kind", "inSource");
    hg_jw_field_string(w, "status", "accepted");
    if (f->justification) hg_jw_field_string(w, "justification", f->justification);
    hg_jw_end_object(w);
    hg_jw_end_array(w);
  }
  const hg_fix_outcome *fx = hg_fix_report_find(in->fixes, f->path, f->line, f->col, f->rule);
  if (fx && fx->status == HG_FIX_FIXED) fixes(w, fx, path);
  if (in->baselined && hg_finding_fails(f))
    hg_jw_field_string(w, "baselineState", st == HG_STATUS_BASELINED ? "unchanged" : "new");
  hg_jw_end_object(w);
}
