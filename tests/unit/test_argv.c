// Unit tests for argv.c: hg_argv_split splits a shell command string into the words of its
// first simple command.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/argv.h"
#include "model/site.h"

#define MAX_WORDS 8

typedef struct {
  const char *name;
  const char *input;
  const char *words[MAX_WORDS + 1];  // NULL-terminated expected words
} split_case;

static size_t count_words(const char *const *w) {
  size_t n = 0;
  while (w[n]) n++;
  return n;
}

// Splits `input` and compares word by word, naming the case in every failure.
static void check_split(const split_case *c) {
  hg_argv_words out = {0};
  hg_argv_split(&out, c->input);
  size_t want = count_words(c->words);
  if (out.len != want) {
    print_error("case '%s': %zu words, expected %zu\n", c->name, out.len, want);
    for (size_t i = 0; i < out.len; i++) print_error("  word %zu: [%s]\n", i, out.items[i]);
  }
  assert_int_equal(out.len, want);
  for (size_t i = 0; i < want; i++) {
    if (strcmp(out.items[i], c->words[i]) != 0)
      print_error("case '%s': word %zu is [%s], expected [%s]\n", c->name, i, out.items[i], c->words[i]);
    assert_string_equal(out.items[i], c->words[i]);
  }
  hg_strvec_free(&out);
  assert_null(out.items);
  assert_int_equal(out.len, 0);
}

static void run_table(const split_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) check_split(&cases[i]);
}

#define RUN_TABLE(t) run_table((t), sizeof(t) / sizeof((t)[0]))

