/* One pattern of the rules, set up from its predicates and properties: its role (site, import or
 * marker fact), kind, reading mode, dialect, body argument and kind-by. Pure: the ruleset says
 * where each pattern stands, so its errors carry file:line:col. */
#ifndef HG_PATTERN_H
#define HG_PATTERN_H

#include <tree_sitter/api.h>

#include "base/argv.h"
#include "rules/policy.h"
#include "rules/predicate.h"
#include "model/site.h"

/** Capture ids of the capture-name contract; UINT32_MAX where no pattern uses the name. */
typedef struct {
  uint32_t site, args, argv, command;
  uint32_t import_module, import_alias, import_from, import_name;
  uint32_t marker;  // a `# hardguard: ...` comment
  uint32_t body;    // BODY sites: the mapping (the Engine API's create body)
} hg_captures;

typedef enum { HG_PATTERN_SITE, HG_PATTERN_IMPORT, HG_PATTERN_MARKER } hg_pattern_role;

typedef struct {
  hg_pattern_role role;
  const char *kind;  // SITE: the kind id
  hg_reads reads;    // SITE: from (#set! hardguard.reads "...")
  uint8_t dialect;   // SITE: 1 + the policy's dialect from (#set! hardguard.dialect "..."); 0: the mode's default
  // BODY sites whose @body is a call's arguments: the argument holding the body, by keyword
  // (#set! hardguard.body-keyword "config" [or several, space-separated]), else by position
  // (#set! hardguard.body-position "1"; UINT32_MAX: none), or the call's keywords themselves as one
  // mapping (#set! hardguard.body-position "keywords": body_is_keywords); a call to one of
  // body_unwrap (#set! hardguard.body-unwrap "json.dumps") in its place holds the body as its first
  // argument
  hg_argv_words body_keywords;
  uint32_t body_position;
  bool body_is_keywords;
  hg_argv_words body_unwrap;
  // KWARGS sites: the keyword whose value holds the options when a spread hands it on
  // (#set! hardguard.options-keyword "host_config": docker-py's create_container(**kw), whose kw
  // holds host_config=api.create_host_config(...)); NULL: the call's own keywords
  const char *options_keyword;
  // ... and the call's own keywords that count beside it (#set! hardguard.own-keywords
  // "network_disabled"): of its own keywords only these are read, the others being no options it
  // takes (docker-py's create_container refuses security_opt=...)
  hg_argv_words own_keywords;
  // (#set! hardguard.kind-by "@capture verb=kind ..."): the site's kind is the one named for the
  // last name the capture's value resolves to (its text when it cannot be followed), else `kind`
  uint32_t kind_capture;     // UINT32_MAX: no kind-by
  hg_argv_words kind_verbs;  // the verbs ...
  const char **kind_ids;     // ... and their kinds (the ruleset's strings)
  hg_predicates *predicates;
} hg_pattern;

/** Sets up pattern `i` of query `q` (captures `c`): a site pattern of kind `kind` (one of the
 *  ruleset's `kinds`, which p->kind points into), or a facts pattern when `kind` is NULL. -1 with
 *  err saying what the pattern lacks. Free with hg_pattern_free, whatever it returned. */
int hg_pattern_setup(hg_pattern *p, const hg_shapes *q, uint32_t i, const hg_captures *c, const char *kind,
                     char *const *kinds, size_t n_kinds, const hg_policy *policy, hg_error *err);
void hg_pattern_free(hg_pattern *p);

/** The dialect a site of reading mode `reads` is judged in: `name` (from hardguard.dialect), which
 *  must serve the mode, or the mode's default. 0 with *out = 1 + its index (0: the default), or -1
 *  with a message in msg. Modes without options (client, opaque, script) need none. */
int hg_pattern_site_dialect(const hg_policy *p, hg_reads reads, const char *name, uint8_t *out, char *msg, size_t cap);

#endif
