#include "base/path.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

char *hg_path_normalise(const char *path) {
  size_t n = strlen(path);
  char *out = hg_xmalloc(n + 2);
  size_t len = 0;
  bool absolute = path[0] == '/';
  for (const char *p = path; *p;) {
    while (*p == '/')
      p++;
    const char *e = p;
    while (*e && *e != '/')
      e++;
    size_t seg = (size_t)(e - p);
    bool dotdot_tail = len >= 2 && out[len - 1] == '.' && out[len - 2] == '.' && (len == 2 || out[len - 3] == '/');
    if (seg == 0 || (seg == 1 && p[0] == '.')) {
      // nothing
    } else if (seg == 2 && p[0] == '.' && p[1] == '.' && len > 0 && !dotdot_tail) {
      while (len > 0 && out[len - 1] != '/')
        len--;
      if (len > 0)
        len--;
    } else if (seg == 2 && p[0] == '.' && p[1] == '.' && absolute) {
      // "/.." is "/"
    } else {
      if (len > 0 || absolute)
        out[len++] = '/';
      memcpy(out + len, p, seg);
      len += seg;
    }
    p = e;
  }
  if (len == 0)
    out[len++] = absolute ? '/' : '.';
  out[len] = '\0';
  return out;
}

const char *hg_path_below(const char *path, const char *dir, size_t n) {
  return strncmp(path, dir, n) == 0 && path[n] == '/' ? path + n + 1 : NULL;
}

static const char *const SKIP_DIRS[] = {".git", "__pycache__", ".venv", "venv", "node_modules", ".hg", ".svn"};

bool hg_path_skipped_dir(const char *name) {
  for (size_t i = 0; i < HG_ARRAY_LEN(SKIP_DIRS); i++)
    if (strcmp(name, SKIP_DIRS[i]) == 0)
      return true;
  return false;
}

char *hg_path_git_top(const char *start) {
  char real[PATH_MAX];
  if (!realpath(start, real))
    return NULL;
  struct stat st;
  if (stat(real, &st) == 0 && !S_ISDIR(st.st_mode)) {
    char *slash = strrchr(real, '/');
    if (slash && slash != real)
      *slash = '\0';
  }
  for (;;) {
    char *candidate = hg_xasprintf("%s/.git", real);
    bool found = access(candidate, F_OK) == 0;
    free(candidate);
    if (found)
      return hg_xstrdup(real);
    char *slash = strrchr(real, '/');
    if (!slash || slash == real)
      return NULL;
    *slash = '\0';
  }
}

