#include "ruleset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prefilter.h"
#include "rules_embedded.h"

typedef struct {
  char *path;  // as shown in errors: "rules/python/sdk-run.scm" or DIR/python/sdk-run.scm
  char *name;  // relative: "python/sdk-run.scm"
  char *data;
  size_t len;
  uint32_t offset;  // where it starts in the combined query source
} rule_file;

struct hg_ruleset {
  TSQuery *query;
  hg_pattern *patterns;
  uint32_t n_patterns;
  hg_captures captures;
  hg_policy *policy;
  char **kinds;
  size_t n_kinds;
  hg_prefilter *prefilter;
};

static int file_cmp(const void *a, const void *b) {
  return strcmp(((const rule_file *)a)->name, ((const rule_file *)b)->name);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

typedef HG_VEC(rule_file) file_vec;

static void add_file(file_vec *files, const char *shown, const char *name, const char *data, size_t len) {
  rule_file f = {hg_xstrdup(shown), hg_xstrdup(name), hg_xstrndup(data, len), len, 0};
  HG_VEC_PUSH(files, f);
}

static int read_dir(file_vec *files, const char *dir, const char *sub, hg_error *err) {
  char *path = hg_xasprintf("%s/%s", dir, sub);
  DIR *d = opendir(path);
  if (!d) {
    hg_error_set(err, "%s: cannot open rules directory", path);
    free(path);
    return -1;
  }
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d))) {
    if (!ends_with(e->d_name, ".scm")) continue;
    char *full = hg_xasprintf("%s/%s", path, e->d_name), *name = hg_xasprintf("%s/%s", sub, e->d_name);
    char *data;
    size_t len;
    rc = hg_read_file(&data, &len, full, err);
    if (rc == 0) {
      add_file(files, full, name, data, len);
      free(data);
    }
    free(full);
    free(name);
  }
  closedir(d);
  free(path);
  return rc;
}

static void files_free(file_vec *files) {
  for (size_t i = 0; i < files->len; i++) {
    free(files->items[i].path);
    free(files->items[i].name);
    free(files->items[i].data);
  }
  free(files->items);
}

// file:line:col of byte `offset` of the combined query source.
static int query_error(hg_error *err, const file_vec *files, uint32_t offset, const char *what) {
  const rule_file *f = &files->items[0];
  for (size_t i = 0; i < files->len; i++)
    if (files->items[i].offset <= offset) f = &files->items[i];
  uint32_t rel = offset - f->offset, line = 1, col = 1;
  for (uint32_t i = 0; i < rel && i < f->len; i++) {
    if (f->data[i] == '\n') {
      line++;
      col = 1;
    } else {
      col++;
    }
  }
  return hg_error_set(err, "%s:%u:%u: %s", f->path, line, col, what);
}

static const char *const QUERY_ERRORS[] = {
    [TSQueryErrorNone] = "no error",
    [TSQueryErrorSyntax] = "invalid query syntax",
    [TSQueryErrorNodeType] = "unknown node type for tree-sitter-python",
    [TSQueryErrorField] = "unknown field name for tree-sitter-python",
    [TSQueryErrorCapture] = "unknown capture name in a predicate",
    [TSQueryErrorStructure] = "impossible pattern structure for tree-sitter-python",
    [TSQueryErrorLanguage] = "grammar language version not supported",
};

static const struct {
  const char *name;
  hg_reads reads;
  const char *needs;  // the capture holding the flags
} READS[] = {
    {"kwargs", HG_READS_KWARGS, "args"},
    {"argv", HG_READS_ARGV, "argv"},
    {"shell", HG_READS_SHELL, "command"},
    {"client", HG_READS_CLIENT, NULL},
    {"opaque", HG_READS_OPAQUE, NULL},
};

static uint32_t capture_id(const TSQuery *q, const char *name) {
  uint32_t n = ts_query_capture_count(q), len;
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(ts_query_capture_name_for_id(q, i, &len), name) == 0) return i;
  return UINT32_MAX;
}

static bool pattern_has(const TSQuery *q, uint32_t pattern, uint32_t capture) {
  return capture != UINT32_MAX && ts_query_capture_quantifier_for_id(q, pattern, capture) != TSQuantifierZero;
}

static char *kind_of(const char *name) {
  const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
  return hg_xstrndup(base, strlen(base) - 4);
}

