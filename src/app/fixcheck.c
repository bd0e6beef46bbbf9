// Judging an edited text again, for --fix (fixfile.h).
#include "app/fixfile.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"

void hg_fix__position(const char *s, size_t at, uint32_t *line, uint32_t *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < at; i++) {
    if (s[i] == '\n') {
      (*line)++;
      *col = 1;
    } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
      (*col)++;
    }
  }
}

static void check_in(hg_fixer *fx, const hg_projects *projects, hg_surface_id surface, const char *path,
                     const char *bytes, size_t len, hg_fix_checked *out) {
  *out = (hg_fix_checked){0};
  hg_source src;
  hg_source_from_bytes(&src, path, bytes, len);
  hg_check_source(fx->checker, surface, fx->o->rules, fx->o->config, hg_projects_of(projects, surface), &src,
                  &out->findings, &out->errors);
  hg_source_free(&src);
}

void hg_fix__check(hg_fixer *fx, hg_surface_id surface, const char *path, const char *bytes, size_t len,
                   hg_fix_checked *out) {
  check_in(fx, fx->o->projects, surface, path, bytes, len, out);
}

void hg_fix__checked_free(hg_fix_checked *c) {
  hg_findings_free(&c->findings);
  hg_file_errors_free(&c->errors);
}

size_t hg_fix__syntax_errors(const hg_fix_checked *c) {
  size_t n = 0;
  for (size_t i = 0; i < c->errors.len; i++)
    n += c->errors.items[i].kind == HG_FILE_SYNTAX;
  return n;
}

bool hg_fix__same_file(const char *a, const char *b) {
  if (!strcmp(a, b))
    return true;
  char ra[PATH_MAX], rb[PATH_MAX];
  return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

// The finding of c at line:col of kind `kind`, or NULL.
static const hg_finding *found_at(const hg_fix_checked *c, uint32_t line, uint32_t col, const char *kind) {
  for (size_t i = 0; i < c->findings.len; i++) {
    const hg_finding *f = &c->findings.items[i];
    if (f->line == line && f->col == col && !strcmp(f->kind, kind))
      return f;
  }
  return NULL;
}

// Does site `f`, judged again, pass, or at least no longer fail in the calling context whose call
// stands in file `path` at line:col? Sets *why when not.
static bool context_passes(const hg_finding *f, const char *path, uint32_t line, uint32_t col, hg_buf *why) {
  if (!f) {
    hg_buf_puts(why, "the site is not found again after the edit");
    return false;
  }
  bool fails = hg_finding_fails(f);
  for (size_t i = 0; i < f->n_related && fails; i++)
    if (f->related[i].line == line && f->related[i].col == col && hg_fix__same_file(f->related[i].path, path)) {
      hg_buf_puts(why, f->message);
      return false;
    }
  return true;
}

// A caller in another file than its site: the site's file, as it is on disk, judged with a project
// state that reads the caller's file as edited.
static bool elsewhere_passes(hg_fixer *fx, const hg_fixfile *fl, const hg_fixsite *s, const hg_buf *text, uint32_t line, uint32_t col,
                             hg_buf *why) {
  char *bytes = NULL;
  size_t len = 0;
  hg_error e;
  if (hg_read_file(&bytes, &len, s->f->path, &e) != 0) {
    hg_buf_printf(why, "%s", e.message);
    return false;
  }
  hg_projects *p = hg_projects_new(fx->o->rules, fx->o->config, fx->o->start ? fx->o->start : ".");
  hg_projects_overlay(p, fl->path, text->data, text->len);
  hg_fix_checked c;
  check_in(fx, p, fl->surface, s->f->path, bytes, len, &c);
  bool ok = context_passes(found_at(&c, s->f->line, s->f->col, s->f->kind), fl->path, line, col, why);
  hg_fix__checked_free(&c);
  hg_projects_free(p);
  free(bytes);
  return ok;
}

// Does the site at old byte `s->start` pass in the edited text (c: the edited text checked)? A
// caller: does its site no longer fail in this call's context? Sets *why when not.
bool hg_fix__passes(hg_fixer *fx, const hg_fixfile *fl, const hg_fixsite *s, const hg_edits *edits,
                    const hg_buf *text, const hg_fix_checked *c, hg_buf *why) {
  uint32_t at = hg_edits_map(edits, s->start), line, col;
  hg_fix__position(text->data + fl->bom, at, &line, &col);
  if (!s->caller) {
    const hg_finding *f = found_at(c, line, col, s->f->kind);
    if (!f)
      hg_buf_puts(why, "the site is not found again after the edit");
    else if (hg_finding_fails(f))
      hg_buf_puts(why, f->message);
    return f && !hg_finding_fails(f);
  }
  if (!hg_fix__same_file(s->f->path, fl->path))
    return elsewhere_passes(fx, fl, s, text, line, col, why);
  uint32_t site_line, site_col;
  uint32_t judged = hg_text_offset(fl->text.src, fl->text.len, s->f->line, s->f->col);
  hg_fix__position(text->data + fl->bom, hg_edits_map(edits, judged), &site_line, &site_col);
  return context_passes(found_at(c, site_line, site_col, s->f->kind), fl->path, line, col, why);
}
