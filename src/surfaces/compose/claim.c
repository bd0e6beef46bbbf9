#include "surfaces/compose/claim.h"

#include <string.h>

#include "model/surface.h"

// The line [a, *end) from `a`, *end at its '\n' or the end.
static size_t line_end(const char *d, size_t n, size_t a) {
  const char *nl = memchr(d + a, '\n', n - a);
  return nl ? (size_t)(nl - d) : n;
}

// Does the text at `p` (up to `e`) start with key `k`, quoted or not, then a colon?
static bool key_is(const char *p, const char *e, const char *k) {
  size_t n = strlen(k);
  char q = (p < e && (*p == '"' || *p == '\'')) ? *p : 0;
  if (q)
    p++;
  if ((size_t)(e - p) < n || memcmp(p, k, n))
    return false;
  p += n;
  if (q) {
    if (p >= e || *p != q)
      return false;
    p++;
  }
  while (p < e && (*p == ' ' || *p == '\t'))
    p++;
  return p < e && *p == ':' && (p + 1 == e || p[1] == ' ' || p[1] == '\t' || p[1] == '\r');
}

// Does a scalar follow the colon of the key at `p` on its line (`image: nginx:1`, not `image:` and
// a mapping below, as a Helm chart's values have it)?
static bool scalar_follows(const char *p, const char *e) {
  const char *c = p + (*p == '"' || *p == '\'') + 5; // past the quote and `image`, before the colon
  while (c < e && *c != ':')
    c++;
  for (c = c < e ? c + 1 : e; c < e && (*c == ' ' || *c == '\t'); c++) {
  }
  return c < e && *c != '#' && *c != '{' && *c != '\r' && *c != '|' && *c != '>';
}

// A flow mapping after `services:` ({app: {image: x}}): any image or build key in it.
static bool flow_holds(const char *p, const char *e) {
  for (; p < e; p++)
    if ((p[0] == '{' || p[0] == ',' || p[0] == ' ') && p + 1 < e &&
        (key_is(p + 1, e, "image") || key_is(p + 1, e, "build")))
      return true;
  return false;
}

bool hg_compose_claims(const char *d, size_t n) {
  if (n > HG_SURFACE_CLAIM_BYTES)
    n = HG_SURFACE_CLAIM_BYTES;
  for (size_t a = 0; a < n;) {
    size_t e = line_end(d, n, a);
    if (key_is(d + a, d + e, "services")) {
      const char *colon = memchr(d + a, ':', e - a);
      const char *v = colon + 1;
      while (v < d + e && (*v == ' ' || *v == '\t'))
        v++;
      if (v < d + e && *v == '{') { // a flow mapping: it runs to the next line at column 0
        size_t b = e;
        while (b + 1 < n && (d[b + 1] == ' ' || d[b + 1] == '\t' || d[b + 1] == '\n' || d[b + 1] == '#'))
          b = line_end(d, n, b + 1);
        return flow_holds(v, d + b);
      }
      // The block mapping: its entries at one indent, their keys deeper.
      size_t entry = 0;
      for (size_t b = e + 1; b < n; b = e + 1) {
        e = line_end(d, n, b);
        size_t k = b;
        while (k < e && (d[k] == ' ' || d[k] == '\t'))
          k++;
        if (k == e || d[k] == '#' || d[k] == '\r')
          continue; // blank or a comment
        size_t indent = k - b;
        if (indent == 0)
          break; // the next top-level key
        if (!entry)
          entry = indent;
        if (indent > entry && ((key_is(d + k, d + e, "image") && scalar_follows(d + k, d + e)) ||
                               key_is(d + k, d + e, "build")))
          return true;
        if (indent == entry && memchr(d + k, '{', e - k) && flow_holds(d + k, d + e))
          return true; // app: {image: x}
      }
      return false;
    }
    a = e + 1;
  }
  return false;
}
