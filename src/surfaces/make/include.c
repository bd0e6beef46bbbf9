#include "surfaces/make/include.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "surfaces/make/grammar.h"
#include "surfaces/make/make.h"
#include "surfaces/node.h"

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

// The makefiles a Makefile includes are read for their variables (a recipe's `$(GO_RUN)` is often
// set in `include docker.mk`): this deep, this many files and bytes each at most, named relative
// to the Makefile's directory, below it (no `..`, no absolute name, no symlink on the way).
enum { INCLUDE_DEPTH = 4, INCLUDE_FILES = 16 };
#define INCLUDE_BYTES ((size_t)1 << 20)

typedef struct {
  hg_makefile *m;
  const char *dir;
  int depth;
  int *files;
  TSParser **parser;
} include_ctx;

static void include_vars(hg_makefile *m, const char *path, int depth, int *files, TSParser **parser);

static void on_include(void *vctx, const char *name, size_t len) {
  include_ctx *c = vctx;
  if (*c->files >= INCLUDE_FILES || c->depth >= INCLUDE_DEPTH || name[0] == '/')
    return;
  for (size_t i = 0; i + 1 < len; i++)
    if (name[i] == '.' && name[i + 1] == '.' && (i == 0 || name[i - 1] == '/') && (i + 2 == len || name[i + 2] == '/'))
      return;
  char *path = *c->dir ? hg_xasprintf("%s/%.*s", c->dir, (int)len, name) : hg_xstrndup(name, len);
  include_vars(c->m, path, c->depth + 1, c->files, c->parser);
  free(path);
}

// Collects the variables of the makefile at `path` (its own includes first) into m->vars.
static void include_vars(hg_makefile *m, const char *path, int depth, int *files, TSParser **parser) {
  ++*files;
  size_t dir_len = 0;
  for (const char *q = strchr(path, '/'); q; q = strchr(q + 1, '/')) { // no symlink on the way
    struct stat st;
    char *prefix = hg_xstrndup(path, (size_t)(q - path));
    bool link = lstat(prefix, &st) != 0 || S_ISLNK(st.st_mode);
    free(prefix);
    if (link)
      return;
    dir_len = (size_t)(q - path);
  }
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0)
    return;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > INCLUDE_BYTES) {
    close(fd);
    return;
  }
  char *buf = hg_xmalloc((size_t)st.st_size + 1);
  ssize_t n = read(fd, buf, (size_t)st.st_size);
  close(fd);
  if (n > 0) {
    char *dir = hg_xstrndup(path, dir_len);
    include_ctx c = {.m = m, .dir = dir, .depth = depth, .files = files, .parser = parser};
    hg_make_includes(buf, (size_t)n, on_include, &c);
    free(dir);
    if (!*parser) {
      *parser = ts_parser_new();
      ts_parser_set_language(*parser, tree_sitter_make());
    }
    TSTree *tree = ts_parser_parse_string(*parser, NULL, buf, (uint32_t)n);
    if (tree) {
      const char *own = m->data;
      m->data = buf;
      hg_make_collect(m, ts_tree_root_node(tree), 0, (uint32_t)n);
      m->data = own;
      hg_tree_delete(tree);
    }
  }
  free(buf);
}

// The variables of the makefiles `source` includes, before its own (its own assignments win).
void hg_make__included_vars(hg_makefile *m, const hg_source *source) {
  if (!source->path || !memmem(source->data, source->len, "include", 7))
    return;
  const char *slash = strrchr(source->path, '/');
  char *dir = slash ? hg_xstrndup(source->path, (size_t)(slash - source->path)) : hg_xstrdup("");
  int files = 0;
  TSParser *parser = NULL;
  include_ctx c = {.m = m, .dir = dir, .depth = 0, .files = &files, .parser = &parser};
  hg_make_includes(source->data, source->len, on_include, &c);
  if (parser)
    ts_parser_delete(parser);
  free(dir);
}
