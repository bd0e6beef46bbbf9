#include "rules/ruleset.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/prefilter.h"
#include "rules/rulefile.h"
#include "base/rules_embedded.h"
#include "model/surface.h"
#include "base/yamldoc.h"


// The prefilter seed made from the built-in rules when the binary was built (rulegen.c). The
// library does not define it: a program without one (rulegen, the unit tests) compiles its queries
// to know its prefilter.
extern const hg_ruleset_seed hg_rules_seed __attribute__((weak));

// A compiled query in its surface's list, the latest first.
typedef struct query_node {
  hg_rules_query q;
  struct query_node *next;
} query_node;

// One surface's rules: rules/<surface>/*.scm and rules/<surface>/facts/*.scm. libtree-sitter
// 0.20.7 spends ~10M instructions (~1 ms) compiling each node of a pattern that has children
// (its pattern analysis; a `call` or `attribute` parent costs that, an `argument_list` a tenth),
// ~40 ms for the Python rules, so the built-in rules are compiled only when a file needs them; a
// seed built into the binary gives the prefilter without compiling anything. A run that knows what
// its few files need (the pre-commit hook) compiles only those site files (units), with every
// facts file.
typedef struct {
  const hg_surface *surface;
  hg_yaml_rule *yaml;  // a surface without a grammar: its rules/<surface>/*.yml
  size_t n_yaml;
  char *yaml_prefilter;  // ... and their literals as the alternation --list-rules shows ("": off)
  hg_rule_files files;        // a tree-sitter surface's rule files, in name order
  hg_units units;        // every unit of the surface
  bool seeded;           // the prefilter came from the seed
  pthread_mutex_t lock;
  hg_prefilter *prefilter;        // from the seed, or from the first query of every unit
  _Atomic(query_node *) queries;  // pushed under the lock; read without it
  bool expected;                  // the run said which units its files need (hg_ruleset_expect) ...
  hg_units expected_units;        // ... these ...
  bool expected_light;            // ... and that its files are few and small
} surface_rules;

struct hg_ruleset {
  surface_rules s[HG_SURFACE_MAX];
  bool whole;  // every file gets a query of every unit (hg_ruleset_whole)
  bool exact;  // every query holds just the units asked for (hg_ruleset_exact)
  bool light;  // every query is compiled with wildcard calls (hg_ruleset_light)
  hg_policy *policy;
  char **kinds;  // of every surface, sorted, each once
  size_t n_kinds;
};

static const char *const QUERY_ERRORS[] = {
    [TSQueryErrorNone] = "no error",
    [TSQueryErrorSyntax] = "invalid query syntax",
    [TSQueryErrorNodeType] = "unknown node type for %s",
    [TSQueryErrorField] = "unknown field name for %s",
    [TSQueryErrorCapture] = "unknown capture name in a predicate",
    [TSQueryErrorStructure] = "impossible pattern structure for %s",
    [TSQueryErrorLanguage] = "grammar language version not supported",
};

// ---- prefilter ------------------------------------------------------------------------------------

// The prefilter is built from the site patterns' predicates (prefilter.c says how), of a query of
// every unit, each pattern announcing the unit of its file.
static hg_prefilter *build_prefilter(const hg_rules_query *rq, const hg_rule_files *files) {
  const hg_predicates **site = hg_xcalloc(rq->n_patterns ? rq->n_patterns : 1, sizeof(*site));
  unsigned *units = hg_xcalloc(rq->n_patterns ? rq->n_patterns : 1, sizeof(*units));
  size_t n = 0;
  for (uint32_t i = 0; i < rq->n_patterns; i++)
    if (rq->patterns[i].role == HG_PATTERN_SITE) {
      units[n] = (unsigned)hg_rule_files_at(files, ts_query_start_byte_for_pattern(rq->query, i))->unit;
      site[n++] = rq->patterns[i].predicates;
    }
  hg_prefilter *pre = hg_prefilter_new_units(site, units, n);
  free(site);
  free(units);
  return pre;
}

// ---- load ---------------------------------------------------------------------------------------

enum { QUERY_PROBE_SECONDS = 60 };

