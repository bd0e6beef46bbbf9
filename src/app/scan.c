#include "app/scan.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "app/check.h"
#include "app/project.h"
#include "base/grammar_alloc.h"
#include "base/source.h"
#include "base/spare.h"
#include "base/utf8.h"

// tree-sitter's tree of a file takes some thirty times the file's size (a 1.5 MB file of
// literals needs 45 MB). Files this big are checked one at a time, and the memory of each tree is
// handed back to the system once it is freed, so that peak memory holds one big tree, not one
// per worker (each thread has its own malloc arena, which would keep it). A file's size is known
// before it is read: a big one is read only with the big lock held, and its bytes are let go
// before the lock is. A worker that finds the lock held does not wait: it notes the file unread and
// goes on with the next, and reads the ones it noted as soon as the lock is free (read before,
// their bytes would have been held that long, or read twice: a 29 MB file of ansible's).
#define BIG_FILE ((size_t)256 * 1024)

// With a sink, each file's findings wait in its slot until every file before it in path order
// has been handed on: memory holds the files in flight, not the run's findings.
typedef struct {
  hg_findings findings;
  atomic_bool ready;
} slot;

typedef struct {
  const hg_scan_options *opts;
  char *const *paths;
  size_t n;
  atomic_size_t next;
  pthread_mutex_t big;  // held while a BIG_FILE is checked
  slot *slots;          // with a sink: one per path, else NULL
  atomic_size_t emitted;  // slots handed to the sink
  atomic_bool emitting;   // a thread is handing slots to the sink
  atomic_uint busy;       // workers not yet out of files
} job;

typedef struct {
  size_t i;      // the file's place in the path list
  bool counted;  // it was read and counted before it was put off (its size had not told)
} deferred_file;

typedef struct {
  job *job;
  hg_checker *checker;
  hg_reader *reader;
  HG_VEC(deferred_file) deferred;  // big files to read when the big lock is free
  size_t current;           // the place of the file being scanned (SIZE_MAX: bytes, no path)
  bool holds_big;           // the big lock is held for the file being read
  bool counted;             // the file being read was counted when first read (read again)
  hg_findings findings;
  hg_file_errors errors;
  hg_scan_stats stats;
} worker;

static void worker_init(worker *w, job *j) {
  memset(w, 0, sizeof(*w));
  w->job = j;
  w->current = SIZE_MAX;
  w->checker = hg_checker_new();
  w->reader = hg_reader_new();
}

static void worker_fini(worker *w) {
  assert(w->deferred.len == 0);
  free(w->deferred.items);
  hg_checker_free(w->checker);
  hg_reader_free(w->reader);
}

static void check(worker *w, hg_surface_id surface, hg_source *src) {
  const hg_scan_options *o = w->job->opts;
  size_t before = w->findings.len;
  hg_check_source(w->checker, surface, o->rules, o->config, hg_projects_of(o->projects, surface), src, &w->findings, &w->errors);
  for (size_t i = before; i < w->findings.len; i++) {
    w->stats.sites++;
    if (hg_finding_fails(&w->findings.items[i])) w->stats.failing++;
  }
}

// The end of the run of slots from `i` that share its path, when all of them are ready; else i.
static size_t run_end(job *j, size_t i) {
  size_t end = i;
  while (end < j->n && atomic_load(&j->slots[end].ready) && (end == i || !strcmp(j->paths[end], j->paths[i]))) end++;
  return end < j->n && end > i && !strcmp(j->paths[end], j->paths[i]) ? i : end;
}

// Hands the sink every ready slot that follows those already handed on, in path order; files
// that share a path (named twice) are merged first, as the sorted list of a run without a sink
// has them. One thread at a time: the others go on checking. A thread that publishes a slot while
// another is handing on finds the flag set; the other one looks again after clearing it
// (sequentially consistent, so one of the two sees the slot).
static void drain(job *j) {
  while (!atomic_exchange(&j->emitting, true)) {
    size_t i = atomic_load(&j->emitted), end;
    while ((end = run_end(j, i)) > i) {
      hg_findings *batch = &j->slots[i].findings;
      for (size_t k = i + 1; k < end; k++) {
        for (size_t m = 0; m < j->slots[k].findings.len; m++) HG_VEC_PUSH(batch, j->slots[k].findings.items[m]);
        free(j->slots[k].findings.items);
        j->slots[k].findings = (hg_findings){0};
      }
      hg_findings_sort(batch);
      j->opts->sink(j->opts->sink_ctx, batch);
      free(batch->items);
      *batch = (hg_findings){0};
      atomic_store(&j->emitted, i = end);
    }
    atomic_store(&j->emitting, false);
    if (run_end(j, i) == i) return;
  }
}

