// Unit tests for sha256.c: FIPS 180-4 digests at the padding's edges (55, 56, 64 and 119 bytes,
// where the length spills into a second block or not) and the CSP source expression's base64.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/sha256.h"

typedef struct {
  size_t n_a; // the input: "abc" when 0, else that many 'a'
  const char *hex, *csp;
} digest_case;

static void test_sha256__digests(void **state) {
  (void)state;
  static const digest_case cases[] = {
      {0, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
       "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='"},
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
       "'sha256-n0OQ+NMMLdkuyfCVtl4rmumwqSWlJY4kHJ8ekQ9zQxg='"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
       "'sha256-s1Q5pKxvCUi21vnjxq8PX1kM4g8b3nCQ73lwaG7Gc4o='"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
       "'sha256-/+BU/nrgy23GXDr5th1SCfQ5hR20PQulmXM33xVGaOs='"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
       "'sha256-MeulHDE6XAgiat8Y1KNZz9/Y0ugWsT9K+VL36mWE3Ps='"},
      {200, "c2a908d98f5df987ade41b5fce213067efbcc21ef2240212a41e54b5e7c28ae5",
       "'sha256-wqkI2Y9d+Yet5BtfziEwZ++8wh7yJAISpB5UtefCiuU='"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char text[201];
    if (cases[i].n_a) {
      memset(text, 'a', cases[i].n_a);
      text[cases[i].n_a] = '\0';
    } else {
      strcpy(text, "abc");
    }
    uint8_t d[32];
    hg_sha256(text, strlen(text), d);
    char hex[65];
    for (int j = 0; j < 32; j++)
      snprintf(hex + 2 * j, 3, "%02x", d[j]);
    assert_string_equal(hex, cases[i].hex);
    char csp[54];
    hg_sha256_csp(text, csp);
    assert_string_equal(csp, cases[i].csp);
  }
}

static void test_sha256__empty(void **state) {
  (void)state;
  char csp[54];
  hg_sha256_csp("", csp);
  assert_string_equal(csp, "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sha256__digests),
      cmocka_unit_test(test_sha256__empty),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
