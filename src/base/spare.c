#include "base/spare.h"

#include <stdlib.h>

typedef struct {
  pthread_t thread;
  void *(*fn)(void *);  // set when handed work
  void *arg;
  bool quit;            // let go without work
} spare;

static struct {
  pthread_mutex_t lock;
  pthread_cond_t handed;  // a spare's fn or quit was set
  spare *items;           // allocated once per start: each thread holds its own item's address
  unsigned n, taken;      // items[taken .. n) wait
} spares = {.lock = PTHREAD_MUTEX_INITIALIZER, .handed = PTHREAD_COND_INITIALIZER};

static void *spare_main(void *arg) {
  spare *s = arg;
  pthread_mutex_lock(&spares.lock);
  while (!s->fn && !s->quit) pthread_cond_wait(&spares.handed, &spares.lock);
  void *(*fn)(void *) = s->fn;
  void *fn_arg = s->arg;
  pthread_mutex_unlock(&spares.lock);
  return fn ? fn(fn_arg) : NULL;
}

void hg_spare_start(unsigned n) {
  if (spares.items || n == 0) return;
  spares.items = calloc(n, sizeof(spare));
  if (!spares.items) return;  // no spares: the work starts its own threads
  spares.taken = spares.n = 0;
  for (unsigned i = 0; i < n; i++) {
    if (pthread_create(&spares.items[i].thread, NULL, spare_main, &spares.items[i]) != 0) break;
    spares.n++;
  }
}

bool hg_spare_take(pthread_t *thread, void *(*fn)(void *), void *arg) {
  pthread_mutex_lock(&spares.lock);
  bool found = spares.taken < spares.n;
  if (found) {
    spare *s = &spares.items[spares.taken++];
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
