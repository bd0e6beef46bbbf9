/* The prefilter: one pcre2 alternation of the literals that site patterns require, derived from
 * their predicates (never written by hand). A file in which none of them appears cannot hold a
 * site and is not parsed. The answer is computed without pcre2: the distinct literals are searched
 * in one pass and their word boundaries checked (base/needles.h), which says the same as the
 * alternation (a unit test holds the two equal) many times faster. Built once per run, read-only
 * afterwards and shared by every worker. */
#ifndef HG_PREFILTER_H
#define HG_PREFILTER_H

#include <stdint.h>

#include "base/needles.h"
#include "rules/predicate.h"

typedef struct hg_prefilter hg_prefilter;

/** A set of units (a surface's rule files, one bit each): which kinds of site a file may hold. */
typedef uint64_t hg_units;
#define HG_UNITS_ALL (~(hg_units)0)
enum { HG_UNITS_MAX = 64 };

/** One distinct literal searched for, with the word boundaries some alternative asks around it,
 *  announcing the units whose sites it may announce (base/needles.h). */
typedef hg_needle hg_prefilter_needle;

/** A prefilter as data, to be built into the binary (rulegen.c) and loaded without the queries. */
typedef struct {
  const char *source;  // the alternation ("" when off)
  const hg_prefilter_needle *needles;
  size_t n_needles;
} hg_prefilter_seed;

/** Builds the prefilter from the predicates of the `n` site patterns (a NULL entry is a pattern
 *  without predicates). Of each pattern it takes the predicate with the most selective literals
 *  (the longest shortest one): one of them appears in any file the pattern matches. A pattern
 *  without literals turns the prefilter off. Never fails; free with hg_prefilter_free. */
hg_prefilter *hg_prefilter_new(const hg_predicates *const *patterns, size_t n);
/** The same, where pattern i belongs to unit units[i] (< HG_UNITS_MAX): a needle announces the
 *  units of the patterns that search it, and of those that rely on it (a literal inside one they
 *  need). */
hg_prefilter *hg_prefilter_new_units(const hg_predicates *const *patterns, const unsigned *units, size_t n);
/** A prefilter from its seed (copied: the seed need not outlive it). */
hg_prefilter *hg_prefilter_from_seed(const hg_prefilter_seed *seed);
/** `self` as a seed: views into self, valid while it lives. */
hg_prefilter_seed hg_prefilter_seed_of(const hg_prefilter *self);
/** Do a and b search the same needles, for the same units, with the same alternation? */
bool hg_prefilter_equal(const hg_prefilter *a, const hg_prefilter *b);
void hg_prefilter_free(hg_prefilter *self);

/** Is it on? Off, every file may hold a site. */
bool hg_prefilter_on(const hg_prefilter *self);
/** The alternation as pcre2 source, "" when off (for --list-rules). Owned by self. */
const char *hg_prefilter_source(const hg_prefilter *self);
/** The alternation compiled (JIT where available), NULL when off: for finding the trigger words
 *  inside a region. Compiled when first asked for; owned by self; threads share it, each with its
 *  own match data. */
const pcre2_code *hg_prefilter_code(const hg_prefilter *self);

/** Can `len` bytes at `data` hold a site, i.e. does the alternation match them? Only those bytes
 *  are read (no terminator needed). True when off. Thread-safe; allocates nothing. */
bool hg_prefilter_match(const hg_prefilter *self, const char *data, size_t len);
/** The units whose sites `len` bytes at `data` may hold (0: none; HG_UNITS_ALL when off). */
hg_units hg_prefilter_units(const hg_prefilter *self, const char *data, size_t len);

#endif
