#include "rules/ruleset.h"

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

// A query (a view of the surface's compiled rules for some units) in its surface's list, the
// latest first.
typedef struct query_node {
  hg_rules_query q;
  struct query_node *next;
} query_node;

// A surface's rules compiled: every pattern of its files (in name order), the dispatch table of
// the walk, and, in a reference ruleset, libtree-sitter's query of the same text.
typedef struct {
  hg_shapes *shapes;
  hg_dispatch *dispatch;
  TSQuery *reference;
  hg_pattern *patterns;
  uint32_t n_patterns;
  hg_captures captures;
  int *unit_of;  // per pattern: its file's unit; -1 a facts file
  hg_checks checks;  // what the walk asks before it tries each pattern at a node
  hg_file_words *words;  // the strings of its #file-contains? predicates
} compiled;

// One surface's rules: rules/<surface>/*.scm and rules/<surface>/facts/*.scm, compiled when a file
// first needs them (hardguard's own compiler: well under a millisecond for the Python rules); a
// seed built into the binary gives the prefilter without compiling anything. A query holds the
// units (site files) a file may hold sites of, with every facts file: only their patterns are
// tried.
typedef struct {
  const hg_surface *surface;
  hg_yaml_rule *yaml;  // a surface without a grammar: its rules/<surface>/*.yml
  size_t n_yaml;
  char *yaml_prefilter;  // ... and their literals as the alternation --list-rules shows ("": off)
  hg_rule_files files;   // a tree-sitter surface's rule files, in name order
  hg_units units;        // every unit of the surface
  bool seeded;           // the prefilter came from the seed
  pthread_mutex_t lock;
  hg_prefilter *prefilter;        // from the seed, or from the compiled rules
  _Atomic(compiled *) compiled;   // set under the lock; read without it
  _Atomic(query_node *) queries;  // pushed under the lock; read without it
} surface_rules;

struct hg_ruleset {
  surface_rules s[HG_SURFACE_MAX];
  bool whole;      // every file gets a query of every unit (hg_ruleset_whole)
  bool reference;  // matches are found by libtree-sitter's query engine (hg_ruleset_reference)
  hg_policy *policy;
  char **kinds;  // of every surface, sorted, each once
  size_t n_kinds;
};

// ---- prefilter ------------------------------------------------------------------------------------

// The prefilter is built from the site patterns' predicates (prefilter.c says how), each pattern
// announcing the unit of its file.
static hg_prefilter *build_prefilter(const compiled *c) {
  const hg_predicates **site = hg_xcalloc(c->n_patterns ? c->n_patterns : 1, sizeof(*site));
  unsigned *units = hg_xcalloc(c->n_patterns ? c->n_patterns : 1, sizeof(*units));
  size_t n = 0;
  for (uint32_t i = 0; i < c->n_patterns; i++)
    if (c->patterns[i].role == HG_PATTERN_SITE) {
      units[n] = (unsigned)c->unit_of[i];
      site[n++] = c->patterns[i].predicates;
    }
  hg_prefilter *pre = hg_prefilter_new_units(site, units, n);
  free(site);
  free(units);
  return pre;
}

// ---- compile ------------------------------------------------------------------------------------

static int kind_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void compiled_free(compiled *c) {
  if (!c) return;
  for (uint32_t i = 0; i < c->n_patterns; i++) hg_pattern_free(&c->patterns[i]);
  free(c->patterns);
  free(c->unit_of);
  hg_checks_free(&c->checks);
  hg_file_words_free(c->words);
  hg_dispatch_free(c->dispatch);
  hg_shapes_free(c->shapes);
  if (c->reference) ts_query_delete(c->reference);
  free(c);
}