// A rules directory the user gave is tried in a child first, the whole and then file by file to
// name the one at fault: libtree-sitter 0.20.7 aborts, crashes or loops on some malformed
// queries, and a guard must answer with an error, not die. The built-in rules are tested.
static int probe_files(const TSLanguage *lang, const hg_rule_files *files, const char *src, size_t len, hg_error *err) {
  hg_error why;
  if (hg_query_probe(lang, src, (uint32_t)len, QUERY_PROBE_SECONDS, &why) == 0) return 0;
  for (size_t i = 0; i < files->len; i++) {
    const hg_rule_file *f = &files->items[i];
    hg_error one;
    if (hg_query_probe(lang, f->data, (uint32_t)f->len, QUERY_PROBE_SECONDS, &one) != 0)
      return hg_error_set(err, "%s: %s", f->path, one.message);
  }
  return hg_error_set(err, "rules: %s", why.message);
}

static int kind_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void query_free(hg_rules_query *rq) {
  for (uint32_t i = 0; i < rq->n_patterns; i++) hg_pattern_free((hg_pattern *)&rq->patterns[i]);
  free((hg_pattern *)rq->patterns);
  if (rq->query) ts_query_delete((TSQuery *)rq->query);
  free(rq);  // the first member of its query_node
}

// A query for a few small files is compiled light: a node that starts a line of a rule file and
// is one of the surface's `wildcards` (a type followed by a field no other type has) is written
// `(_` padded with spaces: the same node, and the same offsets for every byte after it.
// libtree-sitter 0.20.7 then skips its analysis of the pattern (~0.6 ms each: the Python rules
// compile in 5 ms, not 19) and matches the same nodes, but tries every node against it where it
// tried only nodes of its type: matching takes about twice as long, which pays off below a few
// hundred KB of source (the bench's hook files: 149 KB).
static void light_nodes(const char *const *wildcards, char *text, size_t len) {
  for (size_t i = 0; wildcards && i < len; i++) {
    if ((i && text[i - 1] != '\n') || text[i] != '(') continue;
    size_t at = i + 1 + (i + 1 < len && text[i + 1] == '(');
    for (const char *const *w = wildcards; *w; w++) {
      size_t n = strcspn(*w, " "), k = at + n;  // "type field:"
      const char *field = *w + n + 1;
      if (k >= len || memcmp(text + at, *w, n) != 0 || !isspace((unsigned char)text[k])) continue;
      while (k < len && isspace((unsigned char)text[k])) k++;
      if (len - k > strlen(field) && !memcmp(text + k, field, strlen(field))) {
        text[at] = '_';
        memset(text + at + 1, ' ', n - 1);
        break;
      }
    }
  }
}

