#include "ruleset.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

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
  pcre2_code *prefilter;
  char *prefilter_source;
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
                       "a site pattern needs (#set! hardguard.reads \"kwargs|argv|shell|client\")");
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

typedef struct {
  const char *text;
  bool whole;
} literal;

typedef struct {
  HG_VEC(literal) lits;
  unsigned group;
} group_lits;

typedef struct {
  HG_VEC(group_lits) groups;
} lit_collector;

static void collect(void *ctx, unsigned group, const char *lit, bool whole) {
  lit_collector *c = ctx;
  if (!c->groups.len || c->groups.items[c->groups.len - 1].group != group)
    HG_VEC_PUSH(&c->groups, (group_lits){.group = group});
  HG_VEC_PUSH(&c->groups.items[c->groups.len - 1].lits, (literal){lit, whole});
}

static bool word_char(char ch) {
  return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

static size_t shortest(const group_lits *g) {
  size_t m = SIZE_MAX;
  for (size_t i = 0; i < g->lits.len; i++)
    if (strlen(g->lits.items[i].text) < m) m = strlen(g->lits.items[i].text);
  return m;
}

// For each site pattern, the predicate whose literals are most selective (longest shortest
// literal): one of them must appear in any file the pattern matches. No literal: prefilter off.
// A literal that stands as a whole token is bounded by \b where it starts or ends with a word
// character, so `operating_system` does not let a file through for `system`.
static void build_prefilter(hg_ruleset *self) {
  hg_buf re = {0};
  HG_VEC(char *) seen = {0};
  bool off = false;
  for (uint32_t i = 0; i < self->n_patterns && !off; i++) {
    if (self->patterns[i].role != HG_PATTERN_SITE) continue;
    lit_collector c = {0};
    hg_predicates_literals(self->patterns[i].predicates, collect, &c);
    const group_lits *best = NULL;
    for (size_t g = 0; g < c.groups.len; g++)
      if (shortest(&c.groups.items[g]) > 0 && (!best || shortest(&c.groups.items[g]) > shortest(best)))
        best = &c.groups.items[g];
    if (!best) off = true;
    for (size_t k = 0; best && k < best->lits.len; k++) {
      const literal *lit = &best->lits.items[k];
      size_t n = strlen(lit->text);
      hg_buf alt = {0};
      hg_buf_printf(&alt, "%s\\Q%s\\E%s", lit->whole && word_char(lit->text[0]) ? "\\b" : "", lit->text,
                    lit->whole && word_char(lit->text[n - 1]) ? "\\b" : "");
      bool dup = false;
      for (size_t s = 0; s < seen.len && !dup; s++) dup = strcmp(seen.items[s], alt.data) == 0;
      if (dup) {
        hg_buf_free(&alt);
        continue;
      }
      hg_buf_puts(&re, re.len ? "|" : "");
      hg_buf_puts(&re, alt.data);
      HG_VEC_PUSH(&seen, hg_buf_detach(&alt));
    }
    for (size_t g = 0; g < c.groups.len; g++) free(c.groups.items[g].lits.items);
    free(c.groups.items);
  }
  if (!off && re.len) {
    int code;
    PCRE2_SIZE eoff;
    self->prefilter = pcre2_compile((PCRE2_SPTR)re.data, re.len, 0, &code, &eoff, NULL);
    if (self->prefilter) pcre2_jit_compile(self->prefilter, PCRE2_JIT_COMPLETE);
  }
  self->prefilter_source = self->prefilter ? hg_buf_detach(&re) : hg_xstrdup("");
  hg_buf_free(&re);
  for (size_t i = 0; i < seen.len; i++) free(seen.items[i]);
  free(seen.items);
}

// ---- load ---------------------------------------------------------------------------------------

static int build(hg_ruleset *self, file_vec *files, hg_error *err) {
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
    rc = build(self, &files, err);
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
  pcre2_code_free(self->prefilter);
  free(self->prefilter_source);
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

const pcre2_code *hg_ruleset_prefilter(const hg_ruleset *self) { return self->prefilter; }
const char *hg_ruleset_prefilter_source(const hg_ruleset *self) { return self->prefilter_source; }

bool hg_ruleset_may_contain_site(const hg_ruleset *self, const char *data, size_t len, pcre2_match_data *md) {
  if (!self->prefilter) return true;
  return pcre2_match(self->prefilter, (PCRE2_SPTR)data, len, 0, 0, md, NULL) >= 0;
}
