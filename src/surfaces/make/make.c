#include "surfaces/make/make.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "surfaces/make/expand.h"
#include "surfaces/make/include.h"
#include "surfaces/make/row.h"
#include "surfaces/node.h"
#include "rules/ruleset.h"
#include "surfaces/registry.h"
#include "surfaces/shell/sh.h"
#include "surfaces/shell/shell.h"

typedef HG_VEC(TSNode) node_vec;

// Recipe text [a, b) as the shell gets it, each byte mapped to the Makefile: the `@`/`-`/`+`
// prefixes dropped, references expanded (their text maps to the reference), `$$` as `$`, and a
// `\` continuation kept with the recipe prefix of the next line dropped, as make does.
static hg_embed recipe(hg_makefile *m, uint32_t a, uint32_t b) {
  const char *d = m->data;
  while (a < b && (d[a] == '@' || d[a] == '-' || d[a] == '+' || d[a] == ' ' || d[a] == '\t'))
    a++;
  hg_embed_builder e = {0};
  for (uint32_t i = a; i < b;) {
    if (d[i] == '$' && i + 1 < b && (d[i + 1] == '(' || d[i + 1] == '{')) {
      uint32_t end = (uint32_t)hg_make_closing(d, b, i + 1);
      end = end < b ? end + 1 : b;
      hg_buf value = {0};
      hg_make_expand(m, d + i, end - i, &value);
      hg_embed_put(&e, value.data ? value.data : "", value.len, i, false);
      hg_buf_free(&value);
      i = end;
    } else if (d[i] == '$' && i + 1 < b && d[i + 1] == '$') {
      hg_embed_put(&e, "$", 1, i, false);
      i += 2;
    } else if (d[i] == '\\' && i + 1 < b && d[i + 1] == '\n') {
      hg_embed_put(&e, d + i, 2, i, true);
      i += 2;
      if (i < b && d[i] == '\t') // make drops the recipe prefix of a continued line
        i++;
    } else {
      hg_embed_put(&e, d + i, 1, i, true);
      i++;
    }
  }
  return hg_embed_finish(&e, m->arena, b);
}

// The parse is recovered this many times in one file at most, and parses again at most twice the
// file's bytes in all (each recovery parses the rest of the file again, and tree-sitter's own
// error recovery is slow on a file of many errors: 3,000 broken lines cost 15 times one parse with
// 32 recoveries); past either, the rest is read as the last parse left it.
enum { MAX_RECOVERIES = 32, REPARSE_FACTOR = 2 };

// One part of the file, [lo, hi), read from `tree` (the file's own parse, or a parse of the file
// from `lo` on).
typedef struct {
  uint32_t lo, hi;
  TSTree *tree;
} segment;

typedef HG_VEC(segment) segment_vec;

static bool is_error(TSNode n) { return ts_node_is_missing(n) || !strcmp(ts_node_type(n), "ERROR"); }

// The first ERROR or MISSING node of the tree under `n` that starts at `from` or later, or a null node.
static TSNode next_error(TSNode n, uint32_t from) {
  if (ts_node_end_byte(n) < from || !ts_node_has_error(n))
    return (TSNode){0};
  if (is_error(n) && ts_node_start_byte(n) >= from)
    return n;
  for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
    TSNode e = next_error(ts_node_child(n, i), from);
    if (!ts_node_is_null(e))
      return e;
  }
  return (TSNode){0};
}

// A statement (a child of the root) that failed to parse: its bytes, and its first ERROR or
// MISSING node.
typedef struct {
  uint32_t start, end;
  TSNode error;
} broken;

typedef HG_VEC(broken) broken_vec;

// The statements of `tree` that hold an error, in order (one pass over the root's children).
static void broken_statements(TSTree *tree, broken_vec *out) {
  TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
  if (ts_tree_cursor_goto_first_child(&cur))
    do {
      TSNode n = ts_tree_cursor_current_node(&cur);
      if (!ts_node_has_error(n) && !is_error(n))
        continue;
      broken b = {.start = ts_node_start_byte(n), .end = ts_node_end_byte(n), .error = next_error(n, 0)};
      if (ts_node_is_null(b.error))
        b.error = n;
      HG_VEC_PUSH(out, b);
    } while (ts_tree_cursor_goto_next_sibling(&cur));
  ts_tree_cursor_delete(&cur);
}

