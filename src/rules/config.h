/* A repository's .hardguard.yml: the shared hardening builders it provides, the paths it excludes,
 * the surfaces it turns off, the requirements it relaxes where (`allow:`) and `strict:`. Found in
 * the scanned directory or its nearest ancestor, or given with --config. */
#ifndef HG_CONFIG_H
#define HG_CONFIG_H

#include "rules/policy.h"
#include "model/surface.h"
#include "base/util.h"

/** A builder module and the callables in it that return the hardening set. A callable is a
 *  function name, or Class.method for a method of a class the module exports. */
typedef struct {
  char *module;  // dotted path, e.g. sandbox.container_hardening; or a Go package's path below its
                 // module (internal/hardening), which the Go surface also reads in dotted form
  char **callables;
  size_t n_callables;
  bool trust;  // `trust: true`: taken at its word when its definition is not in the project (an
               // installed package); otherwise such a builder fails closed
  uint32_t line;  // in the config file
} hg_builder;

/** Requirements relaxed for some paths, with the reason (`allow:`): like an allow[...] marker at
 *  every site of those files. Forbidden options are never relaxed. */
typedef struct {
  char **paths;  // globs, relative to the root
  size_t n_paths;
  char **requirements;  // requirement ids (checked against the policy by hg_config_check)
  size_t n_requirements;
  char *reason;
  uint32_t line;  // in the config file
} hg_allowance;

/** Read-only after load. An empty config (no file) has no builders and no excludes. */
typedef struct hg_config {
  char *path;  // the file, or NULL when there is none
  char *root;  // the directory excludes and module paths are relative to; "." without a file
  hg_builder *builders;
  size_t n_builders;
  char **exclude;
  size_t n_exclude;
  uint32_t *exclude_lines;  // per exclude glob, its line in the config file
  bool surface_off[HG_SURFACE_MAX];  // `surfaces: {shell: false}`
  uint32_t surface_line[HG_SURFACE_MAX];  // where a surface is turned off (0: not mentioned)
  hg_allowance *allow;
  size_t n_allow;
  bool strict;           // `strict: true`: with --diff, gate-relaxed warnings fail the run (as --strict)
  uint32_t strict_line;  // where it is set (0: not mentioned)
} hg_config;

/** Loads `path`; 0, or -1 with "path:line:col: …" in err. */
int hg_config_load(hg_config **out, const char *path, hg_error *err);
/** Parses `len` bytes as the config file `path` (which names it in errors and sets the root);
 *  the bytes need not be NUL-terminated and stay the caller's. As hg_config_load otherwise. */
int hg_config_parse(hg_config **out, const char *path, const char *bytes, size_t len, hg_error *err);
/** Looks for .hardguard.yml in `start` (a file or directory) and its ancestors; loads the first
 *  found, or returns an empty config. */
int hg_config_discover(hg_config **out, const char *start, hg_error *err);
/** An empty config rooted at `root`. */
hg_config *hg_config_empty(const char *root);
void hg_config_free(hg_config *self);

/** Checks what the config names against the policy (the requirements `allow:` relaxes); 0, or -1
 *  with "path:line: ..." in err. */
int hg_config_check(const hg_config *self, const hg_policy *policy, hg_error *err);
/** The requirements (bits, in policy order) `allow:` relaxes for `path`; reasons[r] is the reason
 *  given for requirement r (owned by the config). */
uint64_t hg_config_allowed(const hg_config *self, const hg_policy *policy, const char *path,
                           const char *reasons[HG_POLICY_MAX_REQ]);

/** Is `path` (as given on the command line or walked) excluded? Matched relative to the root. */
bool hg_config_excludes(const hg_config *self, const char *path);

#endif
