/* Writing JSON value by value into a buffer, in exactly the bytes jansson's json_dumps gives with
 * JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII for the same values in the same order
 * (unit/jsonw holds the two equal on random documents), each line after a base indent. The JSON
 * reporter writes each site with it: a site dumped through jansson's objects cost ~117 instructions
 * per byte of output (building the objects, sorting each object's keys back into their order,
 * writing token by token), this ~10. Strings are written as hg_json_string makes them: a byte that
 * is not part of well-formed UTF-8 stands for U+FFFD. */
#ifndef HG_REPORT_JSONW_H
#define HG_REPORT_JSONW_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

typedef struct {
  hg_buf *out;     // appended to
  size_t indent;   // spaces before every line
  unsigned depth;  // containers open
  bool empty;      // the innermost one holds nothing yet
  bool keyed;      // a key was just written: its value follows on its line
} hg_jw;

/** A writer appending to `out`, each line after `indent` spaces. */
hg_jw hg_jw_new(hg_buf *out, size_t indent);
/** A writer for the next item of an array written item by item (a report's sites or results):
 *  `out` emptied, then the line break that goes before the item (after a comma unless *written
 *  is 0), *written counted up; the item's lines after `indent` spaces. */
hg_jw hg_jw_item(hg_buf *out, size_t *written, size_t indent);
/** Appends `n` spaces. */
void hg_jw_indent(hg_buf *out, size_t n);
void hg_jw_object(hg_jw *w);
void hg_jw_array(hg_jw *w);
/** Closes the innermost object or array. */
void hg_jw_end_object(hg_jw *w);
void hg_jw_end_array(hg_jw *w);
/** A key of the innermost object: its value is the next one written. */
void hg_jw_key(hg_jw *w, const char *key);
void hg_jw_string(hg_jw *w, const char *s);
/** `s`, or null when it is NULL. */
void hg_jw_string_or_null(hg_jw *w, const char *s);
void hg_jw_int(hg_jw *w, long long v);
void hg_jw_bool(hg_jw *w, bool v);
void hg_jw_null(hg_jw *w);
/** A key and its value, in one call: a string (null when NULL), an integer. */
void hg_jw_field_string(hg_jw *w, const char *key, const char *v);
void hg_jw_field_int(hg_jw *w, const char *key, long long v);

#endif
