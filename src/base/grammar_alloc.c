#include "base/grammar_alloc.h"

#include "base/slab.h"

#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A block of malloc's usable size u, 16 c + 8 <= u < 16 c + 24 (c from 1 below CLASSES), is kept on
// list c, linked through its first bytes, and serves requests of up to 16 c + 8 bytes (glibc's usable
// sizes are exactly 16 c + 8, at least 24, which a request of 1 to 24 bytes gets: list 1 serves
// them all, or blocks of 24 would be kept that no request asks for; under valgrind or ASan a block's
// usable size is what was asked for). A smaller block or a too big one goes back to malloc. Bytes
// are counted 16 c + 8 a block.
enum { CLASSES = 64 };

static _Thread_local void *lists[CLASSES];
static _Thread_local size_t kept_bytes, kept_blocks, requests;
static _Thread_local bool ends_registered;

static pthread_key_t at_end;
static bool have_at_end;  // the key was made
static pthread_once_t at_end_once = PTHREAD_ONCE_INIT;

// Runs as a thread ends (its value set): the thread's blocks go back to malloc, and its slab
// chunks none of whose blocks is in use to the system. The process's first thread does not run it;
// what it keeps is reachable to the end.
static void release(void *unused) {
  (void)unused;
  hg_slab_trim();  // blocks of other threads' chunks stay on its lists, unused
  for (size_t c = 0; c < CLASSES; c++)
    while (lists[c]) {
      void *p = lists[c];
      lists[c] = *(void **)p;
      free(p);
    }
  kept_bytes = kept_blocks = 0;
}

static void make_key(void) { have_at_end = pthread_key_create(&at_end, release) == 0; }

// Is release() to run at the calling thread's end (set up on its first free)?
static bool ends_released(void) {
  if (!ends_registered) {
    pthread_once(&at_end_once, make_key);
    if (!have_at_end || pthread_setspecific(at_end, (void *)1) != 0) return false;
    ends_registered = true;
  }
  return true;
}

// The list a request of n bytes takes its block from: the smallest size that holds n.
static size_t class_of(size_t n) { return n <= 24 ? 1 : (n - 8 + 15) / 16; }

void hg_grammar_free(void *p) {
  if (!p) return;
  bool released = ends_released();
  if (hg_slab_owns(p)) {
    hg_slab_free(p);  // kept either way: its chunk is given back by a trim, if not at the thread's end
    return;
  }
  size_t u = malloc_usable_size(p), c = u < 24 ? CLASSES : (u - 8) / 16;
  // Without a way to free it at the thread's end, nothing of malloc's is kept.
  if (!released || c >= CLASSES || kept_bytes + 16 * c + 8 > HG_GRAMMAR_KEEP_BYTES) {
    free(p);
    return;
  }
  *(void **)p = lists[c];
  lists[c] = p;
  kept_bytes += 16 * c + 8;
  kept_blocks++;
}

static void *out_of_memory(size_t n) {
  fprintf(stderr, "hardguard: out of memory (%zu bytes for the parser)\n", n);
  abort();
}

void *hg_grammar_malloc(size_t n) {
  requests++;
  if (n <= HG_SLAB_MAX) {
    void *p = hg_slab_alloc(n);
    if (p) return p;
  }
  size_t c = class_of(n);
  if (c < CLASSES && lists[c]) {
    void *p = lists[c];
    lists[c] = *(void **)p;
    kept_bytes -= 16 * c + 8;
    kept_blocks--;
    return p;
  }
  void *p = malloc(n);
  return p || !n ? p : out_of_memory(n);
}

void *hg_grammar_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) return NULL;
  size_t n = count * size;
  if (class_of(n) >= CLASSES) {
    requests++;
    void *p = calloc(count, size);
    return p || !n ? p : out_of_memory(n);
  }
  void *p = hg_grammar_malloc(n);
  if (p) memset(p, 0, n);
  return p;
}

// A growing array (a node's children, a parse stack) moves into a kept block of its new size when
// the thread has one, and leaves its old block kept: most of the blocks a tree's deletion frees
// were last sized by a realloc, and would otherwise never be asked for again.
void *hg_grammar_realloc(void *p, size_t n) {
  if (!p) return hg_grammar_malloc(n);
  if (!n) {  // realloc(p, 0) frees p, as glibc's does
    hg_grammar_free(p);
    return NULL;
  }
  bool slab = hg_slab_owns(p);
  size_t u = slab ? hg_slab_size(p) : malloc_usable_size(p);
  if (u >= n) return p;
  size_t c = class_of(n);
  // Into the slab or out of it, or into a kept block: moved by hand; else malloc's realloc.
  if (slab || (n <= HG_SLAB_MAX && hg_slab_on()) || (c < CLASSES && lists[c])) {
    void *q = hg_grammar_malloc(n);
    memcpy(q, p, u);
    hg_grammar_free(p);
    return q;
  }
  void *q = realloc(p, n);
  return q ? q : out_of_memory(n);
}

size_t hg_grammar_trim(void) { return hg_slab_trim(); }

size_t hg_grammar_kept(void) { return kept_blocks; }
size_t hg_grammar_kept_bytes(void) { return kept_bytes; }
size_t hg_grammar_requests(void) { return requests; }
