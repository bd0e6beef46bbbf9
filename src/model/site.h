/* The data model between extraction and evaluation: a site (where a container is created or a
 * client opened) and the values that reach it. Plain transparent structs; everything here lives
 * in the per-file arena and is gone when the file is done. evaluate.c reads these and never
 * touches tree-sitter. */
#ifndef HG_SITE_H
#define HG_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/source.h"
#include "model/reads.h"
#include "base/util.h"

/** Marks an interpolated part (`{expr}` of an f-string) inside a string value's text. */
#define HG_HOLE '\x01'

typedef enum {
  HG_VAL_UNKNOWN,  // cannot be followed: `text` is the expression, `origin` says why
  HG_VAL_STR,      // text: the literal content; HG_HOLE marks interpolations
  HG_VAL_NUM,      // text: the literal as written
  HG_VAL_TRUE,
  HG_VAL_FALSE,
  HG_VAL_NONE,
  HG_VAL_LIST,     // items, in order (list, tuple or set literal)
  HG_VAL_DICT,     // items with `key`, in order; a spread item has key NULL
  HG_VAL_BUILDER,  // a call to a configured hardening builder; text: the call. items[0] (n_items 1)
                   // is what it yields, read from its definition; n_items 0: a builder marked
                   // `trust: true` (or no project index), taken at its word
  HG_VAL_OBJECT,   // an instance of a class defined in the project: items are its attributes
                   // (keyed, later wins); def: the class
  HG_VAL_ALT,      // one of several alternatives (n_items >= 2), each any kind (UNKNOWN too) with
                   // `cond` naming what selects it: both arms of an `if`, `x if c else y`, `a or b`,
                   // `${VAR:-default}`, `os.environ.get("X", "-1")`. `text`: the expression as
                   // written. Standing as a `splat` item of a list or dict, the alternative taken
                   // (a LIST or DICT, or an empty one) is spliced in its place; a `key`ed item or a
                   // plain list element is replaced by it. The judge reads every combination of
                   // alternatives (judge/worlds.c): see docs/value-model.md for the one rule.
} hg_value_kind;

struct hg_def;  // a definition in the project (project/summary.h)

/** A call a calling context of a site passes through, for the report's related locations. */
typedef struct hg_call_at {
  const char *path;            // the file, as the run reached it
  uint32_t line, col, end_line, end_col; // 1-based; columns in characters, the end exclusive
  const struct hg_call_at *next; // the call of the function holding this one, or NULL
} hg_call_at;

typedef struct hg_value hg_value;
struct hg_value {
  hg_value_kind kind;
  const char *text;
  const char *origin;  // UNKNOWN only: "a variable", "a call to f()", ...
  const char *key;     // DICT items: the key, or NULL for a `**spread`
  const char *cond;    // an ALT's item: what selects this alternative, as written ("D.exists()",
                       // "not D.exists()", "ENGINE unset"); NULL: no condition worth naming
  bool splat;          // `*x` in a list or `**x` in a dict or call
  bool conditional;    // set on only some paths to the site (inside an if, a loop, an except…)
  bool of_builder;     // UNKNOWN: the result of a call to a configured builder that cannot be read
  bool contexts;       // ALT: each arm is a calling context of the site ("called from app.py:12"),
                       // named in messages even where every arm agrees
  bool handed;         // ... and the site reads what the contexts' calls pass it (a parameter, not
                       // only `self`): a call can add what the site lacks
  const hg_call_at *calls; // an arm of a `contexts` ALT: its calls, the one nearest the site first
  uint32_t group;      // kwargs: 0 for a call's own keyword or spread; n for every entry of the n-th
                       // dict literal spread into the call (later entries of one group override)
  uint32_t line;       // 1-based line of the expression
  const char *path;    // the file it stands in (NULL: the site's own file)
  const char *via;     // the builder, function or constant it came through, as "name() (path:line)"
  const struct hg_def *def;  // OBJECT: its class; BUILDER: the builder's definition
  hg_value *items;
  size_t n_items;
};

