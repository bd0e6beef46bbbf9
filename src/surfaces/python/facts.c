#include "surfaces/python/facts.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/extract.h"

// While the imports are being recorded, names qualify through them alone.
bool hg_python_qualify_imported(void *model, TSNode node, hg_buf *out) {
  const hg_python_model *m = model;
  return hg_imports_qualify(m->imports, node, m->src, out);
}

bool hg_python_imports(void *model, const char *module) {
  return hg_imports_has_module(((const hg_python_model *)model)->imports, module);
}

const hg_names hg_python_import_names = {.qualify = hg_python_qualify_imported, .imports = hg_python_imports};

void hg_python_record_import(hg_imports *imports, const hg_captures *c, const TSQueryCapture *caps, uint16_t n,
                             const char *src, hg_arena *a) {
  TSNode module, alias, from, name;
  bool has_alias = hg_extract__capture(caps, n, c->import_alias, &alias);
  const char *alias_text = has_alias ? hg_extract__text(a, src, alias) : NULL;
  if (hg_extract__capture(caps, n, c->import_from, &from) && hg_extract__capture(caps, n, c->import_name, &name)) {
    // `from . import x`: the module text is the dots alone.
    hg_imports_add_from(imports, hg_extract__text(a, src, from), hg_extract__text(a, src, name), alias_text);
  } else if (hg_extract__capture(caps, n, c->import_module, &module)) {
    hg_imports_add_import(imports, hg_extract__text(a, src, module), alias_text);
  }
}

// An import fact's predicates (`x = importlib.import_module("m")` is one only for that callee),
// evaluated as in the file being checked: with the imports recorded so far.
static bool import_holds(const hg_pattern *p, const TSQueryMatch *m, const char *src, hg_imports *imports,
                         pcre2_match_data **md, hg_buf *scratch) {
  if (!p->predicates)
    return true;
  if (!*md && !(*md = pcre2_match_data_create(32, NULL)))
    abort();
  hg_python_model model = {.src = src, .imports = imports};
  hg_predctx ctx = {.src = src, .md = *md, .names = &hg_python_import_names, .model = &model, .scratch = scratch};
  return hg_predicates_eval(p->predicates, m, &ctx);
}

void hg_python_read_imports(const hg_rules_query *q, const char *src, TSTree *tree, hg_imports *imports,
                            hg_arena *arena) {
  const hg_captures *c = &q->captures;
  hg_matches *cursor = hg_matches_new();
  hg_matches_exec(cursor, q, ts_tree_root_node(tree), NULL);
  TSQueryMatch m;
  pcre2_match_data *md = NULL;
  hg_buf scratch = {0};
  while (hg_matches_next(cursor, &m)) {
    const hg_pattern *p = &q->patterns[m.pattern_index];
    if (p->role == HG_PATTERN_IMPORT && import_holds(p, &m, src, imports, &md, &scratch))
      hg_python_record_import(imports, c, m.captures, m.capture_count, src, arena);
  }
  pcre2_match_data_free(md);
  hg_buf_free(&scratch);
  hg_matches_free(cursor);
}
