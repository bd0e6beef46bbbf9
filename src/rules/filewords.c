#include "rules/filewords.h"

#include <stdlib.h>
#include <string.h>

#include "base/needles.h"
#include "base/util.h"

enum { MAX_WORDS = 64 };

struct hg_file_words {
  hg_needle words[MAX_WORDS];  // text owned; units: the word's bit
  size_t n;
  hg_needles *search;  // once sealed (NULL: no word)
};

hg_file_words *hg_file_words_new(void) { return hg_xcalloc(1, sizeof(hg_file_words)); }

void hg_file_words_free(hg_file_words *self) {
  if (!self) return;
  for (size_t i = 0; i < self->n; i++) free((char *)self->words[i].text);
  hg_needles_free(self->search);
  free(self);
}

uint64_t hg_file_words_bit(hg_file_words *self, const char *word) {
  for (size_t i = 0; i < self->n; i++)
    if (!strcmp(self->words[i].text, word)) return self->words[i].units;
  if (self->n == MAX_WORDS || !*word) return 0;
  uint64_t bit = UINT64_C(1) << self->n;
  // Bit 0 of combos alone: the text anywhere, word boundaries or not (as memmem finds it).
  self->words[self->n++] = (hg_needle){hg_xstrdup(word), strlen(word), 1u, bit};
  return bit;
}

void hg_file_words_seal(hg_file_words *self) {
  if (self->n && !self->search) self->search = hg_needles_new(self->words, self->n);
}

uint64_t hg_file_words_in(const hg_file_words *self, const char *data, size_t len) {
  return self->search ? hg_needles_units(self->search, data, len) : 0;
}
