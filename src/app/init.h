/* `hardguard init`: writes the project's hardening builder, a module whose callables yield the
 * policy's full set (values from the policy's `set:`, callables from its `init:`), and a
 * .hardguard.yml naming it. Never overwrites: when any file it would write exists, nothing is
 * written. */
#ifndef HG_INIT_H
#define HG_INIT_H

#include "rules/policy.h"
#include "base/util.h"

/** What init wrote (or, on failure, nothing). Strings are owned; free with hg_init_result_free. */
typedef struct {
  char *module;      // dotted name, e.g. "app.container_hardening"
  char *module_path; // the module file
  char *config_path; // the .hardguard.yml
  char **created;    // every file written, in order (package __init__.py files too)
  size_t n_created;
} hg_init_result;

/** Writes the builder for the project in `dir`: as module `module` (dotted; NULL: proposed from
 *  the layout — the one package under src/ or at the top, else a top-level module). 0, or -1 with
 *  err filled and nothing written (a file exists, several packages to choose from, an I/O error). */
int hg_init_run(hg_init_result *out, const hg_policy *policy, const char *dir, const char *module, hg_error *err);
void hg_init_result_free(hg_init_result *self);

/** The builder module's text (pure): a docstring, then one function per `init.callables` entry
 *  returning that dialect's `set:` values, in policy order. */
char *hg_init_module_text(const hg_policy *policy);
/** The .hardguard.yml naming `module` and the policy's init callables (pure). */
char *hg_init_config_text(const hg_policy *policy, const char *module);

#endif
