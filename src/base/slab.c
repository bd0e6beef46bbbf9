#include "base/slab.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define HAVE_VALGRIND_H 1
#endif
#endif

enum { STEP = 8, SIZES = HG_SLAB_MAX / STEP + 1 };  // list k keeps blocks of STEP k bytes
#define USABLE_STEP ((size_t)4 << 20)               // made usable that many bytes at a time
#define HEADER ((size_t)64)                         // a chunk's first bytes: its chunk struct

typedef struct {
  const void *owner;  // the thread that carves it (the address of that thread's `me`)
  uint32_t carved;    // blocks handed out from it so far: only its owner counts them (while it
                      // carves from it, `carve_at` says, and this is brought up to date by trim)
  uint32_t tally;     // its blocks on its owner's lists, as hg_slab_trim counts them
  bool back;          // hg_slab_trim gives it back
} chunk;
_Static_assert(sizeof(chunk) <= HEADER, "a chunk's header fits before its first block");

char *_Atomic hg_slab__base;
// The list each chunk's blocks go to, by the chunk's place in the range: what a free reads. Not the
// chunk's header: every header lies at a multiple of 64 KB, so all of them share one set of the
// caches, and a tree's blocks lie in dozens of chunks.
static uint8_t lists_of[HG_SLAB_RANGE / HG_SLAB_CHUNK];
_Static_assert(HG_SLAB_MAX / STEP <= UINT8_MAX, "a list's number fits a byte");
static pthread_once_t reserved = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;  // the range's bookkeeping below
static size_t carved_bytes, usable_bytes;  // from the range's start: chunks handed out, usable
static char **returned;                    // chunks given back, their pages the system's again
static size_t n_returned, cap_returned, live_chunks;

static _Thread_local void *lists[SIZES];
static _Thread_local chunk *carving[SIZES];  // the chunk the thread carves blocks of a size from
static _Thread_local char *carve_at[SIZES], *carve_end[SIZES];  // its next block, and its end
static _Thread_local char me;
static _Thread_local signed char state;  // 0: the slab not asked about yet; 1 on; -1 off

// HG_SLAB=off turns the slab off, HG_SLAB=on keeps it on under valgrind (callgrind's counts of a
// run as it runs).
static void reserve(void) {
#ifdef SANITIZED
  return;  // ASan's own allocator sees every block
#else
  const char *want = getenv("HG_SLAB");
  if (want && !strcmp(want, "off")) return;
#ifdef HAVE_VALGRIND_H
  if (RUNNING_ON_VALGRIND && !(want && !strcmp(want, "on"))) return;  // memcheck sees every block
#endif
  struct rlimit as;  // the range's addresses count against it: leave malloc three quarters at least
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY && as.rlim_cur / 4 < HG_SLAB_RANGE) return;
  void *p = mmap(NULL, HG_SLAB_RANGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p != MAP_FAILED) atomic_store_explicit(&hg_slab__base, (char *)p, memory_order_release);
#endif
}

bool hg_slab_on(void) {
  if (!state) {
    pthread_once(&reserved, reserve);
    state = atomic_load_explicit(&hg_slab__base, memory_order_acquire) ? 1 : -1;
  }
  return state > 0;
}

static chunk *chunk_of(const void *p) {
  char *b = atomic_load_explicit(&hg_slab__base, memory_order_relaxed);
  return (chunk *)(b + (((uintptr_t)p - (uintptr_t)b) & ~(HG_SLAB_CHUNK - 1)));
}

// The list the blocks of p's chunk go to.
static size_t list_of(const void *p) {
  char *b = atomic_load_explicit(&hg_slab__base, memory_order_relaxed);
  return lists_of[((uintptr_t)p - (uintptr_t)b) / HG_SLAB_CHUNK];
}

size_t hg_slab_size(const void *p) { return list_of(p) * STEP; }

// A chunk for blocks of `size` bytes: one given back before, else the range's next; NULL when the
// range is full or its next part cannot be made usable.
static chunk *new_chunk(uint32_t size) {
  char *b = atomic_load_explicit(&hg_slab__base, memory_order_relaxed), *at = NULL;
  pthread_mutex_lock(&lock);
  if (n_returned) {
    at = returned[--n_returned];
  } else if (carved_bytes + HG_SLAB_CHUNK <= HG_SLAB_RANGE) {
    if (carved_bytes + HG_SLAB_CHUNK > usable_bytes &&
        mprotect(b + usable_bytes, USABLE_STEP, PROT_READ | PROT_WRITE) == 0)
      usable_bytes += USABLE_STEP;
    if (carved_bytes + HG_SLAB_CHUNK <= usable_bytes) {
      at = b + carved_bytes;
      carved_bytes += HG_SLAB_CHUNK;
    }
  }
  if (at) live_chunks++;
  pthread_mutex_unlock(&lock);
  if (!at) return NULL;
  chunk *c = (chunk *)at;
  *c = (chunk){.owner = &me};
  lists_of[(size_t)(at - b) / HG_SLAB_CHUNK] = (uint8_t)(size / STEP);
  return c;
}