// Compiles the files of surface sr that are facts or of the units `units` (in name order) into one
// query (`light`: light_nodes); a directory the user gave (`trusted` false) is tried in a child
// first.
static int compile_query(hg_ruleset *self, const surface_rules *sr, hg_units units, bool light, bool trusted,
                         hg_rules_query **out, hg_error *err) {
  *out = NULL;
  const TSLanguage *lang = sr->surface->language();
  hg_rule_files files = {0};  // shallow copies: the strings stay the surface's
  hg_buf src = {0};
  for (size_t i = 0; i < sr->files.len; i++) {
    hg_rule_file f = sr->files.items[i];
    if (f.unit >= 0 && !(units & ((hg_units)1 << f.unit))) continue;
    f.offset = (uint32_t)src.len;
    hg_buf_add(&src, f.data, f.len);
    if (light) light_nodes(sr->surface->wildcards, src.data + f.offset, f.len);
    hg_buf_putc(&src, '\n');
    HG_VEC_PUSH(&files, f);
  }
  int rc = 0;
  for (size_t i = 0; i < files.len && rc == 0; i++) {
    const hg_rule_file *f = &files.items[i];
    size_t at = hg_query_stacked_quantifier(f->data, f->len);
    if (at < f->len)
      rc =
          hg_rule_files_error(err, &files, f->offset + (uint32_t)at, "a quantifier right after another (write one of ?, *, +)");
  }
  if (rc == 0 && !trusted) rc = probe_files(lang, &files, src.data, src.len, err);
  uint32_t eoff;
  TSQueryError etype;
  TSQuery *q = rc == 0 ? ts_query_new(lang, src.data, (uint32_t)src.len, &eoff, &etype) : NULL;
  hg_buf_free(&src);
  if (rc == 0 && !q) {
    // A pattern left open runs on into the next file, so tree-sitter's offset may land there:
    // compile the files one by one to name the one at fault.
    for (size_t i = 0; i < files.len; i++) {
      const hg_rule_file *f = &files.items[i];
      TSQuery *one = ts_query_new(lang, f->data, (uint32_t)f->len, &eoff, &etype);
      if (one) {
        ts_query_delete(one);
        continue;
      }
      eoff += f->offset;
      break;
    }
    char what[160];
    snprintf(what, sizeof(what), etype < HG_ARRAY_LEN(QUERY_ERRORS) ? QUERY_ERRORS[etype] : "invalid query",
             sr->surface->grammar);
    rc = hg_rule_files_error(err, &files, eoff, what);
  }
  if (rc != 0) {
    free(files.items);
    return -1;
  }
  hg_rules_query *rq = &((query_node *)hg_xcalloc(1, sizeof(query_node)))->q;
  rq->query = q;
  rq->units = units & sr->units;
  rq->captures = (hg_captures){
      hg_query_capture_id(q, "site"),        hg_query_capture_id(q, "args"),          hg_query_capture_id(q, "argv"),
      hg_query_capture_id(q, "command"),     hg_query_capture_id(q, "import.module"), hg_query_capture_id(q, "import.alias"),
      hg_query_capture_id(q, "import.from"), hg_query_capture_id(q, "import.name"),   hg_query_capture_id(q, "marker"),
      hg_query_capture_id(q, "body"),
  };
  rq->n_patterns = ts_query_pattern_count(q);
  rq->patterns = hg_xcalloc(rq->n_patterns ? rq->n_patterns : 1, sizeof(hg_pattern));
  for (uint32_t i = 0; i < rq->n_patterns && rc == 0; i++) {
    uint32_t start = ts_query_start_byte_for_pattern(q, i);
    const hg_rule_file *f = hg_rule_files_at(&files, start);
    char *kind = hg_rule_file_is_fact(f->name) ? NULL : hg_rule_file_kind(f->name);
    hg_error perr;
    if (hg_pattern_setup((hg_pattern *)&rq->patterns[i], q, i, &rq->captures, kind, self->kinds, self->n_kinds,
                         self->policy, &perr) != 0)
      rc = hg_rule_files_error(err, &files, start, perr.message);
    free(kind);
  }
  if (rc == 0 && !sr->prefilter && (units & sr->units) == sr->units)
    ((surface_rules *)sr)->prefilter = build_prefilter(rq, &files);  // under the lock, or while loading
  free(files.items);
  if (rc != 0) {
    query_free(rq);
    return -1;
  }
  *out = rq;
  return 0;
}

// ---- YAML surfaces ----------------------------------------------------------------------------------

static int load_yaml_rule(hg_yaml *y, const hg_surface *sf, const hg_rule_file *f, hg_yaml_rule *r, hg_error *err) {
  static const char *const keys[] = {"reads", "select", "literals", NULL};
  static const char *const select_keys[] = {"files", "path", NULL};
  yaml_node_t *root = hg_yaml_root(y);
  if (hg_yaml_mapping(y, root, keys, "rule", err) != 0) return -1;
  r->kind = hg_rule_file_kind(f->name);
  yaml_node_t *reads = hg_yaml_get(y, root, "reads"), *select = hg_yaml_get(y, root, "select"),
              *literals = hg_yaml_get(y, root, "literals");
  // The modes the surface's extraction reads, as its row lists them ("script or compose").
  hg_buf modes = {0};
  bool known = false;
  const char *rd = NULL;
  int rc = reads ? hg_yaml_scalar(y, reads, "reads", &rd, err) : -1;
  for (const char *const *m = sf->yaml_reads; m && *m; m++) {
    hg_buf_printf(&modes, "%s%s", modes.len ? " or " : "", *m);
    known = known || (rd && !strcmp(rd, *m));
  }
  if (!reads)
    rc = hg_yaml_error(y, root, err, "rule: needs 'reads' (%s)", modes.data ? modes.data : "none");
  else if (rc == 0 && !known)
    rc = hg_yaml_error(y, reads, err, "reads: expected %s, found '%s'", modes.data ? modes.data : "none", rd);
  hg_buf_free(&modes);
  if (rc != 0)
    return -1;
  r->reads = hg_xstrdup(rd);
  if (!select || select->type != YAML_SEQUENCE_NODE)
    return hg_yaml_error(y, select ? select : root, err, "rule: 'select' must be a list of {files, path}");
  size_t n = (size_t)(select->data.sequence.items.top - select->data.sequence.items.start);
  r->select = hg_xcalloc(n ? n : 1, sizeof(hg_yaml_select));
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *item = hg_yaml_node(y, select->data.sequence.items.start[i]);
    hg_yaml_select *sel = &r->select[i];
    r->n_select = i + 1;
    if (hg_yaml_mapping(y, item, select_keys, "select", err) != 0) return -1;
    yaml_node_t *files = hg_yaml_get(y, item, "files"), *path = hg_yaml_get(y, item, "path");
    if (!path) return hg_yaml_error(y, item, err, "select: needs 'path'");
    if (hg_yaml_strings(y, path, "select.path", &sel->paths, &sel->n_paths, err) != 0) return -1;
    if (files && hg_yaml_strings(y, files, "select.files", &sel->files, &sel->n_files, err) != 0) return -1;
  }
  if (literals && hg_yaml_strings(y, literals, "literals", &r->literals, &r->n_literals, err) != 0) return -1;
  return 0;
}

