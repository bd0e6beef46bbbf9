/* The strings the #file-contains? predicates of a surface's rules look for, found in one pass over
 * a file (base/needles.h) instead of one memmem pass per predicate and string: each string has a
 * bit, and a file's search gives the bits of those it holds. */
#ifndef HG_FILEWORDS_H
#define HG_FILEWORDS_H

#include <stddef.h>
#include <stdint.h>

typedef struct hg_file_words hg_file_words;

hg_file_words *hg_file_words_new(void);
void hg_file_words_free(hg_file_words *self);

/** The bit of `word` (copied), given it now if it has none; 0 once 64 words have theirs (a
 *  predicate with such a word searches the file itself). Not after hg_file_words_seal. */
uint64_t hg_file_words_bit(hg_file_words *self, const char *word);

/** Done giving bits: makes the search. */
void hg_file_words_seal(hg_file_words *self);

/** The bits of the words the `len` bytes at `data` hold (anywhere in them). Sealed only; reads
 *  only those bytes; thread-safe. */
uint64_t hg_file_words_in(const hg_file_words *self, const char *data, size_t len);

#endif
