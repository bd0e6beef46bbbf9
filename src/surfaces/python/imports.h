/* The names a Python file binds by its imports, and the module paths they stand for: what
 * `import a.b as x` and `from .m import n` bind (relative imports resolved against the file's
 * package), a file's package, and whether an imported path names a configured module. Everything
 * is allocated in the caller's arena. */
#ifndef HG_IMPORTS_H
#define HG_IMPORTS_H

#include <tree_sitter/api.h>

#include "rules/config.h"
#include "base/util.h"

typedef struct hg_imports hg_imports;

/** `package` is the dotted package the file belongs to ("" when unknown); relative imports are
 *  resolved against it. */
hg_imports *hg_imports_new(hg_arena *arena, const char *package);
/** Records `import module [as alias]` (alias may be NULL). */
void hg_imports_add_import(hg_imports *self, const char *module, const char *alias);
/** Records `from module import name [as alias]`; `module` may be relative ("..pkg"). */
void hg_imports_add_from(hg_imports *self, const char *module, const char *name, const char *alias);
/** The qualified name a dotted expression stands for (its head replaced by what the head was
 *  imported as), into `out`. False when the node is not an identifier or a chain of them. */
bool hg_imports_qualify(const hg_imports *self, TSNode node, const char *src, hg_buf *out);
/** Does the file import anything from one of the configured builder modules? */
bool hg_imports_builder_module(const hg_imports *self, const hg_config *config);

/** The dotted package of `path`, relative to `root` ("a/b/c.py" → "a.b"; in a src layout, below a
 *  `src/` that is no package, "src/a/b/c.py" → "a.b"); arena-allocated. */
const char *hg_package_of(hg_arena *arena, const char *root, const char *path);

/** Does the imported module path `imported` name the configured module `configured`? Equal, or
 *  one is a dotted suffix of the other (src-layout prefixes, scripts run from their directory). */
bool hg_module_matches(const char *imported, size_t len, const char *configured);

/** Does the file import `module` or a submodule of it (`module.x...`), in any form: `import m`,
 *  `import m.x as y`, `from m import n`, `from m.x import n`, a relative import resolved to it, a
 *  module imported by a call (the import facts)? */
bool hg_imports_has_module(const hg_imports *self, const char *module);

/** The qualified name a name of the file was imported as, or NULL. */
const char *hg_imports_lookup(const hg_imports *self, const char *name, size_t len);

#endif
