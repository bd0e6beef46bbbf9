/* What the javascript surface's names (names.c: where a name is bound, what a module imports and
 * changes) and values (eval.c) share: the evaluator's state and small helpers. Not for other
 * files. */
#ifndef HG_JS_INTERNAL_H
#define HG_JS_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "surfaces/javascript/names.h"
#include "surfaces/node.h"

// Deeper than this an expression is not followed (nested literals, names through names).
enum { MAX_DEPTH = 48 };
// Values evaluated for one site at most: names used many times through names used many times
// could otherwise take exponential work.
enum { SITE_BUDGET = 20000 };

// A change to a name after it is bound: `x = ...`, `x.a = ...`, `x.a.push(...)`, `Object.assign(x, ...)`,
// `delete x.a`, `x++`.
typedef struct {
  TSNode node;
  uint32_t name_start, name_len; // the name changed (its bytes in the source)
  bool whole;                    // the name itself is assigned (not a property of it)
  TSNode right;                  // whole: the value assigned (`x = v`), else null
} mutation;

struct js_eval {
  const hg_source *src;
  TSNode root;
  hg_arena *arena;
  HG_VEC(mutation) mutations;
  HG_VEC(const char *) modules;
  HG_VEC(const char *) methods; // names of the methods and functions the module defines
  size_t budget;
  void *project;                // the surface's state (modules.h): other modules of the project
  HG_VEC(struct js_imported) imported; // the evaluators of the modules it imports from, made once
};

/** An evaluator made for a module this one imports from (`module`: its hg_js_module). */
struct js_imported {
  const void *module;
  js_eval *eval;
};

static inline const char *S(const js_eval *e) { return e->src->data; }

static inline bool text_is(const js_eval *e, TSNode n, const char *s) { return hg_node_text_eq(n, S(e), s, strlen(s)); }

static inline uint32_t line_of(TSNode n) { return ts_node_start_point(n).row + 1; }

/** The escape sequence at s (after the backslash) decoded into b; returns the bytes it took. */
size_t js__unescape(const char *s, size_t n, hg_buf *b);
/** A string literal's text, escapes decoded; NULL for another node. */
const char *js__literal(js_eval *e, TSNode n);
/** `n` without the parentheses, type assertions and `!` around it. */
TSNode js__unwrap(TSNode n);

#endif
