// Unit tests for filewords.c: the bits of the #file-contains? strings of a surface's rules, found in
// one pass over a file, and the predicates that read them (predicate.c): what they say is what one
// memmem pass per string says, for every string, text and place, past the 64 strings that have bits
// too.
#define _GNU_SOURCE  // memmem
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/filewords.h"
#include "rules/predicate.h"
#include "surfaces/node.h"
#include "surfaces/python/row.h"

static const char *const WORDS[] = {"docker", "podman", "nerdctl", "python_on_whales", "dock", "docker-compose",
                                    "containers/create", "d", "testcontainers", "\xc3\xa9t\xc3\xa9"};
enum { N_WORDS = sizeof(WORDS) / sizeof(WORDS[0]) };

static void test_filewords__bits(void **state) {
  (void)state;
  hg_file_words *w = hg_file_words_new();
  uint64_t seen = 0;
  for (size_t i = 0; i < N_WORDS; i++) {
    uint64_t b = hg_file_words_bit(w, WORDS[i]);
    assert_int_equal(__builtin_popcountll(b), 1);  // one bit each, none shared
    assert_int_equal(seen & b, 0);
    seen |= b;
    assert_int_equal(hg_file_words_bit(w, WORDS[i]), b);  // the same word, the same bit
  }
  assert_int_equal(hg_file_words_bit(w, ""), 0);  // the empty string has none: it is everywhere
  char word[16];
  for (size_t i = N_WORDS; i < 64; i++) {
    snprintf(word, sizeof(word), "w%zu", i);
    assert_int_not_equal(hg_file_words_bit(w, word), 0);
  }
  assert_int_equal(hg_file_words_bit(w, "one too many"), 0);  // 64 words have bits
  assert_int_not_equal(hg_file_words_bit(w, "docker"), 0);    // those still do
  hg_file_words_free(w);
}

// A text of `len` bytes of filler with `word` (NULL: none) at `at`.
static char *text_with(size_t len, const char *word, size_t at) {
  char *t = malloc(len + 1);
  for (size_t i = 0; i < len; i++) t[i] = "xyz_ \n\t.("[i % 9];
  if (word) memcpy(t + at, word, strlen(word));
  t[len] = '\0';
  return t;
}

// Each word alone, at each place of texts of lengths about the one pass's blocks (16 and 32 bytes),
// and several words at once: the bits are those memmem finds.
static void test_filewords__same_as_memmem(void **state) {
  (void)state;
  hg_file_words *w = hg_file_words_new();
  uint64_t bit[N_WORDS];
  for (size_t i = 0; i < N_WORDS; i++) bit[i] = hg_file_words_bit(w, WORDS[i]);
  hg_file_words_seal(w);
  static const size_t lens[] = {0, 1, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 200};
  size_t checked = 0;
  for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
    for (size_t k = 0; k <= N_WORDS; k++) {
      const char *word = k < N_WORDS ? WORDS[k] : NULL;
      size_t wl = word ? strlen(word) : 0;
      for (size_t at = 0; at + wl <= lens[l]; at++) {
        char *t = text_with(lens[l], word, at);
        uint64_t got = hg_file_words_in(w, t, lens[l]), want = 0;
        for (size_t i = 0; i < N_WORDS; i++)
          if (memmem(t, lens[l], WORDS[i], strlen(WORDS[i]))) want |= bit[i];
        if (got != want) fail_msg("len %zu, %s at %zu: %#llx, memmem %#llx", lens[l], word ? word : "-", at,
                                  (unsigned long long)got, (unsigned long long)want);
        free(t);
        checked++;
        if (!word) break;
      }
    }
  assert_true(checked > 1000);
  // Several at once, one cut short by the end of the text.
  const char *t = "import docker\n# podman? nerdctl\nx = 'python_on_whal";
  uint64_t got = hg_file_words_in(w, t, strlen(t));
  assert_int_equal(got, bit[0] | bit[1] | bit[2] | bit[4] | bit[7]);
  assert_int_equal(hg_file_words_in(w, t, 8), bit[7]);  // only the bytes asked: "import d"
  hg_file_words_free(w);
  // Without words: no bits, whatever the text.
  hg_file_words *none = hg_file_words_new();
  hg_file_words_seal(none);
  assert_int_equal(hg_file_words_in(none, t, strlen(t)), 0);
  hg_file_words_free(none);
}

