/* Where a run stands in version control: the root that SARIF, GitHub annotations and the baseline
 * name files relative to (the top level of the git work tree, else the config's directory, else
 * the working directory), and for --diff the files git says changed since a ref. git runs as a
 * child process given an argument vector, never through a shell. */
#ifndef HG_REPO_H
#define HG_REPO_H

#include "base/util.h"

typedef struct hg_repo hg_repo;

/** The root for a run whose first path is `start` (a file or directory): the top level of the git
 *  work tree holding it (`git rev-parse --show-toplevel`), or the directory `fallback` when there
 *  is no work tree or no git. Never fails; free with hg_repo_free. */
hg_repo *hg_repo_open(const char *start, const char *fallback);
void hg_repo_free(hg_repo *self);
/** The root's real path. Owned by self. */
const char *hg_repo_root(const hg_repo *self);
/** Is the root a git work tree? */
bool hg_repo_is_git(const hg_repo *self);

/** `path` (relative to the working directory, or absolute) relative to the root, '/'-separated,
 *  in a new heap string; the absolute path when it lies outside the root. Directories are resolved
 *  to real paths, the file name is kept as written. */
char *hg_repo_relpath(hg_repo *self, const char *path);

typedef hg_strvec hg_strings;

/** The files that differ between commit `ref` and the work tree (`git diff --name-only REF`:
 *  committed since, staged or not; deleted files left out) plus the untracked files git does not
 *  ignore, relative to the root, sorted and without duplicates, appended to out. -1 with err when
 *  the root is not a git work tree, `ref` is not a commit, or git fails. */
int hg_repo_changed(const hg_repo *self, const char *ref, hg_strings *out, hg_error *err);
/** Resolves `ref` to the hash of a commit (new heap string in out), so that every read of a run sees
 *  the same commit. -1 with "OPTION: ..." in err when the root is not a git work tree or `ref` is
 *  not a commit (a ref starting with '-' is refused). */
int hg_repo_commit(const hg_repo *self, const char *option, const char *ref, char **out, hg_error *err);
/** Which of `paths` (relative to the root; with `recursive`, the files under them) exist in
 *  `commit` (`git ls-tree -z --full-tree --name-only [-r] COMMIT -- PATHS`), appended to out and
 *  sorted. */
int hg_repo_ls_tree(const hg_repo *self, const char *commit, const char *const *paths, size_t n, bool recursive,
                    hg_strings *out, hg_error *err);
/** The bytes of file `path` (relative to the root) in `commit` (`git cat-file blob COMMIT:PATH`),
 *  appended to out; -1 with err when it is not a file there or git fails. */
int hg_repo_blob(const hg_repo *self, const char *commit, const char *path, hg_buf *out, hg_error *err);

/** Is `path` (relative to the root) in the sorted list? */
bool hg_strings_contains(const hg_strings *sorted, const char *path);

/** Runs the program argv[0] (looked up in PATH) with argv and stdin from /dev/null, collecting its
 *  standard output and error. Returns its exit status (128 + N when killed by signal N), or -1
 *  with err when it cannot be started. */
int hg_run_program(char *const argv[], hg_buf *out, hg_buf *errout, hg_error *err);

#endif
