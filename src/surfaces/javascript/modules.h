/* The javascript surface's state over one run: the project's modules a value is imported from by a
 * relative specifier (`import {HARDENING} from './hardening'`, `require('../sandbox/flags')`),
 * each read and parsed once on first use. Thread-safe; what it returns stays valid until the state
 * is freed. */
#ifndef HG_JS_MODULES_H
#define HG_JS_MODULES_H

#include <tree_sitter/api.h>

#include "base/source.h"
#include "rules/config.h"
#include "rules/ruleset.h"

typedef struct {
  hg_source source; // path: as the walk would name it (the importer's directory joined with the specifier)
  TSTree *tree;
} hg_js_module;

void *hg_js_modules_new(const hg_ruleset *rules, const hg_config *config, const char *start);
void hg_js_modules_free(void *self);
/** Files parsed for their exports only. */
size_t hg_js_modules_parsed(void *self);
/** The module `spec` (a relative specifier: ./x, ../y/z) names from the file at `from`: the file
 *  itself, or with one of the extensions .ts .tsx .js .mjs .cjs .mts .cts .jsx, or its folder's
 *  index file; NULL when none is there, it is larger than 1 MiB, or `spec` is not relative. */
const hg_js_module *hg_js_module_of(void *self, const char *from, const char *spec);

#endif
