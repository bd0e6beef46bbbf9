/* Turns the paths given on the command line into the files to scan: files as given, directories
 * walked for the files a surface reads (surface.h: by name, or by a `#!` line) without following symlinks, skipping VCS, cache and virtualenv directories and
 * the config's excludes (a directory is tested before it is entered). One readdir pass per
 * directory and no stat per entry: d_type says what an entry is. Paths that cannot be walked
 * become file errors, never silence. A file no surface reads by its name but one may by its bytes
 * (a YAML file that may be a compose file: surface.h's `claims`) is read up to
 * HG_SURFACE_CLAIM_BYTES to decide; a surface's file that includes others (`includes`) is read
 * for their names. */
#ifndef HG_WALK_H
#define HG_WALK_H

#include "rules/config.h"
#include "judge/finding.h"
#include "base/table.h"

typedef hg_strvec hg_paths;

/** The files the walk took for a surface their name does not say: a file a Makefile includes
 *  (`include common.inc`) is read as a Makefile. Owns its paths. */
typedef struct {
  hg_table table;  // path -> surface
  hg_strvec paths;
} hg_walk_claims;

/** The walk's outcome beyond the files. */
typedef struct {
  hg_walk_claims claims;
  hg_paths skipped;  // files named on the command line that no surface reads, as named
} hg_walk_extra;

/** Appends files to `out` (heap strings, as reached from the argument) and problems to `errors`;
 *  adds to `*excluded` (unless NULL) each path the config's excludes leave out: a file, or a
 *  directory (not entered, so its files are not counted). With `extra` (NULL: not asked), the
 *  files that walked directories' files include (a surface's `includes`) are taken too when they
 *  are regular files below the directory walked, noted in extra->claims; and a file named on the
 *  command line that no surface reads is left out of `out` and noted in extra->skipped. */
void hg_walk(const char *const *args, size_t n, const hg_config *config, hg_paths *out, hg_file_errors *errors,
             size_t *excluded, hg_walk_extra *extra);
/** The surface the walk took `path` for (hg_walk_extra.claims), or -1. */
int hg_walk_claimed(const hg_walk_claims *claims, const char *path);
/** Frees what hg_walk noted in `extra`. */
void hg_walk_extra_free(hg_walk_extra *extra);

#endif