static void yaml_rule_free(hg_yaml_rule *r) {
  for (size_t i = 0; i < r->n_select; i++) {
    hg_strv_free(r->select[i].files, r->select[i].n_files);
    hg_strv_free(r->select[i].paths, r->select[i].n_paths);
  }
  free(r->select);
  hg_strv_free(r->literals, r->n_literals);
  free(r->kind);
  free(r->reads);
}

static int build_yaml_surface(const hg_ruleset *self, surface_rules *sr, hg_rule_files *files, hg_error *err) {
  sr->yaml = hg_xcalloc(files->len, sizeof(hg_yaml_rule));
  for (size_t i = 0; i < files->len; i++) {
    const hg_rule_file *f = &files->items[i];
    hg_yaml y;
    int rc = hg_yaml_load(&y, f->path, f->data, f->len, err);
    sr->n_yaml = i + 1;
    if (rc == 0) rc = load_yaml_rule(&y, sr->surface, f, &sr->yaml[i], err);
    uint8_t dialect;
    char msg[192];
    int mode = rc == 0 ? hg_reads_by_name(sr->yaml[i].reads) : -1;
    if (rc == 0 && mode >= 0 && hg_pattern_site_dialect(self->policy, (hg_reads)mode, NULL, &dialect, msg, sizeof(msg)) != 0)
      rc = hg_error_set(err, "%s: %s", f->path, msg);
    hg_yaml_free(&y);
    if (rc != 0) return -1;
  }
  hg_buf b = {0};
  bool off = false;
  for (size_t i = 0; i < sr->n_yaml; i++) {
    off = off || !sr->yaml[i].n_literals;
    for (size_t k = 0; k < sr->yaml[i].n_literals; k++)
      hg_buf_printf(&b, "%s\\Q%s\\E", b.len ? "|" : "", sr->yaml[i].literals[k]);
  }
  sr->yaml_prefilter = off ? hg_xstrdup("") : hg_buf_detach(&b);
  if (off) hg_buf_free(&b);
  return 0;
}