// The byte after the logical line holding byte `i` (its `\` continuations included).
static uint32_t line_end(const char *d, uint32_t len, uint32_t i) {
  while (i < len && d[i] != '\n')
    i++;
  while (i < len && i > 0 && d[i - 1] == '\\') {
    i++;
    while (i < len && d[i] != '\n')
      i++;
  }
  return i < len ? i + 1 : len;
}

static const char *const DIRECTIVES[] = {"ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "define", "endef"};

// Does the line at `i` start a rule (`targets: ...`) or a variable assignment (`X = `, `:=`,
// `::=`, `?=`, `+=`, `!=`) at column 0?
static bool starts_statement(const char *d, uint32_t len, uint32_t i) {
  if (i >= len || d[i] == '\t' || d[i] == ' ' || d[i] == '#' || d[i] == '\n' || d[i] == ':' || d[i] == '=')
    return false;
  uint32_t w = i;
  while (i < len && !strchr(" \t\n:=#", d[i]) && !(strchr("?+!", d[i]) && i + 1 < len && d[i + 1] == '='))
    i++;
  for (size_t k = 0; k < HG_ARRAY_LEN(DIRECTIVES); k++)
    if (strlen(DIRECTIVES[k]) == i - w && !memcmp(d + w, DIRECTIVES[k], i - w))
      return false;
  // more targets, then the colon or the assignment
  while (i < len && d[i] != '\n' && d[i] != '#' && d[i] != ':' && d[i] != '=' &&
         !(strchr("?+!", d[i]) && i + 1 < len && d[i + 1] == '='))
    i++;
  return i < len && (d[i] == ':' || d[i] == '=' || strchr("?+!", d[i]));
}

// Splits the file into segments: where the parse of a segment fails on a line and the failure
// runs on past it (tree-sitter-make drops the rest of the file after some valid lines), the next
// segment is the file parsed again from the next line that starts a rule or an assignment.
static void segments(const hg_source *src, TSTree *tree, segment_vec *out) {
  const char *d = src->data;
  uint32_t len = (uint32_t)src->len;
  segment cur = {.lo = 0, .hi = len, .tree = tree};
  uint32_t from = 0;
  size_t reparsed = 0;
  TSParser *parser = NULL;
  hg_lines lines = {0};
  hg_arena *arena = NULL;
  broken_vec bad = {0};
  broken_statements(tree, &bad);
  for (size_t k = 0; k < bad.len && out->len < MAX_RECOVERIES; k++) {
    uint32_t a = ts_node_start_byte(bad.items[k].error), b = bad.items[k].end, end = line_end(d, len, a);
    if (a < from)
      continue;
    uint32_t r = 0;
    if (b > end)
      for (uint32_t i = end; i < b && i < len && !r; i = line_end(d, len, i))
        if (starts_statement(d, len, i))
          r = i;
    if (!r || reparsed + (len - r) > (size_t)REPARSE_FACTOR * len)
      continue;
    reparsed += len - r;
    if (!parser) {
      parser = ts_parser_new();
      ts_parser_set_language(parser, tree_sitter_make());
      arena = hg_arena_new();
      hg_lines_init(&lines, src, arena);
    }
    uint32_t last = len ? hg_lines_row(&lines, len - 1) : 0;
    TSRange range = {.start_point = {hg_lines_row(&lines, r), 0},
                     .end_point = {last + (len && d[len - 1] == '\n'), len && d[len - 1] == '\n' ? 0 : len - lines.start[last]},
                     .start_byte = r,
                     .end_byte = len};
    ts_parser_set_included_ranges(parser, &range, 1);
    TSTree *next = ts_parser_parse_string(parser, NULL, d, len);
    if (!next)
      break;
    cur.hi = r;
    HG_VEC_PUSH(out, cur);
    cur = (segment){.lo = r, .hi = len, .tree = next};
    from = r;
    bad.len = 0;
    broken_statements(next, &bad);
    k = (size_t)-1;
  }
  free(bad.items);
  HG_VEC_PUSH(out, cur);
  if (parser)
    ts_parser_delete(parser);
  if (arena)
    hg_arena_free(arena);
}

// Does text [a, b) hold a container program followed by a verb that creates a container (the
// policy's cli: programs, their own options, subcommand words, verbs) outside the sites in
// `sites`? A region that failed to parse is reported only then.
static bool holds_command(const hg_policy *p, const char *d, uint32_t a, uint32_t b, const hg_site_vec *sites) {
  enum { MAX_WORDS = 64 };
  for (uint32_t i = a; i < b;) {
    while (i < b && strchr(" \t\n\\;|&()`'\"", d[i]))
      i++;
    uint32_t w = i;
    while (i < b && !strchr(" \t\n\\;|&()`'\"", d[i]))
      i++;
    if (w == i)
      continue;
    uint32_t base = w;
    for (uint32_t k = w; k < i; k++)
      if (d[k] == '/')
        base = k + 1;
    bool program = false;
    for (size_t k = 0; k < p->n_programs && !program; k++)
      program = strlen(p->programs[k]) == i - base && !memcmp(d + base, p->programs[k], i - base);
    bool inside = false;
    for (size_t k = 0; k < sites->len && !inside; k++)
      inside = w >= sites->items[k].start_byte && w < sites->items[k].end_byte;
    if (!program || inside)
      continue;
    // the words after it on its line: options (a value after one that takes it), subcommands
    uint32_t j = i;
    bool value_next = false;
    for (int n = 0; n < MAX_WORDS; n++) {
      while (j < b && (d[j] == ' ' || d[j] == '\t' || (d[j] == '\\' && j + 1 < b && d[j + 1] == '\n') || d[j] == '\n'))
        j += d[j] == '\\' ? 2 : 1;
      uint32_t v = j;
      while (j < b && !strchr(" \t\n\\;|&()`'\"", d[j]))
        j++;
      if (v == j)
        break;
      size_t n_w = j - v;
      if (value_next) {
        value_next = false;
        continue;
      }
      if (d[v] == '-') {
        for (size_t k = 0; k < p->n_global_value_flags && !value_next; k++)
          value_next = strlen(p->global_value_flags[k]) == n_w && !memcmp(d + v, p->global_value_flags[k], n_w);
        continue;
      }
      bool verb = false, sub = false;
      for (size_t k = 0; k < p->n_verbs && !verb; k++)
        verb = strlen(p->verbs[k]) == n_w && !memcmp(d + v, p->verbs[k], n_w);
      if (verb)
        return true;
      for (size_t k = 0; k < p->n_subcommands && !sub; k++)
        sub = strlen(p->subcommands[k]) == n_w && !memcmp(d + v, p->subcommands[k], n_w);
      if (!sub)
        break;
    }
  }
  return false;
}

static void on_site(void *ctx, const hg_pattern *p, const TSQueryMatch *m, TSNode node) {
  (void)m;
  if (p->reads == HG_READS_SCRIPT)
    HG_VEC_PUSH((node_vec *)ctx, node);
}

static int by_start(const void *a, const void *b) {
  uint32_t x = ts_node_start_byte(*(const TSNode *)a), y = ts_node_start_byte(*(const TSNode *)b);
  return x < y ? -1 : x > y;
}

static bool same_words(const hg_value *x, const hg_value *y) {
  if (x->kind != y->kind || x->n_items != y->n_items || (x->text == NULL) != (y->text == NULL) ||
      (x->text && strcmp(x->text, y->text)))
    return false;
  for (size_t i = 0; i < x->n_items; i++)
    if (!same_words(&x->items[i], &y->items[i]))
      return false;
  return true;
}

// What selects reading `r`: the conditions of the arms it took, joined.
static const char *reading_cond(const hg_makefile *m, unsigned forks, hg_arena *arena) {
  hg_buf b = {0};
  for (unsigned i = 0; i < forks && i < HG_MAKE_MAX_FORKS; i++)
    hg_buf_printf(&b, "%s%s", i ? " and " : "", m->conds[i]);
  const char *c = b.len ? hg_arena_strndup(arena, b.data, b.len) : NULL;
  hg_buf_free(&b);
  return c;
}

// Reads recipe text [a, b) as shell, once per combination of the arms of its forks (expand.h:
// `$(if C,A,B)`, a `?=` variable). A site found in one reading is a site (the program chosen by a
// function, `$(CONTAINER_CLI) run`, is one when any arm names a container program); one found in
// several whose words differ gets, as its options, one alternative (HG_VAL_ALT) per reading, each
// with what selects it, and the judge reads every one.
static void read_line(hg_extractor *self, const hg_ruleset *rules, const hg_source *source, const hg_lines *lines,
                      hg_makefile *m, uint32_t a, uint32_t b, hg_arena *arena, hg_site_vec *sites,
                      hg_marker_vec *markers) {
  enum { READINGS = 1 << HG_MAKE_MAX_FORKS };
  hg_site_vec got[READINGS] = {{0}};
  const char *cond[READINGS] = {0};
  unsigned n = 1;
  for (unsigned r = 0; r < n; r++) {
    m->pick = r;
    m->forks = 0;
    hg_embed e = recipe(m, a, b);
    unsigned k = m->forks < HG_MAKE_MAX_FORKS ? m->forks : HG_MAKE_MAX_FORKS;
    if ((1u << k) > n)
      n = 1u << k;
    if (r >> k) // its path met fewer forks: the reading of r's lower bits, done already
      continue;
    cond[r] = reading_cond(m, k, arena);
    hg_sh_env env = {.names = m->unknown.items, .origins = m->why.items, .n = m->unknown.len};
    hg_marker_vec ignored = {0};
    hg_shell_embedded(self, rules, source, lines, &e, &env, arena, &got[r], r ? &ignored : markers);
    free(ignored.items);
  }
  m->pick = 0;
  for (unsigned r = 0; r < n; r++)
    for (size_t i = 0; i < got[r].len; i++) {
      hg_site *s = &got[r].items[i];
      if (s->kind == NULL) // taken into an earlier reading's site
        continue;
      HG_VEC(hg_value) arms = {0};
      bool differ = false;
      hg_value first = s->flags;
      first.cond = cond[r];
      HG_VEC_PUSH(&arms, first);
      for (unsigned q = r + 1; q < n; q++)
        for (size_t j = 0; j < got[q].len; j++)
          if (got[q].items[j].kind && got[q].items[j].start_byte == s->start_byte) {
            hg_value arm = got[q].items[j].flags;
            arm.cond = cond[q];
            differ |= !same_words(&s->flags, &arm);
            HG_VEC_PUSH(&arms, arm);
            got[q].items[j].kind = NULL;
          }
      hg_site site = *s;
      if (differ && s->flags.kind == HG_VAL_LIST) {
        hg_value alt = {.kind = HG_VAL_ALT, .splat = true, .text = "the arms of $(if ...) and ?=",
                        .line = s->flags.line, .n_items = arms.len};
        alt.items = hg_arena_alloc(arena, arms.len * sizeof(hg_value));
        memcpy(alt.items, arms.items, arms.len * sizeof(hg_value));
        site.flags = (hg_value){.kind = HG_VAL_LIST, .line = s->flags.line, .n_items = 1};
        site.flags.items = hg_arena_alloc(arena, sizeof(hg_value));
        site.flags.items[0] = alt;
      }
      free(arms.items);
      HG_VEC_PUSH(sites, site);
    }
  for (unsigned r = 0; r < READINGS; r++)
    free(got[r].items);
}

// The error regions of segment `g` (ERROR and MISSING nodes starting in it, from the start of
// their line to their end or the segment's): the recipe lines in one (lines starting with a tab)
// are read as recipes, so that a site in them is judged; what is left is reported as
// unparsable-site only when it holds a container program and a verb outside every site found.
static void regions(hg_extractor *self, const hg_ruleset *rules, const hg_source *source, const hg_lines *lines,
                    hg_makefile *m, const segment *g, hg_arena *arena, hg_site_vec *sites, hg_marker_vec *markers) {
  const char *d = source->data;
  uint32_t len = (uint32_t)source->len;
  broken_vec bad = {0};
  broken_statements(g->tree, &bad);
  for (size_t k = 0; k < bad.len; k++) {
    TSNode e = bad.items[k].error;
    uint32_t a = ts_node_start_byte(e), b = bad.items[k].end;
    if (a < g->lo || a >= g->hi)
      continue;
    if (b > g->hi)
      b = g->hi;
    while (a > g->lo && d[a - 1] != '\n')
      a--;
    size_t found = sites->len;
    for (uint32_t i = a; i < b; i = line_end(d, len, i))
      if (d[i] == '\t') {
        uint32_t end = line_end(d, len, i);
        bool seen = false;
        for (size_t j = 0; j < found && !seen; j++)
          seen = sites->items[j].start_byte < end && i < sites->items[j].end_byte;
        if (!seen)
          read_line(self, rules, source, lines, m, i, end > i && d[end - 1] == '\n' ? end - 1 : end, arena, sites,
                    markers);
      }
    if (holds_command(hg_ruleset_policy(rules), d, a, b, sites)) {
      hg_site s = {.kind = "unknown", .reads = HG_READS_CLIENT, .has_error = true, .region = true};
      hg_extract__position(&s, source, e);
      HG_VEC_PUSH(sites, s);
    }
  }
  free(bad.items);
}

// The makefiles a Makefile includes are read for their variables (a recipe's `$(GO_RUN)` is often
// set in `include docker.mk`): this deep, this many files and bytes each at most, named relative
// to the Makefile's directory, below it (no `..`, no absolute name, no symlink on the way).
enum { INCLUDE_DEPTH = 4, INCLUDE_FILES = 16 };
#define INCLUDE_BYTES ((size_t)1 << 20)

typedef struct {
  hg_makefile *m;
  const char *dir;
  int depth;
  int *files;
  TSParser **parser;
} include_ctx;

static void include_vars(hg_makefile *m, const char *path, int depth, int *files, TSParser **parser);

static void on_include(void *vctx, const char *name, size_t len) {
  include_ctx *c = vctx;
  if (*c->files >= INCLUDE_FILES || c->depth >= INCLUDE_DEPTH || name[0] == '/')
    return;
  for (size_t i = 0; i + 1 < len; i++)
    if (name[i] == '.' && name[i + 1] == '.' && (i == 0 || name[i - 1] == '/') && (i + 2 == len || name[i + 2] == '/'))
      return;
  char *path = *c->dir ? hg_xasprintf("%s/%.*s", c->dir, (int)len, name) : hg_xstrndup(name, len);
  include_vars(c->m, path, c->depth + 1, c->files, c->parser);
  free(path);
}

// Collects the variables of the makefile at `path` (its own includes first) into m->vars.
static void include_vars(hg_makefile *m, const char *path, int depth, int *files, TSParser **parser) {
  ++*files;
  size_t dir_len = 0;
  for (const char *q = strchr(path, '/'); q; q = strchr(q + 1, '/')) { // no symlink on the way
    struct stat st;
    char *prefix = hg_xstrndup(path, (size_t)(q - path));
    bool link = lstat(prefix, &st) != 0 || S_ISLNK(st.st_mode);
    free(prefix);
    if (link)
      return;
    dir_len = (size_t)(q - path);
  }
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0)
    return;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > INCLUDE_BYTES) {
    close(fd);
    return;
  }
  char *buf = hg_xmalloc((size_t)st.st_size + 1);
  ssize_t n = read(fd, buf, (size_t)st.st_size);
  close(fd);
  if (n > 0) {
    char *dir = hg_xstrndup(path, dir_len);
    include_ctx c = {.m = m, .dir = dir, .depth = depth, .files = files, .parser = parser};
    hg_make_includes(buf, (size_t)n, on_include, &c);
    free(dir);
    if (!*parser) {
      *parser = ts_parser_new();
      ts_parser_set_language(*parser, tree_sitter_make());
    }
    TSTree *tree = ts_parser_parse_string(*parser, NULL, buf, (uint32_t)n);
    if (tree) {
      const char *own = m->data;
      m->data = buf;
      hg_make_collect(m, ts_tree_root_node(tree), 0, (uint32_t)n);
      m->data = own;
      ts_tree_delete(tree);
    }
  }
  free(buf);
}

