#include "app/walk.h"

#include "model/surface.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const SKIP_DIRS[] = {".git", "__pycache__", ".venv", "venv", "node_modules", ".hg", ".svn"};

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

// Does a surface read the file at `path` (entry `name` of directory `dfd`): by its name or path,
// or (a name without an extension) by the `#!` line its first bytes hold? Only those
// extensionless files are opened here.
static bool surface_reads(int dfd, const char *name, const char *path) {
  if (hg_surface_by_name(path) >= 0) return true;
  if (!hg_surface_may_have_shebang(name)) return false;
  int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  char head[256];
  ssize_t n = read(fd, head, sizeof(head));
  close(fd);
  return n > 0 && hg_surface_by_shebang(head, (size_t)n) >= 0;
}

static bool skip_dir(const char *name) {
  for (size_t i = 0; i < HG_ARRAY_LEN(SKIP_DIRS); i++)
    if (strcmp(name, SKIP_DIRS[i]) == 0) return true;
  return false;
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
      if (type == DT_UNKNOWN) {
        struct stat st;
        if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
      }
      // Symlinks are not followed: their targets are either in the tree (and walked there) or
      // outside it; either way following them could loop or leave the tree.
      if (type == DT_DIR) {
        if (skip_dir(name)) continue;
        char *path = join(dir, dir_len, name);
        if (dir_excluded(config, path)) {
          free(path);
          ++*excluded;
        } else {
          HG_VEC_PUSH(&stack, path);
        }
      } else if (type == DT_REG) {
        char *path = join(dir, dir_len, name);
        bool read = surface_reads(dfd, name, path), ex = read && config->n_exclude && hg_config_excludes(config, path);
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

void hg_walk(const char *const *args, size_t n, const hg_config *config, hg_paths *out, hg_file_errors *errors,
             size_t *excluded) {
  size_t ignored = 0;
  if (!excluded) excluded = &ignored;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(args[i], &st) != 0) {
      add_error(errors, args[i], "cannot open", errno);
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      walk_dir(args[i], config, out, errors, excluded);
    } else if (hg_config_excludes(config, args[i])) {
      ++*excluded;
    } else {
      // A file named on the command line is read (which reports anything that is not a regular
      // file); the scan then skips it when no surface reads it.
      HG_VEC_PUSH(out, hg_xstrdup(args[i]));
    }
  }
}