static int build(hg_ruleset *self, hg_rule_files *files, bool trusted, hg_error *err) {
  const hg_rule_file *policy = NULL;
  hg_rule_files per[HG_SURFACE_MAX] = {0};
  int rc = 0;
  for (size_t i = 0; i < files->len && rc == 0; i++) {
    hg_rule_file *f = &files->items[i];
    if (strcmp(f->name, "policy.yml") == 0) {
      policy = f;
      continue;
    }
    const char *slash = strchr(f->name, '/');
    char *dir = hg_xstrndup(f->name, slash ? (size_t)(slash - f->name) : 0);
    int s = hg_surface_by_id(dir);
    free(dir);
    if (s < 0) {
      rc = hg_error_set(err, "%s: not in the folder of a surface (rules/<surface>/, surface one of python, shell)",
                        f->path);
      break;
    }
    bool yml = hg_rule_file_ends_with(f->name, ".yml");
    if (yml != (hg_surface_get((hg_surface_id)s)->language == NULL)) {
      rc = hg_error_set(err, "%s: the %s surface's rules are %s files", f->path, hg_surface_get((hg_surface_id)s)->id,
                        yml ? ".scm (tree-sitter queries)" : ".yml");
      break;
    }
    HG_VEC_PUSH(&per[s], *f);  // a shallow copy: the strings stay owned by `files`
    if (!hg_rule_file_is_fact(f->name)) {
      char *kind = hg_rule_file_kind(f->name);
      bool dup = false;
      for (size_t k = 0; k < self->n_kinds && !dup; k++) dup = !strcmp(self->kinds[k], kind);
      if (dup) {
        free(kind);
      } else {
        self->kinds = hg_xrealloc(self->kinds, (self->n_kinds + 1) * sizeof(char *));
        self->kinds[self->n_kinds++] = kind;
      }
    }
  }
  if (rc == 0 && !policy) rc = hg_error_set(err, "rules: no policy.yml");
  if (rc == 0 && !self->n_kinds) rc = hg_error_set(err, "rules: no site patterns (<surface>/*.scm)");
  if (rc == 0) rc = hg_policy_load(&self->policy, policy->path, policy->data, policy->len, err);
  if (rc == 0) qsort(self->kinds, self->n_kinds, sizeof(char *), kind_cmp);
  const hg_ruleset_seed *seed =
      trusted && &hg_rules_seed && hg_rules_seed.hash == hg_ruleset_builtin_hash() ? &hg_rules_seed : NULL;
  for (int s = 0; s < hg_surface_count; s++) {
    self->s[s].surface = hg_surface_get((hg_surface_id)s);
    surface_rules *sr = &self->s[s];
    pthread_mutex_init(&sr->lock, NULL);
    if (rc == 0 && per[s].len && sr->surface->language) {
      // Deep copies: the loaded files are freed when loading ends. A site file is a unit.
      int unit = 0;
      for (size_t i = 0; i < per[s].len; i++) {
        const hg_rule_file *f = &per[s].items[i];
        hg_rule_files_add(&sr->files, f->path, f->name, f->data, f->len);
        if (!hg_rule_file_is_fact(f->name)) {
          sr->files.items[i].unit = unit < HG_UNITS_MAX ? unit : HG_UNITS_MAX - 1;  // beyond: compiled together
          sr->units |= (hg_units)1 << sr->files.items[i].unit;
          unit++;
        }
      }
      if (seed && seed->surfaces[s].source) {
        sr->prefilter = hg_prefilter_from_seed(&seed->surfaces[s]);
        sr->seeded = true;
      } else if (!trusted) {
        // A directory the user gave is checked whole now: its errors are load errors.
        hg_rules_query *rq;
        rc = compile_query(self, sr, HG_UNITS_ALL, false, false, &rq, err);
        if (rc == 0) {
          atomic_store(&sr->queries, (query_node *)rq);
        }
      }
    } else if (rc == 0 && per[s].len) {
      rc = build_yaml_surface(self, sr, &per[s], err);
    }
    free(per[s].items);
  }
  return rc;
}

uint64_t hg_ruleset_builtin_hash(void) {
  hg_buf all = {0};
  for (const hg_embedded_file *f = hg_embedded_rules; f->path; f++) {
    hg_buf_add(&all, f->path, strlen(f->path) + 1);
    hg_buf_add(&all, f->data, f->len);
  }
  uint64_t h = hg_hash(all.data ? all.data : "", all.len);
  hg_buf_free(&all);
  return h;
}

