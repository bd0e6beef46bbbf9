/* How the options that reach a site stand, requirement by requirement: a site's keywords or argv
 * words (with the results of the builders it applies spliced in) read into a state per
 * requirement, the occurrence that decided it, the forbidden options set, and how the builders
 * were applied. Pure; for evaluate.c, which turns it into a verdict and its messages. */
#ifndef HG_JUDGE_H
#define HG_JUDGE_H

#include "rules/policy.h"
#include "model/site.h"

/** Ordered: a later occurrence counts when it is better, or (scalar CLI options) when it comes later. */
typedef enum { HG_UNSAT, HG_UNVERIFIABLE, HG_SAT } hg_state;

/** A calling context of the site and what it falls short of. */
typedef struct {
  const hg_value *arm;  // the context: an arm of a `contexts` alternative of the site's values
  uint64_t lacks;       // bit r: requirement r is not met in some world taking it
  bool forbids;         // a forbidden option is set in some world taking it
  uint64_t surely;      // bit r: ... is plainly unmet in some world taking it (not only unverifiable)
} hg_judge_context;

/** Everything the reading found; pointers point into the site's values (or `words`). */
typedef struct {
  const hg_policy *policy;
  size_t dialect;  // the policy's dialect whose spellings are read
  bool fold_case;  // ... whose mapping names match in any case
  pcre2_match_data *md;
  hg_state req[HG_POLICY_MAX_REQ];
  const hg_value *unverifiable[HG_POLICY_MAX_REQ]; // the value that left requirement i unverifiable
  const hg_value *src[HG_POLICY_MAX_REQ];          // the occurrence that decided requirement i ...
  const char *src_name[HG_POLICY_MAX_REQ];         // ... under this keyword or flag (the policy's)
  const char *src_value[HG_POLICY_MAX_REQ];        // ... with this value: src's text, or its part after
                                                   // `=` when the word holds both (`--cpus=0`, `-m0`)
  bool cond_seen[HG_POLICY_MAX_REQ];               // an occurrence on some paths only was seen
  const hg_value *carrier;                         // the first spread hardguard could not follow
  uint64_t carried;                                // bit r: unverifiable only as the carrier may set it
  const hg_value *undoer;                          // the first value known only in part that might set a
                                                   // forbidden option (a mount whose target is unknown)
  size_t undoer_forbid;                            // ... which one (an index into the policy's forbid)
  bool builder;                                    // a builder is applied ...
  bool builder_safe;                               // ... and nothing merged after it can replace what it sets
  const hg_value *overrider;                       // what can, when no builder is safe
  bool trusted;                                    // a builder taken at its word (`trust: true`) is applied
  const hg_value *trusted_by;                      // ... this one
  const hg_value *applied;                         // the last builder applied whose result was read
  bool in_builder;                                 // reading the options a builder yields
  const hg_value *mismatch;                        // a keyword builder spread into a command line, or the reverse
  hg_value *words;                                 // argv: the words with builders' results spliced in (heap)
  // Per forbidden option (as many as the policy has: heap, freed by judge_free):
  const hg_value **forbid_hit;   // the value that sets forbidden option i
  const char **forbid_name;      // ... under this keyword or flag
  const hg_value **forbid_value; // ... and, for a CLI option, the separate value word
  const hg_value **trap_hit;     // per trap of the dialect: the keyword that sets it
  // Alternatives (judge/worlds.c): how many worlds were read, and per requirement and forbidden
  // option the conditions of the world that decided it when the worlds disagree ("`D.exists()`
  // is false"), else NULL. Heap, freed by hg_judge_free, with what the worlds' values need.
  size_t n_worlds;
  char *alt_cond[HG_POLICY_MAX_REQ];
  bool contexts; // the site was read in calling contexts: a requirement every one lacks names them all
  bool ctx_only[HG_POLICY_MAX_REQ]; // alt_cond names only the calling contexts: every world lacks it alike
  // Per calling context read (an arm of a `contexts` alternative, in the order first met): what it
  // falls short of in the worlds that take it. Heap, freed by hg_judge_free.
  HG_VEC(hg_judge_context) ctx;
  char **forbid_cond;
  HG_VEC(void *) kept;  // the worlds' values and words, for the pointers above
} hg_judge;

/** A judge for `policy`'s dialect `dialect` (an index, see hg_policy_site_dialect); free with
 *  hg_judge_free. `md` is the calling thread's pcre2 match data. */
void hg_judge_init(hg_judge *j, const hg_policy *policy, int dialect, pcre2_match_data *md);
void hg_judge_free(hg_judge *j);
/** Reads a KWARGS site's dict of keywords. */
void hg_judge_read_kwargs(hg_judge *j, const hg_value *dict);
/** Reads a COMPOSE site's service mapping (see site.h), or a BODY site's mapping, with the
 *  dialect's spellings: a dotted name is a path through nested mappings (the last key of a name
 *  counts, looking into the mappings builders yield; in any case with `fold_case`); of a list, any
 *  element counts; a mapping in a list (long-syntax volumes, the Engine API's Mounts) is judged by
 *  its `source`. A requirement the dialect has no spelling for stays unsatisfied. */
void hg_judge_read_mapping(hg_judge *j, const hg_value *mapping);
/** Reads an ARGV or SHELL site's words, from the program to the image. */
void hg_judge_read_argv(hg_judge *j, const hg_value *list);
/** Reads a list of option words without a program (what a command-line builder yields). */
void hg_judge_read_words(hg_judge *j, const hg_value *list);
/** Is requirement r unmet because its occurrence has a value that means "no limit" to Docker? */
bool hg_judge_unlimited(const hg_judge *j, size_t r);

#endif
