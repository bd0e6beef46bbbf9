/* The prefilter: one pcre2 alternation of the literals that site patterns require, derived from
 * their predicates (never written by hand). A file in which none of them appears cannot hold a
 * site and is not parsed. The answer is computed without pcre2: each distinct literal is searched
 * with memmem and its word boundaries checked, which says the same as the alternation (a unit test
 * holds the two equal) several times faster. Built once per run, read-only afterwards and shared
 * by every worker. */
#ifndef HG_PREFILTER_H
#define HG_PREFILTER_H

#include "predicate.h"

typedef struct hg_prefilter hg_prefilter;

/** Builds the prefilter from the predicates of the `n` site patterns (a NULL entry is a pattern
 *  without predicates). Of each pattern it takes the predicate with the most selective literals
 *  (the longest shortest one): one of them appears in any file the pattern matches. A pattern
 *  without literals turns the prefilter off. Never fails; free with hg_prefilter_free. */
hg_prefilter *hg_prefilter_new(const hg_predicates *const *patterns, size_t n);
void hg_prefilter_free(hg_prefilter *self);

/** Is it on? Off, every file may hold a site. */
bool hg_prefilter_on(const hg_prefilter *self);
/** The alternation as pcre2 source, "" when off (for --list-rules). Owned by self. */
const char *hg_prefilter_source(const hg_prefilter *self);
/** The alternation compiled (JIT where available), NULL when off: for finding the trigger words
 *  inside a region. Owned by self; threads share it, each with its own match data. */
const pcre2_code *hg_prefilter_code(const hg_prefilter *self);

/** Can `len` bytes at `data` hold a site, i.e. does the alternation match them? Only those bytes
 *  are read (no terminator needed). True when off. Thread-safe; allocates nothing. */
bool hg_prefilter_match(const hg_prefilter *self, const char *data, size_t len);

#endif