int hg_ruleset_load(hg_ruleset **out, const char *dir, hg_error *err) {
  *out = NULL;
  hg_rule_files files = {0};
  int rc = 0;
  if (dir) {
    char *policy = hg_xasprintf("%s/policy.yml", dir);
    char *data;
    size_t len;
    rc = hg_rule_files_check_folders(dir, err);
    if (rc == 0) rc = hg_read_file(&data, &len, policy, err);
    if (rc == 0) {
      hg_rule_files_add(&files, policy, "policy.yml", data, len);
      free(data);
    }
    for (int sf = 0; rc == 0 && sf < hg_surface_count; sf++) {
      const char *id = hg_surface_get((hg_surface_id)sf)->id;
      char *facts = hg_xasprintf("%s/facts", id);
      rc = hg_rule_files_read_dir(&files, dir, id, err);
      if (rc == 0) rc = hg_rule_files_read_dir(&files, dir, facts, err);
      free(facts);
    }
    free(policy);
  } else {
    for (const hg_embedded_file *f = hg_embedded_rules; f->path; f++) {
      char *shown = hg_xasprintf("rules/%s", f->path);
      hg_rule_files_add(&files, shown, f->path, f->data, f->len);
      free(shown);
    }
  }
  hg_ruleset *self = hg_xcalloc(1, sizeof(hg_ruleset));
  if (rc == 0) {
    qsort(files.items, files.len, sizeof(hg_rule_file), hg_rule_file_cmp);
    rc = build(self, &files, dir == NULL, err);
  }
  hg_rule_files_free(&files);
  if (rc != 0) {
    hg_ruleset_free(self);
    return -1;
  }
  *out = self;
  return 0;
}

void hg_ruleset_free(hg_ruleset *self) {
  if (!self) return;
  for (int s = 0; s < hg_surface_count; s++) {
    surface_rules *sr = &self->s[s];
    for (query_node *n = atomic_load(&sr->queries), *next; n; n = next) {
      next = n->next;
      query_free(&n->q);
    }
    hg_prefilter_free(sr->prefilter);
    for (size_t i = 0; i < sr->n_yaml; i++) yaml_rule_free(&sr->yaml[i]);
    free(sr->yaml);
    free(sr->yaml_prefilter);
    hg_rule_files_free(&sr->files);
    pthread_mutex_destroy(&sr->lock);
  }
  hg_policy_free(self->policy);
  hg_strv_free(self->kinds, self->n_kinds);
  free(self);
}

// A query of surface s holding at least the units `need` (and every facts file): one compiled
// before, else compiled now. A directory the user gave was compiled whole when loaded; the
// built-in rules are tested, so a failure here is a programmer's error.
const hg_rules_query *hg_ruleset_query_for(const hg_ruleset *cself, hg_surface_id s, hg_units need) {
  surface_rules *sr = (surface_rules *)&cself->s[s];  // queries added under the lock; read-only after
  if (!sr->files.len) return NULL;
  need &= sr->units;
  for (query_node *n = atomic_load_explicit(&sr->queries, memory_order_acquire); n; n = n->next)
    if ((n->q.units & need) == need && (!cself->exact || n->q.units == need)) return &n->q;
  pthread_mutex_lock(&sr->lock);
  query_node *head = atomic_load_explicit(&sr->queries, memory_order_relaxed), *found = NULL;
  hg_units units;
  for (query_node *n = head; n && !found; n = n->next)
    if ((n->q.units & need) == need && (!cself->exact || n->q.units == need)) found = n;
  if (!found) {
    bool light = cself->light;
    if (cself->exact) {
      units = need;
    } else if (!head && sr->expected) {
      units = need | sr->expected_units;
      light |= sr->expected_light;
    } else {
      units = sr->units;  // not said, or more than said (a file changed since): every unit
    }
    hg_error err;
    hg_rules_query *rq;
    if (compile_query((hg_ruleset *)cself, sr, units, light, true, &rq, &err) != 0) {
      fprintf(stderr, "hardguard: built-in rules: %s\n", err.message);
      abort();
    }
    found = (query_node *)rq;
    found->next = head;
    atomic_store_explicit(&sr->queries, found, memory_order_release);
  }
  pthread_mutex_unlock(&sr->lock);
  return &found->q;
}

// Surface s's prefilter: the seeded one, else the one its query of every unit gave.
static const hg_prefilter *prefilter_of(const hg_ruleset *self, hg_surface_id s) {
  const surface_rules *sr = &self->s[s];
  if (!sr->seeded && sr->files.len) hg_ruleset_query_for(self, s, HG_UNITS_ALL);
  return sr->prefilter;
}

bool hg_ruleset_has(const hg_ruleset *self, hg_surface_id s) { return self->s[s].files.len || self->s[s].n_yaml; }

