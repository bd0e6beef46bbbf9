// Unit tests for repo.c: running a program without a shell, the root and paths relative to it
// (with and without git), and the files changed since a ref in a throwaway git repository.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "app/repo.h"

static void test_repo__run_program(void **state) {
  (void)state;
  hg_buf out = {0}, errout = {0};
  hg_error err;
  // Arguments reach the program as they are: nothing is expanded by a shell.
  char *echo[] = {"printf", "%s|", "$(touch /tmp/hg-never)", "a b;c", NULL};
  assert_int_equal(hg_run_program(echo, &out, &errout, &err), 0);
  assert_string_equal(out.data, "$(touch /tmp/hg-never)|a b;c|");
  assert_int_equal(access("/tmp/hg-never", F_OK), -1);
  hg_buf_free(&out);
  // Exit status and standard error.
  char *fail[] = {"sh", "-c", "echo oops >&2; exit 3", NULL};
  assert_int_equal(hg_run_program(fail, &out, &errout, &err), 3);
  assert_string_equal(errout.data, "oops\n");
  hg_buf_free(&errout);
  // Output larger than a pipe's buffer, on both streams at once, does not deadlock.
  char *big[] = {"sh", "-c", "head -c 300000 /dev/zero | tr '\\0' x; head -c 300000 /dev/zero | tr '\\0' y >&2",
                 NULL};
  assert_int_equal(hg_run_program(big, &out, &errout, &err), 0);
  assert_int_equal(out.len, 300000);
  assert_int_equal(errout.len, 300000);
  hg_buf_free(&out);
  hg_buf_free(&errout);
  // A program that does not exist. (Under valgrind, which runs posix_spawn as a plain fork, the
  // failed exec shows as the child's exit status 127, as from a shell.)
  char *none[] = {"hg-no-such-program", NULL};
  int rc = hg_run_program(none, &out, &errout, &err);
  if (rc != 127) {
    assert_int_equal(rc, -1);
    assert_string_equal(err.message, "cannot run hg-no-such-program: No such file or directory");
  }
  hg_buf_free(&out);
  hg_buf_free(&errout);
}

typedef struct {
  char dir[64];
  char cwd[4096];
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof(fixture));
  strcpy(f->dir, "/tmp/hg-repo-XXXXXX");
  if (!mkdtemp(f->dir) || !getcwd(f->cwd, sizeof(f->cwd))) return -1;
  char *real = realpath(f->dir, NULL);
  strcpy(f->dir, real);
  free(real);
  *state = f;
  return chdir(f->dir);
}

static int teardown(void **state) {
  fixture *f = *state;
  int rc = chdir(f->cwd);
  char *cmd[] = {"rm", "-rf", f->dir, NULL};
  hg_buf out = {0}, errout = {0};
  hg_error err;
  hg_run_program(cmd, &out, &errout, &err);
  hg_buf_free(&out);
  hg_buf_free(&errout);
  free(f);
  return rc;
}

static void sh(const char *script) {
  char *argv[] = {"sh", "-c", (char *)script, NULL};
  hg_buf out = {0}, errout = {0};
  hg_error err;
  int rc = hg_run_program(argv, &out, &errout, &err);
  if (rc != 0) print_error("%s: exit %d: %s\n", script, rc, errout.data ? errout.data : "");
  assert_int_equal(rc, 0);
  hg_buf_free(&out);
  hg_buf_free(&errout);
}

static const char GIT_ENV[] = "export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t "
                              "GIT_AUTHOR_EMAIL=t@e GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e; ";

