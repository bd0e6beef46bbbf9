// sched_getcpu and pthread_attr_setaffinity_np: _GNU_SOURCE (defined for every source by the build)
#include "base/spare.h"

#include <sched.h>
#include <stdlib.h>

typedef struct {
  pthread_t thread;
  void *(*fn)(void *);  // set when handed work
  void *arg;
  bool quit;            // let go without work
  bool moved;           // started or handed work on the CPUs other than its maker's or taker's
                        // (allowed them all again once awake with its work)
} spare;

static struct {
  pthread_mutex_t lock;
  pthread_cond_t handed;  // a spare's fn or quit was set
  spare *items;           // allocated once per start: each thread holds its own item's address
  unsigned n, taken;      // items[taken .. n) wait
  cpu_set_t allowed;      // the CPUs of the thread that started them
} spares = {.lock = PTHREAD_MUTEX_INITIALIZER, .handed = PTHREAD_COND_INITIALIZER};

// The allowed CPUs other than the one the calling thread is on: false when there are none (one
// CPU, or the system does not say which).
static bool other_cpus(cpu_set_t *out) {
  int cpu = sched_getcpu();
  if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &spares.allowed) || CPU_COUNT(&spares.allowed) < 2) return false;
  *out = spares.allowed;
  CPU_CLR(cpu, out);
  return true;
}

// A spare is started, and handed its work, on the CPUs other than the one of the thread that starts or
// hands it (a kernel that packs threads onto few CPUs, as that of the VMs this project is measured
// on does, queues a woken thread behind its waker for up to a tick, 4 ms, beside an idle CPU);
// once awake with its work, it may run on any allowed CPU again.
static void *spare_main(void *arg) {
  spare *s = arg;
  pthread_mutex_lock(&spares.lock);
  while (!s->fn && !s->quit) pthread_cond_wait(&spares.handed, &spares.lock);
  void *(*fn)(void *) = s->fn;
  void *fn_arg = s->arg;
  bool moved = s->moved;
  pthread_mutex_unlock(&spares.lock);
  if (fn && moved) pthread_setaffinity_np(pthread_self(), sizeof(spares.allowed), &spares.allowed);
  return fn ? fn(fn_arg) : NULL;
}

void hg_spare_start(unsigned n) {
  if (spares.items || n == 0) return;
  spares.items = calloc(n, sizeof(spare));
  if (!spares.items) return;  // no spares: the work starts its own threads
  spares.taken = spares.n = 0;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  cpu_set_t others;
  bool spread = false;  // started on the allowed CPUs but this thread's
  if (sched_getaffinity(0, sizeof(spares.allowed), &spares.allowed) != 0)
    CPU_ZERO(&spares.allowed);
  else if (other_cpus(&others))
    spread = pthread_attr_setaffinity_np(&attr, sizeof(others), &others) == 0;
  for (unsigned i = 0; i < n; i++) {
    spares.items[i].moved = spread;
    if (pthread_create(&spares.items[i].thread, &attr, spare_main, &spares.items[i]) != 0) break;
    spares.n++;
  }
  pthread_attr_destroy(&attr);
}

bool hg_spare_take(pthread_t *thread, void *(*fn)(void *), void *arg) {
  pthread_mutex_lock(&spares.lock);
  bool found = spares.taken < spares.n;
  if (found) {
    spare *s = &spares.items[spares.taken++];
    cpu_set_t others;
    if (other_cpus(&others) && pthread_setaffinity_np(s->thread, sizeof(others), &others) == 0)
      s->moved = true;  // as it may already be from its start: either way it is allowed every CPU again
    s->arg = arg;
    s->fn = fn;
    *thread = s->thread;
    pthread_cond_broadcast(&spares.handed);
  }
  pthread_mutex_unlock(&spares.lock);
  return found;
}

unsigned hg_spare_waiting(void) {
  pthread_mutex_lock(&spares.lock);
  unsigned n = spares.n - spares.taken;
  pthread_mutex_unlock(&spares.lock);
  return n;
}

void hg_spare_release(void) {
  if (!spares.items) return;
  pthread_mutex_lock(&spares.lock);
  unsigned from = spares.taken, to = spares.n;
  for (unsigned i = from; i < to; i++) spares.items[i].quit = true;
  spares.taken = spares.n;
  pthread_cond_broadcast(&spares.handed);
  pthread_mutex_unlock(&spares.lock);
  // The ones handed work were joined by whoever took them.
  for (unsigned i = from; i < to; i++) pthread_join(spares.items[i].thread, NULL);
  free(spares.items);
  spares.items = NULL;
  spares.n = spares.taken = 0;
}
