/* The rules: rules/<surface>/<kind>.scm (site shapes; the file stem is the kind id),
 * rules/<surface>/facts/ (imports and marker comments) and rules/policy.yml, compiled into shapes
 * (shape.h) with per-pattern predicates and a dispatch table for the walk (walk.h), and a
 * prefilter per surface (surface.h). Loaded once per run and shared by every worker; a surface's
 * built-in rules are compiled when a file first needs them, and their prefilter comes built into
 * the binary. */
#ifndef HG_RULESET_H
#define HG_RULESET_H

#include <tree_sitter/api.h>

#include "base/argv.h"
#include "base/yamlflat.h"
#include "rules/checks.h"
#include "rules/policy.h"
#include "rules/predicate.h"
#include "rules/pattern.h"
#include "rules/prefilter.h"
#include "rules/shape.h"
#include "rules/walk.h"
#include "model/site.h"
#include "model/surface.h"

typedef struct hg_ruleset hg_ruleset;


/** A site rule of a surface read without tree-sitter (YAML): rules/<surface>/<kind>.yml. */
typedef struct {
  char **files;  // globs matched against the end of a file's path; none: every file of the surface
  size_t n_files;
  char **paths;  // dotted paths of mapping keys, `*` any key or list item
  size_t n_paths;
} hg_yaml_select;

typedef struct {
  char *kind;     // the file stem
  char *reads;    // "script": the selected scalars are shell scripts; "compose": a compose service
  hg_yaml_select *select;
  size_t n_select;
  char **literals;  // a file holding none of these has no site (the prefilter); none: every file
  size_t n_literals;
} hg_yaml_rule;


/** A surface's compiled rules as a file of some units (site files) sees them: every pattern, only
 *  those of the units (and the facts) tried (matches.h finds them). Owned by the ruleset; read-only. */
typedef struct {
  const hg_shapes *shapes;
  const hg_dispatch *dispatch;
  const TSQuery *reference;    // a reference ruleset's (hg_ruleset_reference): libtree-sitter's query, else NULL
  const uint8_t *enabled;      // by pattern index: tried
  const hg_pattern *patterns;  // by pattern index
  uint32_t n_patterns;
  hg_captures captures;
  hg_units units;  // the units it holds
  // What the walk asks before it tries each pattern at a node (walk.h's gate, its tests answered
  // by hg_predicates_may_hold).
  const hg_checks *checks;
  const hg_file_words *words;  // the strings of its #file-contains? predicates (hg_predctx.words)
} hg_rules_query;

/** The built-in rules' prefilters and policy document, made when the binary is built (rulegen.c
 *  writes one as C). */
typedef struct {
  uint64_t hash;  // hg_ruleset_builtin_hash() of the rules it was made from
  hg_prefilter_seed surfaces[HG_SURFACE_MAX];
  hg_yaml_flat policy;  // policy.yml's document, as libyaml loads it
} hg_ruleset_seed;

/** A hash of the built-in rules (their paths and bytes). */
uint64_t hg_ruleset_builtin_hash(void);



/** Loads the rules from directory `dir`, or the built-in rules when dir is NULL. On failure err
 *  says "file:line:col: what was expected". A directory's rules are compiled now. */
int hg_ruleset_load(hg_ruleset **out, const char *dir, hg_error *err);
void hg_ruleset_free(hg_ruleset *self);

/** The YAML site rules of surface `s` (a surface without a tree-sitter grammar). */
const hg_yaml_rule *hg_ruleset_yaml_rules(const hg_ruleset *self, hg_surface_id s, size_t *n);

/** Do the rules have patterns for surface `s`? A surface without them is not checked. */
bool hg_ruleset_has(const hg_ruleset *self, hg_surface_id s);
/** A query of surface `s` holding the units `need` (only their patterns are tried) and every facts
 *  file (NULL when the rules have nothing for the surface). Thread-safe; compiles the surface's
 *  rules when no file needed them before. */
const hg_rules_query *hg_ruleset_query_for(const hg_ruleset *self, hg_surface_id s, hg_units need);
/** The units whose sites `len` bytes at `data`, a file of surface `s`, may hold (0: none). */
hg_units hg_ruleset_units(const hg_ruleset *self, hg_surface_id s, const char *data, size_t len);
/** From now on, hg_ruleset_units answers every unit, whatever the bytes: the analysis without
 *  the prefilter's narrowing, which the soundness tests hold the narrowed one equal to. Call it
 *  before other threads use the ruleset. */
void hg_ruleset_whole(hg_ruleset *self);
/** Its matches are found by libtree-sitter's query engine over the same rule text, not by the
 *  walk: the reference the soundness tests hold the walk equal to. Call it before the rules are
 *  first used (the built-in rules: they are compiled then). */
void hg_ruleset_reference(hg_ruleset *self);
/** Surface `s`'s prefilter as a seed (views into the ruleset; all zero for a surface without
 *  tree-sitter rules). Compiles the surface's rules when it has no seed. */
hg_prefilter_seed hg_ruleset_seed_of(const hg_ruleset *self, hg_surface_id s);

const hg_policy *hg_ruleset_policy(const hg_ruleset *self);
/** The site kinds of every surface, sorted, each once. */
size_t hg_ruleset_kinds(const hg_ruleset *self, const char *const **out);

/** Surface `s`'s prefilter: NULL when some site pattern has no literal (then every file is parsed). */
const pcre2_code *hg_ruleset_prefilter(const hg_ruleset *self, hg_surface_id s);
/** Its source, for --list-rules ("" when off). Compiles the surface's rules and checks that the
 *  prefilter built into the binary is theirs (abort() if not: a stale build). */
const char *hg_ruleset_prefilter_source(const hg_ruleset *self, hg_surface_id s);
/** Can `len` bytes at `data`, a file of surface `s`, contain a site? False when the rules have
 *  nothing for the surface; true when its prefilter is off. Thread-safe; `md` is not used
 *  (prefilter.c matches without pcre2) and may be NULL. */
bool hg_ruleset_may_contain_site(const hg_ruleset *self, hg_surface_id s, const char *data, size_t len,
                                 pcre2_match_data *md);

#endif
