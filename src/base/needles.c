#include "base/needles.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HG_NEEDLES_SIMD 1
#endif

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
  // The vector engine (Langdale's "Teddy", as in Hyperscan and Rust's aho-corasick): each needle's
  // first `k` bytes (the shortest needle's length, at most 3) put it in one of 8 buckets; for byte
  // j of a prefix, lo[j] and hi[j] map a byte's low and high nibble to the buckets whose prefix
  // may have it there. A position is a candidate when all k bytes from it agree on a bucket; the
  // bucket's needles (bneedles[bstart[b] .. bstart[b + 1])) are then compared whole.
  hg_needles_engine engine;
  unsigned k;
  uint8_t lo[3][16], hi[3][16];
  uint16_t bstart[9];
  uint16_t *bneedles;
};

static inline unsigned block(const unsigned char *p) { return ((unsigned)p[0] << 4 ^ p[1]) & (BLOCKS - 1); }

static bool engine_runs(hg_needles_engine e) {
#ifdef HG_NEEDLES_SIMD
  if (e == HG_NEEDLES_AVX2) return __builtin_cpu_supports("avx2");
  if (e == HG_NEEDLES_SSSE3) return __builtin_cpu_supports("ssse3");
#endif
  return e == HG_NEEDLES_SKIP;
}

// The buckets: needles of one prefix share one; with more than 8 prefixes, prefix p goes to bucket
// p % 8 (more candidates, each compared whole: slower, never wrong).
// `shortest`: the shortest needle's length.
static void teddy_build(hg_needles *self, size_t shortest) {
  size_t n = self->n, k = shortest < 3 ? shortest : 3;
  if (n == 0 || k == 0 || n >= UINT16_MAX) return;
  self->k = (unsigned)k;
  uint16_t *prefix_of = hg_xcalloc(n, sizeof(uint16_t));  // the index of each needle's distinct prefix
  size_t prefixes = 0;
  for (size_t i = 0; i < n; i++) {
    size_t p = 0;
    while (p < i && memcmp(self->needles[p].text, self->needles[i].text, k)) p++;  // the first with its prefix
    prefix_of[i] = p < i ? prefix_of[p] : (uint16_t)prefixes++;
  }
  uint16_t count[8] = {0};
  for (size_t i = 0; i < n; i++) {
    unsigned b = prefix_of[i] % 8;
    count[b]++;
    const unsigned char *t = (const unsigned char *)self->needles[i].text;
    for (size_t j = 0; j < k; j++) {
      self->lo[j][t[j] & 15] |= (uint8_t)(1u << b);
      self->hi[j][t[j] >> 4] |= (uint8_t)(1u << b);
    }
  }
  for (unsigned b = 0; b < 8; b++) self->bstart[b + 1] = (uint16_t)(self->bstart[b] + count[b]);
  self->bneedles = hg_xcalloc(n, sizeof(uint16_t));
  uint16_t fill[8];
  memcpy(fill, self->bstart, sizeof(fill));
  for (size_t i = 0; i < n; i++) self->bneedles[fill[prefix_of[i] % 8]++] = (uint16_t)i;  // in their order
  free(prefix_of);
  self->engine = engine_runs(HG_NEEDLES_AVX2)    ? HG_NEEDLES_AVX2
                 : engine_runs(HG_NEEDLES_SSSE3) ? HG_NEEDLES_SSSE3
                                                 : HG_NEEDLES_SKIP;
}