static int setup_pattern(hg_ruleset *self, const file_vec *files, uint32_t i, hg_error *err) {
  uint32_t start = ts_query_start_byte_for_pattern(self->query, i);
  const rule_file *f = &files->items[0];
  for (size_t k = 0; k < files->len; k++)
    if (files->items[k].offset <= start) f = &files->items[k];
  hg_pattern *p = &self->patterns[i];
  hg_error perr;
  if (hg_predicates_compile(&p->predicates, self->query, i, &perr) != 0)
    return query_error(err, files, start, perr.message);
  const hg_captures *c = &self->captures;
  if (strncmp(f->name, "python/facts/", 13) == 0) {
    const char *fact = hg_predicates_property(p->predicates, "hardguard.fact");
    if (fact && strcmp(fact, "marker") == 0) {
      if (!pattern_has(self->query, i, c->marker))
        return query_error(err, files, start, "a marker fact captures @marker");
      p->role = HG_PATTERN_MARKER;
      return 0;
    }
    if (!fact || strcmp(fact, "import") != 0)
      return query_error(err, files, start, "a facts pattern needs (#set! hardguard.fact \"import\" or \"marker\")");
    if (!pattern_has(self->query, i, c->import_module) && !pattern_has(self->query, i, c->import_from))
      return query_error(err, files, start, "an import fact captures @import.module or @import.from");
    p->role = HG_PATTERN_IMPORT;
    return 0;
  }
  p->role = HG_PATTERN_SITE;
  for (size_t k = 0; k < self->n_kinds; k++)
    if (!strncmp(f->name + 7, self->kinds[k], strlen(self->kinds[k])) &&
        !strcmp(f->name + 7 + strlen(self->kinds[k]), ".scm"))
      p->kind = self->kinds[k];
  const char *reads = hg_predicates_property(p->predicates, "hardguard.reads");
  size_t r = 0;
  while (reads && r < HG_ARRAY_LEN(READS) && strcmp(READS[r].name, reads) != 0) r++;
  if (!reads || r == HG_ARRAY_LEN(READS))
    return query_error(err, files, start,
                       "a site pattern needs (#set! hardguard.reads \"kwargs|argv|shell|client|opaque\")");
  p->reads = READS[r].reads;
  if (!pattern_has(self->query, i, c->site)) return query_error(err, files, start, "a site pattern captures @site");
  if (READS[r].needs && !pattern_has(self->query, i, capture_id(self->query, READS[r].needs))) {
    char msg[128];
    snprintf(msg, sizeof(msg), "a \"%s\" pattern captures @%s", reads, READS[r].needs);
    return query_error(err, files, start, msg);
  }
  return 0;
}

// ---- prefilter ------------------------------------------------------------------------------------

// The prefilter is built from the site patterns' predicates (prefilter.c says how).
static void build_prefilter(hg_ruleset *self) {
  const hg_predicates **site = hg_xcalloc(self->n_patterns, sizeof(*site));
  size_t n = 0;
  for (uint32_t i = 0; i < self->n_patterns; i++)
    if (self->patterns[i].role == HG_PATTERN_SITE) site[n++] = self->patterns[i].predicates;
  self->prefilter = hg_prefilter_new(site, n);
  free(site);
}

// ---- load ---------------------------------------------------------------------------------------

enum { QUERY_PROBE_SECONDS = 60 };

size_t hg_query_stacked_quantifier(const char *text, size_t len) {
  char prev = 0;  // the character before, outside comments and strings
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (c == ';') {
      while (i < len && text[i] != '\n') i++;
      prev = '\n';
      continue;
    }
    if (c == '"') {
      for (i++; i < len && text[i] != '"'; i++)
        if (text[i] == '\\') i++;
      prev = '"';
      continue;
    }
    bool quantifier = c == '?' || c == '*' || c == '+';
    if (quantifier && (prev == '?' || prev == '*' || prev == '+')) return i;
    prev = c;
  }
  return len;
}

