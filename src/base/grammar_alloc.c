#include "base/grammar_alloc.h"

#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// At most KEPT blocks of at most KEPT_BYTES usable bytes each: the scanner's stacks are a few
// bytes deep (an indent level a byte or two, a string delimiter a byte).
enum { KEPT = 4, KEPT_BYTES = 256 };

static _Thread_local void *kept[KEPT];
static _Thread_local size_t kept_len;
static _Thread_local bool ends_registered;

static pthread_key_t at_end;
static bool have_at_end;  // the key was made
static pthread_once_t at_end_once = PTHREAD_ONCE_INIT;

// Runs as a thread ends (its value set): the thread's blocks go back to malloc. The process's
// first thread does not run it; what it keeps is reachable to the end.
static void release(void *unused) {
  (void)unused;
  while (kept_len) free(kept[--kept_len]);
}

static void make_key(void) {
  have_at_end = pthread_key_create(&at_end, release) == 0;
}

void hg_grammar_free(void *p) {
  if (!p) return;
  if (kept_len == KEPT || malloc_usable_size(p) > KEPT_BYTES) {
    free(p);
    return;
  }
  if (!ends_registered) {
    pthread_once(&at_end_once, make_key);
    if (!have_at_end || pthread_setspecific(at_end, (void *)1) != 0) {
      free(p);  // without a way to free it at the thread's end, nothing is kept
      return;
    }
    ends_registered = true;
  }
  kept[kept_len++] = p;
}

void *hg_grammar_malloc(size_t n) {
  // The last one kept first: the one freed just before this request is most often its size.
  for (size_t i = kept_len; i-- > 0;) {
    void *p = kept[i];
    if (malloc_usable_size(p) >= n) {
      kept[i] = kept[--kept_len];
      return p;
    }
  }
  return malloc(n);
}

void *hg_grammar_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) return NULL;
  if (count * size > KEPT_BYTES) return calloc(count, size);
  void *p = hg_grammar_malloc(count * size);
  if (p) memset(p, 0, count * size);
  return p;
}

void *hg_grammar_realloc(void *p, size_t n) {
  if (!p) return hg_grammar_malloc(n);
  if (n && malloc_usable_size(p) >= n) return p;
  return realloc(p, n);
}

size_t hg_grammar_kept(void) { return kept_len; }
