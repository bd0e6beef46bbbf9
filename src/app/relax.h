/* A relaxation of the gate: one exclude, allow entry, surface turned off, builder, marker or
 * baseline entry that lets something pass, where it is written and what it relaxes. The gate
 * (gate.h) lists those in force; its comparisons (gatediff.h) those a change adds. */
#ifndef HG_RELAX_H
#define HG_RELAX_H

#include "base/util.h"

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

#endif
