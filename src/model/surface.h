/* A surface hardguard reads (universal-ctags' parser list): for each, the files it takes
 * (extensions, name and path globs, interpreters on a `#!` line), its tree-sitter grammar, where its
 * rules live (rules/<id>/), the function that turns a parsed file into sites and what --fix asks of
 * it. The rows are listed in the registry (src/surfaces/registry.c); the walk, the prefilter, the
 * rule loader, the checker and the fix driver work from them and never name a surface. Adding a
 * surface: docs/adding-a-surface.md. */
#ifndef HG_MODEL_SURFACE_H
#define HG_MODEL_SURFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "base/util.h"

/** A surface: its index in the registry (surfaces/registry.h names each). */
typedef int hg_surface_id;
/** A surface's `claims` looks at this many bytes of a file at most (the walk reads no more). */
#define HG_SURFACE_CLAIM_BYTES ((size_t)64 * 1024)
/** Arrays indexed by surface hold this many; the registry lists hg_surface_count of them. */
#define HG_SURFACE_MAX 12

struct hg_extractor;
struct hg_ruleset;
struct hg_config;
struct hg_source;
struct hg_sites;

/** Turns one parsed file into sites (and marker comments), allocated in `arena`. */
typedef void (*hg_surface_extract_fn)(struct hg_extractor *self, const struct hg_ruleset *rules,
                                      const struct hg_config *config, void *project,
                                      const struct hg_source *source, TSTree *tree, hg_arena *arena,
                                      struct hg_sites *out);

/** Called with each file name a file includes, as written (relative to the file's directory). */
typedef void (*hg_surface_include_fn)(void *ctx, const char *name, size_t len);

typedef struct {
  const char *id;                // the rules folder (rules/<id>/) and the name in `surfaces:`
  const char *grammar;           // for messages: "tree-sitter-python"
  const char *const *extensions; // NULL-terminated: ".py"
  const char *const *names;      // NULL-terminated globs matched against the file's name: "docker-compose*.yml"
  const char *const *paths;      // NULL-terminated globs matched against the end of its path: ".github/workflows/*.yml"
  const char *const *interpreters;     // NULL-terminated: a `#!` line naming one makes a file this surface's
  // Files its names, paths and interpreters do not give it but its bytes may: `claims` is asked of
  // a file matching one of the NULL-terminated name globs `claim_names` ("*.yml"), and no other
  // (NULL: it claims none by content). It looks at the start of the bytes only, cheaply.
  const char *const *claim_names;
  bool (*claims)(const char *data, size_t len);
  // The files one of its files includes (a Makefile's `include`): calls fn for each name (NULL: its
  // files include none). The walk reads an included file as this surface's when it is in the tree.
  void (*includes)(const char *data, size_t len, hg_surface_include_fn fn, void *ctx);
  const TSLanguage *(*language)(void); // NULL: read without tree-sitter (YAML; rules/<id>/*.yml)
  const char *const *yaml_reads;       // a YAML surface: the reading modes its rules may say (NULL-terminated)
  hg_surface_extract_fn extract;       // for a surface without a language, called with a NULL tree
  const struct hg_fix_planner *fix;    // what --fix asks of it (fix/plan.h); NULL: its files are not fixed
  // Its state over one run's project, which its extract function gets (Python: the index of the
  // project's modules, read on demand); NULL hooks: it has none.
  void *(*project_new)(const struct hg_ruleset *rules, const struct hg_config *config, const char *start);
  void (*project_free)(void *project);
  size_t (*project_parsed)(void *project);                       // files parsed for definitions only
  // File `path` is read as `bytes` by a state made just before (--fix, judging a site with a
  // caller's file edited); NULL: the state reads no other file.
  void (*project_overlay)(void *project, const char *path, const char *bytes, size_t len);
  bool (*project_has_module)(void *project, const char *module); // a module (a builder) of the project?
  // A worker of the scan out of files lends itself to the state's work under way (Python: reading
  // files for the table of calls) while `busy(ctx)` says other workers are still checking files,
  // and project_wake is called each time a worker runs out; NULL: the state has no work to share.
  void (*project_lend)(void *project, bool (*busy)(void *ctx), void *ctx);
  void (*project_wake)(void *project);
  const char *const *blocks;           // NULL-terminated node types that hold statements: a parse error is reported as
                                       // the statement of one of them that holds it
  bool bracket_limit;                  // files nesting brackets deeper than CPython allows are not parsed
  bool comment_run_limit;              // files with more than HG_COMMENT_RUN_MAX comment lines in a row are not
                                       // parsed (tree-sitter-python aborts on such a run after a bracket)
} hg_surface;

/** The registry: each surface's row, in id order (surfaces/registry.c, one line a surface). The
 *  lookups below and every stage that works per surface read it; none names a surface. The one
 *  reference that runs up a layer, on purpose: this model (and the ruleset, for the count) reads
 *  the registry's rows as data, defined above it, so that the rows can name their surfaces'
 *  functions; no call runs up. */
extern const hg_surface *const hg_surfaces[HG_SURFACE_MAX];
extern const int hg_surface_count;

/** The row of surface `id`. */
const hg_surface *hg_surface_get(hg_surface_id id);
/** Appends the surfaces' ids, comma-separated ("python, shell, ..."), for messages. */
void hg_surface_list(hg_buf *out);
/** The surface whose rules folder is `name`, or -1. */
int hg_surface_by_id(const char *name);

/** The surface that reads the file at `path` by its name alone, or -1. */
int hg_surface_by_name(const char *path);
/** The surface named by the `#!` line at the start of `data`, or -1. */
int hg_surface_by_shebang(const char *data, size_t len);
/** Does glob `pattern`, with k slashes, match the last k+1 components of `path`? */
bool hg_surface_path_matches(const char *pattern, const char *path);
/** The surface whose interpreter the command line `cmd` (len bytes, without `#!`) runs: its first
 *  word, or the one after `env` and env's options; a trailing version (python3.11) is dropped. */
int hg_surface_by_command(const char *cmd, size_t len);
/** Could a file of this name be a script known by its `#!` line (no extension)? */
bool hg_surface_may_have_shebang(const char *path);
/** Could a file of this name be claimed by its content (a surface's `claim_names`)? */
bool hg_surface_may_claim(const char *path);
/** The surface that claims the file at `path` by its bytes (`claims`), or -1. */
int hg_surface_by_content(const char *path, const char *data, size_t len);
/** The surface that reads a file: `by_name` when >= 0 (hg_surface_by_name), else the one its `#!`
 *  line names, else the one that claims its bytes; -1: none. */
int hg_surface_of(const char *path, const char *data, size_t len, int by_name);

#endif
