#include "base/utf8.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <string.h>

size_t hg_utf8_seq(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  if (p[0] < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte (RFC 3629, table 3-7)
  if (p[0] >= 0xC2 && p[0] <= 0xDF) {
    n = 2;
  } else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
    n = 3;
    if (p[0] == 0xE0) lo = 0xA0;       // no overlong forms
    else if (p[0] == 0xED) hi = 0x9F;  // no surrogates
  } else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
    n = 4;
    if (p[0] == 0xF0) lo = 0x90;
    else if (p[0] == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (p[1] < lo || p[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if ((p[i] & 0xC0) != 0x80) return 0;
  return n;
}

void hg_utf8_sanitize(hg_buf *out, const char *s) {
  const char *run = s;  // well-formed bytes not yet appended, added a run at a time
  while (*s) {
    size_t n = (unsigned char)*s < 0x80 ? 1 : hg_utf8_seq(s);
    if (n) {
      s += n;
      continue;
    }
    hg_buf_add(out, run, (size_t)(s - run));
    hg_buf_puts(out, "\xEF\xBF\xBD");
    run = ++s;
  }
  hg_buf_add(out, run, (size_t)(s - run));
}

char *hg_utf8_sanitized(const char *s) {
  hg_buf b = {0};
  hg_utf8_sanitize(&b, s);
  return hg_buf_detach(&b);
}

const char *hg_utf8_escaped(hg_buf *out, const char *s) {
  out->len = 0;
  hg_buf_add(out, "", 0);
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    size_t n = *p >= 0x80 ? hg_utf8_seq((const char *)p) : 1;
    if (*p == '\\') {
      hg_buf_puts(out, "\\\\");
    } else if (*p == '\n') {
      hg_buf_puts(out, "\\n");
    } else if (*p == '\t') {
      hg_buf_puts(out, "\\t");
    } else if (*p == '\r') {
      hg_buf_puts(out, "\\r");
    } else if (*p < 0x20 || *p == 0x7f || n == 0) {
      hg_buf_printf(out, "\\x%02x", *p);
      n = 1;
    } else {
      hg_buf_add(out, (const char *)p, n);
    }
    p += n ? n : 1;
  }
  return out->data;
}

const char *hg_utf8_wide_mark(const char *data, size_t len, size_t *mark_len) {
  static const struct {
    const char *mark;
    size_t len;
    const char *name;
  } marks[] = {  // UTF-32LE's mark starts as UTF-16LE's: the longer first
      {"\xFF\xFE\0\0", 4, "UTF-32LE"},
      {"\0\0\xFE\xFF", 4, "UTF-32BE"},
      {"\xFF\xFE", 2, "UTF-16LE"},
      {"\xFE\xFF", 2, "UTF-16BE"},
  };
  for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
    if (len >= marks[i].len && !memcmp(data, marks[i].mark, marks[i].len)) {
      *mark_len = marks[i].len;
      return marks[i].name;
    }
  return NULL;
}

bool hg_utf8_from_wide(hg_buf *out, const char *data, size_t len) {
  size_t mark;
  const char *name = hg_utf8_wide_mark(data, len, &mark);
  out->len = 0;
  if (!name) return false;
  iconv_t cd = iconv_open("UTF-8", name);
  if (cd == (iconv_t)-1) return false;
  char *in = (char *)(uintptr_t)(data + mark);
  size_t left = len - mark;
  bool ok = true;
  while (ok && left) {
    hg_buf_grow(out, left * 2 + 16);
    char *o = out->data + out->len;
    size_t room = out->cap - out->len - 1, before = room;
    ok = iconv(cd, &in, &left, &o, &room) != (size_t)-1 || errno == E2BIG || errno == EINVAL;
    out->len += before - room;
    if (ok && left && errno == EINVAL) break;  // a character cut short by the end: the text ends before it
  }
  iconv_close(cd);
  if (out->data) out->data[out->len] = '\0';
  return ok;
}
