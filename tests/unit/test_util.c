// Unit tests for util.c: glob matching, hg_buf, HG_VEC_PUSH, the arena, errors and file reading.
#define _GNU_SOURCE  // memmem, rand_r
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/glob.h"
#include "base/util.h"

// ---- hg_glob_match ------------------------------------------------------------------------------

typedef struct {
  const char *pattern, *path;
  bool match;
} glob_case;

static void run_globs(const glob_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    bool got = hg_glob_match(cases[i].pattern, cases[i].path);
    if (got != cases[i].match)
      print_error("hg_glob_match(\"%s\", \"%s\") = %d, expected %d\n", cases[i].pattern, cases[i].path, got,
                  cases[i].match);
    assert_int_equal(got, cases[i].match);
  }
}

#define RUN_GLOBS(t) run_globs((t), sizeof(t) / sizeof((t)[0]))

static void test_util__glob_literal_star_and_question(void **state) {
  (void)state;
  static const glob_case cases[] = {
      {"a/b.py", "a/b.py", true},
      {"a/b.py", "a/b.pyc", false},
      {"a/b.py", "a/b.py/", false},
      {"a/*.py", "a/b.py", true},
      {"a/*.py", "a/.py", true},
      {"a/*.py", "a/b/c.py", false},  // '*' stays inside a segment
      {"a/*", "a/b/c", false},
      {"a*/x", "abc/x", true},
      {"a?c", "abc", true},
      {"a?c", "ac", false},
      {"a?c", "a/c", false},  // '?' never matches '/'
      {"*", "", true},
      {"", "", true},
      {"", "a", false},
      {"a", "", false},
  };
  RUN_GLOBS(cases);
}

static void test_util__glob_double_star(void **state) {
  (void)state;
  static const glob_case cases[] = {
      // At the start: zero or more leading segments.
      {"**/x.py", "x.py", true},
      {"**/x.py", "a/x.py", true},
      {"**/x.py", "a/b/c/x.py", true},
      {"**/x.py", "a/bx.py", false},
      {"**/x.py", "x.pyc", false},
      // In the middle.
      {"a/**/b.py", "a/b.py", true},
      {"a/**/b.py", "a/x/b.py", true},
      {"a/**/b.py", "a/x/y/z/b.py", true},
      {"a/**/b.py", "ab.py", false},
      {"a/**/b.py", "a/xb.py", false},
      {"a/**/b.py", "z/a/x/b.py", false},
      // At the end: everything below.
      {"tests/**", "tests/x.py", true},
      {"tests/**", "tests/a/b/c.py", true},
      {"tests/**", "testsx/a.py", false},
      {"tests/**", "src/tests/a.py", false},
      {"tests/**", "tests", false},
      // Alone.
      {"**", "a", true},
      {"**", "a/b/c", true},
      // With a star after it.
      {"**/*_test.py", "a/b/x_test.py", true},
      {"**/*_test.py", "x_test.py", true},
      {"**/*_test.py", "a/b/x_test.pyc", false},
  };
  RUN_GLOBS(cases);
}

static void test_util__glob_character_classes(void **state) {
  (void)state;
  static const glob_case cases[] = {
      {"[abc].py", "a.py", true},
      {"[abc].py", "c.py", true},
      {"[abc].py", "d.py", false},
      {"[abc].py", "ab.py", false},
      {"[a-c]x", "bx", true},
      {"[a-c]x", "dx", false},
      {"[!a]x", "bx", true},
      {"[!a]x", "ax", false},
      {"src/[tT]ests/*", "src/Tests/a", true},
      {"src/[tT]ests/*", "src/Xests/a", false},
      // An unterminated '[' is a literal.
      {"[ab", "[ab", true},
      {"[ab", "a", false},
  };
  RUN_GLOBS(cases);
}