typedef HG_VEC(hg_value) hg_value_vec;

/** `v` with the values collected in `items` as its items, copied into the arena; frees the
 *  vector's heap array. */
hg_value hg_values_finish(hg_arena *arena, hg_value v, hg_value_vec *items);

/** A branch a function summary skipped because its condition was known false, for messages: "a
 *  flag is added only when ..." */
typedef struct {
  const char *condition;  // the condition as written
  const char *why;        // what made it false: "False (the default of ContainerPolicy.cap_drop_all, x.py:12)"
  const char *branch;     // the text of the skipped block
  const char *path;       // where the branch is
  uint32_t line;
} hg_note;

typedef HG_VEC(hg_note) hg_notes;

typedef struct {
  const char *path;  // the file; owned by the caller
  const char *kind;  // the site kind id (rule file stem); owned by the ruleset
  hg_reads reads;
  uint8_t dialect;   // 1 + the index of the policy's dialect it is judged in; 0: its reading mode's default
  uint32_t start_byte, end_byte;
  uint32_t line, col, end_line, end_col;  // 1-based; columns in characters
  bool has_error;                         // the site's own text holds a syntax error
  bool region;                            // not a site but a region that failed to parse and may hide one
  bool imports_builder;                   // its module imports a configured builder module
  uint64_t allowable;  // bit i: requirement i is named by an allow[...] marker at the site (it is
                       // relaxed only when the site fails without it and misses it)
  hg_value flags;  // KWARGS: a DICT; ARGV, SHELL and COMMAND: a LIST of words; CLIENT: unused;
                   // COMPOSE: a DICT of the service's keys, see below
  const hg_note *notes;  // branches the builders it calls skipped (in the arena)
  size_t n_notes;
  // What each configured builder callable (the config's builders and callables in order) yields
  // when this site's file calls it without arguments, as its surface reads it: a BUILDER (no item:
  // taken at its word), an UNKNOWN saying why it cannot be read, or NONE when not read (a
  // Class.method). The fix line offers only the callables that yield every requirement. NULL: the
  // surface reads no builders, and each is offered as configured.
  const hg_value *offers;
  size_t n_offers;
} hg_site;

/* A compose service as `flags` (HG_READS_COMPOSE), from src/surfaces/compose/service.h:
 * - a mapping is a DICT with one item per key (`key` set), in the order written, merge keys
 *   (`<<: *anchor`) applied: the mapping's own keys first, then each merged key not yet present;
 *   nested mappings stay nested (`deploy` holds `resources` holds `limits`), and the policy's
 *   dotted compose names (`deploy.resources.limits.memory`) are paths through them;
 * - a sequence is a LIST;
 * - a scalar is a STR with its text as written (`true`, `512m`, `0.50`: the policy's regexes read
 *   the text) after interpolation (`${VAR:-default}` gives the default, `$$` a `$`); a plain
 *   `null`, `~` or empty scalar is NONE;
 * - a scalar with an interpolation that has no default (`$VAR`, `${VAR}`, `${VAR:?err}`) is
 *   UNKNOWN: `text` as written, `origin` naming the variable;
 * - `line` is where the value stands (for a mapping's item, the line of its key); `via` names
 *   where an alias or a merge key brought a value from: the top-level key holding the anchor
 *   (`x-hardening (line 1)`), else "the merge key at line N". */

/** A `# hardguard: ...` comment, for suppress.c. */
typedef struct {
  uint32_t start_byte, line, col;
  const char *text;  // the comment, in the arena
} hg_marker_comment;

typedef struct hg_sites {
  hg_site *items;  // in the arena
  size_t len;
  hg_marker_comment *markers;  // in the arena, in file order
  size_t n_markers;
  // A surface read without tree-sitter (YAML) says here where the file stopped being readable:
  const char *syntax_error;  // NULL, or the message (in the arena)
  hg_pos syntax_at;
  // The tree's errors are forms of the file's own format, read as the program that runs it reads
  // them (devcontainer.json's trailing commas): no syntax warning for them.
  bool errors_read;
} hg_sites;

#endif
