#include "app/baseline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

static const char HEADER[] =
    "# hardguard baseline: failing findings accepted when it was written. `hardguard --baseline FILE`\n"
    "# fails only on findings not listed here. One finding per line, tab-separated: path (relative to\n"
    "# the repository root), rule, site kind, and the site's first line with whitespace collapsed.\n"
    "# Line numbers are not recorded, so entries survive code moving. Regenerate with\n"
    "# `hardguard --write-baseline FILE`; delete the lines of sites you fix.\n";

void hg_baseline_entry_clear(hg_baseline_entry *self) {
  free(self->path);
  free(self->rule);
  free(self->kind);
  free(self->code);
}

void hg_baseline_free(hg_baseline *self) {
  for (size_t i = 0; i < self->len; i++) hg_baseline_entry_clear(&self->items[i]);
  free(self->items);
  self->items = NULL;
  self->len = self->cap = 0;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

char *hg_code_normalise(const char *line) {
  hg_buf b = {0};
  const char *p = line;
  while (is_space(*p)) p++;
  while (*p) {
    if (is_space(*p)) {
      while (is_space(*p)) p++;
      if (*p) hg_buf_putc(&b, ' ');
    } else {
      hg_buf_putc(&b, *p++);
    }
  }
  return hg_buf_detach(&b);
}

void hg_baseline_escape(hg_buf *out, const char *s) {
  for (const char *p = s; *p;) {
    unsigned char c = (unsigned char)*p;
    size_t n = hg_utf8_seq(p);
    if (c == '\\') hg_buf_puts(out, "\\\\");
    else if (c == '\t') hg_buf_puts(out, "\\t");
    else if (c == '\n') hg_buf_puts(out, "\\n");
    else if (c == '\r') hg_buf_puts(out, "\\r");
    else if (c < 0x20 || c == 0x7F || n == 0 || (c == '#' && p == s)) hg_buf_printf(out, "\\x%02X", c);
    else {
      hg_buf_add(out, p, n);
      p += n;
      continue;
    }
    p++;
  }
}

void hg_baseline_entry_from(hg_baseline_entry *out, const hg_finding *f, const char *relpath) {
  *out = (hg_baseline_entry){
      .path = hg_xstrdup(relpath),
      .rule = hg_xstrdup(f->rule == HG_RULE_NONE ? "" : hg_rules[f->rule].id),
      .kind = hg_xstrdup(f->kind),
      .code = hg_code_normalise(f->source_line ? f->source_line : ""),
  };
}

int hg_baseline_entry_cmp(const hg_baseline_entry *a, const hg_baseline_entry *b) {
  int c;
  if ((c = strcmp(a->path, b->path))) return c;
  if ((c = strcmp(a->rule, b->rule))) return c;
  if ((c = strcmp(a->kind, b->kind))) return c;
  return strcmp(a->code, b->code);
}

static int entry_qsort_cmp(const void *a, const void *b) { return hg_baseline_entry_cmp(a, b); }

void hg_baseline_sort(hg_baseline *self) {
  if (self->len) qsort(self->items, self->len, sizeof(hg_baseline_entry), entry_qsort_cmp);
}

static bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Unescapes one field [s, end) of line `lineno`; -1 with err on a bad escape.
static int unescape(char **out, const char *name, uint32_t lineno, const char *line, const char *s, const char *end,
                    hg_error *err) {
  hg_buf b = {0};
  for (const char *p = s; p < end; p++) {
    if (*p != '\\') {
      hg_buf_putc(&b, *p);
      continue;
    }
    size_t col = (size_t)(p - line) + 1;
    char e = p + 1 < end ? p[1] : '\0';
    if (e == '\\') hg_buf_putc(&b, '\\');
    else if (e == 't') hg_buf_putc(&b, '\t');
    else if (e == 'n') hg_buf_putc(&b, '\n');
    else if (e == 'r') hg_buf_putc(&b, '\r');
    else if (e == 'x' && p + 3 < end && is_hex(p[2]) && is_hex(p[3]) && !(p[2] == '0' && p[3] == '0')) {
      char hex[3] = {p[2], p[3], '\0'};
      hg_buf_putc(&b, (char)strtol(hex, NULL, 16));
      p += 2;
    } else {
      hg_buf_free(&b);
      return hg_error_set(err, "%s:%u:%zu: unknown escape (expected \\\\, \\t, \\n, \\r or \\xHH other than \\x00)",
                          name, lineno, col);
    }
    p++;
  }
  *out = hg_buf_detach(&b);
  return 0;
}

static int parse_line(hg_baseline *out, const char *name, uint32_t lineno, const char *line, const char *end,
                      hg_error *err) {
  const char *field[4], *field_end[4];
  size_t n = 0;
  const char *p = line;
  for (;;) {
    const char *tab = memchr(p, '\t', (size_t)(end - p));
    if (n < 4) {
      field[n] = p;
      field_end[n] = tab ? tab : end;
    }
    n++;
    if (!tab) break;
    p = tab + 1;
  }
  if (n != 4)
    return hg_error_set(err, "%s:%u: expected 4 tab-separated fields (path, rule, kind, code), found %zu", name,
                        lineno, n);
  static const char *const what[] = {"path", "rule", "kind"};
  for (size_t i = 0; i < 3; i++)
    if (field[i] == field_end[i]) return hg_error_set(err, "%s:%u: empty %s", name, lineno, what[i]);
  hg_baseline_entry e = {.line = lineno};
  char **dst[4] = {&e.path, &e.rule, &e.kind, &e.code};
  for (size_t i = 0; i < 4; i++)
    if (unescape(dst[i], name, lineno, line, field[i], field_end[i], err) != 0) {
      hg_baseline_entry_clear(&e);
      return -1;
    }
  HG_VEC_PUSH(out, e);
  return 0;
}

int hg_baseline_parse(hg_baseline *out, const char *name, const char *bytes, size_t len, hg_error *err) {
  size_t at = 0;
  for (uint32_t lineno = 1; at < len; lineno++) {
    const char *p = bytes + at;
    const char *nl = memchr(p, '\n', len - at);
    size_t n = nl ? (size_t)(nl - p) : len - at;
    at += n + (nl != NULL);
    if (n && p[n - 1] == '\r') n--;  // a file saved with CRLF endings
    if (memchr(p, '\0', n)) {
      hg_baseline_free(out);
      return hg_error_set(err, "%s:%u: NUL byte in the baseline", name, lineno);
    }
    if (n && *p != '#' && parse_line(out, name, lineno, p, p + n, err) != 0) {
      hg_baseline_free(out);
      return -1;
    }
  }
  return 0;
}

int hg_baseline_load(hg_baseline *out, const char *path, hg_error *err) {
  char *bytes;
  size_t len;
  if (hg_read_file(&bytes, &len, path, err) != 0) return -1;
  int rc = hg_baseline_parse(out, path, bytes, len, err);
  free(bytes);
  return rc;
}

char *hg_baseline_format(hg_baseline *self) {
  hg_baseline_sort(self);
  hg_buf b = {0};
  hg_buf_puts(&b, HEADER);
  for (size_t i = 0; i < self->len; i++) {
    const hg_baseline_entry *e = &self->items[i];
    const char *fields[] = {e->path, e->rule, e->kind, e->code};
    for (size_t f = 0; f < 4; f++) {
      if (f) hg_buf_putc(&b, '\t');
      hg_baseline_escape(&b, fields[f]);
    }
    hg_buf_putc(&b, '\n');
  }
  return hg_buf_detach(&b);
}

int hg_baseline_write(const char *path, const hg_findings *findings, const char *const *relpaths, hg_error *err) {
  hg_baseline entries = {0};
  for (size_t i = 0; i < findings->len; i++) {
    if (!hg_finding_fails(&findings->items[i])) continue;
    hg_baseline_entry e;
    hg_baseline_entry_from(&e, &findings->items[i], relpaths[i]);
    HG_VEC_PUSH(&entries, e);
  }
  char *text = hg_baseline_format(&entries);
  hg_baseline_free(&entries);
  // Written next to the target and renamed over it, so a failed write never leaves half a file.
  char *tmp = hg_xasprintf("%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  int rc = 0;
  if (!f) {
    rc = hg_error_set(err, "%s: cannot write: %s", tmp, strerror(errno));
  } else {
    size_t n = strlen(text);
    bool ok = fwrite(text, 1, n, f) == n;
    int saved = errno;
    if (fclose(f) != 0 && ok) ok = false, saved = errno;
    if (!ok) rc = hg_error_set(err, "%s: cannot write: %s", tmp, strerror(saved));
    else if (rename(tmp, path) != 0) rc = hg_error_set(err, "%s: cannot write: %s", path, strerror(errno));
    if (rc != 0) remove(tmp);
  }
  free(tmp);
  free(text);
  return rc;
}

void hg_baseline_match(hg_baseline *self, const hg_findings *findings, const char *const *relpaths, bool *matched,
                       bool *used) {
  hg_baseline_sort(self);
  hg_baseline_match_sorted(self, findings, relpaths, matched, used);
}

void hg_baseline_match_sorted(const hg_baseline *self, const hg_findings *findings, const char *const *relpaths,
                              bool *matched, bool *used) {
  for (size_t i = 0; i < findings->len; i++) {
    if (!hg_finding_fails(&findings->items[i])) continue;
    hg_baseline_entry key;
    hg_baseline_entry_from(&key, &findings->items[i], relpaths[i]);
    // The first entry not below the key, then the first unused one among those equal to it.
    size_t lo = 0, hi = self->len;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (hg_baseline_entry_cmp(&self->items[mid], &key) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (size_t j = lo; j < self->len && hg_baseline_entry_cmp(&self->items[j], &key) == 0; j++)
      if (!used[j]) {
        used[j] = matched[i] = true;
        break;
      }
    hg_baseline_entry_clear(&key);
  }
}

void hg_fingerprint(char out[17], const hg_finding *f, const char *relpath) {
  hg_baseline_entry e;
  hg_baseline_entry_from(&e, f, relpath);
  uint64_t h = HG_HASH_SEED;
  const char *fields[] = {e.path, e.rule, e.kind, e.code};
  for (size_t i = 0; i < 4; i++)
    h = hg_hash_add(h, fields[i], strlen(fields[i]) + 1);  // the NUL separates the fields
  hg_baseline_entry_clear(&e);
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}