static void test_repo__without_git_the_fallback_is_the_root(void **state) {
  fixture *f = *state;
  sh("mkdir -p proj/src other && touch proj/src/a.py other/b.py");
  hg_repo *r = hg_repo_open("proj/src", "proj");
  assert_false(hg_repo_is_git(r));
  char *want = hg_xasprintf("%s/proj", f->dir);
  assert_string_equal(hg_repo_root(r), want);
  static const struct {
    const char *in, *want;
  } cases[] = {
      {"proj/src/a.py", "src/a.py"},
      {"./proj/./src/../src/a.py", "src/a.py"},
      {"proj/src/missing/x.py", "src/missing/x.py"},  // a directory that does not exist: textually
      {"proj", "."},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *rel = hg_repo_relpath(r, cases[i].in);
    assert_string_equal(rel, cases[i].want);
    free(rel);
  }
  // Outside the root: the absolute path.
  char *rel = hg_repo_relpath(r, "other/b.py");
  char *abs = hg_xasprintf("%s/other/b.py", f->dir);
  assert_string_equal(rel, abs);
  free(rel);
  free(abs);
  // --diff needs git; the error names the directory of the PATH given.
  hg_strings changed = {0};
  hg_error err;
  assert_int_equal(hg_repo_changed(r, "HEAD", &changed, &err), -1);
  char *msg = hg_xasprintf("--diff: %s/src is not inside a git work tree", want);
  assert_string_equal(err.message, msg);
  free(msg);
  free(want);
  hg_repo_free(r);
}

static void test_repo__git_root_and_symlinked_directories(void **state) {
  fixture *f = *state;
  hg_buf script = {0};
  hg_buf_printf(&script, "%s git init -q top && mkdir -p top/pkg/sub && touch top/pkg/sub/m.py && ln -s top/pkg link",
                GIT_ENV);
  sh(script.data);
  hg_buf_free(&script);
  hg_repo *r = hg_repo_open("top/pkg/sub/m.py", ".");
  assert_true(hg_repo_is_git(r));
  char *want = hg_xasprintf("%s/top", f->dir);
  assert_string_equal(hg_repo_root(r), want);
  free(want);
  char *rel = hg_repo_relpath(r, "top/pkg/sub/m.py");
  assert_string_equal(rel, "pkg/sub/m.py");
  free(rel);
  rel = hg_repo_relpath(r, "link/sub/m.py");  // reached through a symlink: the real directory counts
  assert_string_equal(rel, "pkg/sub/m.py");
  free(rel);
  hg_repo_free(r);
}

static void test_repo__changed_files(void **state) {
  (void)state;
  hg_buf script = {0};
  hg_buf_printf(&script,
                "%s git init -q r && cd r && printf 'x\\n' > keep.py && printf 'x\\n' > edit.py && "
                "printf 'x\\n' > gone.py && printf 'x\\n' > old.py && printf 'ignored/\\n' > .gitignore && "
                "git add -A && git commit -qm base && "
                "printf 'y\\n' >> edit.py && git rm -q gone.py && git mv old.py 'new name.py' && "
                "printf 'z\\n' > staged.py && git add staged.py && printf 'u\\n' > untracked.py && "
                "mkdir ignored && printf 'i\\n' > ignored/i.py",
                GIT_ENV);
  sh(script.data);
  hg_buf_free(&script);
  hg_repo *r = hg_repo_open("r", ".");
  hg_strings changed = {0};
  hg_error err;
  assert_int_equal(hg_repo_changed(r, "HEAD", &changed, &err), 0);
  static const char *const want[] = {"edit.py", "new name.py", "staged.py", "untracked.py"};
  assert_int_equal(changed.len, 4);
  for (size_t i = 0; i < 4; i++) {
    assert_string_equal(changed.items[i], want[i]);
    assert_true(hg_strings_contains(&changed, want[i]));
  }
  assert_false(hg_strings_contains(&changed, "keep.py"));
  hg_strvec_free(&changed);
  // Not a commit; an option in disguise.
  assert_int_equal(hg_repo_changed(r, "no-such-ref", &changed, &err), -1);
  assert_string_equal(err.message, "--diff: 'no-such-ref' is not a commit in this repository");
  assert_int_equal(hg_repo_changed(r, "--output=/tmp/x", &changed, &err), -1);
  assert_string_equal(err.message, "--diff: '--output=/tmp/x' is not a commit");
  assert_int_equal(changed.len, 0);
  hg_repo_free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_repo__run_program),
      cmocka_unit_test_setup_teardown(test_repo__without_git_the_fallback_is_the_root, setup, teardown),
      cmocka_unit_test_setup_teardown(test_repo__git_root_and_symlinked_directories, setup, teardown),
      cmocka_unit_test_setup_teardown(test_repo__changed_files, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
