#include "app/walk.h"

#include "model/surface.h"
#include "base/path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void add_error(hg_file_errors *errors, const char *path, const char *what, int err) {
  hg_file_error e = {.path = hg_xstrdup(path), .kind = HG_FILE_UNREADABLE,
                     .message = hg_xasprintf("%s: %s", what, strerror(err))};
  HG_VEC_PUSH(errors, e);
}

static char *join(const char *dir, size_t dir_len, const char *name) {
  if (dir_len == 1 && dir[0] == '.') return hg_xstrdup(name);
  size_t n = strlen(name);
  bool slash = dir_len && dir[dir_len - 1] == '/';
  char *path = hg_xmalloc(dir_len + !slash + n + 1);
  memcpy(path, dir, dir_len);
  if (!slash) path[dir_len] = '/';
  memcpy(path + dir_len + !slash, name, n + 1);
  return path;
}

// Reads up to `max` bytes of the file `name` in directory `dfd` into `buf` (symlinks followed only
// when `follow`). Returns the count, or -1 when it cannot be opened or read.
static ssize_t read_head(int dfd, const char *name, bool follow, char *buf, size_t max) {
  int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
  if (fd < 0) return -1;
  size_t got = 0;
  ssize_t n = 0;
  while (got < max && (n = read(fd, buf + got, max - got)) > 0) got += (size_t)n;
  close(fd);
  return n < 0 ? -1 : (ssize_t)got;
}

// Does a surface read the file at `path` (entry `name` of directory `dfd`): by its name or path,
// by the `#!` line its first bytes hold (a name without an extension), or by its content (a name
// a surface claims files of by content: surface.h)? Only those files are opened here. -1: it
// would have to be opened to tell, and cannot be.
static int surface_reads(int dfd, const char *name, const char *path, bool follow) {
  if (hg_surface_by_name(path) >= 0) return 1;
  bool shebang = hg_surface_may_have_shebang(name), claim = hg_surface_may_claim(name);
  if (!shebang && !claim) return 0;
  size_t max = claim ? HG_SURFACE_CLAIM_BYTES : 256;
  char *head = hg_xmalloc(max);
  ssize_t n = read_head(dfd, name, follow, head, max);
  int reads = n < 0 ? -1
              : (shebang && hg_surface_by_shebang(head, (size_t)n) >= 0) ||
                        (claim && hg_surface_by_content(path, head, (size_t)n) >= 0)
                  ? 1
                  : 0;
  free(head);
  return reads;
}

static bool dir_excluded(const hg_config *config, const char *path) {
  if (config->n_exclude == 0) return false;
  // "tests/**" excludes the directory itself: test the path as a directory prefix too.
  char *as_dir = hg_xasprintf("%s/", path);
  bool ex = hg_config_excludes(config, path) || hg_config_excludes(config, as_dir);
  free(as_dir);
  return ex;
}

// Frees the paths pushed onto `v` from index `from` on.
static void drop_from(hg_paths *v, size_t from) {
  while (v->len > from) free(v->items[--v->len]);
}

