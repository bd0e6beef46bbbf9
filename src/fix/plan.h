/* What a surface gives --fix: its row's `fix` (model/surface.h), a planner the fix driver
 * (app/fix.c) asks where a failing site is and what to edit there. The driver reads the file,
 * tries the plans, checks the edited file again and writes it; it names no surface. */
#ifndef HG_FIX_PLANNER_H
#define HG_FIX_PLANNER_H

#include <tree_sitter/api.h>

#include "fix/edit.h"
#include "judge/finding.h"
#include "rules/policy.h"

/** One file's text (after any byte-order mark) and its tree. */
typedef struct {
  const char *src;
  size_t len;
  TSNode root;     // the root node
  const char *eol; // "\n" or "\r\n", for inserted lines
} hg_fix_text;

/** What a site is, as a fix sees it. */
typedef enum {
  HG_FIX_SITE_NONE,   // nothing at that range
  HG_FIX_SITE_KWARGS, // a call taking keywords (docker-py, podman-py, ...)
  HG_FIX_SITE_ARGV,   // an argv list or tuple
  HG_FIX_SITE_OTHER,  // a command string, a client, ... (not fixed)
} hg_fix_site_kind;

typedef struct hg_fix_planner {
  /** A site is fixed by applying a configured builder: one try per callable, with the imports it
   *  needs; otherwise the planner adds what the site misses itself, in one try. */
  bool builders;
  /** Finds the site of finding `f` at bytes [start, end): its node and kind. Returns why it is not
   *  fixed there (heap), or NULL. `n_builders`: the callables the config names. */
  char *(*locate)(const hg_fix_text *t, const hg_finding *f, const hg_policy *policy, size_t n_builders,
                  uint32_t start, uint32_t end, TSNode *node, hg_fix_site_kind *kind);
  /** Builders: what callable `name` of builder module `module` yields (*yields: its keywords,
   *  heap; left NULL when that cannot be read), read in the surface's `project` as imported from
   *  `from_path`. */
  void (*builder_yields)(void *project, const char *module, const char *name, const char *from_path, char ***yields,
                         size_t *n);
  /** Builders: the import edits for callables `names` (n) of `module`, inserted before byte
   *  `before`; calls[i] (heap) is how the file then calls names[i]. */
  void (*plan_import)(const hg_fix_text *t, const char *module, char *const *names, size_t n, uint32_t before,
                      hg_edits *edits, char **calls);
  /** Builders: the edits applying `call` ("build()") at the site, which yields keywords `yields`
   *  (NULL: unknown) and reads options `names`; 0, or -1 with why. *note: what it dropped. */
  int (*plan_builder)(const hg_fix_text *t, TSNode site, hg_fix_site_kind kind, const char *call,
                      char *const *yields, size_t n_yields, const char *const *names, const hg_policy *policy,
                      hg_edits *edits, hg_buf *note, hg_buf *why);
  /** Otherwise: the edits adding what finding `f` misses; *note (heap): what is added. 0, or -1
   *  with why. */
  int (*plan_missing)(const hg_fix_text *t, TSNode site, const hg_finding *f, const hg_policy *policy,
                      hg_edits *edits, char **note, hg_buf *why);
  /** The outcome of a fixed site: what was (`dry_run`: would be) done; `builder` and `module` name
   *  the callable applied (builders only), `note` the plan's note. */
  void (*describe)(hg_buf *out, bool dry_run, hg_fix_site_kind kind, const char *note, const char *builder,
                   const char *module);
  /** Why a site that the one try does not make pass is not fixed (not builders). */
  const char *still_fails;
} hg_fix_planner;

#endif