// The count of blocks carved from the chunk the thread carves blocks of list k from, in its header
// (kept in the thread's carve_at meanwhile: the headers of all chunks share one set of the caches).
static void note_carved(size_t k) {
  chunk *c = carving[k];
  if (c) c->carved = (uint32_t)((size_t)(carve_at[k] - ((char *)c + HEADER)) / (k * STEP));
}

// A block of list k's size carved from the thread's chunk of that size, or a new chunk's; NULL
// when the slab is off or its range full. Out of hg_slab_alloc's way: a list's block is the
// common case (a tree's deletion fills the lists the next parse takes from).
__attribute__((noinline)) static void *carve(size_t k) {
  if (carve_at[k] == carve_end[k]) {  // no chunk yet, or its last block carved
    if (state <= 0 && !hg_slab_on()) return NULL;
    uint32_t size = (uint32_t)(k * STEP);
    chunk *c = new_chunk(size);
    if (!c) return NULL;
    note_carved(k);
    carving[k] = c;
    carve_at[k] = (char *)c + HEADER;
    carve_end[k] = carve_at[k] + (HG_SLAB_CHUNK - HEADER) / size * size;
  }
  void *p = carve_at[k];
  carve_at[k] += k * STEP;
  return p;
}

void *hg_slab_alloc(size_t n) {
  size_t k = n ? (n + STEP - 1) / STEP : 1;
  void *p = lists[k];  // empty while the slab is off
  if (__builtin_expect(p != NULL, 1)) {
    lists[k] = *(void **)p;
    return p;
  }
  return carve(k);
}

void hg_slab_free(void *p) {
  size_t k = list_of(p);
  *(void **)p = lists[k];
  lists[k] = p;
}

// Only the thread's own chunks are counted: another thread never writes their tallies, and one
// whose every carved block is on this thread's lists is in no one else's hands.
static bool mine(const chunk *c) { return c->owner == &me; }

// Hands a chunk given back to the range's list, for any thread's next chunk.
static void give_back(chunk **back, size_t n) {
  for (size_t i = 0; i < n; i++) madvise(back[i], HG_SLAB_CHUNK, MADV_DONTNEED);
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < n; i++) {
    if (n_returned == cap_returned) {
      size_t cap = cap_returned ? 2 * cap_returned : 64;
      char **grown = realloc(returned, cap * sizeof(*returned));
      if (!grown) break;  // out of memory: the rest stay out of use (their pages are the system's)
      returned = grown;
      cap_returned = cap;
    }
    returned[n_returned++] = (char *)back[i];
  }
  live_chunks -= n;
  pthread_mutex_unlock(&lock);
}

// The chunks picked to give back, each once.
struct picked {
  chunk **back;
  size_t n, cap;
};

// Picks c (NULL: none) if it is the thread's and every block carved from it is on its lists.
static void pick(struct picked *to, chunk *c) {
  if (!c || !mine(c) || c->back || c->tally != c->carved) return;
  if (to->n == to->cap) {
    size_t cap = to->cap ? 2 * to->cap : 64;
    chunk **grown = realloc(to->back, cap * sizeof(*grown));
    if (!grown) return;  // out of memory: not given back this time
    to->back = grown;
    to->cap = cap;
  }
  c->back = true;
  to->back[to->n++] = c;
}

// The thread's chunks whose every carved block is on its lists (none carved, for the one it
// carves from) are marked `back` and listed in *out, as many as it can hold.
static size_t chunks_to_give_back(chunk ***out) {
  for (size_t k = 1; k < SIZES; k++) note_carved(k);
  for (size_t k = 1; k < SIZES; k++) {
    for (void *p = lists[k]; p; p = *(void **)p)
      if (mine(chunk_of(p))) chunk_of(p)->tally = 0, chunk_of(p)->back = false;
    if (carving[k]) carving[k]->tally = 0, carving[k]->back = false;
  }
  for (size_t k = 1; k < SIZES; k++)
    for (void *p = lists[k]; p; p = *(void **)p)
      if (mine(chunk_of(p))) chunk_of(p)->tally++;
  struct picked picked = {0};
  for (size_t k = 1; k < SIZES; k++) {
    for (void *p = lists[k]; p; p = *(void **)p) pick(&picked, chunk_of(p));
    pick(&picked, carving[k]);
  }
  *out = picked.back;
  return picked.n;
}

size_t hg_slab_trim(void) {
  if (state <= 0) return 0;
  chunk **back;
  size_t n = chunks_to_give_back(&back);
  if (n) {
    for (size_t k = 1; k < SIZES; k++) {
      for (void **pp = &lists[k]; *pp;) {
        if (mine(chunk_of(*pp)) && chunk_of(*pp)->back) {
          *pp = *(void **)*pp;
        } else {
          pp = (void **)*pp;
        }
      }
      if (carving[k] && mine(carving[k]) && carving[k]->back) {
        carving[k] = NULL;
        carve_at[k] = carve_end[k] = NULL;
      }
    }
    give_back(back, n);
  }
  free(back);
  return n;
}

size_t hg_slab_chunks(void) {
  pthread_mutex_lock(&lock);
  size_t n = live_chunks;
  pthread_mutex_unlock(&lock);
  return n;
}

size_t hg_slab_kept(void) {
  size_t n = 0;
  for (size_t k = 1; k < SIZES; k++)
    for (void *p = lists[k]; p; p = *(void **)p) n++;
  return n;
}