int hg_query_probe(const char *text, uint32_t len, unsigned seconds, hg_error *err) {
  // The child says it survived with one byte on a pipe: its exit status alone could be a tool's
  // (valgrind's error exit code in a forked child), not the compilation's.
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return hg_error_set(err, "cannot try the query: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return hg_error_set(err, "cannot fork to try the query: %s", strerror(errno));
  }
  if (pid == 0) {
    // The child: default signal dispositions (no sanitizer or fuzzer handler reporting its death
    // as the parent's), a deadline, the compilation, and nothing else.
    static const int sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGALRM, SIGTRAP};
    for (size_t i = 0; i < HG_ARRAY_LEN(sigs); i++) signal(sigs[i], SIG_DFL);
    int null = open("/dev/null", O_WRONLY);  // the library's assertion text: the parent explains
    if (null >= 0) dup2(null, STDERR_FILENO);
    close(fds[0]);
    alarm(seconds);
    uint32_t eoff;
    TSQueryError etype;
    TSQuery *q = ts_query_new(tree_sitter_python(), text, len, &eoff, &etype);
    (void)q;
    ssize_t w = write(fds[1], "k", 1);
    _exit(w == 1 ? 0 : 1);
  }
  close(fds[1]);
  char byte;
  ssize_t got;
  while ((got = read(fds[0], &byte, 1)) < 0 && errno == EINTR) {
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return hg_error_set(err, "cannot wait for the query's trial: %s", strerror(errno));
  if (got == 1) return 0;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    return hg_error_set(err, "libtree-sitter took over %u s to compile this query (simplify it: fewer "
                             "quantified or alternative steps per pattern)", seconds);
  if (WIFSIGNALED(status))
    return hg_error_set(err, "libtree-sitter crashed compiling this query (%s); it is malformed in a way the "
                             "library does not report (a predicate as an alternative, a quantifier on a "
                             "quantifier)", strsignal(WTERMSIG(status)));
  return hg_error_set(err, "libtree-sitter failed compiling this query (exit %d)", WEXITSTATUS(status));
}

// A rules directory the user gave is tried in a child first, the whole and then file by file to
// name the one at fault: libtree-sitter 0.20.7 aborts, crashes or loops on some malformed
// queries, and a guard must answer with an error, not die. The built-in rules are tested.
static int probe_files(const file_vec *files, const char *src, size_t len, hg_error *err) {
  hg_error why;
  if (hg_query_probe(src, (uint32_t)len, QUERY_PROBE_SECONDS, &why) == 0) return 0;
  for (size_t i = 0; i < files->len; i++) {
    const rule_file *f = &files->items[i];
    if (!strcmp(f->name, "policy.yml")) continue;
    hg_error one;
    if (hg_query_probe(f->data, (uint32_t)f->len, QUERY_PROBE_SECONDS, &one) != 0)
      return hg_error_set(err, "%s: %s", f->path, one.message);
  }
  return hg_error_set(err, "rules: %s", why.message);
}

static int build(hg_ruleset *self, file_vec *files, bool trusted, hg_error *err) {
  const rule_file *policy = NULL;
  hg_buf src = {0};
  for (size_t i = 0; i < files->len; i++) {
    rule_file *f = &files->items[i];
    if (strcmp(f->name, "policy.yml") == 0) {
      policy = f;
      continue;
    }
    f->offset = (uint32_t)src.len;
    hg_buf_add(&src, f->data, f->len);
    hg_buf_putc(&src, '\n');
    if (strncmp(f->name, "python/facts/", 13) != 0) {
      self->kinds = hg_xrealloc(self->kinds, (self->n_kinds + 1) * sizeof(char *));
      self->kinds[self->n_kinds++] = kind_of(f->name);
    }
  }
  if (!policy) {
    hg_buf_free(&src);
    return hg_error_set(err, "rules: no policy.yml");
  }
  if (!self->n_kinds) {
    hg_buf_free(&src);
    return hg_error_set(err, "rules: no site patterns (python/*.scm)");
  }
  if (hg_policy_load(&self->policy, policy->path, policy->data, policy->len, err) != 0) {
    hg_buf_free(&src);
    return -1;
  }
  for (size_t i = 0; i < files->len; i++) {
    const rule_file *f = &files->items[i];
    size_t at = strcmp(f->name, "policy.yml") ? hg_query_stacked_quantifier(f->data, f->len) : f->len;
    if (at < f->len) {
      hg_buf_free(&src);
      return query_error(err, files, f->offset + (uint32_t)at,
                         "a quantifier right after another (write one of ?, *, +)");
    }
  }
  if (!trusted && probe_files(files, src.data, src.len, err) != 0) {
    hg_buf_free(&src);
    return -1;
  }
  uint32_t eoff;
  TSQueryError etype;
  self->query = ts_query_new(tree_sitter_python(), src.data, (uint32_t)src.len, &eoff, &etype);
  hg_buf_free(&src);
  if (!self->query) {
    // A pattern left open runs on into the next file, so tree-sitter's offset may land there:
    // compile the files one by one to name the one at fault.
    for (size_t i = 0; i < files->len; i++) {
      const rule_file *f = &files->items[i];
      if (!strcmp(f->name, "policy.yml")) continue;
      TSQuery *one = ts_query_new(tree_sitter_python(), f->data, (uint32_t)f->len, &eoff, &etype);
      if (one) {
        ts_query_delete(one);
        continue;
      }
      eoff += f->offset;
      break;
    }
    return query_error(err, files, eoff, etype < HG_ARRAY_LEN(QUERY_ERRORS) ? QUERY_ERRORS[etype] : "invalid query");
  }
  const TSQuery *q = self->query;
  self->captures = (hg_captures){
      capture_id(q, "site"),          capture_id(q, "args"),         capture_id(q, "argv"),
      capture_id(q, "command"),       capture_id(q, "import.module"), capture_id(q, "import.alias"),
      capture_id(q, "import.from"),   capture_id(q, "import.name"),  capture_id(q, "marker"),
  };
  self->n_patterns = ts_query_pattern_count(q);
  self->patterns = hg_xcalloc(self->n_patterns, sizeof(hg_pattern));
  for (uint32_t i = 0; i < self->n_patterns; i++)
    if (setup_pattern(self, files, i, err) != 0) return -1;
  build_prefilter(self);
  return 0;
}

