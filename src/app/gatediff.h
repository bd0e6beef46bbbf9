/* The gate's comparisons: what a change's config, baseline and markers relax that its base's did
 * not. */
#ifndef HG_GATEDIFF_H
#define HG_GATEDIFF_H

#include "app/baseline.h"
#include "rules/config.h"
#include "app/relax.h"

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
