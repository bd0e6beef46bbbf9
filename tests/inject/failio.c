/* An LD_PRELOAD library that makes file I/O fail for one file, so that the tests can show what
 * hardguard does when a file vanishes or breaks while a scan runs — races a test cannot time.
 *
 *   HG_FAIL_PATH  the file, matched as the end of the path hardguard opens ("pkg/b.py")
 *   HG_FAIL_MODE  vanish  open() fails with ENOENT: deleted between the walk and the read
 *                 eio     read() fails with EIO: a disk or network file system error
 *                 shrink  read() returns half of what was asked, then end of file: truncated
 *                         while being read
 *
 * Any other file is opened and read as usual. Only the calls hardguard makes through the PLT are
 * seen: open/open64 for a file it reads, read/__read_chk on the descriptor. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_FDS 1024
static bool failing[MAX_FDS];  // descriptors opened on the failing file
static bool shrunk[MAX_FDS];   // "shrink": the half was returned, end of file is next

static bool matches(const char *path) {
  const char *want = getenv("HG_FAIL_PATH");
  if (!want || !*want || !path) return false;
  size_t n = strlen(path), w = strlen(want);
  return n >= w && strcmp(path + n - w, want) == 0 && (n == w || path[n - w - 1] == '/');
}

static bool mode(const char *m) {
  const char *v = getenv("HG_FAIL_MODE");
  return v && strcmp(v, m) == 0;
}

static int opened(int fd, const char *path) {
  if (fd >= 0 && fd < MAX_FDS) {
    failing[fd] = matches(path);
    shrunk[fd] = false;
  }
  return fd;
}

typedef int open_fn(const char *, int, ...);

static int open_via(const char *name, const char *path, int flags, va_list ap) {
  mode_t m = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
  if (matches(path) && mode("vanish")) {
    errno = ENOENT;
    return -1;
  }
  open_fn *next = (open_fn *)dlsym(RTLD_NEXT, name);
  return opened(next(path, flags, m), path);
}

int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int fd = open_via("open", path, flags, ap);
  va_end(ap);
  return fd;
}

int open64(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int fd = open_via("open64", path, flags, ap);
  va_end(ap);
  return fd;
}

static ssize_t read_via(int fd, void *buf, size_t n) {
  typedef ssize_t read_fn(int, void *, size_t);
  read_fn *next = (read_fn *)dlsym(RTLD_NEXT, "read");
  if (fd < 0 || fd >= MAX_FDS || !failing[fd]) return next(fd, buf, n);
  if (mode("eio")) {
    errno = EIO;
    return -1;
  }
  if (mode("shrink")) {
    if (shrunk[fd]) return 0;
    shrunk[fd] = true;
    return next(fd, buf, n / 2);
  }
  return next(fd, buf, n);
}

ssize_t read(int fd, void *buf, size_t n) { return read_via(fd, buf, n); }
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen) {
  (void)buflen;
  return read_via(fd, buf, n);
}
