// Unit tests for spare.c: threads started ahead of their work run what they are handed, each on its
// own thread (the one hg_spare_take names), one piece of work each; those never handed any are let
// go and joined; a second start while spares wait does nothing.
#define _GNU_SOURCE  // pthread_getaffinity_np, sched_getaffinity
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <stdlib.h>

#include <cmocka.h>

#include "base/spare.h"

static cpu_set_t all;  // the CPUs the test's own thread may run on

typedef struct {
  pthread_t ran_on;
  int value;
  bool any_cpu;  // it ran allowed on every CPU the test may use (a spare is started and handed its
                 // work on the CPUs other than its taker's, and allowed them all again once awake)
} work;

static void *do_work(void *arg) {
  work *w = arg;
  w->ran_on = pthread_self();
  w->value *= 2;
  cpu_set_t mine;
  w->any_cpu = pthread_getaffinity_np(pthread_self(), sizeof(mine), &mine) == 0 && CPU_EQUAL(&mine, &all);
  return &w->value;
}

static void test_spare__runs_what_it_is_handed_on_its_own_thread(void **state) {
  (void)state;
  assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
  hg_spare_start(2);
  assert_int_equal(hg_spare_waiting(), 2);
  work a = {.value = 21}, b = {.value = 5};
  pthread_t ta, tb;
  assert_true(hg_spare_take(&ta, do_work, &a));
  assert_int_equal(hg_spare_waiting(), 1);
  assert_true(hg_spare_take(&tb, do_work, &b));
  assert_int_equal(hg_spare_waiting(), 0);
  void *ra = NULL, *rb = NULL;
  assert_int_equal(pthread_join(ta, &ra), 0);
  assert_int_equal(pthread_join(tb, &rb), 0);
  // Each ran its own work once, on the thread it was said to, not this one.
  assert_int_equal(a.value, 42);
  assert_int_equal(b.value, 10);
  assert_ptr_equal(ra, &a.value);
  assert_ptr_equal(rb, &b.value);
  assert_true(pthread_equal(a.ran_on, ta));
  assert_true(pthread_equal(b.ran_on, tb));
  assert_true(a.any_cpu);
  assert_true(b.any_cpu);
  assert_false(pthread_equal(ta, tb));
  assert_false(pthread_equal(ta, pthread_self()));
  // None left: the next taker starts its own thread.
  work c = {.value = 1};
  pthread_t tc;
  assert_false(hg_spare_take(&tc, do_work, &c));
  assert_int_equal(c.value, 1);
  hg_spare_release();
}

static void test_spare__the_ones_not_taken_are_let_go(void **state) {
  (void)state;
  hg_spare_start(3);
  hg_spare_start(5);  // ignored: three wait
  assert_int_equal(hg_spare_waiting(), 3);
  work a = {.value = 4};
  pthread_t ta;
  assert_true(hg_spare_take(&ta, do_work, &a));
  assert_int_equal(pthread_join(ta, NULL), 0);
  assert_int_equal(a.value, 8);
  hg_spare_release();  // joins the other two (leak checkers see no thread left)
  assert_int_equal(hg_spare_waiting(), 0);
  pthread_t tb;
  assert_false(hg_spare_take(&tb, do_work, &a));
  hg_spare_release();  // nothing to let go
  // Started again after a release.
  hg_spare_start(1);
  assert_int_equal(hg_spare_waiting(), 1);
  hg_spare_release();
  hg_spare_start(0);
  assert_int_equal(hg_spare_waiting(), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spare__runs_what_it_is_handed_on_its_own_thread),
      cmocka_unit_test(test_spare__the_ones_not_taken_are_let_go),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
