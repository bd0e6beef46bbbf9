// Unit tests for init.c: the builder module and config `hardguard init` writes take their values
// and callables from the policy (`set:` and `init:`), so a changed policy changes what it writes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app/init.h"

static const char POLICY[] =
    "dialects: { kw: { reads: kwargs }, fl: { reads: [argv, shell, command, script] } }\n"
    "require:\n"
    "  mem:\n"
    "    summary: memory is limited\n"
    "    kw: { name: mem_limit }\n"
    "    fl: { name: --memory }\n"
    "    fix: { kw: 'mem_limit=\"1g\"', fl: '--memory 1g' }\n"
    "    set: { kw: { mem_limit: '\"1g\"' }, fl: [--memory, 1g] }\n"
    "  ro:\n"
    "    summary: read-only\n"
    "    kw: { name: read_only }\n"
    "    fl: { name: --read-only }\n"
    "    fix: { kw: read_only=True, fl: --read-only }\n"
    "    set: { kw: { read_only: 'True', tmpfs: '{\"/tmp\": \"\"}' }, fl: ['--read-only', '--tmpfs', '/tmp'] }\n"
    "cli: { subcommands: [run], boolean_flags: [--read-only] }\n"
    "init: { module: guard, callables: { kw_hardening: kw, argv_hardening: fl } }\n";

static void test_init__module_from_policy(void **state) {
  (void)state;
  hg_policy *p = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_policy_load(&p, "t.yml", POLICY, strlen(POLICY), &err), 0);
  char *text = hg_init_module_text(p);
  // A docstring saying callers merge it last, then one function per callable, in policy order.
  assert_non_null(strstr(text, "MERGED LAST"));
  assert_non_null(strstr(text, "**kw_hardening()"));
  assert_non_null(strstr(text, "def kw_hardening():\n"));
  assert_non_null(strstr(text, "        \"mem_limit\": \"1g\",  # mem\n"
                               "        \"read_only\": True,  # ro\n"
                               "        \"tmpfs\": {\"/tmp\": \"\"},\n    }\n"));
  assert_non_null(strstr(text, "def argv_hardening():\n"));
  assert_non_null(strstr(text, "        \"--memory\", \"1g\",  # mem\n"
                               "        \"--read-only\", \"--tmpfs\", \"/tmp\",  # ro\n    ]\n"));
  free(text);
  text = hg_init_config_text(p, "pkg.guard");
  assert_non_null(strstr(text, "builders:\n  - module: pkg.guard\n    callables: [kw_hardening, argv_hardening]\n"));
  free(text);
  hg_policy_free(p);
}

static void test_init__refuses_without_init_section(void **state) {
  (void)state;
  const char *end = strstr(POLICY, "init:");
  hg_policy *p = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_policy_load(&p, "t.yml", POLICY, (size_t)(end - POLICY), &err), 0);
  hg_init_result r;
  assert_int_equal(hg_init_run(&r, p, ".", NULL, &err), -1);
  assert_non_null(strstr(err.message, "the policy has no 'init' section"));
  hg_policy_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_init__module_from_policy),
      cmocka_unit_test(test_init__refuses_without_init_section),
  };
  return cmocka_run_group_tests_name("init", tests, NULL, NULL);
}
