#include "report/jsonw.h"

#include <string.h>

#include "base/utf8.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

hg_jw hg_jw_new(hg_buf *out, size_t indent) { return (hg_jw){out, indent, 0, true, false}; }

hg_jw hg_jw_item(hg_buf *out, size_t *written, size_t indent) {
  out->len = 0;
  if ((*written)++) hg_buf_putc(out, ',');
  hg_buf_putc(out, '\n');
  return hg_jw_new(out, indent);
}

void hg_jw_indent(hg_buf *b, size_t n) {
  static const char run[] = "                                ";
  for (; n > sizeof(run) - 1; n -= sizeof(run) - 1) hg_buf_add(b, run, sizeof(run) - 1);
  hg_buf_add(b, run, n);
}

// What goes before a value or a key: nothing after a key; the base indent before the outermost
// value; else the line break (after a comma unless it is the first) and the indent of its depth.
static void place(hg_jw *w) {
  if (w->keyed) {
    w->keyed = false;
    return;
  }
  if (w->depth) hg_buf_add(w->out, w->empty ? "\n" : ",\n", w->empty ? 1 : 2);
  hg_jw_indent(w->out, w->indent + 2 * (size_t)w->depth);
  w->empty = false;
}

static void begin(hg_jw *w, char c) {
  place(w);
  hg_buf_putc(w->out, c);
  w->depth++;
  w->empty = true;
}

// An empty container closes on its line ("[]"), else on a line of its own at its opening's indent.
static void end(hg_jw *w, char c) {
  w->depth--;
  if (!w->empty) {
    hg_buf_putc(w->out, '\n');
    hg_jw_indent(w->out, w->indent + 2 * (size_t)w->depth);
  }
  hg_buf_putc(w->out, c);
  w->empty = false;
}

void hg_jw_object(hg_jw *w) { begin(w, '{'); }
void hg_jw_array(hg_jw *w) { begin(w, '['); }
void hg_jw_end_object(hg_jw *w) { end(w, '}'); }
void hg_jw_end_array(hg_jw *w) { end(w, ']'); }

static void escape_unit(hg_buf *b, unsigned u) {
  static const char hex[] = "0123456789ABCDEF";
  char e[6] = {'\\', 'u', hex[(u >> 12) & 15], hex[(u >> 8) & 15], hex[(u >> 4) & 15], hex[u & 15]};
  hg_buf_add(b, e, 6);
}

#ifdef __SSE2__
// The bytes of the 16 at p that are not copied as they are: signed, a byte below 0x20 is a
// control character or one past ASCII.
static unsigned odd_bytes(const unsigned char *p) {
  __m128i v = _mm_loadu_si128((const __m128i *)p);
  __m128i odd = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                             _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
  return (unsigned)_mm_movemask_epi8(odd);
}
#endif

// The first byte from p on that is not copied as it is, or end: 16 a step with SSE2, the last ones
// of a string of 16 bytes or more read as the 16 that end it (those before p masked off).
static const unsigned char *plain_run(const unsigned char *s, const unsigned char *p, const unsigned char *end) {
#ifdef __SSE2__
  for (; end - p >= 16; p += 16) {
    unsigned mask = odd_bytes(p);
    if (mask) return p + __builtin_ctz(mask);
  }
  if (p == end) return end;
  if (end - s >= 16) {
    const unsigned char *q = end - 16;
    unsigned mask = odd_bytes(q) & (0xFFFFu << (p - q));
    return mask ? q + __builtin_ctz(mask) : end;
  }
#else
  (void)s;
#endif
  while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\') p++;
  return p;
}

// `s` quoted as jansson quotes it with JSON_ENSURE_ASCII: `"` and `\` escaped, the control
// characters it names by letter so, the others and every code point past ASCII as \uXXXX (upper
// case; past U+FFFF a surrogate pair); `/` and DEL as they are.
static void quoted(hg_buf *b, const char *s) {
  hg_buf_putc(b, '"');
  const unsigned char *p = (const unsigned char *)s, *run = p, *end = p + strlen(s);
  for (;; p++) {
    p = plain_run((const unsigned char *)s, p, end);
    unsigned c = *p;  // the NUL at `end` when no byte before it is to be escaped
    hg_buf_add(b, (const char *)run, (size_t)(p - run));
    if (!c) break;
    const char *named = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\f' ? "\\f"
                        : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
    if (named) {
      hg_buf_add(b, named, 2);
    } else if (c < 0x80) {
      escape_unit(b, c);
    } else {
      size_t n = hg_utf8_seq((const char *)p);
      unsigned cp = 0xFFFD;  // a byte that starts no well-formed sequence (hg_json_string's U+FFFD)
      if (n) {
        cp = n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
        for (size_t i = 1; i < n; i++) cp = (cp << 6) | (p[i] & 0x3F);
        p += n - 1;
      }
      if (cp < 0x10000) {
        escape_unit(b, cp);
      } else {
        cp -= 0x10000;
        escape_unit(b, 0xD800 | (cp >> 10));
        escape_unit(b, 0xDC00 | (cp & 0x3FF));
      }
    }
    run = p + 1;
  }
  hg_buf_putc(b, '"');
}

void hg_jw_key(hg_jw *w, const char *key) {
  place(w);
  quoted(w->out, key);
  hg_buf_add(w->out, ": ", 2);
  w->keyed = true;
}

void hg_jw_string(hg_jw *w, const char *s) {
  place(w);
  quoted(w->out, s);
}

void hg_jw_string_or_null(hg_jw *w, const char *s) {
  if (s)
    hg_jw_string(w, s);
  else
    hg_jw_null(w);
}

void hg_jw_int(hg_jw *w, long long v) {
  place(w);
  hg_buf_put_int(w->out, v);
}

void hg_jw_bool(hg_jw *w, bool v) {
  place(w);
  hg_buf_puts(w->out, v ? "true" : "false");
}

void hg_jw_null(hg_jw *w) {
  place(w);
  hg_buf_add(w->out, "null", 4);
}

void hg_jw_field_string(hg_jw *w, const char *key, const char *v) {
  hg_jw_key(w, key);
  hg_jw_string_or_null(w, v);
}

void hg_jw_field_int(hg_jw *w, const char *key, long long v) {
  hg_jw_key(w, key);
  hg_jw_int(w, v);
}
