/* The evaluator: reads a Python expression by its node type (literals, containers, calls, names,
 * attributes, operators), through the readers beneath it: names (follow.c), aliases (alias.c),
 * strings (strcmd.c) and the project stage (project/summary.h). A resolver made with
 * hg_python_engine evaluates through it. */
#ifndef HG_PYTHON_EVAL_H
#define HG_PYTHON_EVAL_H

#include "surfaces/python/resolve.h"

/** The evaluator and the project stage, for hg_resolver.engine. */
extern const hg_resolve_engine hg_python_engine;

/** The value of an expression node. */
hg_value hg_resolve_value(const hg_resolver *self, TSNode node);
/** The keywords reaching a call: keyword arguments and `**` spreads of an argument_list, dict
 *  literals spread in place, in order. */
hg_value hg_resolve_kwargs(const hg_resolver *self, TSNode argument_list);
/** The options a call's keywords hand on under self->keywords_of (the value of that keyword,
 *  spreads followed), else the keywords themselves (hg_resolve_kwargs). */
hg_value hg_resolve_options_at(const hg_resolver *self, TSNode argument_list);

#endif
