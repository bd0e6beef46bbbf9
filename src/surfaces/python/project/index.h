/* The project index: the Python modules of the project a run checks, found by dotted name and
 * parsed only when a site needs something from them (a builder, a constant, a class), at most once
 * per run whichever worker asks first. Modules are looked for under the config's directory, then
 * its src/, then the git work tree holding the first path and its src/, then (for a script's
 * `import helpers`) the importing file's own directory. Everything a module holds lives as long as
 * the index and is read-only once returned, so workers share it. */
#ifndef HG_PROJECT_INDEX_H
#define HG_PROJECT_INDEX_H

#include <tree_sitter/api.h>

#include "rules/config.h"
#include "rules/policy.h"
#include "base/util.h"

struct hg_ruleset;
struct hg_imports;

/** One parsed module (or the file being checked, described the same way). Owned by the index (or
 *  by the caller for the checked file); do not free. */
typedef struct hg_module {
  const char *path; // the file, as opened
  const char *name; // its dotted name ("" when it has none)
  const char *src;
  size_t len;
  TSNode root; // the module node
  const struct hg_imports *imports;
  const TSNode *calls; // its call nodes in pre-order, as the rules' walk kept them (NULL: not kept)
  size_t n_calls;
} hg_module;

typedef struct hg_index hg_index;

/** An index for a run whose first path is `start`. Reads nothing until asked. `rules` (only its
 *  compiled import facts are read; NULL: modules are found but not read) and `config` must
 *  outlive it. */
hg_index *hg_index_new(const struct hg_ruleset *rules, const hg_config *config, const char *start);
void hg_index_free(hg_index *self);
/** Reads file `path` as `bytes` (len) instead of what is on disk, when a module of it is first
 *  read (call it before any question): how --fix judges a site with a caller's file edited. Its
 *  calls are tabled from the disk (mentions.c): an edit that only adds calls finds the same ones. */
void hg_index_overlay(hg_index *self, const char *path, const char *bytes, size_t len);

/** The module `dotted` (len bytes), parsed on first use; NULL when no file of the project is that
 *  module, or it cannot be read or parsed. `from_path` is the importing file (its directory is the
 *  last place looked). `held` (NULL: none) is a module the caller holds parsed, the file being
 *  checked: when the module found is its file, it is made from held's bytes and a copy of its tree
 *  (libtree-sitter's copies share the nodes), not read and parsed again. Thread-safe. */
const hg_module *hg_index_module(hg_index *self, const char *dotted, size_t len, const char *from_path,
                                 const hg_module *held);

/** Is there a file for module `dotted` (len bytes) under the project's roots (not the importing
 *  file's directory)? Reads and parses nothing. Thread-safe. */
bool hg_index_has_module(hg_index *self, const char *dotted, size_t len);

/** The configuration and the rules' policy the index was made with (the policy NULL without rules). */
const hg_config *hg_index_config(const hg_index *self);
const hg_policy *hg_index_policy(const hg_index *self);

/** The Python files under the project's root (the config's directory) that write `name` (len
 *  bytes) as a call, as absolute paths: *n of them; NULL with *why when they cannot be told (see
 *  mentions.h). The table is built on the first question. Thread-safe. */
const char *const *hg_index_calling(hg_index *self, const char *name, size_t len, size_t *n, const char **why);
/** The names of the project's classes written with `name` among their bases (mentions.h): *n of
 *  them, or NULL. Thread-safe. */
const char *const *hg_index_subclasses(hg_index *self, const char *name, size_t len, size_t *n);
/** The files that write `word` in an import statement (the table's, like hg_index_calling's), *n
 *  of them, or NULL. */
const char *const *hg_index_importers(hg_index *self, const char *word, size_t len, size_t *n);
/** Does file `path` (one hg_index_calling gave) write `word` in an import statement? See
 *  mentions.h: a filter before a file is parsed. Thread-safe. */
bool hg_index_imports(hg_index *self, const char *path, const char *word, size_t len);
/** The module in file `path` (a path hg_index_calling gave), parsed on first use; NULL when it
 *  cannot be read or parsed. Thread-safe. */
const hg_module *hg_index_module_at(hg_index *self, const char *path);
/** The calls of module `m` written `name` or `x.name` (calls.h), in source order, into *calls and
 *  *n; false when m is not a module the index parsed. Each module is walked once, on the first
 *  question. Thread-safe. */
bool hg_index_calls(hg_index *self, const hg_module *m, const char *name, size_t len, const TSNode **calls,
                    size_t *n);
/** A worker of the scan with no file left lends itself to the table of calls: it reads files with
 *  the table's build while one is under way, and while `busy(ctx)` says other workers are still
 *  checking files (one may yet ask for the table) it waits for a build to begin; it returns when
 *  the table is made or no worker is busy. Each worker that runs out of files calls
 *  hg_index_wake, so that the waiting ones look at `busy` again. Thread-safe. */
void hg_index_lend(hg_index *self, bool (*busy)(void *ctx), void *ctx);
void hg_index_wake(hg_index *self);
/** How many modules were parsed for definitions so far. */
size_t hg_index_parsed(const hg_index *self);

/** The dotted module name of `path`, a file of `package` ("pkg" and "pkg/m.py" → "pkg.m";
 *  an __init__.py is the package itself); arena-allocated. */
const char *hg_module_name(hg_arena *arena, const char *package, const char *path);

/** The dotted module name of `path` relative to `root` ("a/b/c.py" → "a.b.c", "a/__init__.py" →
 *  "a"); arena-allocated. */
const char *hg_module_name_of(hg_arena *arena, const char *root, const char *path);

#endif
