#include "fix/write.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/path.h"
#include "base/util.h"

bool hg_fix_inside(const char *path, const char *root) {
  char rp[PATH_MAX], rr[PATH_MAX];
  if (!realpath(path, rp) || !realpath(root, rr))
    return false;
  return !strcmp(rr, "/") || !strcmp(rp, rr) || hg_path_below(rp, rr, strlen(rr));
}

// Test hook (fixtures/fix/modified-while-fixing): HG_FIX_TEST_MODIFY=PATH appends a line to PATH
// right before --fix compares it with what it read, as another process writing the file at that
// moment would.
static void test_hook_modify(const char *path) {
  const char *target = getenv("HG_FIX_TEST_MODIFY");
  if (!target || strcmp(target, path))
    return;
  FILE *f = fopen(path, "a");
  if (f) {
    fputs("# modified while hardguard --fix ran\n", f);
    fclose(f);
  }
}

int hg_fix_write(const char *path, const char *text, size_t len, const char *old, size_t old_len, const struct stat *st,
                 char **why) {
  const char *slash = strrchr(path, '/');
  char *tmp = slash ? hg_xasprintf("%.*s/.%s.hardguard-XXXXXX", (int)(slash - path), path, slash + 1)
                    : hg_xasprintf(".%s.hardguard-XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    *why = hg_xasprintf("cannot create a temporary file next to it: %s", strerror(errno));
    free(tmp);
    return -1;
  }
  int rc = hg_write_all(fd, text, len);
  if (rc == 0 && (fchmod(fd, st->st_mode & 07777) != 0 || fsync(fd) != 0))
    rc = -1;
  if (close(fd) != 0)
    rc = -1;
  if (rc != 0) {
    *why = hg_xasprintf("cannot write a temporary file next to it: %s", strerror(errno));
    unlink(tmp);
    free(tmp);
    return -1;
  }
  test_hook_modify(path);
  // Unchanged since read: the same file (inode), size, modification time and bytes.
  struct stat now;
  char *bytes = NULL;
  size_t n = 0;
  hg_error e;
  bool same = lstat(path, &now) == 0 && S_ISREG(now.st_mode) && now.st_ino == st->st_ino &&
              now.st_size == st->st_size && now.st_mtim.tv_sec == st->st_mtim.tv_sec &&
              now.st_mtim.tv_nsec == st->st_mtim.tv_nsec && hg_read_file(&bytes, &n, path, &e) == 0 && n == old_len &&
              !memcmp(bytes, old, n);
  free(bytes);
  if (!same) {
    *why = hg_xstrdup("changed on disk since hardguard read it; not touched (run --fix again)");
    unlink(tmp);
    free(tmp);
    return -1;
  }
  if (rename(tmp, path) != 0) {
    *why = hg_xasprintf("cannot replace it: %s", strerror(errno));
    unlink(tmp);
    free(tmp);
    return -1;
  }
  free(tmp);
  return 0;
}
