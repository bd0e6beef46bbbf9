/* Inside --fix (app/fix.c): a failing site and the file it is fixed in, and judging an edited
 * text again (app/fixcheck.c): does a site, or a calling context of a site whose options come from
 * its callers, pass once the edits are made? */
#ifndef HG_APP_FIXFILE_H
#define HG_APP_FIXFILE_H

#include "app/check.h"
#include "app/fix.h"
#include "app/project.h"
#include "fix/plan.h"
#include "model/surface.h"

// One failing site of a file that --fix may fix, and what the fix did with it. A site whose options
// come from its callers is fixed at them: each failing calling context's call nearest the site is a
// site of its own (`caller`), and passes when the site, judged again, no longer fails there.
typedef struct {
  const hg_finding *f;
  const hg_related *caller; // this call of f's failing calling context, or NULL: f's own site
  uint32_t start, end; // bytes of the site (of the call, for a caller) in the text (after any BOM)
  TSNode node;
  hg_fix_site_kind kind;
  int choice;   // the builder callable applied (an index into the run's candidates), -1: none
  char *why;    // not fixable: why (heap)
  char *note;   // fixed: what was replaced (heap), or NULL
  hg_edits own; // the last build's edits of this site (copies)
} hg_fixsite;

// A builder callable the config names, and what it yields when that can be read.
typedef struct {
  const char *module, *name;
  char **yields; // keywords; NULL: unknown
  size_t n_yields;
} hg_fixcand;

typedef struct {
  const hg_fix_options *o;
  const hg_policy *policy;
  hg_checker *checker;
  TSParser *parser[HG_SURFACE_MAX]; // per surface fixed, made on first use
  hg_fixcand *cands;
  size_t n_cands;
  const char **names_by_dialect[HG_POLICY_MAX_DIALECTS]; // the option names each keyword dialect reads
  hg_fix_report *out;
} hg_fixer;

typedef struct {
  const char *path;
  hg_surface_id surface; // one with a planner
  const hg_fix_planner *fix;
  char *bytes;           // the whole file
  size_t len;
  size_t bom;
  hg_fix_text text;
  TSTree *tree;
  hg_fixsite *sites;
  size_t n_sites;
  hg_edits imports; // the last build's import edits (copies)
} hg_fixfile;

/** The 1-based line and character column of byte `at` of `s`. */
void hg_fix__position(const char *s, size_t at, uint32_t *line, uint32_t *col);

/** What checking a text gave. */
typedef struct {
  hg_findings findings;
  hg_file_errors errors;
} hg_fix_checked;

/** Checks `bytes` as file `path` of `surface`, in the run's project state. */
void hg_fix__check(hg_fixer *fx, hg_surface_id surface, const char *path, const char *bytes, size_t len,
                   hg_fix_checked *out);
void hg_fix__checked_free(hg_fix_checked *c);
size_t hg_fix__syntax_errors(const hg_fix_checked *c);
/** Do two paths name the same file? */
bool hg_fix__same_file(const char *a, const char *b);
/** Does site s of fl pass in the edited text (`text`, BOM included; c: it checked)? A caller: does
 *  its site, judged again, no longer fail in this call's context (its file, when another, judged
 *  as on disk with this text for fl)? Adds why to *why when not. */
bool hg_fix__passes(hg_fixer *fx, const hg_fixfile *fl, const hg_fixsite *s, const hg_edits *edits,
                    const hg_buf *text, const hg_fix_checked *c, hg_buf *why);

#endif
