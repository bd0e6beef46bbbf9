// Unit tests for cli.c's argument parser, through hg_cli_parse (parse only, nothing runs).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli.h"

typedef struct {
  const char *args[8];  // after the program name, NULL-terminated
  int rc;
  const char *err;  // expected start of the error output, "" for none
} parse_case;

static void test_cli__parse_accepts_and_rejects(void **state) {
  (void)state;
  static const parse_case cases[] = {
      {{NULL}, 0, ""},
      {{"--format", "json", "."}, 0, ""},
      {{"--format=sarif", "-q", "a.py"}, 0, ""},
      {{"-qj4", "--audit"}, 0, ""},
      {{"--explain", "unhardened-site"}, 0, ""},
      {{"--", "-weird.py"}, 0, ""},
      {{"--format", "xml"}, 2, "hardguard: unknown format 'xml'"},
      {{"--jobs", "0"}, 2, "hardguard: --jobs expects a number from 1 to 256, got '0'"},
      {{"-j"}, 2, "hardguard: option '-j' needs a value\n"},
      {{"--format"}, 2, "hardguard: option '--format' needs a value\n"},
      {{"-qz"}, 2, "hardguard: unknown option '-z'\n"},
      {{"--audit=x"}, 2, "hardguard: option '--audit' takes no value\n"},
      {{"--help=x"}, 2, "hardguard: option '--help' takes no value\n"},
      {{"--color", "sometimes"}, 2, "hardguard: --color expects auto, always or never"},
      {{"--diff", "-x"}, 2, "hardguard: --diff expects a git commit"},
      {{"--diff="}, 2, "hardguard: --diff expects a git commit"},
      {{"--write-baseline", "b", "--diff", "HEAD"}, 2, "hardguard: --write-baseline records a whole run"},
      {{"--nope"}, 2, "hardguard: unknown option '--nope'"},
      {{"-x"}, 2, "hardguard: unknown option '-x'\n"},
      {{"-x.py"}, 2, "hardguard: unknown option '-x'\n"},  // getopt is still in the cluster
      {{"-qx.py"}, 2, "hardguard: unknown option '-x'\n"},
      {{"--nope=1"}, 2, "hardguard: unknown option '--nope=1'\n"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *argv[10] = {"hardguard"};
    int argc = 1;
    for (const char *const *a = cases[i].args; *a; a++) argv[argc++] = (char *)*a;
    char *buf = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&buf, &len);
    // Twice: the parser resets getopt, so a second call sees the same thing.
    int rc = hg_cli_parse(argc, argv, err);
    int again = hg_cli_parse(argc, argv, err);
    fclose(err);
    if (rc != cases[i].rc || strncmp(buf, cases[i].err, strlen(cases[i].err)) != 0 || (!*cases[i].err && len))
      print_error("case %zu (%s): rc %d, err \"%s\"\n", i, argc > 1 ? argv[1] : "", rc, buf);
    assert_int_equal(rc, cases[i].rc);
    assert_int_equal(again, rc);
    assert_int_equal(strncmp(buf, cases[i].err, strlen(cases[i].err)), 0);
    if (!*cases[i].err) assert_int_equal(len, 0);
    free(buf);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cli__parse_accepts_and_rejects),
  };
  return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
