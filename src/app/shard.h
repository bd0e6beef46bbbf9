/* --shard K/N: a run judges only the files whose path, relative to the repository root, hashes
 * to shard K of N, so that N runners share a tree and the union of their reports is the report
 * of one run over it. The hash is hg_hash of the relative path's bytes (64-bit FNV-1a) modulo N:
 * the same on every machine and for every checkout location. Only what is judged is split: the
 * project's other files are still read for the values a site takes from them. */
#ifndef HG_SHARD_H
#define HG_SHARD_H

#include <stdbool.h>

#include "app/relax.h"
#include "app/repo.h"
#include "app/walk.h"
#include "judge/finding.h"

typedef struct {
  unsigned k, n;  // 1 <= k <= n; n == 0: no sharding
} hg_shard;

/** The largest N --shard takes. */
#define HG_SHARD_MAX 4096u

/** Parses "K/N" (decimal, 1 <= K <= N <= HG_SHARD_MAX): true, or false with *out untouched. */
bool hg_shard_parse(const char *text, hg_shard *out);
/** Does `relpath` (relative to the repository root) belong to the shard? Always, without one. */
bool hg_shard_holds(const hg_shard *self, const char *relpath);
/** Keeps the paths of the shard (named as the run names them; `repo` gives their root), frees the
 *  others. */
void hg_shard_keep_paths(const hg_shard *self, hg_repo *repo, hg_paths *paths);
/** Keeps the file errors of the shard's files; frees the others. */
void hg_shard_keep_errors(const hg_shard *self, hg_repo *repo, hg_file_errors *errors);
/** Keeps the relaxations named in the shard's files; frees the others. */
void hg_shard_keep_relaxations(const hg_shard *self, hg_repo *repo, hg_relaxations *relaxations);
/** The SARIF run's automationDetails.id, "hardguard/shard-K-of-N/" (GitHub's category is what
 *  precedes the last slash), owned by the caller; NULL without a shard. */
char *hg_shard_automation_id(const hg_shard *self);

#endif
