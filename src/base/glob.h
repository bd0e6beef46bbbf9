/* The one glob engine, for the config's globs (exclude, allow) and the surfaces' file names. One
 * matcher, two dialects: the config's own (`**` spans directories, no escapes) and, with
 * HG_GLOB_FNMATCH, glibc's fnmatch(3) with FNM_PATHNAME | FNM_PERIOD, which the surfaces' names and
 * the rule files' `files:` globs were matched with before (tests/unit/test_glob.c holds it to
 * fnmatch). Time is pattern × path, whatever both. */
#ifndef HG_GLOB_H
#define HG_GLOB_H

#include <stdbool.h>

/** Without flags, the config's dialect: `*` and `?` stay inside a '/'-separated segment; `**`
 *  followed by '/' is zero or more whole segments, and elsewhere any run of characters, '/'
 *  included; `[...]` is a character class (up to the first ']'); every other character, '\\'
 *  included, stands for itself; a leading '.' is a character like another.
 *  HG_GLOB_FNMATCH, fnmatch's dialect: `**` is two `*` (it stays inside a segment); `\c` is c,
 *  and a '\\' ending the pattern matches nothing; a class is read as fnmatch reads it (a ']' right
 *  after `[` or `[!` belongs to it, so do `[:alpha:]` and an escaped `\]`); a '[' left open
 *  stands for itself; and a '.' that starts a segment is matched only by a '.' of the pattern
 *  (a wildcard there fails, even one that would match nothing). Where glibc has quirks of its own
 *  it is not followed: on malformed patterns (some with a '[' left open, or with `\/`) and on a
 *  bug of its (`*?[.]` refuses "a."). In both, `*`, `?` and a class never match '/'. */
enum { HG_GLOB_FNMATCH = 1 };

/** Does `pattern` match all of `s`? */
bool hg_glob(const char *pattern, const char *s, unsigned flags);
/** A glob of the config (exclude, allow) against a relative path: hg_glob without flags, and a
 *  pattern without '/' also matches the path's last component. */
bool hg_glob_match(const char *pattern, const char *path);

#endif
