/* Source excerpts for the HTML report: a few lines of a scanned file, read again when the report
 * is written. Bounded: a file over HG_EXCERPT_FILE_MAX is not read, a line is cut at
 * HG_EXCERPT_LINE_MAX bytes, and only the last two files read are kept. Anything that is not a
 * regular file is refused without blocking (a path may have become a FIFO since the scan). */
#ifndef HG_EXCERPT_H
#define HG_EXCERPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
  HG_EXCERPT_FILE_MAX = 16 << 20, // larger files are listed, not quoted
  HG_EXCERPT_LINE_MAX = 240,      // bytes of one line shown; the rest is cut
};

typedef struct hg_excerpts hg_excerpts;

typedef struct {
  uint32_t number;  // 1-based
  const char *text; // not NUL-terminated; owned by the cache, valid until the next hg_excerpts_get
  size_t len;       // at most HG_EXCERPT_LINE_MAX, cut at a character boundary
  bool cut;         // the line goes on
} hg_excerpt_line;

hg_excerpts *hg_excerpts_new(void);
void hg_excerpts_free(hg_excerpts *self);

/** Lines `first`..`last` of `path` (clamped to the file), at most `cap` of them, into `out`.
 *  Returns how many; -1 when the file cannot be read, with `*why` saying why (static or owned by
 *  the cache). A line past the end of the file gives 0. */
int hg_excerpts_get(hg_excerpts *self, const char *path, uint32_t first, uint32_t last, hg_excerpt_line *out,
                    size_t cap, const char **why);

#endif
