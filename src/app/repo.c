#include "app/repo.h"
#include "base/path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct hg_repo {
  char *root;   // real path
  char *start;  // real path of the directory git was asked about (the first PATH's)
  char *cwd;    // real path of the working directory
  bool git;
  char *last_dir, *last_real;  // hg_repo_relpath's cache: paths arrive sorted, so by directory
};

int hg_run_program(char *const argv[], hg_buf *out, hg_buf *errout, hg_error *err) {
  int po[2], pe[2];
  if (pipe2(po, O_CLOEXEC) != 0) return hg_error_set(err, "cannot run %s: %s", argv[0], strerror(errno));
  if (pipe2(pe, O_CLOEXEC) != 0) {
    int e = errno;
    close(po[0]);
    close(po[1]);
    return hg_error_set(err, "cannot run %s: %s", argv[0], strerror(e));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, po[1], 1);  // dup2 clears close-on-exec on the copy
  posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(po[1]);
  close(pe[1]);
  if (rc != 0) {
    close(po[0]);
    close(pe[0]);
    return hg_error_set(err, "cannot run %s: %s", argv[0], strerror(rc));
  }
  // Both pipes are drained together, so a child that fills one while we wait on the other cannot
  // deadlock.
  struct pollfd fds[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
  hg_buf *bufs[2] = {out, errout};
  int open_fds = 2;
  while (open_fds) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !fds[i].revents) continue;
      char chunk[8192];
      ssize_t n = read(fds[i].fd, chunk, sizeof(chunk));
      if (n > 0) {
        hg_buf_add(bufs[i], chunk, (size_t)n);
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open_fds--;
      }
    }
  }
  for (int i = 0; i < 2; i++)
    if (fds[i].fd >= 0) close(fds[i].fd);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return hg_error_set(err, "cannot wait for %s: %s", argv[0], strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *real_or_lexical(const char *path) {
  char real[PATH_MAX];
  return realpath(path, real) ? hg_xstrdup(real) : hg_path_normalise(path);
}

static char *chomp(hg_buf *b) {
  while (b->len && (b->data[b->len - 1] == '\n' || b->data[b->len - 1] == '\r')) b->data[--b->len] = '\0';
  return b->data ? b->data : "";
}

hg_repo *hg_repo_open(const char *start, const char *fallback) {
  hg_repo *self = hg_xcalloc(1, sizeof(hg_repo));
  char cwd[PATH_MAX];
  self->cwd = getcwd(cwd, sizeof(cwd)) ? real_or_lexical(cwd) : hg_xstrdup("/");
  struct stat st;
  char *dir;
  if (stat(start, &st) == 0 && S_ISDIR(st.st_mode)) {
    dir = hg_xstrdup(start);
  } else {
    const char *slash = strrchr(start, '/');
    dir = slash ? hg_xstrndup(start, slash == start ? 1 : (size_t)(slash - start)) : hg_xstrdup(".");
  }
  char *argv[] = {"git", "-C", dir, "rev-parse", "--show-toplevel", NULL};
  hg_buf out = {0}, errout = {0};
  hg_error ignored;
  if (hg_run_program(argv, &out, &errout, &ignored) == 0 && out.len > 1) {
    self->root = real_or_lexical(chomp(&out));
    self->git = true;
  } else {
    char *abs = fallback[0] == '/' ? hg_xstrdup(fallback) : hg_xasprintf("%s/%s", self->cwd, fallback);
    self->root = real_or_lexical(abs);
    free(abs);
  }
  self->start = real_or_lexical(dir);
  hg_buf_free(&out);
  hg_buf_free(&errout);
  free(dir);
  return self;
}

void hg_repo_free(hg_repo *self) {
  if (!self) return;
  free(self->root);
  free(self->start);
  free(self->cwd);
  free(self->last_dir);
  free(self->last_real);
  free(self);
}

const char *hg_repo_root(const hg_repo *self) { return self->root; }
bool hg_repo_is_git(const hg_repo *self) { return self->git; }

char *hg_repo_relpath(hg_repo *self, const char *path) {
  char *abs = path[0] == '/' ? hg_xstrdup(path) : hg_xasprintf("%s/%s", self->cwd, path);
  char *slash = strrchr(abs, '/');
  const char *base = slash + 1;
  char *full;
  if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
    full = real_or_lexical(abs);
  } else {
    *slash = '\0';
    const char *dir = *abs ? abs : "/";
    if (!self->last_dir || strcmp(self->last_dir, dir) != 0) {
      free(self->last_dir);
      free(self->last_real);
      self->last_dir = hg_xstrdup(dir);
      self->last_real = real_or_lexical(dir);
    }
    const char *r = self->last_real;
    full = hg_xasprintf("%s/%s", strcmp(r, "/") == 0 ? "" : r, base);
  }
  free(abs);
  size_t n = strlen(self->root);
  char *rel;
  if (strcmp(self->root, "/") == 0) rel = hg_xstrdup(full + 1);
  else if (hg_path_below(full, self->root, n)) rel = hg_xstrdup(full + n + 1);
  else if (strcmp(full, self->root) == 0) rel = hg_xstrdup(".");
  else return full;
  free(full);
  return rel;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

bool hg_strings_contains(const hg_strings *sorted, const char *path) {
  return sorted->len && bsearch(&path, sorted->items, sorted->len, sizeof(char *), cmp_str) != NULL;
}

// Runs git in the root. 0; or git's exit status with err saying what was being done and git's
// first line of error output; or -1 when git cannot be started.
static int git(const hg_repo *self, char **args, size_t n, hg_buf *out, const char *doing, hg_error *err) {
  char **argv = hg_xcalloc(n + 4, sizeof(char *));
  argv[0] = "git";
  argv[1] = "-C";
  argv[2] = self->root;
  memcpy(argv + 3, args, n * sizeof(char *));
  hg_buf errout = {0};
  int rc = hg_run_program(argv, out, &errout, err);
  free(argv);
  if (rc > 0) {
    char *msg = chomp(&errout);
    char *nl = strchr(msg, '\n');
    if (nl) *nl = '\0';
    hg_error_set(err, "%s: git exited with status %d%s%s", doing, rc, *msg ? ": " : "", msg);
  }
  hg_buf_free(&errout);
  return rc;
}

static void split_nul(hg_buf *b, hg_strings *out) {
  for (size_t i = 0; i < b->len;) {
    size_t n = strlen(b->data + i);
    if (n) HG_VEC_PUSH(out, hg_xstrndup(b->data + i, n));
    i += n + 1;
  }
  b->len = 0;
}

// Resolves `ref` to a commit; `option` names what asked, in errors. The hash goes into `b`.
static int verify_commit(const hg_repo *self, const char *option, const char *ref, hg_buf *b, hg_error *err) {
  if (!self->git) return hg_error_set(err, "%s: %s is not inside a git work tree", option, self->start);
  // A ref starting with '-' would be read as an option by git.
  if (ref[0] == '-' || ref[0] == '\0') return hg_error_set(err, "%s: '%s' is not a commit", option, ref);
  char *commit = hg_xasprintf("%s^{commit}", ref);
  char *verify[] = {"rev-parse", "--verify", "--quiet", commit};
  int rc = git(self, verify, HG_ARRAY_LEN(verify), b, option, err);
  free(commit);
  if (rc > 0) rc = hg_error_set(err, "%s: '%s' is not a commit in this repository", option, ref);
  return rc;
}

int hg_repo_changed(const hg_repo *self, const char *ref, hg_strings *out, hg_error *err) {
  hg_buf b = {0};
  int rc = verify_commit(self, "--diff", ref, &b, err);
  b.len = 0;
  // Renames are listed under their new name; deleted files have nothing left to judge.
  char *diff[] = {"diff", "--name-only", "-z", "--no-renames", "--no-relative", "--diff-filter=ACMRT", (char *)ref,
                  "--"};
  char *untracked[] = {"ls-files", "-z", "--others", "--exclude-standard"};
  size_t before = out->len;
  if (rc == 0 && (rc = git(self, diff, HG_ARRAY_LEN(diff), &b, "--diff: git diff", err)) == 0) {
    split_nul(&b, out);
    if ((rc = git(self, untracked, HG_ARRAY_LEN(untracked), &b, "--diff: git ls-files", err)) == 0) split_nul(&b, out);
  }
  hg_buf_free(&b);
  if (rc != 0) return -1;
  // Sorted, duplicates dropped.
  if (out->len > before) qsort(out->items + before, out->len - before, sizeof(char *), cmp_str);
  size_t w = before;
  for (size_t r = before; r < out->len; r++) {
    if (w > before && strcmp(out->items[w - 1], out->items[r]) == 0) free(out->items[r]);
    else out->items[w++] = out->items[r];
  }
  out->len = w;
  return 0;
}

int hg_repo_commit(const hg_repo *self, const char *option, const char *ref, char **out, hg_error *err) {
  *out = NULL;
  hg_buf b = {0};
  if (verify_commit(self, option, ref, &b, err) != 0) {
    hg_buf_free(&b);
    return -1;
  }
  *out = hg_xstrdup(chomp(&b));
  hg_buf_free(&b);
  return 0;
}

int hg_repo_ls_tree(const hg_repo *self, const char *commit, const char *const *paths, size_t n, bool recursive,
                    hg_strings *out, hg_error *err) {
  char **args = hg_xcalloc(n + 8, sizeof(char *));
  size_t k = 0;
  args[k++] = "ls-tree";
  args[k++] = "-z";
  args[k++] = "--full-tree";
  args[k++] = "--name-only";
  if (recursive) args[k++] = "-r";
  args[k++] = (char *)commit;
  args[k++] = "--";
  for (size_t i = 0; i < n; i++) args[k++] = (char *)paths[i];
  hg_buf b = {0};
  int rc = git(self, args, k, &b, "git ls-tree", err);
  free(args);
  size_t before = out->len;
  if (rc == 0) split_nul(&b, out);
  if (out->len > before) qsort(out->items + before, out->len - before, sizeof(char *), cmp_str);
  hg_buf_free(&b);
  return rc == 0 ? 0 : -1;
}

int hg_repo_blob(const hg_repo *self, const char *commit, const char *path, hg_buf *out, hg_error *err) {
  char *spec = hg_xasprintf("%s:%s", commit, path);
  char *args[] = {"cat-file", "blob", spec};
  char *doing = hg_xasprintf("reading %s", spec);
  int rc = git(self, args, HG_ARRAY_LEN(args), out, doing, err);
  free(doing);
  free(spec);
  return rc == 0 ? 0 : -1;
}
