/* Turns the paths given on the command line into the files to scan: files as given, directories
 * walked for the files a surface reads (surface.h: by name, or by a `#!` line) without following symlinks, skipping VCS, cache and virtualenv directories and
 * the config's excludes (a directory is tested before it is entered). One readdir pass per
 * directory and no stat per entry: d_type says what an entry is. Paths that cannot be walked
 * become file errors, never silence. */
#ifndef HG_WALK_H
#define HG_WALK_H

#include "rules/config.h"
#include "judge/finding.h"

typedef hg_strvec hg_paths;

/** Appends files to `out` (heap strings, as reached from the argument) and problems to `errors`;
 *  adds to `*excluded` (unless NULL) each path the config's excludes leave out: a file, or a
 *  directory (not entered, so its files are not counted). */
void hg_walk(const char *const *args, size_t n, const hg_config *config, hg_paths *out, hg_file_errors *errors,
             size_t *excluded);

#endif