// With a sink, the findings of path `i` (all the worker holds) go to its slot.
static void publish(worker *w, size_t i) {
  job *j = w->job;
  if (!j->slots) return;
  j->slots[i].findings = w->findings;
  w->findings = (hg_findings){0};
  atomic_store(&j->slots[i].ready, true);
  drain(j);
}

// Lets go of the big lock, and first of the big file's bytes, so that the next big file is not
// read while they are still held.
static void release_big(worker *w) {
  hg_reader_trim(w->reader);
  pthread_mutex_unlock(&w->job->big);
}

// Checks a big file with the big lock held (taken by the caller), then returns its tree's memory.
static void check_big(worker *w, hg_surface_id surface, hg_source *src) {
  check(w, surface, src);
  hg_grammar_trim();  // the tree's blocks (base/slab.h)
#ifdef __GLIBC__
  malloc_trim(0);
#endif
  release_big(w);
}

static bool scan_path(worker *w, size_t i);

// Reads again and checks the big files this worker noted, as long as the big lock is free (or,
// with `wait`, all of them, waiting for it). The file is read afresh: what it holds now is checked
// (and it was counted when first read).
static void check_deferred(worker *w, bool wait) {
  while (w->deferred.len) {
    if (wait)
      pthread_mutex_lock(&w->job->big);
    else if (pthread_mutex_trylock(&w->job->big) != 0)
      return;
    deferred_file d = w->deferred.items[--w->deferred.len];
    w->holds_big = true;
    w->counted = d.counted;
    scan_path(w, d.i);
    w->counted = false;
    if (w->holds_big) {  // not taken: the file is no longer big, or not read
      w->holds_big = false;
      release_big(w);
    }
    publish(w, d.i);
  }
}

// The surface a file's path gives it: by its name (hg_surface_by_name), or the one the walk took it
// for (a makefile another one includes); -1: its bytes decide.
static int surface_named(const hg_scan_options *opts, const char *path) {
  int s = hg_surface_by_name(path);
  return s >= 0 || !opts->claims ? s : hg_walk_claimed(opts->claims, path);
}

// A UTF-16/32 file past this is not decoded for the prefilter (its text takes up to 1.5 times its
// size): it is named as not checked.
enum { WIDE_MAX = 16 << 20 };

// Scans a file read whole. `by_name`: the surface its path says (surface_named), or -1, when its
// `#!` line or its content decides (hg_surface_of); -1 then too for a file no surface reads (a
// README or a YAML file named on the command line).
// Returns whether the file was kept for later (a big file while another one is checked).
static bool scan_source(worker *w, hg_source *src, int by_name) {
  int s = hg_surface_of(src->path, src->data, src->len, by_name);
  if (s < 0 || w->job->opts->config->surface_off[s])
    return false;  // no surface reads it, or `surfaces:` turned its surface off: not a file hardguard reads
  hg_surface_id surface = (hg_surface_id)s;
  bool again = w->counted;  // read again: counted the first time
  if (!again) w->stats.files++;
  // A file the prefilter rules out is neither copied nor parsed: its bytes stay in the reader.
  // UTF-16/32 text (a byte-order mark) is read by the prefilter decoded: one that holds a site's
  // words, or does not decode (or is past WIDE_MAX, not decoded), goes on to the check, which
  // reports it as not checked (hardguard parses UTF-8) instead of letting it pass.
  size_t mark;
  if (hg_utf8_wide_mark(src->data, src->len, &mark)) {
    hg_buf text = {0};
    bool words = src->len > WIDE_MAX || !hg_utf8_from_wide(&text, src->data, src->len) ||
                 hg_ruleset_may_contain_site(w->job->opts->rules, surface, text.data ? text.data : "", text.len, NULL);
    hg_buf_free(&text);
    if (!words) return false;
  } else if (!hg_ruleset_may_contain_site(w->job->opts->rules, surface, src->data, src->len, NULL)) {
    return false;
  }
  if (!again) w->stats.parsed++;
  if (src->len < BIG_FILE) {
    check(w, surface, src);
  } else if (w->holds_big) {
    w->holds_big = false;
    check_big(w, surface, src);
  } else if (w->current == SIZE_MAX) {  // bytes without a path (hg_scan_bytes): wait for the lock
    pthread_mutex_lock(&w->job->big);
    check_big(w, surface, src);
  } else if (pthread_mutex_trylock(&w->job->big) == 0) {
    check_big(w, surface, src);
  } else {
    HG_VEC_PUSH(&w->deferred, ((deferred_file){w->current, true}));
    return true;
  }
  return false;
}

