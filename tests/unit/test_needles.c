// Unit tests for needles.c: the one-pass search of a set of literals says what searching each
// literal on its own with memmem says (which literals occur, their word boundaries holding, and
// the units they announce) on texts built to put literals, their pieces and word characters next
// to each other, on every needle set of the built-in prefilters and on sets made to be hard for
// the skipping (two-byte needles, needles sharing blocks and hash buckets, bytes past 0x7f).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/needles.h"
#include "helpers.h"

static uint64_t rng_state;

static uint32_t rnd(uint32_t n) { return hg_test_rnd(&rng_state, n); }

#define N(text, combos, units) {text, sizeof(text) - 1, combos, units}

// The python prefilter's needles and boundaries, as the built-in rules derive them (the seed).
static const hg_needle PYTHON[] = {
    N("containers/create", 1, 1),  N("from_env", 8, 2),          N("DockerClient", 8, 2),
    N("APIClient", 8, 4),          N("docker", 1, 8),            N("podman", 1, 8),
    N("nerdctl", 1, 8),            N("create_namespaced_", 1, 16), N("with_kwargs", 8, 32),
    N("DockerContainer", 8, 32),   N("create_container", 8, 64), N("python_on_whales", 1, 64),
    N("containers", 8, 1),
};
// Short needles: a window of two bytes, so no skipping; needles ending in the same block.
static const hg_needle SHORT[] = {
    N("ab", 1, 1), N("xab", 1, 2), N("b_", 2, 4), N("_b", 4, 8), N("ba", 8, 16), N("abab", 2, 32),
};
// Windows ending in blocks that share a 12-bit hash ("A\x00" and "@\x10" hash alike), high bytes,
// one needle a prefix of another, and each boundary combination on one text.
static const hg_needle MIXED[] = {
    N("qA\x00", 1, 1), N("q@\x10", 1, 2), N("\xc3\xa9t\xc3\xa9", 1, 4), N("run", 14, 8),
    N("runner", 8, 16),  N("_run_", 4, 32),   N("q.q", 1, 64),
};
// A one-byte needle: searched needle by needle (no window of two bytes).
static const hg_needle ONE[] = {N("docker", 1, 1), N("x", 8, 2)};

typedef struct {
  const hg_needle *needles;
  size_t n;
} set;

// Up to `parts` pieces: whole needles, their halves, word characters, separators, high bytes.
static size_t random_text(const set *s, char *text, size_t cap, uint32_t parts) {
  static const char *const FILL[] = {"_", "x", "9", ".", " ", "\n", "'", "(", "-", "\xc3", "\xa9", "A", "\x10", "\x00"};
  size_t len = 0;
  for (parts = 1 + rnd(parts); parts-- > 0;) {
    const char *bit;
    size_t n;
    uint32_t k = rnd(4);
    if (k == 0) {
      bit = FILL[rnd(sizeof(FILL) / sizeof(*FILL))];
      n = *bit ? strlen(bit) : 1;
    } else {
      const hg_needle *nd = &s->needles[rnd((uint32_t)s->n)];
      bit = nd->text;
      n = k == 1 ? nd->len / 2 + rnd((uint32_t)nd->len / 2 + 1) : nd->len;  // a piece, or all of it
      if (k == 3 && n > 1) bit += 1, n -= 1;  // and its tail
    }
    if (len + n >= cap) break;
    memcpy(text + len, bit, n);
    len += n;
  }
  return len;
}

static const char *const ENGINE[] = {"skip", "ssse3", "avx2"};

static void agrees_with(const set *s, uint64_t seed, int rounds, hg_needles_engine engine) {
  hg_needles *t = hg_needles_new(s->needles, s->n);
  if (!hg_needles_use(t, engine)) {  // this CPU does not run it
    hg_needles_free(t);
    return;
  }
  rng_state = seed;
  char text[400];  // several of the vector engines' steps, and their last bytes
  size_t found = 0, missed = 0;
  for (int round = 0; round < rounds; round++) {
    size_t len = random_text(s, text, sizeof(text), round % 2 ? 10 : 40);
    for (size_t off = 0; off <= len; off += 1 + rnd(3)) {  // every start, every length
      size_t n = len - off;
      // On the heap, exactly n bytes: a read past them is one under AddressSanitizer.
      char *d = malloc(n ? n : 1);
      assert_non_null(d);
      memcpy(d, text + off, n);
      bool any = hg_needles_any(t, d, n), want_any = hg_needles_any_each(t, d, n);
      uint64_t units = hg_needles_units(t, d, n), want_units = hg_needles_units_each(t, d, n);
      if (any != want_any || units != want_units)
        print_error("%s, round %d: \"%.*s\": one pass %d %#llx, each %d %#llx\n", ENGINE[engine], round, (int)n, d, any,
                    (unsigned long long)units,
                    want_any, (unsigned long long)want_units);
      assert_int_equal(any, want_any);
      assert_int_equal(units, want_units);
      found += want_any;
      missed += !want_any;
      free(d);
    }
  }
  hg_needles_free(t);
  // Both answers, often.
  assert_true(found > (size_t)rounds && missed > (size_t)rounds / 4);
}

