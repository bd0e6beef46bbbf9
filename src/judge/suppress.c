#include "judge/suppress.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef enum { MARK_ALLOW, MARK_IGNORE } mark_kind;

typedef struct {
  const hg_marker_comment *comment;
  mark_kind kind;
  uint64_t ids;        // ALLOW: requirement bits; IGNORE: rule bits
  const char *reason;  // in the arena; NULL when missing
  const char *problem; // why the marker is bad (arena), NULL when it is good
  uint32_t applies_to; // the line whose sites it covers
  bool used;
} marker;

struct hg_markers {
  marker *items;
  size_t len;
};

static const char *skip_space(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\r')
    p++; // a CRLF file's comment ends in \r
  return p;
}

// Parses `allow[a, b] -- reason` / `ignore[...] -- reason` after "hardguard:"; sets m->problem
// (arena text) when it is not a valid marker.
static void parse(hg_arena *a, const hg_policy *policy, const char *text, marker *m) {
  char buf[512];
  const char *p = skip_space(text);
  if (!strncmp(p, "allow[", 6)) {
    m->kind = MARK_ALLOW;
    p += 6;
  } else if (!strncmp(p, "ignore[", 7)) {
    m->kind = MARK_IGNORE;
    p += 7;
  } else {
    m->problem = "a marker reads `# hardguard: allow[requirement] -- reason` or "
                 "`# hardguard: ignore[rule] -- reason`";
    return;
  }
  const char *close = strchr(p, ']');
  if (!close) {
    m->problem = "the list of ids is not closed with `]`";
    return;
  }
  size_t count = 0;
  while (p < close) {
    p = skip_space(p);
    const char *e = p;
    while (e < close && *e != ',')
      e++;
    const char *end = e;
    while (end > p && isspace((unsigned char)end[-1]))
      end--;
    size_t n = (size_t)(end - p);
    if (n == 0 || n >= 128) {
      m->problem = "an empty or overlong id in the list";
      return;
    }
    char id[128];
    memcpy(id, p, n);
    id[n] = '\0';
    size_t index = 0;
    const hg_rule *rule = NULL;
    if (m->kind == MARK_ALLOW && hg_policy_requirement(policy, id, &index)) {
      m->ids |= UINT64_C(1) << index;
    } else if (m->kind == MARK_IGNORE && (rule = hg_rule_find(id)) != NULL) {
      m->ids |= UINT64_C(1) << (rule - hg_rules);
    } else {
      snprintf(buf, sizeof(buf), "unknown %s `%s` (see hardguard --list-rules)",
               m->kind == MARK_ALLOW ? "requirement" : "rule", id);
      m->problem = hg_arena_strndup(a, buf, strlen(buf));
      return;
    }
    count++;
    p = e < close ? e + 1 : e;
  }
  if (count == 0) {
    m->problem = "the marker names no id";
    return;
  }
  p = skip_space(close + 1);
  if (strncmp(p, "--", 2) != 0 || *skip_space(p + 2) == '\0') {
    m->problem = "the marker gives no reason: add `-- why this exception is needed`";
    return;
  }
  p = skip_space(p + 2);
  size_t n = strlen(p);
  while (n && isspace((unsigned char)p[n - 1]))
    n--;
  if (n >= 2 && !strncmp(p + n - 2, "*/", 2)) // the end of a /* ... */ comment
    for (n -= 2; n && isspace((unsigned char)p[n - 1]);)
      n--;
  m->reason = hg_arena_strndup(a, p, n);
}

// Is the comment the only thing on its line?
static bool alone(const hg_source *src, uint32_t start) {
  while (start > 0 && src->data[start - 1] != '\n') {
    char ch = src->data[--start];
    if (ch != ' ' && ch != '\t')
      return false;
  }
  return true;
}

