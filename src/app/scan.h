/* The worker pool: one thread per core (worker 0 is the caller's), each with its own checker and
 * reader, taking files in turn from a shared counter. A worker reads a file once into its reused
 * buffer, skips it without copying when the prefilter rules out every site, otherwise hands it to
 * check.c, and keeps the owned findings. Files over 256 KB are checked one at a time (their trees
 * are large; one met while another is checked is read again later). The caller gets all findings and file errors, sorted, so the output is the same for
 * any number of workers; or, with a sink, each file's findings as soon as every file before it in
 * path order is done, so that memory does not grow with the number of sites. */
#ifndef HG_SCAN_H
#define HG_SCAN_H

#include "rules/config.h"
#include "judge/finding.h"
#include "rules/ruleset.h"
#include "app/walk.h"

typedef struct {
  size_t files;   // files read
  size_t parsed;  // files that passed the prefilter and were parsed
  size_t sites;
  size_t failing;
  size_t modules_indexed;  // modules parsed only for their definitions (the project index)
  size_t excluded;         // paths the config's excludes left out (set by the caller of hg_walk)
} hg_scan_stats;

struct hg_projects;

/** Takes one file's findings, sorted, and owns them (the vector's items; its array is freed after
 *  the call). Called in path order, by one thread at a time (any worker). */
typedef void (*hg_scan_sink)(void *ctx, hg_findings *file);

typedef struct {
  const hg_ruleset *rules;
  const hg_config *config;
  const struct hg_projects *projects;  // each surface's project state, for values from outside a file
                                      // (NULL: none; app/project.h)
  const hg_walk_claims *claims;  // the files the walk took for a surface their name does not say (NULL: none)
  unsigned jobs;           // 0: one per online core
  hg_scan_sink sink;       // NULL: every finding is appended to hg_scan's `out`
  void *sink_ctx;
} hg_scan_options;

/** Scans `paths`; appends to out (NULL with a sink, which gets them file by file instead) and
 *  errors (both sorted on return). -1 only when a thread cannot be started (err filled). */
int hg_scan(const hg_scan_options *opts, char *const *paths, size_t n, hg_findings *out, hg_file_errors *errors,
            hg_scan_stats *stats, hg_error *err);

/** How many threads a scan of what these paths name would run (the caller's among them): one per
 *  online core (or `jobs`), at most one per path when none is a directory. The command line
 *  starts the others as spares (base/spare.h) before it loads its rules; hg_scan takes them. */
unsigned hg_scan_threads_ahead(unsigned jobs, const char *const *paths, size_t n);

/** Scans one in-memory file on the calling thread (tests, fuzzing). */
void hg_scan_bytes(const hg_scan_options *opts, const char *path, const char *bytes, size_t len, hg_findings *out,
                   hg_file_errors *errors);

#endif
