#include "base/needles.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

// The window is the shortest needle's first m bytes; blocks are two bytes, hashed to 12 bits
// (two blocks sharing a hash share the smaller shift: slower, never wrong).
enum { BLOCK_BITS = 12, BLOCKS = 1 << BLOCK_BITS, MAX_WINDOW = 255 };

struct hg_needles {
  const hg_needle *needles;
  size_t n;
  uint64_t units;  // of every needle
  size_t m;        // the window; 0: too short a needle (or too many), searched needle by needle
  // How far the window may move when its last two bytes hash to b: m - 1 when no needle's window
  // holds such a block, else m - q for the block ending at its q-th byte (0: the window's end).
  uint8_t shift[BLOCKS];
  uint16_t head[BLOCKS];  // 1 + the first needle whose window ends in block b (0: none)
  uint16_t *next;         // 1 + the next needle of the same end block, per needle
};

static inline unsigned block(const unsigned char *p) { return ((unsigned)p[0] << 4 ^ p[1]) & (BLOCKS - 1); }

hg_needles *hg_needles_new(const hg_needle *needles, size_t n) {
  hg_needles *self = hg_xcalloc(1, sizeof(*self));
  self->needles = needles;
  self->n = n;
  size_t m = MAX_WINDOW;
  for (size_t i = 0; i < n; i++) {
    self->units |= needles[i].units;
    if (needles[i].len < m) m = needles[i].len;
  }
  if (n == 0 || m < 2 || n >= UINT16_MAX) return self;
  self->m = m;
  memset(self->shift, (int)(m - 1), sizeof(self->shift));
  self->next = hg_xcalloc(n, sizeof(uint16_t));
  for (size_t i = n; i-- > 0;) {  // each bucket lists its needles in their order
    const unsigned char *t = (const unsigned char *)needles[i].text;
    for (size_t q = 2; q <= m; q++) {
      unsigned b = block(t + q - 2);
      if (m - q < self->shift[b]) self->shift[b] = (uint8_t)(m - q);
    }
    unsigned b = block(t + m - 2);
    self->next[i] = self->head[b];
    self->head[b] = (uint16_t)(i + 1);
  }
  return self;
}

void hg_needles_free(hg_needles *self) {
  if (!self) return;
  free(self->next);
  free(self);
}

bool hg_needles_word_char(unsigned char ch) {
  return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

// Do the boundaries needle `nd` asks for hold around its occurrence at `at`?
static bool bounded(const hg_needle *nd, const unsigned char *d, size_t len, size_t at) {
  if (nd->combos & 1u) return true;
  bool before = at == 0 || !hg_needles_word_char(d[at - 1]);
  bool after = at + nd->len == len || !hg_needles_word_char(d[at + nd->len]);
  // combos bit (2*b + a) is satisfied when each boundary it asks for holds.
  return (nd->combos & 2u && after) || (nd->combos & 4u && before) || (nd->combos & 8u && before && after);
}

// One pass: at each place the window may end, the needles whose window ends in that block are
// compared whole. Adds the units of those found to *units; stops at the first one when `first`
// (true: one was found), else once every unit is in.
static bool scan(const hg_needles *self, const unsigned char *d, size_t len, bool first, uint64_t *units) {
  size_t m = self->m;
  for (size_t end = m - 1; end < len;) {
    unsigned b = block(d + end - 1);
    if (self->shift[b]) {
      end += self->shift[b];
      continue;
    }
    size_t at = end + 1 - m;
    for (unsigned k = self->head[b]; k; k = self->next[k - 1]) {
      const hg_needle *nd = &self->needles[k - 1];
      if (!first && !(nd->units & ~*units)) continue;  // nothing new to announce
      if (nd->len <= len - at && !memcmp(d + at, nd->text, nd->len) && bounded(nd, d, len, at)) {
        *units |= nd->units;
        if (first || *units == self->units) return true;
      }
    }
    end++;
  }
  return false;
}

static bool found(const hg_needle *nd, const char *data, size_t len) {
  if (nd->combos & 1u) return memmem(data, len, nd->text, nd->len) != NULL;
  for (const char *p = data, *end = data + len; (size_t)(end - p) >= nd->len; p++) {
    p = memmem(p, (size_t)(end - p), nd->text, nd->len);
    if (!p) return false;
    if (bounded(nd, (const unsigned char *)data, len, (size_t)(p - data))) return true;
  }
  return false;
}

bool hg_needles_any_each(const hg_needles *self, const char *data, size_t len) {
  for (size_t i = 0; i < self->n; i++)
    if (found(&self->needles[i], data, len)) return true;
  return false;
}

uint64_t hg_needles_units_each(const hg_needles *self, const char *data, size_t len) {
  uint64_t got = 0;
  // A needle whose units are all known already need not be searched.
  for (size_t i = 0; i < self->n && got != self->units; i++)
    if ((self->needles[i].units & ~got) && found(&self->needles[i], data, len)) got |= self->needles[i].units;
  return got;
}

bool hg_needles_any(const hg_needles *self, const char *data, size_t len) {
  uint64_t units = 0;
  return self->m ? scan(self, (const unsigned char *)data, len, true, &units) : hg_needles_any_each(self, data, len);
}

uint64_t hg_needles_units(const hg_needles *self, const char *data, size_t len) {
  uint64_t units = 0;
  if (!self->m) return hg_needles_units_each(self, data, len);
  scan(self, (const unsigned char *)data, len, false, &units);
  return units;
}