// Every file of surface sr, in name order, compiled into one set of shapes (each file on its own:
// offsets count in the files' combined text, which names a pattern's file); in a reference ruleset,
// libtree-sitter's query of the combined text too, which numbers patterns and captures alike.
static int compile_surface(const hg_ruleset *self, const surface_rules *sr, compiled **out, hg_error *err) {
  *out = NULL;
  const TSLanguage *lang = sr->surface->language();
  hg_rule_files files = {0};  // shallow copies: the strings stay the surface's
  hg_buf src = {0};
  for (size_t i = 0; i < sr->files.len; i++) {
    hg_rule_file f = sr->files.items[i];
    f.offset = (uint32_t)src.len;
    hg_buf_add(&src, f.data, f.len);
    hg_buf_putc(&src, '\n');
    HG_VEC_PUSH(&files, f);
  }
  uint32_t eoff = 0;
  char msg[192];
  compiled *c = hg_xcalloc(1, sizeof(compiled));
  int rc = 0;
  c->shapes = hg_shapes_new(lang);
  for (size_t i = 0; i < files.len && rc == 0; i++)
    if (hg_shapes_add(c->shapes, files.items[i].data, (uint32_t)files.items[i].len, files.items[i].offset, &eoff, msg,
                      sizeof(msg)) != 0) {
      char what[256];
      if (!strncmp(msg, "unknown ", 8))  // a node type or field the grammar lacks: say which grammar
        snprintf(what, sizeof(what), "%s (the %s grammar)", msg, sr->surface->grammar);
      else
        snprintf(what, sizeof(what), "%s", msg);
      rc = hg_rule_files_error(err, &files, eoff, what);
    }
  if (rc == 0 && self->reference) {
    TSQueryError etype;
    c->reference = ts_query_new(lang, src.data, (uint32_t)src.len, &eoff, &etype);
    if (!c->reference) rc = hg_rule_files_error(err, &files, eoff, "libtree-sitter's query engine refuses this");
  }
  hg_buf_free(&src);
  if (rc == 0) {
    const hg_shapes *q = c->shapes;
    c->captures = (hg_captures){
        hg_shapes_capture_id(q, "site"),        hg_shapes_capture_id(q, "args"),          hg_shapes_capture_id(q, "argv"),
        hg_shapes_capture_id(q, "command"),     hg_shapes_capture_id(q, "import.module"), hg_shapes_capture_id(q, "import.alias"),
        hg_shapes_capture_id(q, "import.from"), hg_shapes_capture_id(q, "import.name"),   hg_shapes_capture_id(q, "marker"),
        hg_shapes_capture_id(q, "body"),
    };
    c->n_patterns = hg_shapes_count(q);
    c->patterns = hg_xcalloc(c->n_patterns ? c->n_patterns : 1, sizeof(hg_pattern));
    c->unit_of = hg_xcalloc(c->n_patterns ? c->n_patterns : 1, sizeof(int));
    c->dispatch = hg_dispatch_new(q);
  }
  for (uint32_t i = 0; rc == 0 && i < c->n_patterns; i++) {
    uint32_t start = hg_shapes_start_byte(c->shapes, i);
    const hg_rule_file *f = hg_rule_files_at(&files, start);
    c->unit_of[i] = f->unit;
    char *kind = hg_rule_file_is_fact(f->name) ? NULL : hg_rule_file_kind(f->name);
    hg_error perr;
    if (hg_pattern_setup(&c->patterns[i], c->shapes, i, &c->captures, kind, self->kinds, self->n_kinds, self->policy,
                         &perr) != 0)
      rc = hg_rule_files_error(err, &files, start, perr.message);
    free(kind);
  }
  free(files.items);
  if (rc != 0) {
    compiled_free(c);
    return -1;
  }
  hg_checks_build(&c->checks, c->dispatch, c->patterns, c->n_patterns);
  c->words = hg_file_words_new();
  for (uint32_t i = 0; i < c->n_patterns; i++) hg_predicates_bind_words(c->patterns[i].predicates, c->words);
  hg_file_words_seal(c->words);
  *out = c;
  return 0;
}

