/* A Python file's import facts: the imports the rules' fact patterns find (rules/python/facts),
 * recorded into its hg_imports, with the predicates of those patterns answered from the imports
 * recorded so far. */
#ifndef HG_PYTHON_FACTS_H
#define HG_PYTHON_FACTS_H

#include "rules/predicate.h"
#include "rules/ruleset.h"
#include "surfaces/python/imports.h"
#include "surfaces/python/resolve.h"

struct hg_resolver;

/** What the answers read: the file, its imports, and once they are all known, the resolver
 *  (which also follows local aliases and values). Without a resolver (while imports are still
 *  being recorded, or in a module read for its definitions) names qualify through the imports
 *  alone, no value is known and nothing is defined. */
typedef struct hg_python_model {
  const char *src;
  const hg_imports *imports;
  const struct hg_resolver *resolver;
  // The callee names.c's may_end_in last read the end of (the patterns of one call ask of its
  // callee in turn): its node (id NULL: none yet) and that end.
  TSNode end_of;
  hg_callee_end end;
  // ... and the callee names.c's ends_elsewhere last read the syntax of, likewise.
  TSNode tail_of;
  hg_callee_end tail;
} hg_python_model;

/** The answers while imports are recorded: names qualify through the imports alone, and
 *  #imports? reads them; no value is known and nothing is defined. The model is an
 *  hg_python_model whose resolver is not read. */
extern const hg_names hg_python_import_names;
/** Its answers, which the full ones (names.h) fall back to: the name `node` qualifies to through
 *  the imports, and whether the file imports `module` (or a submodule of it). */
bool hg_python_qualify_imported(void *model, TSNode node, hg_buf *out);
bool hg_python_imports(void *model, const char *module);

/** Records the import a match of an import fact names (its captures, per `c`). */
void hg_python_record_import(hg_imports *imports, const hg_captures *c, const TSQueryCapture *caps, uint16_t n,
                             const char *src, hg_arena *arena);

/** Records the imports of a parsed module into `imports` with `facts`, the compiled import facts
 *  of the rules (the Python query with no site pattern); for modules read for their definitions,
 *  which are never searched for sites. */
void hg_python_read_imports(const hg_rules_query *facts, const char *src, TSTree *tree, hg_imports *imports,
                            hg_arena *arena);

#endif
