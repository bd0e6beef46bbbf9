#include "fix/diff.h"

#include <stdlib.h>
#include <string.h>

enum { CONTEXT = 3 };

typedef HG_VEC(uint32_t) offsets;

// Index of the line (0-based) holding byte `at`: the last line start <= at.
static size_t line_at(const offsets *starts, uint32_t at) {
  size_t lo = 0, hi = starts->len;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (starts->items[mid] <= at)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Appends the lines of `text` (n bytes), each prefixed with `mark`; returns how many.
static size_t put_lines(hg_buf *out, char mark, const char *text, size_t n) {
  size_t count = 0;
  for (size_t i = 0; i < n;) {
    const char *nl = memchr(text + i, '\n', n - i);
    size_t end = nl ? (size_t)(nl - text) + 1 : n;
    hg_buf_putc(out, mark);
    hg_buf_add(out, text + i, end - i);
    if (!nl)
      hg_buf_puts(out, "\n\\ No newline at end of file\n");
    count++;
    i = end;
  }
  return count;
}

void hg_diff_unified(hg_buf *out, const char *path, const char *src, size_t len, const hg_edits *edits) {
  if (!edits->len)
    return;
  offsets starts = {0};
  HG_VEC_PUSH(&starts, 0);
  for (size_t i = 0; i < len; i++)
    if (src[i] == '\n' && i + 1 < len)
      HG_VEC_PUSH(&starts, (uint32_t)(i + 1));
  size_t n_lines = len ? starts.len : 0;
  // The byte just past line k (its line ending included).
#define LINE_END(k) ((k) + 1 < starts.len ? starts.items[(k) + 1] : (uint32_t)len)
  hg_buf_printf(out, "--- a/%s\n+++ b/%s\n", path, path);
  long shift = 0; // new line numbers minus old ones, from the hunks before
  for (size_t g = 0; g < edits->len;) {
    // A hunk: the edits whose changed lines lie within 2 * CONTEXT lines of each other.
    size_t first = line_at(&starts, edits->items[g].start), last = first, h = g;
    for (; h < edits->len; h++) {
      const hg_edit *e = &edits->items[h];
      size_t f = line_at(&starts, e->start), l = line_at(&starts, e->end > e->start ? e->end - 1 : e->start);
      if (h > g && f > last + 2 * CONTEXT)
        break;
      if (l > last)
        last = l;
    }
    size_t from = first > CONTEXT ? first - CONTEXT : 0;
    size_t to = n_lines && last + CONTEXT < n_lines ? last + CONTEXT : (n_lines ? n_lines - 1 : 0);
    // The hunk's lines: context, and each change (edits sharing lines) as its old and new lines.
    hg_buf body = {0};
    size_t old_count = to - from + 1, new_count = old_count;
    size_t line = from; // the next old line to show
    for (size_t k = g; k < h;) {
      size_t cf = line_at(&starts, edits->items[k].start), cl = cf, m = k;
      for (; m < h; m++) {
        const hg_edit *e = &edits->items[m];
        size_t f = line_at(&starts, e->start), l = line_at(&starts, e->end > e->start ? e->end - 1 : e->start);
        if (m > k && f > cl)
          break;
        if (l > cl)
          cl = l;
      }
      const hg_edit *e0 = &edits->items[k];
      size_t tl = strlen(e0->text);
      if (m == k + 1 && e0->start == e0->end && e0->start == starts.items[cf] && tl && e0->text[tl - 1] == '\n') {
        // Whole lines inserted before line cf: no old line changes.
        put_lines(&body, ' ', src + starts.items[line], starts.items[cf] - starts.items[line]);
        new_count += put_lines(&body, '+', e0->text, tl);
        line = cf;
        k = m;
        continue;
      }
      uint32_t region_start = starts.items[cf], region_end = LINE_END(cl), at = region_start;
      hg_buf region = {0};
      for (size_t q = k; q < m; q++) {
        hg_buf_add(&region, src + at, edits->items[q].start - at);
        hg_buf_puts(&region, edits->items[q].text);
        at = edits->items[q].end;
      }
      hg_buf_add(&region, src + at, region_end - at);
      put_lines(&body, ' ', src + starts.items[line], region_start - starts.items[line]);
      size_t removed = put_lines(&body, '-', src + region_start, region_end - region_start);
      size_t added = put_lines(&body, '+', region.data ? region.data : "", region.len);
      new_count = new_count - removed + added;
      hg_buf_free(&region);
      line = cl + 1;
      k = m;
    }
    if (line <= to)
      put_lines(&body, ' ', src + starts.items[line], LINE_END(to) - starts.items[line]);
    hg_buf_printf(out, "@@ -%zu,%zu +%ld,%zu @@\n", from + 1, old_count, (long)(from + 1) + shift, new_count);
    hg_buf_add(out, body.data ? body.data : "", body.len);
    hg_buf_free(&body);
    shift += (long)new_count - (long)old_count;
    g = h;
  }
#undef LINE_END
  free(starts.items);
}