const hg_yaml_rule *hg_ruleset_yaml_rules(const hg_ruleset *self, hg_surface_id s, size_t *n) {
  *n = self->s[s].n_yaml;
  return self->s[s].yaml;
}
const TSQuery *hg_ruleset_query(const hg_ruleset *self, hg_surface_id s) {
  const hg_rules_query *rq = hg_ruleset_query_for(self, s, HG_UNITS_ALL);
  return rq ? rq->query : NULL;
}
const hg_pattern *hg_ruleset_pattern(const hg_ruleset *self, hg_surface_id s, uint32_t i) {
  return &hg_ruleset_query_for(self, s, HG_UNITS_ALL)->patterns[i];
}
const hg_captures *hg_ruleset_captures(const hg_ruleset *self, hg_surface_id s) {
  return &hg_ruleset_query_for(self, s, HG_UNITS_ALL)->captures;
}
const hg_policy *hg_ruleset_policy(const hg_ruleset *self) { return self->policy; }

size_t hg_ruleset_kinds(const hg_ruleset *self, const char *const **out) {
  *out = (const char *const *)self->kinds;
  return self->n_kinds;
}

const pcre2_code *hg_ruleset_prefilter(const hg_ruleset *self, hg_surface_id s) {
  const hg_prefilter *pre = prefilter_of(self, s);
  return pre ? hg_prefilter_code(pre) : NULL;
}

const char *hg_ruleset_prefilter_source(const hg_ruleset *self, hg_surface_id s) {
  const surface_rules *sr = &self->s[s];
  if (sr->yaml_prefilter) return sr->yaml_prefilter;
  if (!sr->files.len) return "";
  if (sr->seeded) {
    // What --list-rules shows is what the rules give now; the seed must say the same.
    const hg_rules_query *rq = hg_ruleset_query_for(self, s, HG_UNITS_ALL);
    hg_rule_files files = {0};
    uint32_t offset = 0;
    for (size_t i = 0; i < sr->files.len; i++) {
      hg_rule_file f = sr->files.items[i];
      f.offset = offset;
      offset += (uint32_t)f.len + 1;
      HG_VEC_PUSH(&files, f);
    }
    hg_prefilter *now = build_prefilter(rq, &files);
    free(files.items);
    bool same = hg_prefilter_equal(now, sr->prefilter);
    hg_prefilter_free(now);
    if (!same) {
      fprintf(stderr,
              "hardguard: built-in rules: the %s prefilter built into the binary differs from the rules' "
              "(a stale rules_seed.c: rebuild)\n",
              sr->surface->id);
      abort();
    }
  }
  return hg_prefilter_source(sr->prefilter);
}

hg_prefilter_seed hg_ruleset_seed_of(const hg_ruleset *self, hg_surface_id s) {
  const hg_prefilter *pre = self->s[s].files.len ? prefilter_of(self, s) : NULL;
  return pre ? hg_prefilter_seed_of(pre) : (hg_prefilter_seed){0};
}

void hg_ruleset_whole(hg_ruleset *self) { self->whole = true; }
void hg_ruleset_exact(hg_ruleset *self) { self->exact = true; }
void hg_ruleset_light(hg_ruleset *self) { self->light = true; }

void hg_ruleset_expect(hg_ruleset *self, hg_surface_id s, hg_units units, bool light) {
  self->s[s].expected = true;
  self->s[s].expected_units = units;
  self->s[s].expected_light = light;
}

hg_units hg_ruleset_units(const hg_ruleset *self, hg_surface_id s, const char *data, size_t len) {
  if (self->whole) return self->s[s].units;
  const hg_prefilter *pre = prefilter_of(self, s);
  return pre ? hg_prefilter_units(pre, data, len) & self->s[s].units : 0;
}

bool hg_ruleset_may_contain_site(const hg_ruleset *self, hg_surface_id s, const char *data, size_t len,
                                 pcre2_match_data *md) {
  (void)md;  // the prefilter matches without pcre2
  const surface_rules *sr = &self->s[s];
  if (sr->n_yaml) {
    // A YAML surface: a file holding none of a rule's literals has none of its sites.
    for (size_t i = 0; i < sr->n_yaml; i++) {
      if (!sr->yaml[i].n_literals) return true;
      for (size_t k = 0; k < sr->yaml[i].n_literals; k++)
        if (memmem(data, len, sr->yaml[i].literals[k], strlen(sr->yaml[i].literals[k]))) return true;
    }
    return false;
  }
  const hg_prefilter *pre = prefilter_of(self, s);
  return pre && hg_prefilter_match(pre, data, len);  // no prefilter: no rules read this surface
}
