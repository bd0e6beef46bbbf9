/* The Go surface's state over one run: the packages (directories of .go files) a site's values
 * are looked up in, each read and parsed once on first use — the package of the file being read
 * (its other files' constants, variables and functions) and the project's packages it imports
 * (named by the module path of the go.mod at the root). Thread-safe; what it returns stays valid
 * until the state is freed. */
#ifndef HG_GO_PACKAGE_H
#define HG_GO_PACKAGE_H

#include <stddef.h>
#include <tree_sitter/api.h>

#include "rules/config.h"
#include "rules/ruleset.h"

typedef struct {
  const char *path; // as the walk would name it (the directory joined with the file name)
  const char *src;
  size_t len;
  TSTree *tree;
} hg_go_file;

typedef struct hg_go_packages hg_go_packages;

void *hg_go_packages_new(const hg_ruleset *rules, const hg_config *config, const char *start);
void hg_go_packages_free(void *self);
/** Files parsed for definitions only. */
size_t hg_go_packages_parsed(void *self);

/** The .go files of directory `dir` ("." for the current one), parsed; *n of them. A file larger
 *  than 1 MiB (generated code) is left out. */
const hg_go_file *hg_go_package_files(hg_go_packages *self, const char *dir, size_t *n);
/** Is `module` (a configured builder's: internal/hardening, or internal.hardening) a directory of
 *  .go files below the config root? */
bool hg_go_packages_has_module(void *self, const char *module);
/** The directory of the project's package imported as `import_path` by file `from`: the module
 *  path of the nearest go.mod holding `from` (its directory, then each one up to the config root),
 *  followed by the package's path below that go.mod's directory; NULL when it is not a package of
 *  that module. Owned by the state. */
const char *hg_go_package_dir(hg_go_packages *self, const char *from, const char *import_path, size_t len);

#endif
