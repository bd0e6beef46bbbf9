/* Configuration from a git commit instead of the work tree (--config-from REF, and the base side
 * of --diff's gate review): the .hardguard.yml, the baseline and a --rules directory as they stand
 * in the commit, read through git (repo.c: a child process with an argument vector), so that a
 * change cannot edit the policy that judges it. */
#ifndef HG_CONFIGREF_H
#define HG_CONFIGREF_H

#include "app/baseline.h"
#include "rules/config.h"
#include "app/repo.h"

/** The config in `commit` (a hash from hg_repo_commit; `ref` is how the user named it, for
 *  messages) for a run whose first path is `start`. With `path` (as given to --config, relative to
 *  the working directory) that file; else the `.hardguard.yml` nearest to start's directory in the
 *  commit, as hg_config_discover looks in the work tree. The config is named "REF:path" in errors
 *  and in what it reports; its root is the work-tree directory that holds it. When the commit has
 *  no such file: the defaults (an empty config, as with no file) and *found is false; but -1 and
 *  err for a `path` when `found` is NULL. -1 with err when git fails or the file is malformed. */
int hg_configref_config(hg_config **out, bool *found, hg_repo *repo, const char *commit, const char *ref,
                        const char *path, const char *start, hg_error *err);

/** The baseline `path` (relative to the working directory) as it stands in `commit`, parsed into
 *  `out` (zero-initialised). When the commit has no such file: with `missing_ok`, an empty
 *  baseline; else -1 and err. */
int hg_configref_baseline(hg_baseline *out, hg_repo *repo, const char *commit, const char *ref, const char *path,
                          bool missing_ok, hg_error *err);

/** The file `relpath` (relative to the root) in `commit`, appended to out; *found is false (and
 *  out untouched) when the commit has no such file. */
int hg_configref_file(hg_buf *out, bool *found, hg_repo *repo, const char *commit, const char *relpath, hg_error *err);

/** Copies the files under directory `dir` (relative to the working directory) in `commit` into a
 *  new private temporary directory, whose path goes to *out (free with hg_configref_rules_remove),
 *  for hg_ruleset_load. -1 with err when the commit has no files there. */
int hg_configref_rules(char **out, hg_repo *repo, const char *commit, const char *ref, const char *dir, hg_error *err);
/** Removes the directory hg_configref_rules made, and frees its path; NULL does nothing. */
void hg_configref_rules_remove(char *dir);

#endif