static hg_shapes *new_query(const char *text) {
  uint32_t off;
  char msg[192];
  hg_shapes *q = hg_shapes_compile(tree_sitter_python(), text, (uint32_t)strlen(text), &off, msg, sizeof(msg));
  if (!q) fail_msg("shape does not compile (%s at %u): %s", msg, off, text);
  return q;
}

// #file-contains? predicates bound to words say of each file what they say searching it
// themselves: with the words, without them, with another surface's, and one with a string past the
// 64 that have bits. The file is searched once for all of them.
static void test_filewords__predicates_read_them(void **state) {
  (void)state;
  hg_buf text = {0};
  hg_buf_puts(&text, "((identifier) @x (#file-contains? \"docker\" \"podman\") (#file-contains? \"nerdctl\")");
  hg_buf_puts(&text, " (#file-contains? \"python_on_whales\" \"docker\")");
  // 70 strings: the last ones have no bit, and their predicate searches the file itself.
  hg_buf_puts(&text, " (#file-contains?");
  for (int i = 0; i < 70; i++) hg_buf_printf(&text, " \"word%02d\"", i);
  hg_buf_puts(&text, "))");
  hg_shapes *q = new_query(text.data);
  hg_buf_free(&text);
  hg_predicates *p = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_predicates_compile(&p, q, 0, NULL, &err), 0);
  hg_file_words *w = hg_file_words_new(), *other = hg_file_words_new();
  hg_predicates_bind_words(p, w);
  hg_file_words_seal(w);
  hg_file_words_seal(other);
  static const char *const files[] = {
      "x = 1\n", "import docker\n", "# podman\n", "nerdctl\n", "python_on_whales = 1\n", "word69 = 2\n",
      "word05\n", "dock er podma n\n", "",
  };
  TSParser *parser = ts_parser_new();
  assert_true(ts_parser_set_language(parser, tree_sitter_python()));
  for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
    const char *src = files[f];
    TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
    TSNode root = ts_tree_root_node(tree);
    for (uint32_t i = 0; i < 4; i++) {
      hg_predctx alone = {.src = src}, with = {.src = src, .words = w}, elsewhere = {.src = src, .words = other};
      bool want = hg_predicates_may_hold(p, i, root, &alone);
      assert_int_equal(hg_predicates_may_hold(p, i, root, &with), want);
      assert_int_equal(hg_predicates_may_hold(p, i, root, &elsewhere), want);
      assert_false(alone.words_read);
      assert_false(elsewhere.words_read);              // another surface's words are not read
      assert_int_equal(with.words_read, i < 3);        // the last one searches the file itself
      bool expect = i == 0   ? strstr(src, "docker") || strstr(src, "podman")
                    : i == 1 ? strstr(src, "nerdctl") != NULL
                    : i == 2 ? strstr(src, "python_on_whales") || strstr(src, "docker")
                             : strstr(src, "word") != NULL;
      if (want != expect) fail_msg("file %zu, predicate %u: %d", f, i, want);
    }
    // One context asked the three with bits: the file was searched for them.
    hg_predctx one = {.src = src, .words = w};
    for (uint32_t i = 0; i < 3; i++) hg_predicates_may_hold(p, i, root, &one);
    assert_true(one.words_read);
    hg_tree_delete(tree);
  }
  ts_parser_delete(parser);
  hg_file_words_free(w);
  hg_file_words_free(other);
  hg_predicates_free(p);
  hg_shapes_free(q);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_filewords__bits),
      cmocka_unit_test(test_filewords__same_as_memmem),
      cmocka_unit_test(test_filewords__predicates_read_them),
  };
  return cmocka_run_group_tests_name("filewords", tests, NULL, NULL);
}