// Depth first, one readdir pass per directory and no stat per entry: d_type says what an entry is
// (a file system that leaves it DT_UNKNOWN costs one fstatat for that entry).
static void walk_dir(const char *root, const hg_config *config, hg_paths *out, hg_file_errors *errors,
                     size_t *excluded) {
  hg_paths stack = {0};
  HG_VEC_PUSH(&stack, hg_xstrdup(root));
  while (stack.len) {
    char *dir = stack.items[--stack.len];
    size_t dir_len = strlen(dir);
    DIR *d = opendir(dir);
    if (!d) {
      add_error(errors, dir, "cannot open directory", errno);
      free(dir);
      continue;
    }
    int dfd = dirfd(d);
    bool is_root = strcmp(dir, root) == 0;
    // Go's vendored dependencies: a `vendor` directory holding `go mod vendor`'s modules.txt.
    bool vendor = !is_root && dir_len >= 6 && !strcmp(dir + dir_len - 6, "vendor") &&
                  (dir_len == 6 || dir[dir_len - 7] == '/');
    size_t out_mark = out->len, stack_mark = stack.len;
    bool venv = false;
    struct dirent *e;
    while ((errno = 0, e = readdir(d))) {
      const char *name = e->d_name;
      if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) continue;
      unsigned char type = e->d_type;
      // A directory holding pyvenv.cfg (a link to one counts only if it resolves) is a
      // virtualenv: what was taken from it is dropped below.
      if (!is_root && strcmp(name, "pyvenv.cfg") == 0 &&
          ((type != DT_LNK && type != DT_UNKNOWN) || faccessat(dfd, name, F_OK, 0) == 0)) {
        venv = true;
        break;
      }
      if (vendor && strcmp(name, "modules.txt") == 0) {
        venv = true; // third-party code as a virtualenv is: dropped below
        break;
      }
      if (type == DT_UNKNOWN) {
        struct stat st;
        if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
      }
      // Symlinks are not followed: their targets are either in the tree (and walked there) or
      // outside it; either way following them could loop or leave the tree.
      if (type == DT_DIR) {
        if (hg_path_skipped_dir(name)) continue;
        char *path = join(dir, dir_len, name);
        if (dir_excluded(config, path)) {
          free(path);
          ++*excluded;
        } else {
          HG_VEC_PUSH(&stack, path);
        }
      } else if (type == DT_REG) {
        char *path = join(dir, dir_len, name);
        bool read = surface_reads(dfd, name, path, false) > 0,
             ex = read && config->n_exclude && hg_config_excludes(config, path);
        *excluded += ex;
        if (!read || ex)
          free(path);
        else
          HG_VEC_PUSH(out, path);
      }
    }
    if (venv) {
      drop_from(out, out_mark);
      drop_from(&stack, stack_mark);
    } else if (errno) {
      add_error(errors, dir, "cannot read directory", errno);
    }
    closedir(d);
    free(dir);
  }
  free(stack.items);
}

// A Makefile's includes are followed this many files in all per directory walked (each file is
// read once, so a cycle ends anyway; 1,000 nested includes are read, a tree of more stops here).
enum { MAX_INCLUDED = 4096 };
// An including file is read up to this many bytes for its includes.
#define INCLUDES_BYTES ((size_t)4 << 20)

typedef struct {
  const char *dirs[2];  // where make looks for an included name: the directory it runs in (the
                        // first including file's), then the including file's own ("": the
                        // working directory)
  hg_strvec names;      // the paths included, as spelled from the working directory
} includes_ctx;

static char *spell(const char *dir, const char *rel) {
  char *path = rel[0] == '/' || !*dir ? hg_xstrdup(rel) : hg_xasprintf("%s/%s", dir, rel);
  char *norm = hg_path_normalise(path);
  free(path);
  return norm;
}

static void on_include(void *vctx, const char *name, size_t len) {
  includes_ctx *c = vctx;
  char *rel = hg_xstrndup(name, len);
  char *path = spell(c->dirs[0], rel);
  struct stat st;
  if (strcmp(c->dirs[0], c->dirs[1]) && lstat(path, &st) != 0) {
    free(path);
    path = spell(c->dirs[1], rel);
  }
  free(rel);
  HG_VEC_PUSH(&c->names, path);
}

static char *dir_of(const char *norm) {
  const char *slash = strrchr(norm, '/');
  return slash ? hg_xstrndup(norm, (size_t)(slash - norm)) : hg_xstrdup("");
}

// Does `path` (below `top`, whose own spelling is `skip` bytes; 0 for the working directory) pass
// through a symlink below top? The walk follows none, so neither does an include.
static bool through_link(const char *path, size_t skip) {
  char *p = hg_xstrdup(path);
  bool link = false;
  for (char *s = p + skip + (skip > 0); !link && (s = strchr(s, '/')); *s++ = '/') {
    *s = '\0';
    struct stat st;
    link = lstat(p, &st) != 0 || S_ISLNK(st.st_mode);
  }
  free(p);
  return link;
}

// The surface the walk reads `path` for: by name, or the one it was taken for.
static int taken_for(const hg_walk_claims *claims, const char *path) {
  int s = hg_surface_by_name(path);
  return s >= 0 ? s : hg_walk_claimed(claims, path);
}

