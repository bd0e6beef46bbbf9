/* An edit list: byte ranges of one text and what replaces them (ruff's fix model), applied in one
 * pass when no two overlap; and the text facts a fix keeps (line ending, byte-order mark). Pure. */
#ifndef HG_FIX_EDIT_H
#define HG_FIX_EDIT_H

#include "base/util.h"

/** Replace bytes [start, end) with `text` (owned; "" deletes). start == end inserts. */
typedef struct {
  uint32_t start, end;
  char *text;
} hg_edit;

typedef HG_VEC(hg_edit) hg_edits;

/** Appends an edit (copies `text`). */
void hg_edits_add(hg_edits *self, uint32_t start, uint32_t end, const char *text);
void hg_edits_free(hg_edits *self);
/** Sorts by start (an insertion before a replacement at the same offset). */
void hg_edits_sort(hg_edits *self);

/** `len` bytes of `src` with the edits applied, into `out` (appended). The edits are sorted
 *  first. 0, or -1 when two edits overlap (two insertions at one offset overlap too: their order
 *  would be a guess) or one lies past the end; `out` is then left as it was. */
int hg_edits_apply(hg_edits *self, const char *src, size_t len, hg_buf *out);

/** Where byte `offset` of the old text is in the new one (the edits sorted and applied); an
 *  offset inside a replaced range maps to the start of its replacement. */
uint32_t hg_edits_map(const hg_edits *self, uint32_t offset);

/** The line ending the text uses: "\r\n" when its first line ends so, else "\n". */
const char *hg_text_eol(const char *src, size_t len);
/** The length of a UTF-8 byte-order mark at the start (3), else 0. */
size_t hg_text_bom(const char *src, size_t len);
/** The byte offset of 1-based `line` and `col` (in UTF-8 characters), or `len` past the end. */
uint32_t hg_text_offset(const char *src, size_t len, uint32_t line, uint32_t col);

#endif
