/* The Go surface's names (names.c): what eval.c and go.c look names up with. */
#ifndef HG_GO_NAMES_H
#define HG_GO_NAMES_H

#include <tree_sitter/api.h>

#include "rules/config.h"
#include "surfaces/go/package.h"

/** A file values are read in. */
typedef struct {
  const char *path;
  const char *src;
  size_t len;
  TSNode root;
} hg_go_src;

/** A top-level definition found in a package. */
typedef struct {
  hg_go_src file;
  TSNode node;    // a const_spec / var_spec (its value) or a function_declaration
  uint32_t index; // which of the spec's names
} hg_go_definition;

/** The text of a Go string literal, escapes decoded (NULL for another node). */
const char *hg_go_string(hg_arena *arena, const char *src, TSNode n);
/** Called with each import of a file: its path, and the name the file knows it by; true stops. */
typedef bool (*hg_go_import_fn)(void *ctx, const char *path, const char *name, size_t len);
/** Calls fn with each import of the file, in order; true when fn stopped it. */
bool hg_go_each_import(hg_arena *arena, const hg_go_src *f, hg_go_import_fn fn, void *ctx);
/** The import path the file imports as package name `name` (len bytes), into *out (arena), or
 *  false. */
bool hg_go_import(hg_arena *arena, const hg_go_src *f, const char *name, size_t len, const char **out);
/** Is the import path `path` a configured builder's package (its module written with `/` or `.`)?
 *  *builder is its index. */
bool hg_go_builder_package(const hg_config *config, const char *path, size_t *builder);
/** The directory of `path` ("." when it has none), in the arena. */
const char *hg_go_dir_of(hg_arena *arena, const char *path);
/** Do the paths name one file (a leading "./" aside)? */
bool hg_go_same_file(const char *a, const char *b);
/** `name` (len bytes) defined at the top level of the package in directory `dir` — a constant or a
 *  variable, or with `functions` a function — looked for in `f` first (NULL: none), then in the
 *  package's other files (read through `packages`, NULL: none). */
bool hg_go_find(hg_go_packages *packages, const hg_go_src *f, const char *dir, const char *name, size_t len,
                bool functions, hg_go_definition *out);

#endif
