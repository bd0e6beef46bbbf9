#include "app/check.h"

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "judge/verdict.h"
#include "surfaces/extract.h"
#include "surfaces/parse.h"
#include "judge/suppress.h"
#include "surfaces/node.h"

struct hg_checker {
  TSParser *parser;
  int language; // the surface whose grammar the parser has, -1 before the first file
  hg_extractor *extractor;
  hg_arena *arena;
};

hg_checker *hg_checker_new(void) {
  hg_checker *self = hg_xcalloc(1, sizeof(hg_checker));
  self->parser = ts_parser_new();
  self->language = -1;
  self->extractor = hg_extractor_new();
  self->arena = hg_arena_new();
  return self;
}

void hg_checker_free(hg_checker *self) {
  if (!self)
    return;
  ts_parser_delete(self->parser);
  hg_extractor_free(self->extractor);
  hg_arena_free(self->arena);
  free(self);
}

pcre2_match_data *hg_checker_match_data(hg_checker *self) { return hg_extractor_match_data(self->extractor); }

// The site's line for the caret display, or of a long line the part around the site, an ellipsis
// standing for what is cut (*col: the column the text starts at).
static char *line_text(const hg_source *src, uint32_t offset, uint32_t *col) {
  size_t len;
  bool before, after;
  const char *line = hg_source_window(src, offset, &len, &before, &after, col);
  if (!before && !after)
    return hg_xstrndup(line, len);
  if (before)
    --*col; // the ellipsis stands in the column before the text
  return hg_xasprintf("%s%.*s%s", before ? "…" : "", (int)len, line, after ? "…" : "");
}

// The requirements `allow:` in the config relaxes for the file being checked.
typedef struct {
  uint64_t bits;
  const char *reasons[HG_POLICY_MAX_REQ];
} path_allowance;

// Appends " (allowed <where>: <requirements> -- <why>)" to the verdict's message.
static void note_allowed(hg_verdict *v, const hg_policy *policy, uint64_t bits, const char *where, const char *why) {
  hg_buf msg = {0};
  hg_buf_printf(&msg, "%s (allowed %s:", v->message, where);
  for (size_t r = 0; r < policy->n_req; r++)
    if (bits & (UINT64_C(1) << r))
      hg_buf_printf(&msg, " %s", policy->req[r].id);
  hg_buf_printf(&msg, " -- %s)", why);
  free(v->message);
  v->message = hg_buf_detach(&msg);
}

// Judges one site, applying the named exceptions written at it or for its path: allow[...] and
// `allow:` relax requirements before the verdict, ignore[...] suppresses the finding after it.

// The id of the dialect a site's options were judged in; NULL for sites without options.
static const char *site_dialect(const hg_policy *p, const hg_site *s) {
  if (!hg_readings[s->reads].options || s->region)
    return NULL;
  int d = hg_policy_site_dialect(p, (int)s->reads, (int)s->dialect - 1);
  return d >= 0 ? p->dialects[d].id : NULL;
}

static void check_site(hg_checker *self, const hg_policy *policy, const hg_config *config, const hg_source *src,
                       const hg_site *site, hg_markers *markers, const path_allowance *pa, hg_findings *findings) {
  pcre2_match_data *md = hg_extractor_match_data(self->extractor);
  hg_site s = *site;
  s.allowable = hg_markers_allowable(markers, s.line) | pa->bits;
  hg_verdict v;
  hg_evaluate(&v, policy, config, &s, md);
  const char *allowed_why = NULL, *ignored_why = NULL;
  // The markers that relaxed something are the ones used (the others are reported unused); what
  // no marker at the site relaxed, the config's `allow:` did.
  uint64_t relaxed = v.relaxed ? hg_markers_allow(markers, s.line, v.relaxed, &allowed_why) : 0;
  uint64_t by_config = v.relaxed & ~relaxed & pa->bits;
  if (by_config) {
    const char *why = pa->reasons[__builtin_ctzll(by_config)]; // of the first requirement relaxed
    char *where = hg_xasprintf("for this path by %s", config->path ? config->path : ".hardguard.yml");
    note_allowed(&v, policy, by_config, where, why);
    free(where);
    if (!relaxed)
      allowed_why = why;
  }
  if (relaxed)
    note_allowed(&v, policy, relaxed, "at the site", allowed_why);
  relaxed |= by_config;
  hg_finding f = {
      .path = hg_xstrdup(src->path),
      .line = s.line,
      .col = s.col,
      .end_line = s.end_line,
      .end_col = s.end_col,
      .kind = s.kind,
      .dialect = site_dialect(policy, &s),
      .rule = v.rule,
      .also = v.also,
      .via = v.via,
      .message = v.message,
      .fix = v.fix,
      .effective = v.effective,
      .n_effective = v.n_effective,
      .related = v.related,
      .n_related = v.n_related,
      .at_callers = v.at_callers,
  };
  f.source_line = line_text(src, s.start_byte, &f.source_col);
  for (size_t r = 0; r < policy->n_req; r++)
    if (v.missing & (UINT64_C(1) << r)) {
      f.missing = hg_xrealloc(f.missing, (f.n_missing + 1) * sizeof(char *));
      f.missing[f.n_missing++] = policy->req[r].id;
    }
  if (relaxed) {
    f.suppression = HG_SUPPRESSION_ALLOWED;
    f.justification = hg_xstrdup(allowed_why);
  }
  if (v.rule != HG_RULE_NONE && hg_markers_ignore(markers, s.line, (UINT32_C(1) << v.rule) | v.also, &ignored_why)) {
    f.suppression = HG_SUPPRESSION_SUPPRESSED;
    free(f.justification);
    f.justification = hg_xstrdup(ignored_why);
  }
  HG_VEC_PUSH(findings, f);
}

