/* Go values as the value model (model/site.h) holds them: composite literals as DICTs (keyed
 * elements) or LISTs, strings, numbers (simple constant arithmetic folded), booleans, nil; a name
 * followed to what the function assigns it before the site — its declaration, later assignments
 * and field assignments (`hc.Privileged = true`), `append` — each one made inside an `if`, a loop
 * or a `switch` case that does not hold the site an alternative (HG_VAL_ALT) named by its condition;
 * then to the package's constants and variables (every file of the directory) and to the project's
 * packages it imports (go.mod); a call to a function of the package or of an imported project
 * package followed to what it returns (a configured builder's call is a BUILDER), a conversion
 * (`container.NetworkMode("none")`) to its argument. Anything else — a parameter, a call of another
 * package, a method's result — is an UNKNOWN saying why. */
#ifndef HG_GO_EVAL_H
#define HG_GO_EVAL_H

#include <tree_sitter/api.h>

#include "model/site.h"
#include "rules/config.h"
#include "surfaces/go/names.h"
#include "surfaces/go/package.h"

/** A call followed into the function it calls: the function's parameters are its arguments. */
typedef struct hg_go_call {
  TSNode fn;                      // the function_declaration called
  TSNode call;                    // the call_expression
  TSNode at;                      // where the call stands (names in its arguments are read there)
  const hg_go_src *file;          // the file of the call
  const char *def_path;           // the file of the function called
  const struct hg_go_call *outer; // the call being followed when this one was made, or NULL
} hg_go_call;

typedef struct {
  hg_arena *arena;
  const hg_config *config;
  hg_go_packages *packages; // NULL: only the file itself is read
  const char *site;         // the site's file: values standing in it name no path
  TSNode modifier;          // the function being read as a modifier (a null node: none)
  const hg_go_call *calls;  // the calls being followed into functions, innermost first
  size_t budget;            // nodes still to evaluate for this site
  int depth;
} hg_go_eval;

/** The value of expression `expr` of file `f`, names read as they stand just before `at` (a null
 *  node: at the package level). */
hg_value hg_go_value(hg_go_eval *e, const hg_go_src *f, TSNode expr, TSNode at);

#endif
