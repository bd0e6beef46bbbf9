/* The bare tree-sitter-python parse rate, the ceiling hardguard's throughput is judged against:
 * loads every file named (or listed on stdin with "-") into memory, then parses them all with N
 * threads, each with its own TSParser, and prints bytes, wall seconds and MB/s. Nothing but
 * ts_parser_parse_string and ts_tree_delete is timed: no reading, no queries. With -w, each tree's
 * nodes are also visited once each before it is deleted (one cursor, in pre-order: the cheapest
 * walk libtree-sitter's API offers), the least a sound check of a tree does besides parsing it.
 *
 *   parse_rate [-j N] [-r ROUNDS] [-w] FILE... | -
 *
 * Built by tests/bench/build_driver.sh against the grammar the hardguard build compiled. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tree_sitter/api.h>
#include <unistd.h>

const TSLanguage *tree_sitter_python(void);

typedef struct {
  char *data;
  size_t len;
} file;

static file *files;
static size_t n_files, cap_files;
static atomic_size_t next;
static bool visit;

// Every node of the tree once, in pre-order, with one cursor (each one's symbol read, as a check
// reads it): its steps to a first child, to a next sibling and back up cost less than a cursor per
// node's children (measured: ~12 %), and ts_node_child(i) is linear in i.
static void visit_all(const TSTree *tree) {
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  for (;;) {
    (void)ts_node_symbol(ts_tree_cursor_current_node(&c));
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        return;
      }
    }
  }
}

static void load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "parse_rate: %s: %s\n", path, strerror(errno));
    exit(2);
  }
  size_t cap = 1 << 16, len = 0;
  char *data = malloc(cap);
  for (size_t n; (n = fread(data + len, 1, cap - len, f)) > 0;) {
    len += n;
    if (len == cap) data = realloc(data, cap *= 2);
  }
  fclose(f);
  if (n_files == cap_files) files = realloc(files, (cap_files = cap_files ? cap_files * 2 : 256) * sizeof(file));
  files[n_files++] = (file){data, len};
}

static void *worker(void *arg) {
  (void)arg;
  TSParser *p = ts_parser_new();
  if (!ts_parser_set_language(p, tree_sitter_python())) abort();
  for (size_t i; (i = atomic_fetch_add(&next, 1)) < n_files;) {
    TSTree *t = ts_parser_parse_string(p, NULL, files[i].data, (uint32_t)files[i].len);
    if (visit) visit_all(t);
    ts_tree_delete(t);
  }
  ts_parser_delete(p);
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#ifdef HG_LIBRARY_ALLOC
// hardguard's allocator (src/base/grammar_alloc.c), which its main() hands libtree-sitter.
void *hg_grammar_malloc(size_t n);
void *hg_grammar_calloc(size_t count, size_t size);
void *hg_grammar_realloc(void *p, size_t n);
void hg_grammar_free(void *p);
#endif

int main(int argc, char **argv) {
#ifdef HG_LIBRARY_ALLOC
  ts_set_allocator(hg_grammar_malloc, hg_grammar_calloc, hg_grammar_realloc, hg_grammar_free);
#endif
  long jobs = 1, rounds = 1;
  int ch;
  while ((ch = getopt(argc, argv, "j:r:w")) != -1) {
    if (ch == 'j') jobs = strtol(optarg, NULL, 10);
    else if (ch == 'r') rounds = strtol(optarg, NULL, 10);
    else if (ch == 'w') visit = true;
    else return 2;
  }
  if (jobs < 1 || rounds < 1) return 2;
  for (int i = optind; i < argc; i++) {
    if (strcmp(argv[i], "-") != 0) {
      load(argv[i]);
      continue;
    }
    char *line = NULL;
    size_t cap = 0;
    for (ssize_t n; (n = getline(&line, &cap, stdin)) > 0;) {
      if (line[n - 1] == '\n') line[n - 1] = '\0';
      if (*line) load(line);
    }
    free(line);
  }
  size_t bytes = 0;
  for (size_t i = 0; i < n_files; i++) bytes += files[i].len;
  pthread_t *t = calloc((size_t)jobs, sizeof(pthread_t));
  double best = 0;
  for (long r = 0; r < rounds; r++) {
    atomic_store(&next, 0);
    double t0 = now();
    for (long k = 1; k < jobs; k++) pthread_create(&t[k], NULL, worker, NULL);
    worker(NULL);
    for (long k = 1; k < jobs; k++) pthread_join(t[k], NULL);
    double dt = now() - t0;
    if (r == 0 || dt < best) best = dt;
  }
  printf("files %zu bytes %zu jobs %ld seconds %.3f MB/s %.1f\n", n_files, bytes, jobs, best, bytes / best / 1e6);
  for (size_t i = 0; i < n_files; i++) free(files[i].data);
  free(files);
  free(t);
  return 0;
}
