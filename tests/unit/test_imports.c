// Unit tests for surfaces/python/imports.c: the names a file's imports bind (the last binding
// wins), relative imports resolved against the package, module prefixes, and lookups that only
// read, so that the workers can share a module of the project index.
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "surfaces/python/imports.h"

static void test_imports__names_and_the_last_binding(void **state) {
  (void)state;
  hg_arena *a = hg_arena_new();
  hg_imports *im = hg_imports_new(a, "app.sandbox");
  assert_null(hg_imports_lookup(im, "docker", 6));  // nothing imported yet
  hg_imports_add_import(im, "docker", NULL);
  hg_imports_add_import(im, "os.path", NULL);             // binds os
  hg_imports_add_import(im, "pkg.limits", "lim");         // binds lim only
  hg_imports_add_from(im, ".policy", "FLAGS", NULL);      // app.sandbox.policy.FLAGS
  hg_imports_add_from(im, "..common", "run", "go");       // app.common.run as go
  assert_string_equal(hg_imports_lookup(im, "docker", 6), "docker");
  assert_string_equal(hg_imports_lookup(im, "os", 2), "os");
  assert_null(hg_imports_lookup(im, "pkg", 3));
  assert_string_equal(hg_imports_lookup(im, "lim", 3), "pkg.limits");
  assert_string_equal(hg_imports_lookup(im, "FLAGS", 5), "app.sandbox.policy.FLAGS");
  assert_string_equal(hg_imports_lookup(im, "go", 2), "app.common.run");
  assert_null(hg_imports_lookup(im, "run", 3));
  // A name is looked up by its bytes: "dock" of "docker" is not a name of the file.
  assert_null(hg_imports_lookup(im, "docker", 4));
  // Imported again later, a name stands for what it was imported as last, as Python runs it; a
  // lookup made before sees what was imported then.
  hg_imports_add_from(im, "other", "FLAGS", NULL);
  assert_string_equal(hg_imports_lookup(im, "FLAGS", 5), "other.FLAGS");
  hg_arena_free(a);
}

static void test_imports__modules_and_their_prefixes(void **state) {
  (void)state;
  hg_arena *a = hg_arena_new();
  hg_imports *im = hg_imports_new(a, "app");
  assert_false(hg_imports_has_module(im, "docker"));
  hg_imports_add_import(im, "docker.models.containers", NULL);
  hg_imports_add_from(im, ".hardening", "build", NULL);
  assert_true(hg_imports_has_module(im, "docker"));
  assert_true(hg_imports_has_module(im, "docker.models"));
  assert_true(hg_imports_has_module(im, "docker.models.containers"));
  assert_false(hg_imports_has_module(im, "docker.models.images"));
  assert_false(hg_imports_has_module(im, "dock"));
  assert_true(hg_imports_has_module(im, "app.hardening"));
  assert_true(hg_imports_has_module(im, "app.hardening.build"));  // from M import n: M.n too
  assert_false(hg_imports_has_module(NULL, "docker"));
  hg_arena_free(a);
}

// Several threads look up the names of imports no one has looked up before, all at once, as the
// workers do with a module of the project index (hg_defs__lookup): each must see every binding.
// Lookups that built an index when first asked (before this test) wrote into the shared module's
// arena from two threads; here that gave wrong answers or a corrupt arena within a few rounds.
enum { READERS = 4, ROUNDS = 300, NAMES = 48 };

typedef struct {
  pthread_barrier_t start, done;
  const hg_imports *im;  // this round's
  bool stop;
  unsigned wrong;
} shared;

static void *reader(void *arg) {
  shared *s = arg;
  char name[16], want[32];
  for (;;) {
    pthread_barrier_wait(&s->start);
    if (s->stop) return NULL;
    unsigned wrong = 0;
    for (int i = NAMES - 1; i >= 0; i--) {
      snprintf(name, sizeof(name), "n%d", i);
      snprintf(want, sizeof(want), "mod%d.n%d", i % 5, i);
      const char *got = hg_imports_lookup(s->im, name, strlen(name));
      wrong += !got || strcmp(got, want) != 0;
      wrong += !hg_imports_has_module(s->im, i % 2 ? "mod1" : "mod4");
    }
    __atomic_add_fetch(&s->wrong, wrong, __ATOMIC_RELAXED);
    pthread_barrier_wait(&s->done);
  }
}

static void test_imports__read_by_several_threads_at_once(void **state) {
  (void)state;
  shared s = {.stop = false};
  pthread_barrier_init(&s.start, NULL, READERS + 1);
  pthread_barrier_init(&s.done, NULL, READERS + 1);
  pthread_t t[READERS];
  for (int i = 0; i < READERS; i++) assert_int_equal(pthread_create(&t[i], NULL, reader, &s), 0);
  char module[16], name[16];
  for (int round = 0; round < ROUNDS; round++) {
    hg_arena *a = hg_arena_new();
    hg_imports *im = hg_imports_new(a, "");
    for (int i = 0; i < NAMES; i++) {
      snprintf(module, sizeof(module), "mod%d", i % 5);
      snprintf(name, sizeof(name), "n%d", i);
      hg_imports_add_from(im, module, name, NULL);
    }
    s.im = im;
    pthread_barrier_wait(&s.start);
    pthread_barrier_wait(&s.done);
    hg_arena_free(a);
  }
  s.stop = true;
  pthread_barrier_wait(&s.start);
  for (int i = 0; i < READERS; i++) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&s.start);
  pthread_barrier_destroy(&s.done);
  assert_int_equal(s.wrong, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_imports__names_and_the_last_binding),
      cmocka_unit_test(test_imports__modules_and_their_prefixes),
      cmocka_unit_test(test_imports__read_by_several_threads_at_once),
  };
  return cmocka_run_group_tests_name("imports", tests, NULL, NULL);
}
