#include "app/relax.h"

#include <stdlib.h>
#include <string.h>

const char *const hg_relax_names[HG_RELAX_COUNT] = {
    [HG_RELAX_EXCLUDE] = "exclude",   [HG_RELAX_ALLOW] = "allow",   [HG_RELAX_SURFACE] = "surface",
    [HG_RELAX_BUILDER] = "builder",   [HG_RELAX_TRUST] = "trust",   [HG_RELAX_MARKER] = "marker",
    [HG_RELAX_BASELINE] = "baseline", [HG_RELAX_UNREAD] = "unread", [HG_RELAX_STRICT] = "strict",
};

void hg_relaxations_add(hg_relaxations *self, const char *path, uint32_t line, hg_relax_kind kind, const char *message,
                        const char *reason) {
  hg_relaxation r = {.path = hg_xstrdup(path),
                     .line = line,
                     .kind = kind,
                     .message = hg_xstrdup(message),
                     .reason = reason ? hg_xstrdup(reason) : NULL};
  HG_VEC_PUSH(self, r);
}

void hg_relaxations_free(hg_relaxations *self) {
  for (size_t i = 0; i < self->len; i++) {
    free(self->items[i].path);
    free(self->items[i].message);
    free(self->items[i].reason);
  }
  free(self->items);
  *self = (hg_relaxations){0};
}

static int cmp_relaxation(const void *pa, const void *pb) {
  const hg_relaxation *a = pa, *b = pb;
  int c = strcmp(a->path, b->path);
  if (c)
    return c;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  return strcmp(a->message, b->message);
}

void hg_relaxations_sort(hg_relaxations *self) {
  if (self->len > 1)
    qsort(self->items, self->len, sizeof(hg_relaxation), cmp_relaxation);
}
