/* The one rule for values that are one of several (HG_VAL_ALT, model/site.h): a site whose options
 * hold alternatives is read once per combination of them (a "world"), and the readings are merged
 * into one judge: a requirement stands at the weakest state any world leaves it in, a forbidden
 * option is set when any world sets it, a builder is applied when every world applies it. Where the
 * worlds disagree, the judge keeps the conditions of the world that falls short, for the messages.
 * Sites without alternatives are read once, as before. See docs/value-model.md. */
#ifndef HG_WORLDS_H
#define HG_WORLDS_H

#include "judge/options.h"

/** Most choices among alternatives one world makes, and most worlds read for one site; past them
 *  the remaining alternatives are one UNKNOWN value whose origin names the budget. */
#define HG_WORLDS_MAX_CHOICES 8
#define HG_WORLDS_MAX 256
/** An alternative with more arms than this is one UNKNOWN value (the budget). */
#define HG_WORLDS_MAX_ARMS 64
/** Values copied to read all of a site's worlds (a value with alternatives deep in a big tree is
 *  copied once a world): past this, what remains is unknown, naming the budget. */
#define HG_WORLDS_MAX_VALUES ((size_t)1 << 18)

/** One of options.h's readings: hg_judge_read_kwargs, _mapping, _argv or _words. */
typedef void (*hg_judge_reader)(hg_judge *j, const hg_value *flags);

/** Reads `flags` (a site's options, or what a builder yields) with `read` once per world, merged
 *  into `j` (initialised by hg_judge_init; what the merged judge points to lives until
 *  hg_judge_free). */
void hg_judge_read_worlds(hg_judge *j, hg_judge_reader read, const hg_value *flags);

/** Does `v` hold an alternative anywhere? */
bool hg_value_has_alt(const hg_value *v);

/** What a builder yields by itself (its items[0]) in every world, as requirement bits; `flags`:
 *  read as CLI words. */
uint64_t hg_judge_yields(const hg_judge *parent, const hg_value *builder, bool flags);

#endif
