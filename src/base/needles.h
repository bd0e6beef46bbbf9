/* Which of a set of literals occur in some bytes, in one pass over them. Each literal may ask for
 * word boundaries around it, and announces a set of units (bits) when found: the prefilter asks
 * "may this file hold a site, and of which kinds" of every file read, so the search runs over every
 * byte of a tree. One pass skips ahead by two-byte blocks that end no literal's first bytes
 * (Wu and Manber's multi-pattern search, "A fast algorithm for multi-pattern searching", 1994),
 * instead of one memmem pass per literal; on x86-64 with SSSE3 or AVX2 it classifies 16 or 32 bytes
 * a step by their first bytes instead (Teddy), and compares whole only where a literal may start. */
#ifndef HG_NEEDLES_H
#define HG_NEEDLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One literal: bit (2*before + after) of `combos` is set when an occurrence with a word boundary
 *  before it iff `before` and after it iff `after` counts (bit 0 alone: the text anywhere will
 *  do); `units` are announced when it is found. A word character is pcre2's \w without UTF:
 *  [A-Za-z0-9_]. */
typedef struct {
  const char *text;
  size_t len;
  unsigned combos;
  uint64_t units;
} hg_needle;

typedef struct hg_needles hg_needles;

/** How the one pass runs: skipping ahead by two-byte blocks (any CPU), or classifying 16 or 32
 *  bytes a step by their first bytes with vector instructions (x86-64 with SSSE3 or AVX2). */
typedef enum { HG_NEEDLES_SKIP, HG_NEEDLES_SSSE3, HG_NEEDLES_AVX2 } hg_needles_engine;

/** Is `ch` a word character for the needles' boundaries: pcre2's \w without UTF, [A-Za-z0-9_]? */
bool hg_needles_word_char(unsigned char ch);

/** The search for `n` needles at `needles` (viewed, not copied: they must outlive it). Never
 *  fails; free with hg_needles_free. */
hg_needles *hg_needles_new(const hg_needle *needles, size_t n);
void hg_needles_free(hg_needles *self);

/** Does some needle occur in the `len` bytes at `data`, its boundaries holding? Reads only those
 *  bytes; allocates nothing; thread-safe. */
bool hg_needles_any(const hg_needles *self, const char *data, size_t len);
/** The union of the units of the needles that occur (stops once it holds all of them). */
uint64_t hg_needles_units(const hg_needles *self, const char *data, size_t len);

/** A new search uses the widest engine this CPU runs. Makes the search use `engine` instead (the
 *  tests compare them): false, and nothing changed, when this CPU does not run it. Not
 *  thread-safe: call it before searching. */
bool hg_needles_use(hg_needles *self, hg_needles_engine engine);

/** The same answers, needle by needle with memmem: the reference the one pass is tested against. */
bool hg_needles_any_each(const hg_needles *self, const char *data, size_t len);
uint64_t hg_needles_units_each(const hg_needles *self, const char *data, size_t len);

#endif
