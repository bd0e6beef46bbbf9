// The JSON writer against jansson: random documents (nested objects and arrays, empty ones,
// integers at their extremes, booleans, nulls, strings of any bytes) written value by value give
// exactly the bytes jansson dumps for the same values with the reporters' flags, each line after
// the same indent (hg_json_dump_indented), strings made as the reporters make them
// (hg_json_string: invalid UTF-8 bytes as U+FFFD).
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/utf8.h"
#include "helpers.h"
#include "report/jsonw.h"
#include "report/report.h"

#define FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII | JSON_ENCODE_ANY)

// Pieces strings are made of: plain text, what JSON escapes by name or by number, `/` and DEL
// (which it does not), well-formed UTF-8 of 2, 3 and 4 bytes (one past U+FFFF: a surrogate pair),
// and bytes that start no well-formed sequence (a stray continuation, an overlong form, a
// surrogate, past U+10FFFF, a lead byte cut short).
static const char *const pieces[] = {
    "a",        "docker",   " ",           "\"",       "\\",       "/",        "\x7f",     "\b",
    "\f",       "\n",       "\r",          "\t",       "\x01",     "\x1f",     "\xc3\xa9", "\xe2\x82\xac",
    "\xef\xbf\xbf", "\xf0\x9f\x9a\x80", "\xf4\x8f\xbf\xbf", "\x80", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
    "\xe2\x82",  "\xff",     "--cap-drop", "\xc3",
};

// Up to 24 pieces: strings past 16 bytes and 32, for the writer that reads 16 bytes a step.
static char *random_string(uint64_t *rng) {
  hg_buf b = {0};
  hg_buf_add(&b, "", 0);
  for (uint32_t n = hg_test_rnd(rng, 24); n; n--) hg_buf_puts(&b, pieces[hg_test_rnd(rng, sizeof(pieces) / sizeof(pieces[0]))]);
  return hg_buf_detach(&b);
}

// A random value, written with w and returned as jansson's; containers only above `depth` 0.
static json_t *random_value(uint64_t *rng, hg_jw *w, int depth) {
  uint32_t kind = hg_test_rnd(rng, depth > 0 ? 7 : 5);
  switch (kind) {
    case 0: {
      char *s = random_string(rng);
      hg_jw_string(w, s);
      json_t *j = hg_json_string(s);
      free(s);
      return j;
    }
    case 1: {
      static const long long edges[] = {0, 1, -1, 9, 10, -10, 2147483648LL, LLONG_MAX, LLONG_MIN};
      long long v = hg_test_rnd(rng, 2) ? edges[hg_test_rnd(rng, sizeof(edges) / sizeof(edges[0]))]
                                        : (long long)hg_test_rnd(rng, 1000000) - 500000;
      hg_jw_int(w, v);
      return json_integer(v);
    }
    case 2:
      hg_jw_null(w);
      return json_null();
    case 3:
      hg_jw_bool(w, true);
      return json_true();
    case 4: {
      const char *s = hg_test_rnd(rng, 2) ? NULL : "set";
      hg_jw_string_or_null(w, s);
      return s ? json_string(s) : json_null();
    }
    case 5: {
      json_t *a = json_array();
      hg_jw_array(w);
      for (uint32_t n = hg_test_rnd(rng, 5); n; n--) json_array_append_new(a, random_value(rng, w, depth - 1));
      hg_jw_end_array(w);
      return a;
    }
    default: {
      json_t *o = json_object();
      hg_jw_object(w);
      uint32_t n = hg_test_rnd(rng, 5);
      for (uint32_t i = 0; i < n; i++) {
        char *k = random_string(rng);
        char *key = hg_xasprintf("%s%u", k, i);  // distinct keys, in the order they are set
        char *clean = hg_utf8_sanitized(key);
        hg_jw_key(w, key);
        json_object_set_new(o, clean, random_value(rng, w, depth - 1));
        free(clean);
        free(key);
        free(k);
      }
      hg_jw_end_object(w);
      return o;
    }
  }
}

static char *jansson_bytes(const json_t *v, size_t indent) {
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  hg_json_dump_indented(out, v, FLAGS, indent);
  fclose(out);
  return text;
}

static void test_jsonw__random_documents_as_jansson(void **state) {
  (void)state;
  uint64_t rng = 0x9E3779B97F4A7C15ULL;
  for (int round = 0; round < 3000; round++) {
    hg_buf out = {0};
    hg_buf_add(&out, "", 0);
    size_t indent = hg_test_rnd(&rng, 3) ? 4 : hg_test_rnd(&rng, 70);
    hg_jw w = hg_jw_new(&out, indent);
    json_t *v = random_value(&rng, &w, 1 + (int)hg_test_rnd(&rng, 4));
    char *want = jansson_bytes(v, indent);
    if (strcmp(out.data, want) != 0) fail_msg("round %d:\nwriter:\n%s\njansson:\n%s", round, out.data, want);
    assert_int_equal(w.depth, 0);
    free(want);
    json_decref(v);
    hg_buf_free(&out);
  }
}

// A few documents spelled out, so that a failure of the comparison above has a readable twin.
static void test_jsonw__spelled_out(void **state) {
  (void)state;
  hg_buf out = {0};
  hg_jw w = hg_jw_new(&out, 2);
  hg_jw_object(&w);
  hg_jw_key(&w, "a");
  hg_jw_array(&w);
  hg_jw_end_array(&w);
  hg_jw_key(&w, "b");
  hg_jw_object(&w);
  hg_jw_key(&w, "c");
  hg_jw_int(&w, -12);
  hg_jw_end_object(&w);
  hg_jw_key(&w, "s");
  hg_jw_string(&w, "x/\x7f\xc3\xa9\xf0\x9f\x9a\x80\x80\"\n");
  hg_jw_end_object(&w);
  assert_string_equal(out.data, "  {\n"
                                "    \"a\": [],\n"
                                "    \"b\": {\n"
                                "      \"c\": -12\n"
                                "    },\n"
                                "    \"s\": \"x/\x7f\\u00E9\\uD83D\\uDE80\\uFFFD\\\"\\n\"\n"
                                "  }");
  hg_buf_free(&out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_jsonw__random_documents_as_jansson),
      cmocka_unit_test(test_jsonw__spelled_out),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