hg_markers *hg_markers_parse(hg_arena *arena, const hg_source *src, const hg_marker_comment *comments, size_t n,
                             const hg_policy *policy) {
  hg_markers *self = hg_arena_alloc(arena, sizeof(hg_markers));
  self->items = hg_arena_alloc(arena, (n ? n : 1) * sizeof(marker));
  for (size_t i = 0; i < n; i++) {
    // Only a comment that starts with "hardguard:" is a marker; a mention elsewhere in a comment
    // ("see the hardguard: docs") is prose.
    // After the comment's opener: `#` (Python, shell, YAML, make), `//` or `/*` (JSON with comments).
    const char *c = comments[i].text;
    const char *t = skip_space(c + (c[0] == '/' && (c[1] == '/' || c[1] == '*') ? 2 : 1));
    if (strncmp(t, "hardguard:", 10) != 0)
      continue;
    marker *m = &self->items[self->len++];
    m->comment = &comments[i];
    m->applies_to = comments[i].line + (alone(src, comments[i].start_byte) ? 1 : 0);
    parse(arena, policy, t + 10, m);
  }
  return self;
}

uint64_t hg_markers_allowable(const hg_markers *self, uint32_t line) {
  uint64_t named = 0;
  for (size_t i = 0; i < self->len; i++) {
    const marker *m = &self->items[i];
    if (!m->problem && m->kind == MARK_ALLOW && m->applies_to == line)
      named |= m->ids;
  }
  return named;
}

uint64_t hg_markers_allow(hg_markers *self, uint32_t line, uint64_t missing, const char **reason) {
  uint64_t relaxed = 0;
  for (size_t i = 0; i < self->len; i++) {
    marker *m = &self->items[i];
    if (m->problem || m->kind != MARK_ALLOW || m->applies_to != line || !(m->ids & missing))
      continue;
    if (!relaxed)
      *reason = m->reason;
    relaxed |= m->ids & missing;
    m->used = true;
  }
  return relaxed;
}

bool hg_markers_ignore(hg_markers *self, uint32_t line, uint32_t rules, const char **reason) {
  uint64_t named = 0;
  for (size_t i = 0; i < self->len; i++) {
    const marker *m = &self->items[i];
    if (!m->problem && m->kind == MARK_IGNORE && m->applies_to == line)
      named |= m->ids;
  }
  if (!rules || (rules & ~named))
    return false;
  bool first = true;
  for (size_t i = 0; i < self->len; i++) {
    marker *m = &self->items[i];
    if (m->problem || m->kind != MARK_IGNORE || m->applies_to != line || !(m->ids & rules))
      continue;
    if (first)
      *reason = m->reason;
    first = false;
    m->used = true;
  }
  return true;
}

void hg_markers_report(const hg_markers *self, const hg_source *src, hg_findings *out) {
  for (size_t i = 0; i < self->len; i++) {
    const marker *m = &self->items[i];
    if (!m->problem && m->used)
      continue;
    size_t len;
    const char *line = hg_source_line(src, m->comment->start_byte, &len);
    hg_finding f = {
        .path = hg_xstrdup(src->path),
        .line = m->comment->line,
        .col = m->comment->col,
        .end_line = m->comment->line,
        .end_col = m->comment->col + 1,
        .kind = "marker",
        .source_line = hg_xstrndup(line, len),
    };
    if (m->problem) {
      f.rule = HG_RULE_BAD_SUPPRESSION;
      f.message = hg_xasprintf("invalid hardguard marker: %s", m->problem);
      f.fix = hg_xstrdup("write `# hardguard: allow[<requirement>] -- <reason>` or "
                         "`# hardguard: ignore[<rule>] -- <reason>` on the site's line or the line above");
    } else {
      f.rule = HG_RULE_UNUSED_SUPPRESSION;
      f.message = hg_xstrdup(m->kind == MARK_ALLOW
                                 ? "this allow[...] marker relaxes nothing: no site on its line (or the next) "
                                   "misses what it names"
                                 : "this ignore[...] marker suppresses nothing: no finding on its line (or the "
                                   "next) has only the rules it names");
      f.fix = hg_xstrdup("remove the marker, or move it to the site it is meant for");
    }
    HG_VEC_PUSH(out, f);
  }
}
