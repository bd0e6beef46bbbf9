#include "surfaces/parse.h"

#include <stdbool.h>
#include <string.h>

uint32_t hg_comment_run(const char *src, size_t len, uint32_t limit) {
  uint32_t line = 1, run = 0, run_start = 0;
  size_t i = 0;
  while (i < len) {
    size_t j = i;
    while (j < len && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f' || src[j] == '\r')) j++;
    bool comment = j < len && src[j] == '#', blank = j == len || src[j] == '\n';
    if (comment) {
      if (run++ == 0)
        run_start = line;
      if (run > limit)
        return run_start;
    } else if (!blank) {
      run = 0;
    }
    const char *nl = j < len ? memchr(src + j, '\n', len - j) : NULL;
    i = nl ? (size_t)(nl - src) + 1 : len;
    line++;
  }
  return 0;
}
