#include "surfaces/make/make.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "surfaces/make/expand.h"
#include "surfaces/make/include.h"
#include "surfaces/make/segment.h"
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
    m->reading++;
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
        hg_value alt = {.kind = HG_VAL_ALT,
                        .splat = true,
                        .text = "the arms of $(if ...), ?= and make conditionals",
                        .line = s->flags.line,
                        .n_items = arms.len};
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
                    hg_makefile *m, const hg_make_segment *g, hg_arena *arena, hg_site_vec *sites, hg_marker_vec *markers) {
  const char *d = source->data;
  uint32_t len = (uint32_t)source->len;
  hg_make_broken_vec bad = {0};
  hg_make__broken_statements(g->tree, &bad);
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
    for (uint32_t i = a; i < b; i = hg_make__line_end(d, len, i))
      if (d[i] == '\t') {
        uint32_t end = hg_make__line_end(d, len, i);
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

void hg_make_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                     const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  (void)config;
  (void)project;
  hg_makefile m = {.data = source->data, .arena = arena};
  hg_lines lines = {0};
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  hg_make_segment_vec parts = {0};
  if (ts_node_has_error(ts_tree_root_node(tree)))
    hg_make__segments(source, tree, &parts);
  else
    HG_VEC_PUSH(&parts, ((hg_make_segment){.lo = 0, .hi = (uint32_t)source->len, .tree = tree}));
  // The recipe lines each segment's query takes (a line two patterns take is read once), and the
  // markers in it.
  node_vec scripts = {0};
  hg_make__included_vars(&m, source);
  for (size_t k = 0; k < parts.len; k++) {
    const hg_make_segment *g = &parts.items[k];
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
    hg_tree_delete(parts.items[k].tree);
  free(parts.items);
  hg_make_free(&m);
  hg_extract__finish(out, arena, &sites, &markers);
}