// Scans path i of the job. Returns whether the file was kept for later.
static bool scan_path(worker *w, size_t i) {
  const char *path = w->job->paths[i];
  w->current = i;
  int by_name = surface_named(w->job->opts, path);
  if (by_name >= 0 && w->job->opts->config->surface_off[by_name])
    return false;  // not even read
  hg_source src;
  hg_error err;
  // A file of BIG_FILE bytes or more is read only with the big lock held, so that its bytes are
  // never in memory beside another big file's tree; when another worker holds the lock, the file
  // is put off unread.
  bool took = false;
  int rc = hg_reader_read_below(w->reader, &src, path, w->holds_big ? 0 : BIG_FILE, &err);
  if (rc == HG_READ_BIG) {
    if (pthread_mutex_trylock(&w->job->big) != 0) {
      HG_VEC_PUSH(&w->deferred, ((deferred_file){i, false}));
      return true;
    }
    w->holds_big = took = true;
    rc = hg_reader_read(w->reader, &src, path, &err);
  }
  bool kept = false;
  if (rc != 0) {
    // err reads "path: cannot open: …"; keep the part after the path.
    const char *msg = err.message;
    size_t n = strlen(path);
    if (!strncmp(msg, path, n) && msg[n] == ':') msg += n + 2;
    hg_file_error e = {.path = hg_xstrdup(path), .kind = HG_FILE_UNREADABLE, .message = hg_xstrdup(msg)};
    HG_VEC_PUSH(&w->errors, e);
  } else {
    kept = scan_source(w, &src, by_name);
  }
  if (took && w->holds_big) {  // taken here and not let go by a check: not read, or not checked
    w->holds_big = false;
    release_big(w);
  }
  return kept;
}

static bool workers_busy(void *j) { return atomic_load(&((job *)j)->busy) > 0; }

// A worker out of files lends itself to the project's work under way (the table of calls one of
// the others asked for, or may yet ask for) until that is done or no worker is checking files.
static void out_of_files(job *j) {
  atomic_fetch_sub(&j->busy, 1);
  hg_projects_wake(j->opts->projects);
  hg_projects_lend(j->opts->projects, workers_busy, j);
}

static void *run_worker(void *arg) {
  worker *w = arg;
  job *j = w->job;
  for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < j->n;) {
    if (!scan_path(w, i)) publish(w, i);
    check_deferred(w, false);
  }
  check_deferred(w, true);
  out_of_files(j);
  return NULL;
}

static void merge(worker *w, hg_findings *out, hg_file_errors *errors, hg_scan_stats *stats) {
  for (size_t i = 0; i < w->findings.len; i++) HG_VEC_PUSH(out, w->findings.items[i]);
  for (size_t i = 0; i < w->errors.len; i++) HG_VEC_PUSH(errors, w->errors.items[i]);
  free(w->findings.items);
  free(w->errors.items);
  stats->files += w->stats.files;
  stats->parsed += w->stats.parsed;
  stats->sites += w->stats.sites;
  stats->failing += w->stats.failing;
}

