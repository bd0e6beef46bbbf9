/* What the project stage's evaluation carries (beneath every file of src/surfaces/python/project/):
 * a definition, the frame of the function being evaluated with its bound parameters, the chain of
 * definitions entered on the way (which stops cycles and long chains), and the two answers the
 * frame gives the evaluator (bind.c: a parameter's value; decide.c: which branches run). */
#ifndef HG_PROJECT_FRAME_H
#define HG_PROJECT_FRAME_H

#include "surfaces/python/project/index.h"
#include "surfaces/python/resolve.h"

/** A definition in the project: a class or function node of a module. */
typedef struct hg_def {
  const hg_module *module;
  TSNode node; // class_definition or function_definition
} hg_def;

/** The function being evaluated and the values its parameters are bound to. */
typedef struct hg_frame {
  TSNode fn; // function_definition
  uint64_t id; // this binding's, unique in the thread (a frame on the stack may take another's place)
  size_t n;
  const char **names;
  const hg_value *values;
} hg_frame;

/** One definition being evaluated on the way to a value; the chain stops cycles and long ones. */
typedef struct hg_hop {
  const hg_module *module;
  uint32_t at; // the definition's start byte
  int depth;
  const struct hg_hop *prev;
} hg_hop;

/** How many definitions deep a value is followed (a builder calling a helper calling another...). */
#define HG_SUMMARY_MAX_DEPTH 8

/** The value of parameter `name` in the frame of function `fn`; false when not bound there. */
bool hg_summary_bound(const hg_resolver *r, TSNode fn, const char *name, size_t len, hg_value *out);
/** hg_scope_cond for resolvers with a frame: `ctx` points to a struct whose first member is a
 *  `const hg_resolver *`. Decides `not`, `and`, `or`, comparisons with literals and the truth of a
 *  known value; notes a branch skipped on a known-false condition. */
int hg_summary_decide(void *ctx, TSNode condition, TSNode branch);

#endif
