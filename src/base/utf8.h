/* UTF-8 for text that comes from files and file names, which may hold any bytes: find the valid
 * sequences, and copy bytes into an output format with each invalid byte replaced or escaped.
 * Pure. */
#ifndef HG_UTF8_H
#define HG_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/** The length (1-4) of the well-formed UTF-8 sequence at `s`, or 0 when the byte at `s` does not
 *  start one (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, or a
 *  sequence cut short by the NUL that ends `s`). */
size_t hg_utf8_seq(const char *s);
/** Appends `s` to `out`, each byte that is not part of a well-formed sequence as U+FFFD. */
void hg_utf8_sanitize(hg_buf *out, const char *s);
/** `s` with invalid bytes as U+FFFD, in a new heap string. */
char *hg_utf8_sanitized(const char *s);
/** `s` for one line of text output: control characters as \n, \t, \r or \xNN, a backslash as
 *  \\, invalid UTF-8 bytes as \xNN; valid UTF-8 as it is. Returns out->data. */
const char *hg_utf8_escaped(hg_buf *out, const char *s);

/** The encoding a byte-order mark at the start of `data` (len bytes) names when it is UTF-16's or
 *  UTF-32's ("UTF-16LE", "UTF-32BE", ...; iconv's names), else NULL; *mark_len receives its length. */
const char *hg_utf8_wide_mark(const char *data, size_t len, size_t *mark_len);
/** Text that starts with such a mark, decoded to UTF-8 (the mark left out) into `out`, from empty
 *  (glibc's iconv), up to a character cut short by the end, if any: false when it has no such mark
 *  or holds a sequence that is no character (an unpaired surrogate, past U+10FFFF). */
bool hg_utf8_from_wide(hg_buf *out, const char *data, size_t len);

#endif