static void job_init(job *j, const hg_scan_options *opts, char *const *paths, size_t n) {
  *j = (job){.opts = opts, .paths = paths, .n = n};
  atomic_init(&j->next, 0);
  atomic_init(&j->emitted, 0);
  atomic_init(&j->emitting, false);
  atomic_init(&j->busy, 1);
  pthread_mutex_init(&j->big, NULL);
  if (opts->sink && n) {
    j->slots = hg_xcalloc(n, sizeof(slot));
    for (size_t i = 0; i < n; i++) atomic_init(&j->slots[i].ready, false);
  }
}

// One thread per online core (or `jobs`), at most one per file.
static unsigned threads_for(unsigned jobs, size_t files) {
  if (jobs == 0) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = cores > 0 ? (unsigned)cores : 1;
  }
  if (jobs > files) jobs = files ? (unsigned)files : 1;
  return jobs;
}

unsigned hg_scan_threads_ahead(unsigned jobs, const char *const *paths, size_t n) {
  size_t files = SIZE_MAX;  // a directory may hold any number
  struct stat st;
  if (threads_for(jobs, SIZE_MAX) > n) {
    files = n;
    for (size_t i = 0; i < n && files != SIZE_MAX; i++)
      if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) files = SIZE_MAX;
  }
  return threads_for(jobs, files);
}

static int cmp_path(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int hg_scan(const hg_scan_options *opts, char *const *paths, size_t n, hg_findings *out, hg_file_errors *errors,
            hg_scan_stats *stats, hg_error *err) {
  // A sink takes files in the order of the sorted findings: by path.
  char **sorted = NULL;
  if (opts->sink && n) {
    sorted = hg_xcalloc(n, sizeof(char *));
    memcpy(sorted, paths, n * sizeof(char *));
    qsort(sorted, n, sizeof(char *), cmp_path);
    paths = sorted;
  }
  unsigned jobs = threads_for(opts->jobs, n);
  job j;
  job_init(&j, opts, paths, n);
  worker *workers = hg_xcalloc(jobs, sizeof(worker));
  pthread_t *threads = hg_xcalloc(jobs, sizeof(pthread_t));
  unsigned started = 0;
  int rc = 0;
  for (unsigned i = 0; i < jobs; i++) worker_init(&workers[i], &j);
  // Worker 0 runs on this thread; the others on their own: spares started ahead of the scan
  // (hg_scan_threads_ahead), or new ones.
  for (unsigned i = 1; i < jobs; i++, started++) {
    atomic_fetch_add(&j.busy, 1);  // before it runs: it may run out of files at once
    if (!hg_spare_take(&threads[i], run_worker, &workers[i]) &&
        pthread_create(&threads[i], NULL, run_worker, &workers[i]) != 0) {
      atomic_fetch_sub(&j.busy, 1);
      rc = hg_error_set(err, "cannot start worker thread %u", i);
      break;
    }
  }
  run_worker(&workers[0]);
  for (unsigned i = 1; i <= started; i++) pthread_join(threads[i], NULL);
  if (j.slots) {
    drain(&j);  // every slot is ready now: worker 0 took what threads that did not start left
    assert(atomic_load(&j.emitted) == n);
  }
  for (unsigned i = 0; i < jobs; i++) {
    merge(&workers[i], out, errors, stats);
    worker_fini(&workers[i]);
  }
  pthread_mutex_destroy(&j.big);
  free(j.slots);
  free(sorted);
  free(workers);
  free(threads);
  stats->modules_indexed = hg_projects_parsed(opts->projects);
  if (out) hg_findings_sort(out);
  hg_file_errors_sort(errors);
  return rc;
}

void hg_scan_bytes(const hg_scan_options *opts, const char *path, const char *bytes, size_t len, hg_findings *out,
                   hg_file_errors *errors) {
  job j;
  job_init(&j, opts, NULL, 0);
  worker w;
  worker_init(&w, &j);
  hg_source src;
  hg_source_from_bytes(&src, path, bytes, len);
  scan_source(&w, &src, surface_named(opts, path));
  hg_source_free(&src);
  hg_scan_stats stats = {0};
  merge(&w, out, errors, &stats);
  worker_fini(&w);
  pthread_mutex_destroy(&j.big);
  hg_findings_sort(out);
  hg_file_errors_sort(errors);
}