static void test_argv__plain_words(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"three words", "docker run img", {"docker", "run", "img", NULL}},
      {"single word", "docker", {"docker", NULL}},
      {"empty string", "", {NULL}},
      {"only blanks", "  \t  ", {NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__runs_of_spaces_and_tabs(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"many spaces", "docker    run     img", {"docker", "run", "img", NULL}},
      {"tabs", "docker\trun\t\timg", {"docker", "run", "img", NULL}},
      {"leading and trailing", "  \tdocker run\t  ", {"docker", "run", NULL}},
      {"carriage return is a blank", "docker run\r", {"docker", "run", NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__single_quotes(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"quoted spaces", "echo 'a b  c'", {"echo", "a b  c", NULL}},
      {"backslash is literal", "echo 'a\\b'", {"echo", "a\\b", NULL}},
      {"double quote inside", "echo 'say \"hi\"'", {"echo", "say \"hi\"", NULL}},
      {"glued to a word", "--opt='x y'", {"--opt=x y", NULL}},
      {"adjacent quoted parts", "'a''b'", {"ab", NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__double_quotes_and_escapes(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"quoted spaces", "echo \"a b\"", {"echo", "a b", NULL}},
      {"escaped quote", "echo \"say \\\"hi\\\"\"", {"echo", "say \"hi\"", NULL}},
      {"escaped backslash", "echo \"a\\\\b\"", {"echo", "a\\b", NULL}},
      {"escaped dollar", "echo \"\\$HOME\"", {"echo", "$HOME", NULL}},
      // Inside double quotes a backslash before an ordinary character stays.
      {"other backslash kept", "echo \"a\\nb\"", {"echo", "a\\nb", NULL}},
      {"single quote inside", "echo \"it's\"", {"echo", "it's", NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__backslash_outside_quotes(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"escaped space", "a\\ b c", {"a b", "c", NULL}},
      {"escaped quote", "a\\'b", {"a'b", NULL}},
      {"escaped semicolon", "a\\;b c", {"a;b", "c", NULL}},
      {"escaped backslash", "a\\\\b", {"a\\b", NULL}},
      {"line continuation", "docker run \\\n--rm img", {"docker", "run", "--rm", "img", NULL}},
      {"trailing backslash kept", "a\\", {"a\\", NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__flag_with_equals_is_one_word(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"flag=value", "docker run --network=none img", {"docker", "run", "--network=none", "img", NULL}},
      {"flag=quoted", "--security-opt=\"no-new-privileges:true\"", {"--security-opt=no-new-privileges:true", NULL}},
      {"flag=empty", "--memory= x", {"--memory=", "x", NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__empty_quoted_word_stays(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"empty single", "a '' b", {"a", "", "b", NULL}},
      {"empty double", "a \"\" b", {"a", "", "b", NULL}},
      {"empty at end", "a ''", {"a", "", NULL}},
      {"only empty", "''", {"", NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__stops_at_command_separators(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"semicolon", "docker run a; rm -rf x", {"docker", "run", "a", NULL}},
      {"semicolon glued", "docker run a;rm", {"docker", "run", "a", NULL}},
      {"and-and", "docker run a && echo ok", {"docker", "run", "a", NULL}},
      {"background", "docker run a& echo", {"docker", "run", "a", NULL}},
      {"pipe", "docker run a | tee log", {"docker", "run", "a", NULL}},
      {"newline", "docker run a\ndocker rm a", {"docker", "run", "a", NULL}},
      {"separator first", "; docker run", {NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__separators_inside_quotes_do_not_stop(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"single quoted", "sh -c 'a; b | c & d' x", {"sh", "-c", "a; b | c & d", "x", NULL}},
      {"double quoted", "sh -c \"a; b | c\" x", {"sh", "-c", "a; b | c", "x", NULL}},
      {"newline quoted", "echo 'a\nb' c", {"echo", "a\nb", "c", NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__hole_bytes_pass_through(void **state) {
  (void)state;
  // "\x01" is split from the following text so that the hex escape stays one byte.
  static const split_case cases[] = {
      {"hole is a word", "docker run \x01 img", {"docker", "run", "\x01", "img", NULL}},
      {"hole in flag value", "--network=\x01" "x img", {"--network=\x01" "x", "img", NULL}},
      {"hole in double quotes", "\"a \x01 b\"", {"a \x01 b", NULL}},
      {"hole in single quotes", "'\x01'", {"\x01", NULL}},
  };
  RUN_TABLE(cases);
  assert_int_equal(HG_HOLE, '\x01');
}

static void test_argv__unterminated_quote_takes_the_rest(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"single", "echo 'a b; c", {"echo", "a b; c", NULL}},
      {"double", "echo \"a b | c", {"echo", "a b | c", NULL}},
      {"empty rest single", "echo '", {"echo", "", NULL}},
      {"empty rest double", "echo \"", {"echo", "", NULL}},
  };
  RUN_TABLE(cases);
}

static void test_argv__comments_and_continuations(void **state) {
  (void)state;
  static const split_case cases[] = {
      {"comment", "docker run a # it's b", {"docker", "run", "a", NULL}},
      {"hash inside a word", "echo a#b", {"echo", "a#b", NULL}},
      {"continuation between words", "docker run \\\n  --rm a", {"docker", "run", "--rm", "a", NULL}},
      {"continuation inside a word", "doc\\\nker run", {"docker", "run", NULL}},
  };
  RUN_TABLE(cases);
}

// hg_argv_split_next: where each command ends, and whether its quotes were closed.
static void test_argv__split_next(void **state) {
  (void)state;
  const char *s = "a b; c 'd\n e' && f \"g";
  hg_argv_words out = {0};
  bool closed;
  const char *end = hg_argv_split_next(&out, s, &closed);
  assert_int_equal(end - s, 3);
  assert_true(closed);
  end = hg_argv_split_next(&out, end + 1, &closed);
  assert_int_equal(*end, '&');
  assert_true(closed);
  assert_int_equal(out.len, 4);
  assert_string_equal(out.items[3], "d\n e");
  end = hg_argv_split_next(&out, end + 2, &closed);
  assert_int_equal(*end, '\0');
  assert_false(closed);
  assert_int_equal(out.len, 6);
  hg_strvec_free(&out);
}

static void test_argv__appends_to_existing_words(void **state) {
  (void)state;
  hg_argv_words out = {0};
  hg_argv_split(&out, "a b");
  hg_argv_split(&out, "c; d");
  assert_int_equal(out.len, 3);
  assert_string_equal(out.items[0], "a");
  assert_string_equal(out.items[1], "b");
  assert_string_equal(out.items[2], "c");
  hg_strvec_free(&out);
}

static void test_argv__many_words_grow_the_vector(void **state) {
  (void)state;
  char input[64 * 4 + 1] = "";
  for (int i = 0; i < 64; i++) {
    char w[8];
    snprintf(w, sizeof(w), "w%d ", i);
    strcat(input, w);
  }
  hg_argv_words out = {0};
  hg_argv_split(&out, input);
  assert_int_equal(out.len, 64);
  assert_string_equal(out.items[0], "w0");
  assert_string_equal(out.items[63], "w63");
  hg_strvec_free(&out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_argv__plain_words),
      cmocka_unit_test(test_argv__runs_of_spaces_and_tabs),
      cmocka_unit_test(test_argv__single_quotes),
      cmocka_unit_test(test_argv__double_quotes_and_escapes),
      cmocka_unit_test(test_argv__backslash_outside_quotes),
      cmocka_unit_test(test_argv__flag_with_equals_is_one_word),
      cmocka_unit_test(test_argv__empty_quoted_word_stays),
      cmocka_unit_test(test_argv__stops_at_command_separators),
      cmocka_unit_test(test_argv__separators_inside_quotes_do_not_stop),
      cmocka_unit_test(test_argv__hole_bytes_pass_through),
      cmocka_unit_test(test_argv__unterminated_quote_takes_the_rest),
      cmocka_unit_test(test_argv__comments_and_continuations),
      cmocka_unit_test(test_argv__split_next),
      cmocka_unit_test(test_argv__appends_to_existing_words),
      cmocka_unit_test(test_argv__many_words_grow_the_vector),
  };
  return cmocka_run_group_tests_name("argv", tests, NULL, NULL);
}
