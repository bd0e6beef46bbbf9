#include "surfaces/make/make.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/shell/sh.h"
#include "surfaces/shell/shell.h"
#include "surfaces/registry.h"

// Variables referring to variables are expanded this deep; a longer chain (or a cycle) is unknown.
enum { MAX_DEPTH = 8 };

typedef struct {
  const char *name;
  const char *op;    // "=", ":=", "::=", "?=", "+=", "!="
  const char *value; // as written, continuation lines included
} assignment;

typedef struct {
  const hg_source *src;
  hg_arena *arena;
  assignment *vars;
  size_t n_vars;
  HG_VEC(const char *) unknown; // referenced but not followed here ...
  HG_VEC(const char *) why;     // ... and why
} makefile;

static const char *text_of(const makefile *m, TSNode n) { return hg_node_text(n, m->src->data, m->arena); }

static void collect(makefile *m, TSNode root) {
  HG_VEC(assignment) v = {0};
  TSTreeCursor cur = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    bool descend = !hg_node_is(n, "recipe");
    if (hg_node_is(n, "variable_assignment")) {
      assignment a = {.name = text_of(m, hg_node_field(n, "name")), .op = "=", .value = ""};
      TSNode value = hg_node_field(n, "value");
      if (!ts_node_is_null(value))
        a.value = text_of(m, value);
      for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
        TSNode c = ts_node_child(n, i);
        if (!ts_node_is_named(c) && strchr(":+?!=", m->src->data[ts_node_start_byte(c)]))
          a.op = text_of(m, c);
      }
      HG_VEC_PUSH(&v, a);
      descend = false;
    }
    if (descend && ts_tree_cursor_goto_first_child(&cur))
      continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur)) {
        ts_tree_cursor_delete(&cur);
        m->vars = v.items;
        m->n_vars = v.len;
        return;
      }
  }
}

static void expand(makefile *m, const char *text, hg_buf *out, int depth, bool *known);

// The value make gives variable `name` when the recipe runs (the whole Makefile has been read):
// the last `=`/`:=` assignment, with `+=` appended after it and `?=` only when nothing else sets it.
static bool value_of(makefile *m, const char *name, hg_buf *out, int depth) {
  if (depth > MAX_DEPTH)
    return false;
  ssize_t base = -1;
  for (size_t i = 0; i < m->n_vars; i++)
    if (!strcmp(m->vars[i].name, name) && strcmp(m->vars[i].op, "+=") && strcmp(m->vars[i].op, "?="))
      base = (ssize_t)i;
  if (base < 0)
    for (size_t i = 0; i < m->n_vars && base < 0; i++)
      if (!strcmp(m->vars[i].name, name) && !strcmp(m->vars[i].op, "?="))
        base = (ssize_t)i;
  bool any = base >= 0, known = true;
  if (base >= 0) {
    if (!strcmp(m->vars[base].op, "!=")) // the output of a shell command
      return false;
    expand(m, m->vars[base].value, out, depth + 1, &known);
  }
  for (size_t i = base < 0 ? 0 : (size_t)base + 1; i < m->n_vars; i++)
    if (!strcmp(m->vars[i].name, name) && !strcmp(m->vars[i].op, "+=")) {
      if (any)
        hg_buf_putc(out, ' ');
      expand(m, m->vars[i].value, out, depth + 1, &known);
      any = true;
    }
  return any && known;
}

// A variable's value with make's expansion: `$(X)`/`${X}` substituted, `$$` as `$`, a `\`
// continuation as one space.
static void expand(makefile *m, const char *t, hg_buf *out, int depth, bool *known) {
  for (size_t i = 0; t[i];) {
    if (t[i] == '\\' && t[i + 1] == '\n') {
      hg_buf_putc(out, ' ');
      for (i += 2; t[i] == ' ' || t[i] == '\t'; i++) {
      }
    } else if (t[i] == '$' && t[i + 1] == '$') {
      hg_buf_putc(out, '$');
      i += 2;
    } else if (t[i] == '$' && (t[i + 1] == '(' || t[i + 1] == '{')) {
      char close = t[i + 1] == '(' ? ')' : '}';
      size_t k = i + 2;
      while (t[k] && t[k] != close && t[k] != ' ' && t[k] != '$')
        k++;
      if (t[k] != close) { // a function call or a nested reference: not followed
        *known = false;
        return;
      }
      char *name = hg_xstrndup(t + i + 2, k - i - 2);
      if (!value_of(m, name, out, depth))
        *known = false;
      free(name);
      i = k + 1;
    } else {
      hg_buf_putc(out, t[i++]);
    }
  }
}

static bool listed(const makefile *m, const char *name) {
  for (size_t i = 0; i < m->unknown.len; i++)
    if (!strcmp(m->unknown.items[i], name))
      return true;
  return false;
}

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

// A recipe line as the shell gets it, each byte mapped to the Makefile.
static hg_embed recipe(makefile *m, TSNode line) {
  const char *d = m->src->data;
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
      TSNode word = ts_node_named_child(ref, 0);
      hg_buf value = {0};
      if (hg_node_is(ref, "variable_reference") && hg_node_is(word, "word") && ts_node_named_child_count(ref) == 1) {
        const char *name = text_of(m, word);
        if (value_of(m, name, &value, 0)) {
          hg_embed_put(&e, value.data ? value.data : "", value.len, i, false);
        } else {
          // Left for the shell reading as a variable the Makefile does not define (hg_sh_env).
          char *ref_text = hg_xasprintf("${%s}", name);
          hg_embed_put(&e, ref_text, strlen(ref_text), i, false);
          free(ref_text);
          if (!listed(m, name)) {
            bool assigned = false;
            for (size_t k = 0; k < m->n_vars && !assigned; k++)
              assigned = !strcmp(m->vars[k].name, name);
            HG_VEC_PUSH(&m->unknown, name);
            HG_VEC_PUSH(&m->why, hg_arena_printf(m->arena,
                                                 assigned ? "$(%s) is computed by make (a function or a shell command)"
                                                          : "$(%s) is not defined in this Makefile (it comes from the "
                                                            "environment or the make command line)",
                                                 name));
          }
        }
      } else {
        // $(shell ...), $(call ...), $(wildcard ...): the shell sees their output, unknown here.
        hg_embed_put(&e, "$(", 2, i, false);
        hg_embed_put(&e, "make-function", 13, i, false);
        hg_embed_put(&e, ")", 1, i, false);
      }
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

void hg_make_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                     const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  (void)config;
  (void)project;
  TSNode root = ts_tree_root_node(tree);
  makefile m = {.src = source, .arena = arena};
  bool collected = false;
  hg_lines lines = {0};
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  // Recipe lines first (the cursor is needed again to read each one's shell).
  node_vec scripts = {0};
  hg_extract_matches(self, rules, HG_SURFACE_MAKE, source, root, arena, &markers, on_site, &scripts);
  for (size_t i = 0; i < scripts.len; i++) {
    if (!collected) {
      collect(&m, root);
      hg_lines_init(&lines, source, arena);
      collected = true;
    }
    hg_embed e = recipe(&m, scripts.items[i]);
    hg_sh_env env = {.names = m.unknown.items, .origins = m.why.items, .n = m.unknown.len};
    hg_shell_embedded(self, rules, source, &lines, &e, &env, arena, &sites, &markers);
  }
  free(scripts.items);
  free(m.vars);
  free(m.unknown.items);
  free(m.why.items);
  if (ts_node_has_error(root))
    hg_extract__error_regions(self, rules, HG_SURFACE_MAKE, source, root, &sites);
  hg_extract__finish(out, arena, &sites, &markers);
}
