/* What leaves a file: one hg_finding per site (passing sites too, for --audit and JSON) and one
 * hg_file_error per file that could not be fully read. Also the rule catalogue, read by
 * --list-rules, --explain and the reporters. */
#ifndef HG_FINDING_H
#define HG_FINDING_H

#include <stdint.h>

#include "base/util.h"

typedef enum {
  HG_RULE_WEAKENING_OPTION,
  HG_RULE_UNHARDENED_SITE,
  HG_RULE_BUILDER_NOT_APPLIED,
  HG_RULE_BUILDER_OVERRIDABLE,
  HG_RULE_BUILDER_INCOMPLETE,
  HG_RULE_UNVERIFIABLE_FLAGS,
  HG_RULE_CLIENT_WITHOUT_BUILDER,
  HG_RULE_UNPARSABLE_SITE,
  HG_RULE_BAD_SUPPRESSION,
  HG_RULE_UNUSED_SUPPRESSION,
  HG_RULE_GATE_RELAXED,  // a warning about the gate itself (gate.h), never a site's rule
  HG_RULE_COUNT,
  HG_RULE_NONE = -1,
} hg_rule_id;

typedef struct {
  const char *id;
  const char *summary;       // one line
  const char *what;          // what it checks
  const char *why;           // why it matters
  const char *fix;           // how to fix it
  const char *example_fail;  // a failing snippet
  const char *example_pass;  // the same, passing
} hg_rule;

extern const hg_rule hg_rules[HG_RULE_COUNT];
/** The rule with this id, or NULL. */
const hg_rule *hg_rule_find(const char *id);

typedef enum { HG_VIA_NONE, HG_VIA_BUILDER, HG_VIA_FLAGS } hg_via;
extern const char *const hg_via_names[];

/** An audited exception written at the site (`# hardguard: ignore[rule] -- reason` or
 *  `allow[requirement] -- reason`). A SUPPRESSED finding does not fail the run; an ALLOWED site
 *  was judged with the named requirements relaxed. Both are listed by --audit and JSON. */
typedef enum { HG_SUPPRESSION_NONE, HG_SUPPRESSION_SUPPRESSED, HG_SUPPRESSION_ALLOWED } hg_suppression;

/** What reached a site for one requirement (or one forbidden option it sets), and from where. */
typedef enum {
  HG_EFFECT_SATISFIED,
  HG_EFFECT_MISSING,
  HG_EFFECT_CONDITIONAL,   // set on some paths only: not guaranteed
  HG_EFFECT_UNVERIFIABLE,  // reached from something that cannot be followed
  HG_EFFECT_ALLOWED,       // relaxed by an allow[...] marker at the site
  HG_EFFECT_TRUSTED,       // a builder marked `trust: true` stands for it
  HG_EFFECT_FORBIDDEN,     // a forbidden option is set
  HG_EFFECT_COUNT,
} hg_effect_status;
extern const char *const hg_effect_names[HG_EFFECT_COUNT];

typedef struct {
  const char *id;  // requirement or forbidden option id; owned by the policy
  bool forbidden;  // a forbidden option (else a requirement)
  hg_effect_status status;
  const char *value;   // as written ("cap_drop=[\"ALL\"]", "--network none"); NULL when nothing reached it
  const char *path;    // the file it is written in; NULL: the site's own file
  uint32_t line;       // 0 when nothing reached it
  const char *via;     // the builder or constant it came through, or NULL
  const char *reason;  // UNVERIFIABLE: why it cannot be followed; CONDITIONAL: the alternative that lacks it
} hg_effect;

/** Another place a finding points at: a call through which a failing calling context of the site
 *  passes (the caller that must change). */
typedef struct {
  char *path;     // as the run reached it
  uint32_t line, col, end_line, end_col;  // the call; columns in characters, the end exclusive
  bool nearest;   // the call nearest the site of its context (a context's calls follow it)
  char *message;  // "the calling context `called from app.py:12` lacks no-new-privileges"
} hg_related;

/** Frees an array of n related places and their strings. */
void hg_related_free(hg_related *related, size_t n);

typedef struct {
  char *path;
  uint32_t line, col, end_line, end_col;  // 1-based, columns in characters
  const char *kind;                       // site kind; owned by the ruleset
  const char *dialect;                    // the dialect its options are judged in (policy-owned); NULL: none
  hg_rule_id rule;                        // HG_RULE_NONE: the site passes
  uint32_t also;                          // bit r: rule r fails at this site too
  hg_via via;
  const char **missing;  // requirement ids (strings owned by the policy), in policy order
  size_t n_missing;
  char *message, *fix;
  hg_effect *effective;  // one heap block (the array and its strings); per requirement, then
  size_t n_effective;    // per forbidden option set; none for client, dynamic-code and unparsable sites
  hg_related *related;   // heap: the calls of each failing calling context, in the order read
  size_t n_related;
  bool at_callers;       // the fix is at those calls (they hand the site its options), not in the site
  char *source_line;  // the site's first line, for the caret display; of a long line, the part
                      // around the site between ellipses (…)
  uint32_t source_col; // the column source_line's first character stands at (0, 1: the line's start)
  hg_suppression suppression;
  char *justification;  // the reason after `--` in the marker; NULL without a suppression
} hg_finding;

/** Does this finding fail the run (a failing rule, not suppressed)? */
bool hg_finding_fails(const hg_finding *self);

typedef HG_VEC(hg_finding) hg_findings;

typedef enum { HG_FILE_UNREADABLE, HG_FILE_SYNTAX } hg_file_error_kind;

typedef struct {
  char *path;
  hg_file_error_kind kind;
  uint32_t line, col;  // SYNTAX: the first error; 0 otherwise
  char *message;
} hg_file_error;

typedef HG_VEC(hg_file_error) hg_file_errors;

void hg_finding_clear(hg_finding *self);
void hg_findings_free(hg_findings *self);
void hg_file_errors_free(hg_file_errors *self);
/** Sorts by path, line, column, kind and rule: the order every reporter prints. */
void hg_findings_sort(hg_findings *self);
void hg_file_errors_sort(hg_file_errors *self);

#endif
