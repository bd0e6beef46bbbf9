/* The gate's own exceptions. What a run's configuration relaxes (excluded paths, `allow:` entries,
 * surfaces turned off, builders taken at their word) is listed for the reviewer; in --diff mode,
 * what a change relaxes compared with its base (an exclude, allow, surface, builder or trust entry
 * added or widened, a marker added or widened, a baseline entry added) becomes a `gate-relaxed`
 * warning, which fails the run only under --strict. Removing or narrowing is never reported. Also
 * the checks that keep the gate from being switched off quietly: builders must be the project's
 * own, and excludes may not leave nothing to check. */
#ifndef HG_GATE_H
#define HG_GATE_H

#include "app/gatediff.h"
#include "app/repo.h"
#include "app/walk.h"

/** What the reporters show about the gate. */
typedef struct {
  hg_relaxations in_force; // what the run's configuration relaxes
  hg_relaxations added;    // gate-relaxed warnings: what the change relaxes (--diff)
  bool reviewed;           // --diff: the change was compared with its base
  bool strict;             // --strict or `strict: true`: gate-relaxed warnings fail the run
  size_t trusted_builders; // builders marked `trust: true`
} hg_gate;

/** Fills self (zero-initialised) with what `config` relaxes. */
void hg_gate_init(hg_gate *self, const hg_config *config);
void hg_gate_free(hg_gate *self);

struct hg_projects;
/** Every builder not marked `trust: true` must be a module of the project (found by a surface's project state);
 *  one that is not (a standard-library or installed module) is an error: -1 with
 *  "config:line: ..." in err. */
int hg_gate_check_builders(const hg_config *config, const struct hg_projects *projects, hg_error *err);

/** When the walk found nothing to check (`n_files` 0) and the config's excludes left something
 *  out, walks `paths` again without excludes: if a surface reads any file there, the excludes
 *  switched the gate off: -1 with err. */
int hg_gate_check_empty(const char *const *paths, size_t n, const hg_config *config, size_t n_files, size_t excluded,
                        hg_error *err);

/** The --diff review: compares the gate at commit `ref` with the work tree. `config_path` is
 *  --config (NULL: discovered from `start`, the first PATH), `head` the work tree's config when the
 *  run already loaded it (NULL: loaded here; a failure is a warning, not an error), `baseline` the
 *  --baseline file (NULL: none), `files` the changed files the run judges (their markers are
 *  compared). Appends to self->added; -1 with err when git fails or the base cannot be read. */
int hg_gate_review(hg_gate *self, hg_repo *repo, const char *ref, const char *config_path, const char *start,
                   const hg_config *head, const char *baseline, const hg_paths *files, hg_error *err);

#endif
