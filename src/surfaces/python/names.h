/* The Python surface's answers to the rules engine's name predicates (#imports?, #resolves-to?,
 * #sdk?, #value-contains?, #defined-in-project?: rules/predicate.h), from a file's imports and its
 * resolver. */
#ifndef HG_PYTHON_NAMES_H
#define HG_PYTHON_NAMES_H

#include "rules/predicate.h"
#include "surfaces/python/facts.h"
#include "surfaces/python/resolve.h"

/** The Python surface's answers; their model is an hg_python_model (facts.h). */
extern const hg_names hg_python_names;

#endif
