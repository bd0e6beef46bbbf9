#include "surfaces/make/make.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/make/expand.h"
#include "surfaces/make/row.h"
#include "surfaces/node.h"
#include "surfaces/registry.h"
#include "surfaces/shell/sh.h"
#include "surfaces/shell/shell.h"

typedef HG_VEC(TSNode) node_vec;

// The references make expands in `n`, in order (a reference's own arguments are not descended).
static void references(TSNode n, node_vec *out) {
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
    TSNode c = ts_node_named_child(n, i);
    if (hg_node_is(c, "variable_reference") || hg_node_is(c, "function_call") || hg_node_is(c, "shell_function"))
      HG_VEC_PUSH(out, c);
    else
      references(c, out);
  }
}

// A recipe line as the shell gets it, each byte mapped to the Makefile; the text of a reference
// maps to the reference.
static hg_embed recipe(hg_makefile *m, TSNode line) {
  const char *d = m->data;
  uint32_t a = ts_node_start_byte(line), b = ts_node_end_byte(line);
  while (a < b && (d[a] == '@' || d[a] == '-' || d[a] == '+' || d[a] == ' ' || d[a] == '\t'))
    a++;
  node_vec refs = {0};
  references(line, &refs);
  hg_embed_builder e = {0};
  size_t r = 0;
  for (uint32_t i = a; i < b;) {
    while (r < refs.len && ts_node_start_byte(refs.items[r]) < i)
      r++;
    if (r < refs.len && ts_node_start_byte(refs.items[r]) == i) {
      TSNode ref = refs.items[r++];
      uint32_t end = ts_node_end_byte(ref);
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
  free(refs.items);
  return hg_embed_finish(&e, m->arena, b);
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

// Reads a recipe line as shell. A line whose expansion met `$(if C,A,B)` is read once with each
// branch; the sites of the second reading that the first did not find are added (the program
// chosen by a function, `$(CONTAINER_CLI) run`, is a site when either branch is a container
// program).
static void read_line(hg_extractor *self, const hg_ruleset *rules, const hg_source *source, const hg_lines *lines,
                      hg_makefile *m, TSNode line, hg_arena *arena, hg_site_vec *sites, hg_marker_vec *markers) {
  m->pick = 0;
  m->forked = false;
  size_t before = sites->len;
  hg_embed e = recipe(m, line);
  hg_sh_env env = {.names = m->unknown.items, .origins = m->why.items, .n = m->unknown.len};
  hg_shell_embedded(self, rules, source, lines, &e, &env, arena, sites, markers);
  if (!m->forked)
    return;
  m->pick = 1;
  hg_embed other = recipe(m, line);
  hg_site_vec more = {0};
  hg_marker_vec ignored = {0};
  env = (hg_sh_env){.names = m->unknown.items, .origins = m->why.items, .n = m->unknown.len};
  hg_shell_embedded(self, rules, source, lines, &other, &env, arena, &more, &ignored);
  size_t first = sites->len;
  for (size_t i = 0; i < more.len; i++) {
    bool seen = false;
    for (size_t k = before; k < first && !seen; k++)
      seen = sites->items[k].start_byte == more.items[i].start_byte;
    if (!seen)
      HG_VEC_PUSH(sites, more.items[i]);
  }
  free(more.items);
  free(ignored.items);
  m->pick = 0;
}

void hg_make_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                     const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  (void)config;
  (void)project;
  TSNode root = ts_tree_root_node(tree);
  hg_makefile m = {.data = source->data, .arena = arena};
  hg_lines lines = {0};
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  // Recipe lines first (the cursor is needed again to read each one's shell); a line two patterns
  // take is read once.
  node_vec scripts = {0};
  hg_extract_matches(self, rules, HG_SURFACE_MAKE, source, root, arena, &markers, on_site, &scripts);
  if (scripts.len) {
    qsort(scripts.items, scripts.len, sizeof(TSNode), by_start);
    hg_make_collect(&m, root);
    hg_lines_init(&lines, source, arena);
  }
  for (size_t i = 0; i < scripts.len; i++)
    if (i == 0 || ts_node_start_byte(scripts.items[i]) != ts_node_start_byte(scripts.items[i - 1]))
      read_line(self, rules, source, &lines, &m, scripts.items[i], arena, &sites, &markers);
  free(scripts.items);
  hg_make_free(&m);
  if (ts_node_has_error(root))
    hg_extract__error_regions(self, rules, HG_SURFACE_MAKE, source, root, &sites);
  hg_extract__finish(out, arena, &sites, &markers);
}
