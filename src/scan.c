#include "scan.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "source.h"

typedef struct {
  const hg_scan_options *opts;
  char *const *paths;
  size_t n;
  atomic_size_t next;
} job;

typedef struct {
  job *job;
  hg_checker *checker;
  hg_findings findings;
  hg_file_errors errors;
  hg_scan_stats stats;
} worker;

static void worker_init(worker *w, job *j) {
  memset(w, 0, sizeof(*w));
  w->job = j;
  w->checker = hg_checker_new();
}

static void worker_fini(worker *w) { hg_checker_free(w->checker); }

static void scan_source(worker *w, const hg_source *src) {
  const hg_scan_options *o = w->job->opts;
  w->stats.files++;
  if (!hg_ruleset_may_contain_site(o->rules, src->data, src->len, hg_checker_match_data(w->checker))) return;
  w->stats.parsed++;
  size_t before = w->findings.len;
  hg_check_source(w->checker, o->rules, o->config, src, &w->findings, &w->errors);
  for (size_t i = before; i < w->findings.len; i++) {
    w->stats.sites++;
    if (hg_finding_fails(&w->findings.items[i])) w->stats.failing++;
  }
}

static void scan_path(worker *w, const char *path) {
  hg_source src;
  hg_error err;
  if (hg_source_read(&src, path, &err) != 0) {
    // err reads "path: cannot open: …"; keep the part after the path.
    const char *msg = err.message;
    size_t n = strlen(path);
    if (!strncmp(msg, path, n) && msg[n] == ':') msg += n + 2;
    hg_file_error e = {.path = hg_xstrdup(path), .kind = HG_FILE_UNREADABLE, .message = hg_xstrdup(msg)};
    HG_VEC_PUSH(&w->errors, e);
    return;
  }
  if (src.len > UINT32_MAX / 2) {
    hg_file_error e = {.path = hg_xstrdup(path), .kind = HG_FILE_UNREADABLE, .message = hg_xstrdup("file too large")};
    HG_VEC_PUSH(&w->errors, e);
  } else {
    scan_source(w, &src);
  }
  hg_source_free(&src);
}

static void *run_worker(void *arg) {
  worker *w = arg;
  job *j = w->job;
  for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < j->n;) scan_path(w, j->paths[i]);
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

int hg_scan(const hg_scan_options *opts, char *const *paths, size_t n, hg_findings *out, hg_file_errors *errors,
            hg_scan_stats *stats, hg_error *err) {
  unsigned jobs = opts->jobs;
  if (jobs == 0) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = cores > 0 ? (unsigned)cores : 1;
  }
  if (jobs > n) jobs = n ? (unsigned)n : 1;
  job j = {.opts = opts, .paths = paths, .n = n};
  atomic_init(&j.next, 0);
  worker *workers = hg_xcalloc(jobs, sizeof(worker));
  pthread_t *threads = hg_xcalloc(jobs, sizeof(pthread_t));
  unsigned started = 0;
  int rc = 0;
  for (unsigned i = 0; i < jobs; i++) worker_init(&workers[i], &j);
  // Worker 0 runs on this thread; the others on their own.
  for (unsigned i = 1; i < jobs; i++, started++)
    if (pthread_create(&threads[i], NULL, run_worker, &workers[i]) != 0) {
      rc = hg_error_set(err, "cannot start worker thread %u", i);
      break;
    }
  run_worker(&workers[0]);
  for (unsigned i = 1; i <= started; i++) pthread_join(threads[i], NULL);
  for (unsigned i = 0; i < jobs; i++) {
    merge(&workers[i], out, errors, stats);
    worker_fini(&workers[i]);
  }
  free(workers);
  free(threads);
  hg_findings_sort(out);
  hg_file_errors_sort(errors);
  return rc;
}

void hg_scan_bytes(const hg_scan_options *opts, const char *path, const char *bytes, size_t len, hg_findings *out,
                   hg_file_errors *errors) {
  job j = {.opts = opts};
  worker w;
  worker_init(&w, &j);
  hg_source src;
  hg_source_from_bytes(&src, path, bytes, len);
  scan_source(&w, &src);
  hg_source_free(&src);
  hg_scan_stats stats = {0};
  merge(&w, out, errors, &stats);
  worker_fini(&w);
  hg_findings_sort(out);
  hg_file_errors_sort(errors);
}