// Found by tests/fuzz/fuzz_config: a backtracking matcher takes time exponential in the stars
// ("*a" repeated k times against n a's tries C(n, k) splits); matching must stay polynomial.
static void test_util__glob_many_stars_stay_fast(void **state) {
  (void)state;
  static const glob_case cases[] = {
      {"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
      {"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true},
      {"**a**a**a**a**a**a**a**a**a**a**b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
      {"**/**/**/**/**/**/**/**/**/**/**/b", "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/c", false},
      {"**/**/**/**/**/**/**/**/**/**/**/b", "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/b", true},
      {"v***********************************end", "vaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaen", false},
  };
  RUN_GLOBS(cases);
}

static void test_util__glob_without_slash_matches_basenames(void **state) {
  (void)state;
  static const glob_case cases[] = {
      {"*.py", "a.py", true},
      {"*.py", "a/b/c.py", true},
      {"*.py", "a/b/c.pyc", false},
      {"*_test.py", "pkg/sub/foo_test.py", true},
      {"*_test.py", "pkg/foo_test.py/x.txt", false},
      {"conftest.py", "a/conftest.py", true},
      {"conftest.py", "a/myconftest.py", false},
      {"tests", "a/tests", true},
      {"tests", "a/tests/x.py", false},  // the basename, not any segment
      // A pattern with a slash is anchored at the root.
      {"b/c.py", "a/b/c.py", false},
      {"a/c.py", "x/a/c.py", false},
  };
  RUN_GLOBS(cases);
}

// ---- hg_buf -------------------------------------------------------------------------------------

static void test_util__buf_appends_and_stays_terminated(void **state) {
  (void)state;
  hg_buf b = {0};
  hg_buf_puts(&b, "abc");
  hg_buf_putc(&b, '-');
  hg_buf_add(&b, "xyz", 2);
  hg_buf_printf(&b, "[%d:%s]", 42, "q");
  assert_int_equal(b.len, 12);
  assert_string_equal(b.data, "abc-xy[42:q]");
  assert_int_equal(strlen(b.data), b.len);
  assert_true(b.cap > b.len);
  hg_buf_free(&b);
  assert_null(b.data);
  assert_int_equal(b.len, 0);
  assert_int_equal(b.cap, 0);
}

static void test_util__buf_grows_past_its_first_capacity(void **state) {
  (void)state;
  hg_buf b = {0};
  for (int i = 0; i < 1000; i++) hg_buf_putc(&b, (char)('a' + i % 26));
  assert_int_equal(b.len, 1000);
  assert_true(b.cap >= 1001);
  assert_int_equal(b.data[999], 'a' + 999 % 26);
  assert_int_equal(b.data[1000], '\0');
  // A printf longer than the remaining room.
  char big[300];
  memset(big, 'z', sizeof(big) - 1);
  big[sizeof(big) - 1] = '\0';
  hg_buf_printf(&b, "%s!", big);
  assert_int_equal(b.len, 1000 + 299 + 1);
  assert_int_equal(b.data[b.len - 1], '!');
  assert_int_equal(b.data[b.len], '\0');
  hg_buf_free(&b);
}

// Every length of text against every room left: a text that fills the room exactly, one byte
// more than it, and the NUL after each (the buffer formats into its room first, again when short).
static void test_util__buf_printf_at_every_room(void **state) {
  (void)state;
  char text[300];
  for (size_t i = 0; i < sizeof(text); i++) text[i] = (char)('A' + i % 23);
  for (size_t fill = 0; fill < 140; fill += 3) {
    for (int len = 0; len < 260; len += 1 + len / 16) {
      hg_buf b = {0};
      for (size_t i = 0; i < fill; i++) hg_buf_putc(&b, '.');
      hg_buf_printf(&b, "<%.*s>", len, text);
      assert_int_equal(b.len, fill + (size_t)len + 2);
      assert_int_equal(strlen(b.data), b.len);
      assert_true(b.cap > b.len);
      assert_int_equal(b.data[fill], '<');
      assert_memory_equal(b.data + fill + 1, text, (size_t)len);
      assert_int_equal(b.data[b.len - 1], '>');
      hg_buf_free(&b);
    }
  }
}

// Formats of plain %s, %u, %d and %% only are put together without vsnprintf: the same bytes as
// snprintf's for each, at every room left, with any other conversion left to vsnprintf.
static void test_util__buf_printf_plain_formats_as_snprintf(void **state) {
  (void)state;
  const char *volatile none = NULL;  // volatile: a NULL %s the compiler does not see
  static const int ints[] = {0, 7, -7, 42, -100000, 2147483647, -2147483647 - 1};
  static const unsigned uints[] = {0u, 9u, 10u, 4294967295u};
  for (size_t fill = 0; fill < 80; fill += 7) {
    for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++) {
      char want[512];
      hg_buf b = {0};
      for (size_t i = 0; i < fill; i++) hg_buf_putc(&b, '.');
      size_t before = b.len;
      unsigned u = uints[k % 4];
      hg_buf_printf(&b, "%s=%d (line %u) 100%% %s%s|", "key", ints[k], u, none, "");
      snprintf(want, sizeof(want), "%s=%d (line %u) 100%% %s%s|", "key", ints[k], u, (const char *)none, "");
      assert_string_equal(b.data + before, want);
      assert_int_equal(b.len, before + strlen(want));
      hg_buf_printf(&b, "%s", "");  // nothing added: still terminated
      assert_int_equal(strlen(b.data), before + strlen(want));
      const char *volatile empty = "";
      hg_buf_printf(&b, "%s%s", empty, empty);
      hg_buf_printf(&b, "%05d|%.2s|%x|%zu", ints[k], "abc", u, fill);  // not plain: vsnprintf's
      size_t at = before + strlen(want);
      snprintf(want, sizeof(want), "%05d|%.2s|%x|%zu", ints[k], "abc", u, fill);
      assert_string_equal(b.data + at, want);
      hg_buf_free(&b);
    }
  }
}

static void test_util__buf_add_nothing_gives_empty_string(void **state) {
  (void)state;
  hg_buf b = {0};
  hg_buf_add(&b, "", 0);
  assert_non_null(b.data);
  assert_string_equal(b.data, "");
  assert_int_equal(b.len, 0);
  hg_buf_free(&b);
}

static void test_util__buf_detach(void **state) {
  (void)state;
  hg_buf b = {0};
  // Never NULL, even when nothing was written.
  char *empty = hg_buf_detach(&b);
  assert_non_null(empty);
  assert_string_equal(empty, "");
  free(empty);

  hg_buf_puts(&b, "hello");
  char *s = hg_buf_detach(&b);
  assert_string_equal(s, "hello");
  assert_null(b.data);
  assert_int_equal(b.len, 0);
  assert_int_equal(b.cap, 0);
  // The buffer is reusable and independent of the detached bytes.
  hg_buf_puts(&b, "again");
  assert_string_equal(b.data, "again");
  assert_string_equal(s, "hello");
  free(s);
  hg_buf_free(&b);
}

// ---- HG_VEC ------------------------------------------------------------------------------------

static void test_util__vec_push_grows_by_doubling(void **state) {
  (void)state;
  HG_VEC(int) v = {0};
  HG_VEC_PUSH(&v, 0);
  assert_int_equal(v.len, 1);
  assert_int_equal(v.cap, 8);
  size_t last_cap = v.cap;
  for (int i = 1; i < 1000; i++) {
    HG_VEC_PUSH(&v, i * 3);
    assert_true(v.cap >= v.len);
    if (v.cap != last_cap) {
      assert_int_equal(v.cap, last_cap * 2);  // grows only when full, by doubling
      assert_int_equal(v.len, last_cap + 1);
      last_cap = v.cap;
    }
  }
  assert_int_equal(v.len, 1000);
  assert_int_equal(v.cap, 1024);
  for (int i = 0; i < 1000; i++) assert_int_equal(v.items[i], i * 3);
  free(v.items);
}

static void test_util__vec_push_struct_literal(void **state) {
  (void)state;
  typedef struct {
    int a;
    const char *b;
  } pair;
  HG_VEC(pair) v = {0};
  // The macro takes __VA_ARGS__ so that a compound literal's commas are fine.
  for (int i = 0; i < 20; i++) HG_VEC_PUSH(&v, (pair){i, i % 2 ? "odd" : "even"});
  assert_int_equal(v.len, 20);
  assert_int_equal(v.items[19].a, 19);
  assert_string_equal(v.items[19].b, "odd");
  assert_string_equal(v.items[0].b, "even");
  free(v.items);
}

// ---- hg_arena ------------------------------------------------------------------------------------

static int setup_arena(void **state) {
  *state = hg_arena_new();
  return *state ? 0 : -1;
}

static int teardown_arena(void **state) {
  hg_arena_free(*state);
  return 0;
}

static void test_util__arena_alloc_is_zeroed_aligned_and_distinct(void **state) {
  hg_arena *a = *state;
  enum { N = 40 };
  unsigned char *ptrs[N];
  size_t sizes[N];
  for (size_t k = 0; k < N; k++) {
    size_t n = 1 + k * 7;
    unsigned char *p = hg_arena_alloc(a, n);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
    for (size_t i = 0; i < n; i++) assert_int_equal(p[i], 0);
    memset(p, (int)k + 1, n);
    ptrs[k] = p;
    sizes[k] = n;
  }
  // No allocation overlapped another: each still holds its own byte.
  for (size_t k = 0; k < N; k++)
    for (size_t i = 0; i < sizes[k]; i++) assert_int_equal(ptrs[k][i], k + 1);
  char *s = hg_arena_strndup(a, "hello world", 5);
  assert_string_equal(s, "hello");
}

static void test_util__arena_many_chunks(void **state) {
  hg_arena *a = *state;
  // ~1 MiB in 1000-byte pieces spans many 64 KiB chunks; every piece keeps its content.
  enum { N = 1000, SIZE = 1000 };
  unsigned char **ptrs = calloc(N, sizeof(*ptrs));
  for (int i = 0; i < N; i++) {
    ptrs[i] = hg_arena_alloc(a, SIZE);
    memset(ptrs[i], i & 0xFF, SIZE);
  }
  for (int i = 0; i < N; i++) {
    assert_int_equal(ptrs[i][0], i & 0xFF);
    assert_int_equal(ptrs[i][SIZE - 1], i & 0xFF);
  }
  free(ptrs);
}

static void test_util__arena_large_allocation(void **state) {
  hg_arena *a = *state;
  char *small = hg_arena_alloc(a, 16);
  memcpy(small, "before", 7);
  size_t big_n = 200 * 1024;  // larger than a chunk
  unsigned char *big = hg_arena_alloc(a, big_n);
  assert_non_null(big);
  for (size_t i = 0; i < big_n; i += 4096) assert_int_equal(big[i], 0);
  assert_int_equal(big[big_n - 1], 0);
  memset(big, 0x5A, big_n);  // writable to its last byte (ASan checks the bounds)
  assert_int_equal(big[big_n - 1], 0x5A);
  assert_string_equal(small, "before");
  // Small allocations still work after it.
  char *after = hg_arena_strndup(a, "after", 5);
  assert_string_equal(after, "after");
  assert_string_equal(small, "before");
}

static void test_util__arena_reset_reuses_and_zeroes(void **state) {
  hg_arena *a = *state;
  char *p1 = hg_arena_alloc(a, 64);
  memset(p1, 0xFF, 64);
  hg_arena_reset(a);
  char *p2 = hg_arena_alloc(a, 64);
  assert_ptr_equal(p1, p2);  // the newest chunk is kept for reuse
  for (int i = 0; i < 64; i++) assert_int_equal(p2[i], 0);

  // Reset after several chunks, including a large one.
  for (int i = 0; i < 100; i++) hg_arena_alloc(a, 4000);
  hg_arena_alloc(a, 100 * 1024);
  hg_arena_reset(a);
  unsigned char *q = hg_arena_alloc(a, 1000);
  for (int i = 0; i < 1000; i++) assert_int_equal(q[i], 0);
}

static void test_util__arena_null_and_empty_are_safe(void **state) {
  (void)state;
  hg_arena_reset(NULL);
  hg_arena_free(NULL);
  hg_arena *a = hg_arena_new();
  hg_arena_reset(a);  // no chunk yet
  assert_non_null(hg_arena_alloc(a, 1));
  hg_arena_free(a);
}

// ---- errors, strings, files ---------------------------------------------------------------------

// hg_find gives memmem's answer: every needle of a random haystack over a small alphabet (many
// near misses), short (searched by memchr and memcmp) and long (past 256 bytes: memmem itself).
static void test_util__find_agrees_with_memmem(void **state) {
  (void)state;
  unsigned seed = 29;
  char hay[600], needle[12];
  for (int round = 0; round < 20000; round++) {
    size_t hn = (size_t)(rand_r(&seed) % (round % 2 ? 40 : 600)), nn = (size_t)(rand_r(&seed) % 8);
    for (size_t i = 0; i < hn; i++) hay[i] = "abd\0"[rand_r(&seed) % 4];
    for (size_t i = 0; i < nn; i++) needle[i] = "abd\0"[rand_r(&seed) % 4];
    assert_ptr_equal(hg_find(hay, hn, needle, nn), memmem(hay, hn, needle, nn));
  }
  static const char text[] = "self.client.containers.run";
  assert_ptr_equal(hg_find(text, strlen(text), "run", 3), text + strlen(text) - 3);
  assert_null(hg_find(text, strlen(text), "runs", 4));
  assert_ptr_equal(hg_find(text, 0, "", 0), text);
  // hg_find_word: the whole word only, at either end of the text too.
  const char *code = "rerun(run_all); x.run(1); run";
  assert_ptr_equal(hg_find_word(code, strlen(code), "run", 3), strstr(code, "x.run") + 2);
  assert_ptr_equal(hg_find_word(code + 26, 3, "run", 3), code + 26);
  assert_null(hg_find_word(code, 5, "run", 3));
  assert_null(hg_find_word(code, strlen(code), "", 0));
}

static void test_util__error_set_returns_minus_one(void **state) {
  (void)state;
  hg_error err = {{0}};
  assert_int_equal(hg_error_set(&err, "%s:%d:%d: %s", "f.yml", 3, 7, "bad"), -1);
  assert_string_equal(err.message, "f.yml:3:7: bad");
  // NULL err: still -1.
  assert_int_equal(hg_error_set(NULL, "ignored %d", 1), -1);
}

static void test_util__error_set_truncates_long_messages(void **state) {
  (void)state;
  char long_text[3000];
  memset(long_text, 'x', sizeof(long_text) - 1);
  long_text[sizeof(long_text) - 1] = '\0';
  hg_error err;
  assert_int_equal(hg_error_set(&err, "%s", long_text), -1);
  assert_int_equal(strlen(err.message), sizeof(err.message) - 1);
}

static void test_util__string_helpers(void **state) {
  (void)state;
  char *s = hg_xasprintf("%s-%03d", "n", 7);
  assert_string_equal(s, "n-007");
  free(s);
  s = hg_xstrndup("abcdef", 3);
  assert_string_equal(s, "abc");
  free(s);
  s = hg_xstrdup("");
  assert_string_equal(s, "");
  free(s);
  char **v = hg_xcalloc(3, sizeof(char *));
  for (int i = 0; i < 3; i++) v[i] = hg_xasprintf("%d", i);
  hg_strv_free(v, 3);  // leak-checked under ASan and valgrind
  hg_strv_free(NULL, 0);
}

static void test_util__dotted_name(void **state) {
  (void)state;
  static const struct {
    const char *s;
    bool ok;
  } cases[] = {
      {"docker", true},   {"docker.api.client", true},
      {"_x.y9", true},    {"l\xc3\xa4nder.flags", true},
      {"\xc3\xa9", true}, {"m.\xe9\x96\xa2\xe6\x95\xb0", true},
      {"", false},        {"a..b", false},
      {".a", false},      {"a.", false},
      {"9a", false},      {"a.9b", false},
      {"a/b", false},     {"a b", false},
      {"a-b", false},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    if (hg_dotted_name(cases[i].s, strlen(cases[i].s)) != cases[i].ok)
      print_error("case %zu: %s\n", i, cases[i].s);
    assert_int_equal(hg_dotted_name(cases[i].s, strlen(cases[i].s)), cases[i].ok);
  }
}

static int setup_tmpdir(void **state) {
  char *dir = hg_xstrdup("/tmp/hg-util-XXXXXX");
  if (!mkdtemp(dir)) return -1;
  *state = dir;
  return 0;
}

// Removes the directory and the one file a test may leave in it.
static int teardown_tmpdir(void **state) {
  char *dir = *state;
  char *file = hg_xasprintf("%s/f.txt", dir);
  unlink(file);
  free(file);
  int rc = rmdir(dir);
  free(dir);
  return rc;
}

static void test_util__read_file(void **state) {
  const char *dir = *state;
  char *path = hg_xasprintf("%s/f.txt", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  // Larger than one read and containing a NUL byte.
  for (int i = 0; i < 10000; i++) fputc(i == 5000 ? '\0' : 'a' + i % 26, f);
  fclose(f);

  char *data;
  size_t len;
  hg_error err = {{0}};
  assert_int_equal(hg_read_file(&data, &len, path, &err), 0);
  assert_int_equal(len, 10000);
  assert_int_equal(data[0], 'a');
  assert_int_equal(data[5000], '\0');
  assert_int_equal(data[9999], 'a' + 9999 % 26);
  assert_int_equal(data[10000], '\0');
  free(data);

  // A directory is not a regular file.
  assert_int_equal(hg_read_file(&data, &len, dir, &err), -1);
  assert_null(data);
  char *want = hg_xasprintf("%s: not a regular file", dir);
  assert_string_equal(err.message, want);
  free(want);

  assert_int_equal(unlink(path), 0);
  assert_int_equal(hg_read_file(&data, &len, path, &err), -1);
  assert_null(data);
  assert_int_equal(len, 0);
  want = hg_xasprintf("%s: cannot open: ", path);
  assert_int_equal(strncmp(err.message, want, strlen(want)), 0);
  free(want);
  free(path);
}

#define ARENA_TEST(f) cmocka_unit_test_setup_teardown(f, setup_arena, teardown_arena)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_util__glob_literal_star_and_question),
      cmocka_unit_test(test_util__glob_double_star),
      cmocka_unit_test(test_util__glob_character_classes),
      cmocka_unit_test(test_util__glob_many_stars_stay_fast),
      cmocka_unit_test(test_util__glob_without_slash_matches_basenames),
      cmocka_unit_test(test_util__buf_appends_and_stays_terminated),
      cmocka_unit_test(test_util__buf_grows_past_its_first_capacity),
      cmocka_unit_test(test_util__buf_printf_at_every_room),
      cmocka_unit_test(test_util__buf_printf_plain_formats_as_snprintf),
      cmocka_unit_test(test_util__buf_add_nothing_gives_empty_string),
      cmocka_unit_test(test_util__buf_detach),
      cmocka_unit_test(test_util__vec_push_grows_by_doubling),
      cmocka_unit_test(test_util__vec_push_struct_literal),
      ARENA_TEST(test_util__arena_alloc_is_zeroed_aligned_and_distinct),
      ARENA_TEST(test_util__arena_many_chunks),
      ARENA_TEST(test_util__arena_large_allocation),
      ARENA_TEST(test_util__arena_reset_reuses_and_zeroes),
      cmocka_unit_test(test_util__arena_null_and_empty_are_safe),
      cmocka_unit_test(test_util__find_agrees_with_memmem),
      cmocka_unit_test(test_util__error_set_returns_minus_one),
      cmocka_unit_test(test_util__error_set_truncates_long_messages),
      cmocka_unit_test(test_util__string_helpers),
      cmocka_unit_test(test_util__dotted_name),
      cmocka_unit_test_setup_teardown(test_util__read_file, setup_tmpdir, teardown_tmpdir),
  };
  return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
