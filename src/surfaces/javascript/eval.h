/* The javascript surface's values: a small evaluator of one module's JavaScript/TypeScript
 * expressions into the value model (model/site.h). Literals (strings, template strings, numbers,
 * true/false/null/undefined), object and array literals (a spread of a known object or array
 * flattened in place, later keys winning), names bound by `const` (and `let`/`var` never assigned
 * again) in the module or an enclosing function, a property of a known object, arithmetic on
 * numbers, `+` on strings, `c ? a : b` and `a || b` / `a ?? b` as alternatives. What it cannot
 * follow (a parameter, a call's result, a name imported from another module, an object changed
 * after it is made) is an UNKNOWN saying why. Bounded in depth and in work per site. */
#ifndef HG_JS_EVAL_H
#define HG_JS_EVAL_H

#include "surfaces/javascript/names.h"

/** The value of expression `n`. Resets the per-site work budget. */
hg_value js_value(js_eval *self, TSNode n);
/** The string `n` evaluates to, NULL when it is not a string known in full (no hole). */
const char *js_string(js_eval *self, TSNode n);

#endif
