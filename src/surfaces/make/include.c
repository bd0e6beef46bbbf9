#include "surfaces/make/include.h"

#include <string.h>

static const char *const DIRECTIVES[] = {"include", "-include", "sinclude"};

void hg_make_includes(const char *d, size_t n, hg_surface_include_fn fn, void *ctx) {
  for (size_t a = 0; a < n;) {
    const char *nl = memchr(d + a, '\n', n - a);
    size_t e = nl ? (size_t)(nl - d) : n, i = a;
    while (i < e && d[i] == ' ') // a directive may be indented with spaces (a tab starts a recipe line)
      i++;
    size_t k = 0;
    for (; k < sizeof(DIRECTIVES) / sizeof(*DIRECTIVES); k++) {
      size_t m = strlen(DIRECTIVES[k]);
      if (e - i > m && !memcmp(d + i, DIRECTIVES[k], m) && (d[i + m] == ' ' || d[i + m] == '\t')) {
        i += m;
        break;
      }
    }
    if (k < sizeof(DIRECTIVES) / sizeof(*DIRECTIVES))
      while (i < e && d[i] != '#') {
        while (i < e && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r'))
          i++;
        size_t w = i;
        bool plain = true;
        while (i < e && d[i] != ' ' && d[i] != '\t' && d[i] != '\r' && d[i] != '#') {
          plain = plain && !strchr("$*?[\\", d[i]);
          i++;
        }
        if (i > w && plain)
          fn(ctx, d + w, i - w);
      }
    a = e + 1;
  }
}