// Limits past which a file is not parsed but reported: CPython itself refuses more than 200 nested
// brackets, and a line of a megabyte is generated data, on which tree-sitter's time grows too fast
// to bound a pre-commit hook.
enum { MAX_BRACKET_DEPTH = 200, MAX_LINE_BYTES = 1 << 20 };

static void file_error(hg_file_errors *errors, const hg_source *src, hg_file_error_kind kind, uint32_t line,
                       char *message) {
  hg_file_error e = {
      .path = hg_xstrdup(src->path), .kind = kind, .line = line, .col = line ? 1 : 0, .message = message};
  HG_VEC_PUSH(errors, e);
}

// Can this file be parsed at all? Otherwise records why and returns false: UTF-16/32 text (a BOM,
// or NUL bytes in most of the first pairs) is unreadable as Python source here; an overlong line
// is unreadable; brackets nested deeper than Python allows make the file one unparsable region.
// On the way, a lone CR (classic Mac line ending) becomes LF in place: Python ends a line there,
// tree-sitter-python would see a space (and a comment running to the end of the file). Offsets do
// not move, so lines and columns stay those of the file.
// A file the parser is not given records a syntax error at `line` and an unparsable-site finding at
// its first line (any site in it is unjudged); returns false.
static bool not_parsed(hg_source *src, uint32_t line, char *error, char *message, const char *fix,
                       hg_findings *findings, hg_file_errors *errors) {
  file_error(errors, src, HG_FILE_SYNTAX, line, error);
  size_t len;
  const char *text = hg_source_line(src, 0, &len);
  hg_finding f = {.path = hg_xstrdup(src->path),
                  .line = 1,
                  .col = 1,
                  .end_line = 1,
                  .end_col = 1,
                  .kind = "unknown",
                  .rule = HG_RULE_UNPARSABLE_SITE,
                  .source_line = hg_xstrndup(text, len),
                  .message = message,
                  .fix = hg_xstrdup(fix)};
  HG_VEC_PUSH(findings, f);
  return false;
}