// Takes the files that the files of `out` from `from` on include (their surface's `includes`),
// when they are regular files below directory `root`, not excluded and not taken yet; each one
// taken is read for its own includes in turn.
static void follow_includes(const char *root, const hg_config *config, hg_paths *out, size_t from,
                            hg_walk_claims *claims) {
  char *top = hg_path_normalise(root);
  bool here = !strcmp(top, ".");
  hg_table seen;
  hg_table_init(&seen, NULL, out->len - from);
  hg_strvec norm = {0};  // the keys of `seen`
  for (size_t i = from; i < out->len; i++) HG_VEC_PUSH(&norm, hg_path_normalise(out->items[i]));
  for (size_t i = 0; i < norm.len; i++) hg_table_put(&seen, norm.items[i], strlen(norm.items[i]), NULL);
  hg_strvec base = {0};  // for each file from `from` on: the directory make runs in for it
  for (size_t i = 0; i < norm.len; i++) HG_VEC_PUSH(&base, dir_of(norm.items[i]));
  char *buf = NULL;
  size_t taken = 0;
  for (size_t i = from; i < out->len && taken < MAX_INCLUDED; i++) {
    int s = taken_for(claims, out->items[i]);
    if (s < 0 || !hg_surface_get(s)->includes) continue;
    if (!buf) buf = hg_xmalloc(INCLUDES_BYTES);
    ssize_t n = read_head(AT_FDCWD, out->items[i], false, buf, INCLUDES_BYTES);
    if (n <= 0) continue;
    char *dir = dir_of(norm.items[i - from]);
    includes_ctx c = {.dirs = {base.items[i - from], dir}};
    hg_surface_get(s)->includes(buf, (size_t)n, on_include, &c);
    for (size_t k = 0; k < c.names.len; k++) {
      char *p = c.names.items[k];
      struct stat st;
      bool inside = here ? p[0] != '/' && strcmp(p, "..") && strncmp(p, "../", 3) : hg_path_below(p, top, strlen(top)) != NULL;
      bool added = false;
      if (inside && taken < MAX_INCLUDED && !hg_table_get(&seen, p, strlen(p)) && lstat(p, &st) == 0 &&
          S_ISREG(st.st_mode) && !through_link(p, here ? 0 : strlen(top)) && !hg_config_excludes(config, p)) {
        hg_table_put(&seen, p, strlen(p), NULL);
        HG_VEC_PUSH(&norm, p);
        HG_VEC_PUSH(&base, hg_xstrdup(base.items[i - from]));
        HG_VEC_PUSH(out, hg_xstrdup(p));
        if (hg_surface_by_name(p) < 0) {
          char *key = hg_xstrdup(p);
          HG_VEC_PUSH(&claims->paths, key);
          *hg_table_put(&claims->table, key, strlen(key), NULL) = (size_t)s;
        }
        taken++;
        added = true;
      }
      if (!added) free(p);
    }
    free(c.names.items);
    free(dir);
  }
  free(buf);
  hg_table_free(&seen);
  hg_strvec_free(&norm);
  hg_strvec_free(&base);
  free(top);
}

int hg_walk_claimed(const hg_walk_claims *claims, const char *path) {
  if (!claims->table.cap) return -1;
  size_t *s = hg_table_get(&claims->table, path, strlen(path));
  return s ? (int)*s : -1;
}

void hg_walk_extra_free(hg_walk_extra *extra) {
  hg_table_free(&extra->claims.table);
  hg_strvec_free(&extra->claims.paths);
  hg_strvec_free(&extra->skipped);
}

void hg_walk(const char *const *args, size_t n, const hg_config *config, hg_paths *out, hg_file_errors *errors,
             size_t *excluded, hg_walk_extra *extra) {
  size_t ignored = 0;
  if (!excluded) excluded = &ignored;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(args[i], &st) != 0) {
      add_error(errors, args[i], "cannot open", errno);
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      size_t from = out->len;
      walk_dir(args[i], config, out, errors, excluded);
      if (extra) follow_includes(args[i], config, out, from, &extra->claims);
    } else if (hg_config_excludes(config, args[i])) {
      ++*excluded;
    } else if (extra && S_ISREG(st.st_mode) && surface_reads(AT_FDCWD, args[i], args[i], true) == 0) {
      // A regular file that no surface reads: said, not silently passed.
      HG_VEC_PUSH(&extra->skipped, hg_xstrdup(args[i]));
    } else {
      // A file named on the command line is read (which reports anything that is not a regular
      // file, or cannot be opened).
      HG_VEC_PUSH(out, hg_xstrdup(args[i]));
    }
  }
}