hg_needles *hg_needles_new(const hg_needle *needles, size_t n) {
  hg_needles *self = hg_xcalloc(1, sizeof(*self));
  self->needles = needles;
  self->n = n;
  size_t m = MAX_WINDOW;
  for (size_t i = 0; i < n; i++) {
    self->units |= needles[i].units;
    if (needles[i].len < m) m = needles[i].len;
  }
  teddy_build(self, m);
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

bool hg_needles_use(hg_needles *self, hg_needles_engine engine) {
  if (!engine_runs(engine) || (engine != HG_NEEDLES_SKIP && !self->k)) return false;
  self->engine = engine;
  return true;
}

void hg_needles_free(hg_needles *self) {
  if (!self) return;
  free(self->bneedles);
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

#ifdef HG_NEEDLES_SIMD
// The needles of the buckets in `bits`, compared whole at `at`; as scan() adds their units.
static bool verify(const hg_needles *self, const unsigned char *d, size_t len, size_t at, unsigned bits, bool first,
                   uint64_t *units) {
  for (; bits; bits &= bits - 1) {
    unsigned b = (unsigned)__builtin_ctz(bits);
    for (unsigned x = self->bstart[b]; x < self->bstart[b + 1]; x++) {
      const hg_needle *nd = &self->needles[self->bneedles[x]];
      if (!first && !(nd->units & ~*units)) continue;
      if (nd->len <= len - at && !memcmp(d + at, nd->text, nd->len) && bounded(nd, d, len, at)) {
        *units |= nd->units;
        if (first || *units == self->units) return true;
      }
    }
  }
  return false;
}

// One engine per vector width: W bytes a step, the positions whose k bytes agree on a bucket
// compared whole. The last bytes (fewer than W + k - 1) are copied into a zeroed block and
// classified there; their candidates are still compared in `d`, within `len`.
#define TEDDY(NAME, TARGET, VEC, W, LOADT, LOAD, SET1, AND, SHUF, SRL, CMPEQ, MOVEMASK, ZERO, STORE)                     \
  __attribute__((target(TARGET))) static bool NAME(const hg_needles *self, const unsigned char *d, size_t len,        \
                                                   bool first, uint64_t *units) {                                     \
    const VEC nib = SET1(0x0f), zero = ZERO();                                                                         \
    VEC lo[3], hi[3];                                                                                                  \
    unsigned k = self->k;                                                                                              \
    for (unsigned j = 0; j < k; j++) lo[j] = LOADT(self->lo[j]), hi[j] = LOADT(self->hi[j]);                           \
    unsigned char tail[(W) + 2] = {0}; /* the last step's W bytes, and the k - 1 <= 2 after them */                   \
    _Alignas(W) unsigned char r[W];                                                                                    \
    for (size_t i = 0; i < len; i += (W)) {                                                                            \
      const unsigned char *p = d + i;                                                                                  \
      if (len - i < (W) + k - 1) {                                                                                     \
        memset(tail, 0, sizeof(tail));                                                                                 \
        memcpy(tail, p, len - i);                                                                                      \
        p = tail;                                                                                                      \
      }                                                                                                                \
      VEC c = SET1(-1);                                                                                                \
      for (unsigned j = 0; j < k; j++) {                                                                               \
        VEC v = LOAD((const void *)(p + j));                                                                           \
        c = AND(c, AND(SHUF(lo[j], AND(v, nib)), SHUF(hi[j], AND(SRL(v, 4), nib))));                                   \
      }                                                                                                                \
      uint64_t bits = (uint32_t)~MOVEMASK(CMPEQ(c, zero));                                                             \
      if ((W) < 32) bits &= (UINT64_C(1) << (W)) - 1;                                                                  \
      if (!bits) continue;                                                                                             \
      STORE((void *)r, c);                                                                                             \
      for (; bits; bits &= bits - 1) {                                                                                 \
        unsigned t = (unsigned)__builtin_ctzll(bits);                                                                  \
        if (i + t >= len) break;                                                                                       \
        if (verify(self, d, len, i + t, r[t], first, units)) return true;                                              \
      }                                                                                                                \
    }                                                                                                                  \
    return false;                                                                                                      \
  }

__attribute__((target("ssse3"))) static inline __m128i load16(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
TEDDY(teddy16, "ssse3", __m128i, 16, load16, load16, _mm_set1_epi8, _mm_and_si128,
      _mm_shuffle_epi8, _mm_srli_epi16, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_setzero_si128, _mm_store_si128)

__attribute__((target("avx2"))) static inline __m256i load_table(const void *p) {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}
__attribute__((target("avx2"))) static inline __m256i load32(const void *p) {
  return _mm256_loadu_si256((const __m256i *)p);
}
TEDDY(teddy32, "avx2", __m256i, 32, load_table, load32, _mm256_set1_epi8, _mm256_and_si256,
      _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_setzero_si256,
      _mm256_store_si256)
#endif

// Searches with the engine the search uses (scan(): the window's skipping).
static bool search(const hg_needles *self, const unsigned char *d, size_t len, bool first, uint64_t *units) {
#ifdef HG_NEEDLES_SIMD
  if (self->engine == HG_NEEDLES_AVX2) return teddy32(self, d, len, first, units);
  if (self->engine == HG_NEEDLES_SSSE3) return teddy16(self, d, len, first, units);
#endif
  return scan(self, d, len, first, units);
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
  if (self->engine == HG_NEEDLES_SKIP && !self->m) return hg_needles_any_each(self, data, len);
  return search(self, (const unsigned char *)data, len, true, &units);
}

uint64_t hg_needles_units(const hg_needles *self, const char *data, size_t len) {
  uint64_t units = 0;
  if (self->engine == HG_NEEDLES_SKIP && !self->m) return hg_needles_units_each(self, data, len);
  search(self, (const unsigned char *)data, len, false, &units);
  return units;
}