// Surface sr compiled: now, under its lock, if no file needed it before. A directory the user gave
// was compiled when loaded; the built-in rules are tested, so a failure here is a programmer's error.
static const compiled *compiled_of(const hg_ruleset *self, const surface_rules *csr) {
  surface_rules *sr = (surface_rules *)csr;
  compiled *c = atomic_load_explicit(&sr->compiled, memory_order_acquire);
  if (c) return c;
  pthread_mutex_lock(&sr->lock);
  c = atomic_load_explicit(&sr->compiled, memory_order_relaxed);
  if (!c) {
    hg_error err;
    if (compile_surface(self, sr, &c, &err) != 0) {
      fprintf(stderr, "hardguard: built-in rules: %s\n", err.message);
      abort();
    }
    if (!sr->prefilter) sr->prefilter = build_prefilter(c);
    atomic_store_explicit(&sr->compiled, c, memory_order_release);
  }
  pthread_mutex_unlock(&sr->lock);
  return c;
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
  const hg_ruleset_seed *seed =
      trusted && &hg_rules_seed && hg_rules_seed.hash == hg_ruleset_builtin_hash() ? &hg_rules_seed : NULL;
  if (rc == 0 && seed && seed->policy.n_nodes) {  // the built-in policy's document, built, not parsed
    hg_yaml y;
    rc = hg_yaml_from_flat(&y, policy->path, &seed->policy, err);
    if (rc == 0) rc = hg_policy_load_doc(&self->policy, &y, true, err);
    hg_yaml_free(&y);
  } else if (rc == 0) {
    rc = hg_policy_load(&self->policy, policy->path, policy->data, policy->len, err);
  }
  if (rc == 0) qsort(self->kinds, self->n_kinds, sizeof(char *), kind_cmp);
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
        // A directory the user gave is compiled now: its errors are load errors.
        compiled *c;
        rc = compile_surface(self, sr, &c, err);
        if (rc == 0) {
          sr->prefilter = build_prefilter(c);
          atomic_store(&sr->compiled, c);
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
  uint64_t h = 0;
  for (const hg_embedded_file *f = hg_embedded_rules; f->path; f++) {
    h = hg_hash_fast(h, f->path, strlen(f->path) + 1);
    h = hg_hash_fast(h, f->data, f->len);
  }
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
      free((uint8_t *)n->q.enabled);
      free(n);
    }
    compiled_free(atomic_load(&sr->compiled));
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

// A query of surface s holding the units `need` (and every facts file): one made before, else made
// now (a view of the compiled rules trying only those units' patterns).
const hg_rules_query *hg_ruleset_query_for(const hg_ruleset *cself, hg_surface_id s, hg_units need) {
  surface_rules *sr = (surface_rules *)&cself->s[s];  // queries added under the lock; read-only after
  if (!sr->files.len) return NULL;
  hg_units units = need & sr->units;
  for (query_node *n = atomic_load_explicit(&sr->queries, memory_order_acquire); n; n = n->next)
    if (n->q.units == units) return &n->q;
  const compiled *c = compiled_of(cself, sr);
  pthread_mutex_lock(&sr->lock);
  query_node *head = atomic_load_explicit(&sr->queries, memory_order_relaxed), *found = NULL;
  for (query_node *n = head; n && !found; n = n->next)
    if (n->q.units == units) found = n;
  if (!found) {
    found = hg_xcalloc(1, sizeof(query_node));
    uint8_t *enabled = hg_xcalloc(c->n_patterns ? c->n_patterns : 1, 1);
    for (uint32_t i = 0; i < c->n_patterns; i++)
      enabled[i] = c->unit_of[i] < 0 || (units & ((hg_units)1 << c->unit_of[i]));
    found->q = (hg_rules_query){c->shapes,   c->dispatch, c->reference, enabled,    c->patterns,
                                c->n_patterns, c->captures, units,        &c->checks, c->words};
    found->next = head;
    atomic_store_explicit(&sr->queries, found, memory_order_release);
  }
  pthread_mutex_unlock(&sr->lock);
  return &found->q;
}

// Surface s's prefilter: the seeded one, else the one its compiled rules gave.
static const hg_prefilter *prefilter_of(const hg_ruleset *self, hg_surface_id s) {
  const surface_rules *sr = &self->s[s];
  if (!sr->seeded && sr->files.len) compiled_of(self, sr);
  return sr->prefilter;
}

bool hg_ruleset_has(const hg_ruleset *self, hg_surface_id s) { return self->s[s].files.len || self->s[s].n_yaml; }

const hg_yaml_rule *hg_ruleset_yaml_rules(const hg_ruleset *self, hg_surface_id s, size_t *n) {
  *n = self->s[s].n_yaml;
  return self->s[s].yaml;
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
    hg_prefilter *now = build_prefilter(compiled_of(self, sr));
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
void hg_ruleset_reference(hg_ruleset *self) { self->reference = true; }

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