int hg_ruleset_load(hg_ruleset **out, const char *dir, hg_error *err) {
  *out = NULL;
  file_vec files = {0};
  int rc = 0;
  if (dir) {
    char *policy = hg_xasprintf("%s/policy.yml", dir);
    char *data;
    size_t len;
    rc = hg_read_file(&data, &len, policy, err);
    if (rc == 0) {
      add_file(&files, policy, "policy.yml", data, len);
      free(data);
      rc = read_dir(&files, dir, "python", err);
    }
    if (rc == 0) rc = read_dir(&files, dir, "python/facts", err);
    free(policy);
  } else {
    for (const hg_embedded_file *f = hg_embedded_rules; f->path; f++) {
      char *shown = hg_xasprintf("rules/%s", f->path);
      add_file(&files, shown, f->path, f->data, f->len);
      free(shown);
    }
  }
  hg_ruleset *self = hg_xcalloc(1, sizeof(hg_ruleset));
  if (rc == 0) {
    qsort(files.items, files.len, sizeof(rule_file), file_cmp);
    rc = build(self, &files, dir == NULL, err);
  }
  files_free(&files);
  if (rc != 0) {
    hg_ruleset_free(self);
    return -1;
  }
  *out = self;
  return 0;
}

void hg_ruleset_free(hg_ruleset *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->n_patterns; i++) hg_predicates_free(self->patterns[i].predicates);
  free(self->patterns);
  if (self->query) ts_query_delete(self->query);
  hg_policy_free(self->policy);
  hg_strv_free(self->kinds, self->n_kinds);
  hg_prefilter_free(self->prefilter);
  free(self);
}

const TSQuery *hg_ruleset_query(const hg_ruleset *self) { return self->query; }
const hg_pattern *hg_ruleset_pattern(const hg_ruleset *self, uint32_t i) { return &self->patterns[i]; }
const hg_captures *hg_ruleset_captures(const hg_ruleset *self) { return &self->captures; }
const hg_policy *hg_ruleset_policy(const hg_ruleset *self) { return self->policy; }

size_t hg_ruleset_kinds(const hg_ruleset *self, const char *const **out) {
  *out = (const char *const *)self->kinds;
  return self->n_kinds;
}

const pcre2_code *hg_ruleset_prefilter(const hg_ruleset *self) { return hg_prefilter_code(self->prefilter); }
const char *hg_ruleset_prefilter_source(const hg_ruleset *self) { return hg_prefilter_source(self->prefilter); }

bool hg_ruleset_may_contain_site(const hg_ruleset *self, const char *data, size_t len, pcre2_match_data *md) {
  (void)md;  // the prefilter matches without pcre2
  return hg_prefilter_match(self->prefilter, data, len);
}
