#include "helpers.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>

#include <cmocka.h>

hg_policy *hg_test_policy(void) {
  const char *path = HG_SOURCE_DIR "/rules/policy.yml";
  char *bytes;
  size_t len;
  hg_error err = {{0}};
  hg_policy *p = NULL;
  if (hg_read_file(&bytes, &len, path, &err) != 0) {
    print_error("%s\n", err.message);
    return NULL;
  }
  if (hg_policy_load(&p, path, bytes, len, &err) != 0) print_error("%s\n", err.message);
  free(bytes);
  return p;
}

hg_config *hg_test_config_with_builder(const char *module, const char *callable) {
  hg_config *c = hg_config_empty(".");
  c->builders = hg_xcalloc(1, sizeof(hg_builder));
  c->n_builders = 1;
  c->builders[0].module = hg_xstrdup(module);
  c->builders[0].callables = hg_xcalloc(1, sizeof(char *));
  c->builders[0].callables[0] = hg_xstrdup(callable);
  c->builders[0].n_callables = 1;
  return c;
}

uint32_t hg_test_rnd(uint64_t *state, uint32_t n) {
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return (uint32_t)((*state * UINT64_C(2685821657736338717)) >> 33) % n;
}