static bool parsable(hg_source *src, const hg_surface *sf, hg_findings *findings, hg_file_errors *errors) {
  unsigned char *d = (unsigned char *)src->data;
  size_t n = src->len, mark;
  if (hg_utf8_wide_mark(src->data, n, &mark)) {
    file_error(errors, src, HG_FILE_UNREADABLE, 0,
               hg_xstrdup("UTF-16 or UTF-32 text (byte-order mark); hardguard reads UTF-8 source"));
    return false;
  }
  uint32_t line = 1, depth = 0, max_depth = 0, deep_line = 0;
  size_t line_start = 0;
  // Most bytes are none of the eight this loop looks at: one table look-up passes them.
  static const bool seen[256] = {['\r'] = true, ['\n'] = true, ['('] = true, ['['] = true,
                                 ['{'] = true,   [')'] = true,  [']'] = true, ['}'] = true};
  for (size_t i = 0; i < n; i++) {
    unsigned char c = d[i];
    if (!seen[c])
      continue;
    if (c == '\r' && (i + 1 == n || d[i + 1] != '\n'))
      d[i] = c = '\n';
    if (c == '\n') {
      if (i - line_start > MAX_LINE_BYTES)
        break;
      line++;
      line_start = i + 1;
    } else if (c == '(' || c == '[' || c == '{') {
      if (++depth > max_depth && depth > MAX_BRACKET_DEPTH && !deep_line)
        deep_line = line;
      if (depth > max_depth)
        max_depth = depth;
    } else if ((c == ')' || c == ']' || c == '}') && depth) {
      depth--;
    }
  }
  // The loop stops at the first overlong line, so line_start is its start.
  if (n - line_start > MAX_LINE_BYTES) {
    file_error(errors, src, HG_FILE_UNREADABLE, line,
               hg_xasprintf("line %u is longer than %d bytes", line, MAX_LINE_BYTES));
    return false;
  }
  if (deep_line && sf->bracket_limit)
    return not_parsed(src, deep_line,
                      hg_xasprintf("brackets nested deeper than %d levels at line %u (Python refuses them)",
                                   MAX_BRACKET_DEPTH, deep_line),
                      hg_xasprintf("the file nests brackets deeper than %d levels (line %u), so it was not "
                                   "parsed and any site in it is unjudged",
                                   MAX_BRACKET_DEPTH, deep_line),
                      "flatten the nesting; Python itself rejects this file", findings, errors);
  uint32_t run = sf->comment_run_limit ? hg_comment_run(src->data, src->len, HG_COMMENT_RUN_MAX) : 0;
  if (run)
    return not_parsed(src, run,
                      hg_xasprintf("more than %d comment lines in a row from line %u (tree-sitter-python's parser "
                                   "fails on such a run)",
                                   HG_COMMENT_RUN_MAX, run),
                      hg_xasprintf("the file has more than %d comment lines in a row (from line %u), so it was not "
                                   "parsed and any site in it is unjudged",
                                   HG_COMMENT_RUN_MAX, run),
                      "break the run of comments with code, or move them out of the file", findings, errors);
  return true;
}

void hg_check_source(hg_checker *self, hg_surface_id surface, const hg_ruleset *rules, const hg_config *config,
                     void *project, hg_source *src, hg_findings *findings, hg_file_errors *errors) {
  const hg_surface *sf = hg_surface_get(surface);
  if (!parsable(src, sf, findings, errors))
    return;
  TSTree *tree = NULL;
  if (sf->language) {
    if (self->language != (int)surface) {
      if (!ts_parser_set_language(self->parser, sf->language()))
        abort(); // ABI checked at build (tests load every grammar)
      self->language = (int)surface;
    }
    tree = ts_parser_parse_string(self->parser, NULL, src->data, (uint32_t)src->len);
    if (!tree) {
      hg_file_error e = {.path = hg_xstrdup(src->path),
                         .kind = HG_FILE_UNREADABLE,
                         .message = hg_xstrdup("the parser gave up on this file")};
      HG_VEC_PUSH(errors, e);
      return;
    }
  }
  hg_sites sites = {0};
  sf->extract(self->extractor, rules, config, project, src, tree, self->arena, &sites);
  hg_pos first;
  if (tree && !sites.errors_read && hg_extract_first_error(tree, src, &first)) {
    hg_file_error e = {.path = hg_xstrdup(src->path),
                       .kind = HG_FILE_SYNTAX,
                       .line = first.line,
                       .col = first.col,
                       .message = hg_xasprintf("syntax error at %u:%u; sites in the valid parts were judged",
                                               first.line, first.col)};
    HG_VEC_PUSH(errors, e);
  }
  if (sites.syntax_error) {
    hg_file_error e = {.path = hg_xstrdup(src->path),
                       .kind = HG_FILE_SYNTAX,
                       .line = sites.syntax_at.line,
                       .col = sites.syntax_at.col,
                       .message = hg_xstrdup(sites.syntax_error)};
    HG_VEC_PUSH(errors, e);
  }
  const hg_policy *policy = hg_ruleset_policy(rules);
  hg_markers *markers = hg_markers_parse(self->arena, src, sites.markers, sites.n_markers, policy);
  path_allowance pa = {0};
  if (config->n_allow && sites.len)
    pa.bits = hg_config_allowed(config, policy, src->path, pa.reasons);
  for (size_t i = 0; i < sites.len; i++)
    check_site(self, policy, config, src, &sites.items[i], markers, &pa, findings);
  hg_markers_report(markers, src, findings);
  if (tree)
    hg_tree_delete(tree);
  hg_arena_reset(self->arena);
}