// Every engine this CPU runs gives each literal's own answers; the skipping one runs on any.
static void agrees_on(const set *s, uint64_t seed, int rounds) {
  hg_needles *t = hg_needles_new(s->needles, s->n);
  assert_true(hg_needles_use(t, HG_NEEDLES_SKIP));
  hg_needles_free(t);
  for (hg_needles_engine e = HG_NEEDLES_SKIP; e <= HG_NEEDLES_AVX2; e++) agrees_with(s, seed, rounds, e);
}

static void test_needles__one_pass_is_each_on_the_python_needles(void **state) {
  (void)state;
  agrees_on(&(set){PYTHON, sizeof(PYTHON) / sizeof(*PYTHON)}, UINT64_C(0x9E3779B97F4A7C15), 3000);
}

static void test_needles__one_pass_is_each_on_short_needles(void **state) {
  (void)state;
  agrees_on(&(set){SHORT, sizeof(SHORT) / sizeof(*SHORT)}, UINT64_C(0x2545F4914F6CDD1D), 3000);
}

static void test_needles__one_pass_is_each_on_shared_blocks_and_high_bytes(void **state) {
  (void)state;
  agrees_on(&(set){MIXED, sizeof(MIXED) / sizeof(*MIXED)}, UINT64_C(0x94D049BB133111EB), 3000);
  agrees_on(&(set){ONE, sizeof(ONE) / sizeof(*ONE)}, UINT64_C(0xBF58476D1CE4E5B9), 1000);
}

// What the search answers, case by case: boundaries, both ends of the text, units stopping early.
static void test_needles__answers(void **state) {
  (void)state;
  hg_needles *t = hg_needles_new(PYTHON, sizeof(PYTHON) / sizeof(*PYTHON));
  assert_false(hg_needles_any(t, "", 0));
  assert_false(hg_needles_any(t, "docke", 5));                     // shorter than the window
  assert_true(hg_needles_any(t, "docker", 6));                     // the whole text
  assert_true(hg_needles_any(t, "import docker.errors\n", 21));
  assert_false(hg_needles_any(t, "my_from_env = 1", 15));          // \bfrom_env\b: not after a word char
  assert_false(hg_needles_any(t, "from_envelope", 13));            // ... nor before one
  assert_true(hg_needles_any(t, "x = from_env()", 14));
  assert_false(hg_needles_any(t, "the_containers_list", 19));      // \bcontainers\b
  assert_true(hg_needles_any(t, "c.containers.run", 16));
  assert_true(hg_needles_any(t, "/containers/create?", 19));       // anywhere
  assert_false(hg_needles_any(t, "docker", 5));                    // only the bytes given are read
  assert_int_equal(hg_needles_units(t, "c.containers.run(APIClient)", 27), 1 | 4);
  assert_int_equal(hg_needles_units(t, "podman nerdctl docker", 21), 8);
  assert_int_equal(hg_needles_units(t, "nothing here, just text", 23), 0);
  hg_needles_free(t);
  // No needles: nothing occurs.
  hg_needles *none = hg_needles_new(NULL, 0);
  assert_false(hg_needles_any(none, "docker", 6));
  assert_int_equal(hg_needles_units(none, "docker", 6), 0);
  hg_needles_free(none);
  // combos 14: \brun, run\b or \brun\b: "rerun" has no boundary before, "runs" none after.
  hg_needles *m = hg_needles_new(MIXED, sizeof(MIXED) / sizeof(*MIXED));
  assert_int_equal(hg_needles_units(m, "rerun!", 6), 8);
  assert_int_equal(hg_needles_units(m, "reruns", 6), 0);
  assert_int_equal(hg_needles_units(m, "runs", 4), 8);
  assert_int_equal(hg_needles_units(m, "xq@\x10y", 5), 2);  // a block sharing its hash, not the text
  assert_int_equal(hg_needles_units(m, "xqA\x00y", 5), 1);
  hg_needles_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_needles__one_pass_is_each_on_the_python_needles),
      cmocka_unit_test(test_needles__one_pass_is_each_on_short_needles),
      cmocka_unit_test(test_needles__one_pass_is_each_on_shared_blocks_and_high_bytes),
      cmocka_unit_test(test_needles__answers),
  };
  return cmocka_run_group_tests_name("needles", tests, NULL, NULL);
}
