#include "report/excerpt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/utf8.h"
#include "base/util.h"

typedef struct {
  char *path; // NULL: an empty slot
  char *data; // the bytes and a NUL; NULL when the file could not be read
  size_t len;
  char why[128];  // when data is NULL
  size_t *starts; // byte offset of each line
  size_t n_lines;
} cached_file;

struct hg_excerpts {
  cached_file slot[2]; // a site's own file and the builder module it reaches
  unsigned next;       // the slot to reuse
};

hg_excerpts *hg_excerpts_new(void) { return hg_xcalloc(1, sizeof(hg_excerpts)); }

static void drop(cached_file *c) {
  free(c->path);
  free(c->data);
  free(c->starts);
  memset(c, 0, sizeof(*c));
}

void hg_excerpts_free(hg_excerpts *self) {
  if (!self)
    return;
  for (size_t i = 0; i < HG_ARRAY_LEN(self->slot); i++)
    drop(&self->slot[i]);
  free(self);
}

static void fail(cached_file *c, const char *what, int errnum) {
  snprintf(c->why, sizeof(c->why), "%s%s%s", what, errnum ? ": " : "", errnum ? strerror(errnum) : "");
}

static void load(cached_file *c, const char *path) {
  c->path = hg_xstrdup(path);
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    fail(c, "cannot open", errno);
    return;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    fail(c, "cannot stat", errno);
  } else if (!S_ISREG(st.st_mode)) {
    fail(c, "not a regular file", 0);
  } else if (st.st_size > HG_EXCERPT_FILE_MAX) {
    fail(c, "too large to quote", 0);
  } else {
    size_t cap = (size_t)st.st_size, len = 0;
    char *data = hg_xmalloc(cap + 1);
    // The file may have changed since the scan: read what is there now, up to the size seen.
    while (len < cap) {
      ssize_t r = read(fd, data + len, cap - len);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0) {
        fail(c, "cannot read", errno);
        free(data);
        data = NULL;
        break;
      }
      if (r == 0)
        break;
      len += (size_t)r;
    }
    if (data) {
      data[len] = '\0';
      c->data = data;
      c->len = len;
      size_t n = 1;
      for (size_t i = 0; i < len; i++)
        n += data[i] == '\n';
      c->starts = hg_xmalloc(n * sizeof(size_t));
      c->starts[0] = 0;
      c->n_lines = 1;
      for (size_t i = 0; i < len; i++)
        if (data[i] == '\n')
          c->starts[c->n_lines++] = i + 1;
      if (c->n_lines > 1 && c->starts[c->n_lines - 1] == len)
        c->n_lines--; // no line after the last newline
    }
  }
  close(fd);
}

static cached_file *lookup(hg_excerpts *self, const char *path) {
  for (size_t i = 0; i < HG_ARRAY_LEN(self->slot); i++)
    if (self->slot[i].path && strcmp(self->slot[i].path, path) == 0)
      return &self->slot[i];
  cached_file *c = &self->slot[self->next];
  self->next = (self->next + 1) % HG_ARRAY_LEN(self->slot);
  drop(c);
  load(c, path);
  return c;
}

int hg_excerpts_get(hg_excerpts *self, const char *path, uint32_t first, uint32_t last, hg_excerpt_line *out,
                    size_t cap, const char **why) {
  cached_file *c = lookup(self, path);
  if (!c->data) {
    *why = c->why;
    return -1;
  }
  if (first < 1)
    first = 1;
  size_t n = 0;
  for (uint32_t ln = first; ln <= last && ln <= c->n_lines && n < cap; ln++) {
    size_t start = c->starts[ln - 1];
    size_t end = ln < c->n_lines ? c->starts[ln] - 1 : c->len;
    if (end > start && c->data[end - 1] == '\n')
      end--; // the last line's newline
    if (end > start && c->data[end - 1] == '\r')
      end--;
    size_t shown = 0;
    // Whole characters only, so that a cut never splits one into replacement characters.
    while (start + shown < end) {
      size_t step = hg_utf8_seq(c->data + start + shown);
      if (!step)
        step = 1;
      if (shown + step > HG_EXCERPT_LINE_MAX)
        break;
      shown += step;
    }
    if (start + shown > end)
      shown = end - start; // a sequence that ran past the line's end
    out[n++] = (hg_excerpt_line){.number = ln, .text = c->data + start, .len = shown, .cut = start + shown < end};
  }
  return (int)n;
}
