/* The baseline: failing findings accepted when hardguard was adopted, so that a run fails only on
 * the others. A finding is keyed by its path relative to the repository root, its rule, its site
 * kind and the site's first line with whitespace collapsed — never its line number — so an entry
 * keeps matching when code above it moves. The file is text, one entry per line, sorted, so that
 * it reads and diffs well and shrinks line by line as sites get fixed. */
#ifndef HG_BASELINE_H
#define HG_BASELINE_H

#include "judge/finding.h"

/** One accepted finding. Fields are heap strings owned by the entry. */
typedef struct {
  char *path;  // relative to the repository root, '/'-separated
  char *rule, *kind;
  char *code;     // the site's first line, normalised (hg_code_normalise)
  uint32_t line;  // where the entry stands in the baseline file; 0 for one made from a finding
} hg_baseline_entry;

typedef HG_VEC(hg_baseline_entry) hg_baseline;

/** Reads the baseline file `path` into `out` (zero-initialised); 0, or -1 with "path:line: …" in
 *  err. */
int hg_baseline_load(hg_baseline *out, const char *path, hg_error *err);
/** Parses `len` bytes named `name`. Blank lines and lines starting with '#' are skipped; every
 *  other line is path, rule, kind and code separated by tabs, with \\ \t \n \r and \xHH escapes. */
int hg_baseline_parse(hg_baseline *out, const char *name, const char *bytes, size_t len, hg_error *err);
void hg_baseline_free(hg_baseline *self);

/** The entry for a finding whose path relative to the root is `relpath` (copied). */
void hg_baseline_entry_from(hg_baseline_entry *out, const hg_finding *f, const char *relpath);
void hg_baseline_entry_clear(hg_baseline_entry *self);
/** Orders entries by path, rule, kind and code (bytewise). */
int hg_baseline_entry_cmp(const hg_baseline_entry *a, const hg_baseline_entry *b);
void hg_baseline_sort(hg_baseline *self);

/** A line of code normalised for matching: leading and trailing whitespace dropped and every run
 *  of inner whitespace made one space. New heap string. */
char *hg_code_normalise(const char *line);
/** Appends `s` escaped for one field of the file: backslash, tab, CR, LF, other control bytes and
 *  bytes that are not well-formed UTF-8 become escapes, and a leading '#' becomes \x23. */
void hg_baseline_escape(hg_buf *out, const char *s);
/** The whole file for `self` (sorted first), header included, in a new heap string. */
char *hg_baseline_format(hg_baseline *self);
/** Writes the failing findings (hg_finding_fails) as a baseline to `path`; relpaths[i] is finding
 *  i's path relative to the root. 0, or -1 with err. */
int hg_baseline_write(const char *path, const hg_findings *findings, const char *const *relpaths, hg_error *err);

/** Matches failing findings against the baseline (sorted on return): each entry accepts at most one
 *  finding equal to it. Sets matched[i] for each accepted finding and used[j] for each entry that
 *  accepted one (both arrays hold false on entry; used is indexed in the sorted order). */
void hg_baseline_match(hg_baseline *self, const hg_findings *findings, const char *const *relpaths, bool *matched,
                       bool *used);
/** The same on a baseline already sorted (file by file, as a streamed report matches). */
void hg_baseline_match_sorted(const hg_baseline *self, const hg_findings *findings, const char *const *relpaths,
                              bool *matched, bool *used);

/** A stable fingerprint of a finding: 16 hex digits of a 64-bit FNV-1a hash of its path relative to
 *  the root, rule, kind and normalised code — the baseline's key, without the line number. */
void hg_fingerprint(char out[17], const hg_finding *f, const char *relpath);

#endif
