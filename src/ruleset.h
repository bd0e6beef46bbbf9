/* The rules: rules/<surface>/<kind>.scm (site shapes; the file stem is the kind id),
 * rules/<surface>/facts/ (imports and marker comments) and rules/policy.yml, compiled into one
 * TSQuery, per-pattern predicates and a prefilter per surface (surface.h). Built once per run,
 * read-only afterwards and shared by every worker. */
#ifndef HG_RULESET_H
#define HG_RULESET_H

#include <tree_sitter/api.h>

#include "argv.h"
#include "policy.h"
#include "predicate.h"
#include "site.h"
#include "surface.h"

typedef struct hg_ruleset hg_ruleset;

typedef enum { HG_PATTERN_SITE, HG_PATTERN_IMPORT, HG_PATTERN_MARKER } hg_pattern_role;

typedef struct {
  hg_pattern_role role;
  const char *kind;  // SITE: the kind id
  hg_reads reads;    // SITE: from (#set! hardguard.reads "...")
  uint8_t dialect;   // SITE: 1 + the policy's dialect from (#set! hardguard.dialect "..."); 0: the mode's default
  // BODY sites whose @body is a call's arguments: the argument holding the body, by keyword
  // (#set! hardguard.body-keyword "config" [or several, space-separated]), else by position
  // (#set! hardguard.body-position "1"; UINT32_MAX: none); a call to one of body_unwrap (#set!
  // hardguard.body-unwrap "json.dumps") in its place holds the body as its first argument
  hg_argv_words body_keywords;
  uint32_t body_position;
  hg_argv_words body_unwrap;
  hg_predicates *predicates;
} hg_pattern;

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

/** Capture ids of the capture-name contract; UINT32_MAX where no pattern uses the name. */
typedef struct {
  uint32_t site, args, argv, command;
  uint32_t import_module, import_alias, import_from, import_name;
  uint32_t marker;  // a `# hardguard: ...` comment
  uint32_t body;    // BODY sites: the mapping (the Engine API's create body)
} hg_captures;

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_bash(void);

/** Where in query text `text` a quantifier (?, *, +) directly follows another (`)??`, `)*?`),
 *  outside strings and comments; `len` when none does. libtree-sitter 0.20.7 hangs or crashes compiling one
 *  (`(identifier)**`), so such a query is refused before it gets there. */
size_t hg_query_stacked_quantifier(const char *text, size_t len);

/** Compiles query text in a child process that has `seconds` to finish: 0 when the library
 *  survives it (the query may still be invalid: ts_query_new says how), else -1 with err saying
 *  whether it crashed or ran out of time. Call it before other threads exist. */
int hg_query_probe(const TSLanguage *language, const char *text, uint32_t len, unsigned seconds, hg_error *err);

/** Loads the rules from directory `dir`, or the built-in rules when dir is NULL. On failure err
 *  says "file:line:col: what was expected". A directory's queries are tried with hg_query_probe
 *  first. */
int hg_ruleset_load(hg_ruleset **out, const char *dir, hg_error *err);
void hg_ruleset_free(hg_ruleset *self);

/** The YAML site rules of surface `s` (a surface without a tree-sitter grammar). */
const hg_yaml_rule *hg_ruleset_yaml_rules(const hg_ruleset *self, hg_surface_id s, size_t *n);

/** Do the rules have patterns for surface `s`? A surface without them is not checked. */
bool hg_ruleset_has(const hg_ruleset *self, hg_surface_id s);
/** Surface `s`'s query (NULL when the rules have none for it), its patterns and capture ids. */
const TSQuery *hg_ruleset_query(const hg_ruleset *self, hg_surface_id s);
const hg_pattern *hg_ruleset_pattern(const hg_ruleset *self, hg_surface_id s, uint32_t index);
const hg_captures *hg_ruleset_captures(const hg_ruleset *self, hg_surface_id s);
const hg_policy *hg_ruleset_policy(const hg_ruleset *self);
/** The site kinds of every surface, sorted, each once. */
size_t hg_ruleset_kinds(const hg_ruleset *self, const char *const **out);

/** Surface `s`'s prefilter: NULL when some site pattern has no literal (then every file is parsed). */
const pcre2_code *hg_ruleset_prefilter(const hg_ruleset *self, hg_surface_id s);
/** Its source, for --list-rules ("" when off). */
const char *hg_ruleset_prefilter_source(const hg_ruleset *self, hg_surface_id s);
/** Can `len` bytes at `data`, a file of surface `s`, contain a site? False when the rules have
 *  nothing for the surface; true when its prefilter is off. Thread-safe; `md` is not used
 *  (prefilter.c matches without pcre2) and may be NULL. */
bool hg_ruleset_may_contain_site(const hg_ruleset *self, hg_surface_id s, const char *data, size_t len,
                                 pcre2_match_data *md);

#endif
