/* The gate's own exceptions. What a run's configuration relaxes (excluded paths, `allow:` entries,
 * surfaces turned off, builders taken at their word) is listed for the reviewer; in --diff mode,
 * what a change relaxes compared with its base (an exclude, allow, surface, builder or trust entry
 * added or widened, a marker added or widened, a baseline entry added) becomes a `gate-relaxed`
 * warning, which fails the run only under --strict. Removing or narrowing is never reported. Also
 * the checks that keep the gate from being switched off quietly: builders must be the project's
 * own, and excludes may not leave nothing to check. */
#ifndef HG_GATE_H
#define HG_GATE_H

#include "app/baseline.h"
#include "app/config.h"
#include "app/repo.h"
#include "app/walk.h"

typedef enum {
  HG_RELAX_EXCLUDE,  // an `exclude` glob
  HG_RELAX_ALLOW,    // an `allow:` entry
  HG_RELAX_SURFACE,  // a surface turned off
  HG_RELAX_BUILDER,  // a builder (or a callable of one)
  HG_RELAX_TRUST,    // a builder taken at its word (`trust: true`)
  HG_RELAX_STRICT,   // `strict: true` turned off
  HG_RELAX_MARKER,   // an allow[...] or ignore[...] marker
  HG_RELAX_BASELINE, // a baseline entry
  HG_RELAX_UNREAD,   // a file of the gate that could not be read for the comparison
  HG_RELAX_COUNT,
} hg_relax_kind;
extern const char *const hg_relax_names[HG_RELAX_COUNT];

/** One relaxation: where it is written and what it relaxes. Strings are owned. */
typedef struct {
  char *path;    // the config, source or baseline file, as the run names it
  uint32_t line; // 1-based; 0 for the whole file
  hg_relax_kind kind;
  char *message; // what it relaxes, one sentence without a final period
  char *reason;  // the reason it gives, or NULL
} hg_relaxation;

typedef HG_VEC(hg_relaxation) hg_relaxations;

void hg_relaxations_free(hg_relaxations *self);
/** Appends one relaxation (the strings are copied; reason may be NULL). */
void hg_relaxations_add(hg_relaxations *self, const char *path, uint32_t line, hg_relax_kind kind, const char *message,
                        const char *reason);
/** Sorts by path, then line, then message. */
void hg_relaxations_sort(hg_relaxations *self);

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

struct hg_index;
/** Every builder not marked `trust: true` must be a module of the project (found by the index);
 *  one that is not (a standard-library or installed module) is an error: -1 with
 *  "config:line: ..." in err. */
int hg_gate_check_builders(const hg_config *config, struct hg_index *index, hg_error *err);

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

/* The comparisons, pure: each appends what `head` relaxes that `base` did not. */

/** Config entries: exclude globs, allow (glob, requirement) pairs, surfaces turned off, builder
 *  modules and callables, `trust: true`. Named at head's path and lines. */
void hg_gate_compare_config(const hg_config *base, const hg_config *head, hg_relaxations *out);
/** Baseline entries in head that base does not hold (as many times), named at `head_path`. */
void hg_gate_compare_baseline(const hg_baseline *base, const hg_baseline *head, const char *head_path,
                              hg_relaxations *out);
/** Marker comments (`# hardguard: allow[...]` / `ignore[...]`) in the text of file `path` at head
 *  that no marker of base covers: a head marker matches a base marker of the same kind on the same
 *  line of code, or else one that names at least the same ids. `base` NULL: a new file. */
void hg_gate_compare_markers(const char *base, size_t base_len, const char *head, size_t head_len, const char *path,
                             hg_relaxations *out);

#endif
