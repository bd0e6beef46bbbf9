/* The javascript surface's names (names.c): what one module binds, imports and changes, and
 * where a name used at a node is bound. */
#ifndef HG_JS_NAMES_H
#define HG_JS_NAMES_H

#include <tree_sitter/api.h>

#include "base/source.h"
#include "model/site.h"

/** Where a name is bound, as the evaluator sees it. */
typedef enum {
  JS_DECL_NONE,     // not bound in the module (a global)
  JS_DECL_VALUE,    // `const x = value` (value: the initialiser; a destructuring names `property`)
  JS_DECL_PARAM,    // a function's parameter (fn: the function)
  JS_DECL_IMPORT,   // `import x from 'm'`, `import * as x`, `import {y as x}`, `import x = require('m')`
  JS_DECL_REQUIRE,  // `const x = require('m')` or `const {y: x} = require('m')`
  JS_DECL_OTHER,    // a function or class declaration, a catch or loop variable, a declarator without a value
} js_decl_kind;

typedef struct {
  js_decl_kind kind;
  TSNode node;          // the declarator, parameter or import specifier
  TSNode value;         // VALUE: the initialiser
  const char *property; // VALUE, REQUIRE, IMPORT: the property it takes (`const {a: x} = v`: "a";
                        // `import {a as x}`: "a"); NULL: the whole value; "default", "*" for imports
  const char *module;   // IMPORT, REQUIRE: the module specifier as written ('dockerode', './hardening')
  bool reassigned;      // `let`/`var` assigned again somewhere in the module
} js_decl;

typedef struct js_eval js_eval;

/** The evaluator of one parsed module (allocated in `arena`), from a walk of its tree of its own. */
js_eval *js_eval_new(const hg_source *src, TSNode root, hg_arena *arena);
/** The node types the evaluator reads of a module (NULL-ended) ... */
extern const char *const js_collected_types[];
/** ... and the evaluator from the nodes of those types a walk of the module kept, in pre-order (a
 *  NULL `kept`: none was kept, as js_eval_new). */
js_eval *js_eval_of(const hg_source *src, TSNode root, hg_arena *arena, const TSNode *kept, size_t n);
/** The evaluator reads the project's other modules through `project` (modules.h; NULL: none). */
void js_eval_project(js_eval *self, void *project);

/** What a module exports under a name (js_export). */
typedef enum {
  JS_EXPORT_NONE,     // nothing found
  JS_EXPORT_DECL,     // a binding of the module (`export const X = ...`, or a `const X` it exports): decl
  JS_EXPORT_VALUE,    // an expression: `export default v`, `module.exports = v`, `exports.X = v`: value
  JS_EXPORT_PROPERTY, // the property of that name of `module.exports = {...}`: value (the object)
} js_export_kind;

/** What the module exports as `name` ("default" for the default export and a whole CommonJS
 *  module.exports; NULL: the whole module.exports). */
js_export_kind js_export(js_eval *self, const char *name, js_decl *decl, TSNode *value);
/** Where name `name` (len bytes), used at `at`, is bound. */
js_decl js_lookup(js_eval *self, TSNode at, const char *name, size_t len);
/** Is expression `n` (an identifier or a.b member chain) bound to module `module` (a require or an
 *  import of it)? `property`, when not NULL, receives the imported property it names
 *  ("default", "*", "GenericContainer", or for `ns.X` the member "X"). */
bool js_from_module(js_eval *self, TSNode n, const char *const *modules, const char **property);
/** Does the module import or require `module` in any form? */
bool js_imports(js_eval *self, const char *module);
/** Does the module define a method or function of this name (a class's `createContainer`)? */
bool js_defines_method(js_eval *self, const char *name);
/** The text of `n`, at most 200 bytes of it (longer: cut, with "..."), in the arena. */
const char *js_text(js_eval *self, TSNode n);
/** The modules the file imports or requires, in the order written (NULL-terminated, in the arena). */
const char *const *js_modules(js_eval *self);

#endif