// The variables of the makefiles `source` includes, before its own (its own assignments win).
static void included_vars(hg_makefile *m, const hg_source *source) {
  if (!source->path || !memmem(source->data, source->len, "include", 7))
    return;
  const char *slash = strrchr(source->path, '/');
  char *dir = slash ? hg_xstrndup(source->path, (size_t)(slash - source->path)) : hg_xstrdup("");
  int files = 0;
  TSParser *parser = NULL;
  include_ctx c = {.m = m, .dir = dir, .depth = 0, .files = &files, .parser = &parser};
  hg_make_includes(source->data, source->len, on_include, &c);
  if (parser)
    ts_parser_delete(parser);
  free(dir);
}

void hg_make_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                     const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  (void)config;
  (void)project;
  hg_makefile m = {.data = source->data, .arena = arena};
  hg_lines lines = {0};
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  segment_vec parts = {0};
  if (ts_node_has_error(ts_tree_root_node(tree)))
    segments(source, tree, &parts);
  else
    HG_VEC_PUSH(&parts, ((segment){.lo = 0, .hi = (uint32_t)source->len, .tree = tree}));
  // The recipe lines each segment's query takes (a line two patterns take is read once), and the
  // markers in it.
  node_vec scripts = {0};
  included_vars(&m, source);
  for (size_t k = 0; k < parts.len; k++) {
    const segment *g = &parts.items[k];
    node_vec found = {0};
    hg_marker_vec marks = {0};
    hg_extract_matches(self, rules, HG_SURFACE_MAKE, source, ts_tree_root_node(g->tree), arena, &marks, on_site,
                       &found);
    for (size_t i = 0; i < found.len; i++)
      if (ts_node_start_byte(found.items[i]) >= g->lo && ts_node_start_byte(found.items[i]) < g->hi)
        HG_VEC_PUSH(&scripts, found.items[i]);
    for (size_t i = 0; i < marks.len; i++)
      if (marks.items[i].start_byte >= g->lo && marks.items[i].start_byte < g->hi)
        HG_VEC_PUSH(&markers, marks.items[i]);
    free(found.items);
    free(marks.items);
    hg_make_collect(&m, ts_tree_root_node(g->tree), g->lo, g->hi);
  }
  hg_lines_init(&lines, source, arena);
  if (scripts.len > 1)
    qsort(scripts.items, scripts.len, sizeof(TSNode), by_start);
  for (size_t i = 0; i < scripts.len; i++)
    if (i == 0 || ts_node_start_byte(scripts.items[i]) != ts_node_start_byte(scripts.items[i - 1]))
      read_line(self, rules, source, &lines, &m, ts_node_start_byte(scripts.items[i]),
                ts_node_end_byte(scripts.items[i]), arena, &sites, &markers);
  free(scripts.items);
  for (size_t k = 0; k < parts.len; k++)
    if (ts_node_has_error(ts_tree_root_node(parts.items[k].tree)))
      regions(self, rules, source, &lines, &m, &parts.items[k], arena, &sites, &markers);
  for (size_t k = 1; k < parts.len; k++)
    ts_tree_delete(parts.items[k].tree);
  free(parts.items);
  hg_make_free(&m);
  hg_extract__finish(out, arena, &sites, &markers);
}
