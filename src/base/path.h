/* Paths, lexically: one normaliser and one "is it below that directory?" check for every stage
 * that compares paths as spelled (the config's root, the repository's, the package a module is in,
 * the run's paths, the files --fix may write). */
#ifndef HG_PATH_H
#define HG_PATH_H

#include <stdbool.h>
#include <stddef.h>

/** `path` with "." and ".." components resolved textually and repeated or trailing '/' dropped:
 *  "a/./b/../c/" is "a/c", "a/.." is "."; a relative path keeps its leading "..", an absolute one
 *  stops at "/". A new heap string. */
char *hg_path_normalise(const char *path);

/** The part of `path` below the directory spelled by the first `n` bytes of `dir`: what follows
 *  them and a '/', or NULL when path does not go on from them with a '/'. */
const char *hg_path_below(const char *path, const char *dir, size_t n);

/** Is `name` a directory no walk of a tree goes into (version control, caches, virtual
 *  environments, node_modules)? */
bool hg_path_skipped_dir(const char *name);

/** The git work tree holding `start` (a file or a directory): the real path of its nearest
 *  ancestor with a .git entry (a directory, or the file a worktree or submodule has), found
 *  without running git (a pre-commit hook pays nothing); NULL outside one. A new heap string. */
char *hg_path_git_top(const char *start);

#endif
