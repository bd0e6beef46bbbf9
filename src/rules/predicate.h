/* Query predicates, which the tree-sitter C library leaves to its caller: #eq?, #not-eq?,
 * #any-of?, #contains? (the capture's text contains one of the strings), #match? and #not-match?
 * (pcre2), #resolves-to? (a dotted name, after following the file's imports, is one of the given
 * qualified names), #file-contains? (no capture: the file holds one of the strings), #imports? and
 * #not-imports? (no capture: the file imports one of the modules or a submodule, in any form),
 * #defined-in-project? and #not-defined-in-project? (the callee's definition is in the project),
 * #policy-calls? (a #resolves-to? of the names a list of the policy's `classes:` holds, below) and
 * the #set! directive. Any other predicate is a load error. A #resolves-to? name `*.name` is a method
 * of that name on any receiver. Compiled once per pattern; evaluated per match on a worker. */
#ifndef HG_PREDICATE_H
#define HG_PREDICATE_H

#include <tree_sitter/api.h>

#include "rules/filewords.h"
#include "rules/policy.h"
#include "rules/shape.h"

typedef struct hg_predicates hg_predicates;

/** Compiles the predicates of pattern `index`. Sets *out to NULL when it has none. On failure
 *  err holds a message without location (the caller adds the pattern's file:line:col).
 *  `policy` gives #policy-calls? its names (NULL: that predicate is a load error):
 *  `(#policy-calls? @c "forwarding_calls")`, the forwarding calls handed their callable by position
 *  that call it now (partial_calls left out); `(... "forwarding_calls" "target")`, those handed it in
 *  keyword `target`; `(... "partial_calls")`, the partial calls. */
int hg_predicates_compile(hg_predicates **out, const hg_shapes *query, uint32_t index, const hg_policy *policy,
                          hg_error *err);
void hg_predicates_free(hg_predicates *self);

/** The value a `#set! key value` directive gave, or NULL. Owned by self. */
const char *hg_predicates_property(const hg_predicates *self, const char *key);

/** Calls fn for each literal some capture must equal or contain (#eq?, #any-of?, #contains?, the
 *  last component of each #resolves-to? name): one of a predicate's literals appears in any file
 *  the pattern matches. `group` numbers the predicate, so that alternatives of one predicate
 *  share a group; `whole` says the literal stands there as a whole token. */
void hg_predicates_literals(const hg_predicates *self,
                            void (*fn)(void *ctx, unsigned group, const char *lit, bool whole), void *ctx);

/** What a surface knows of a file's names and values, for the predicates that ask it: #imports?,
 *  #resolves-to?, #sdk?, #value-contains?, #defined-in-project? and #mapping?. The rules engine does not read
 *  a language's names itself; the surface answers through these (as tree-sitter leaves predicates
 *  to its caller). A surface without names (shell, make) gives none: then nothing is imported,
 *  nothing qualifies, no value is known and nothing is defined in the project. */
typedef struct {
  /** Writes the qualified dotted name `node` stands for into out (from empty); false when it
   *  stands for none. */
  bool (*qualify)(void *model, TSNode node, hg_buf *out);
  /** Could `node` qualify as a name whose last component is one of `lasts` (`lens` bytes each; a
   *  call's `()` left out: "docker.APIClient()" ends in APIClient)? A cheap test before qualify;
   *  NULL when the surface has none (then qualify alone decides). */
  bool (*may_end_in)(void *model, TSNode node, char *const *lasts, const size_t *lens, size_t n);
  /** Does `node`'s own syntax rule out that it qualifies as a name whose last component is one of
   *  `lasts`, whatever the file's imports and assignments turn out to be (an attribute ending in
   *  another name)? Asked before they are known (hg_predicates_may_hold); NULL: never. */
  bool (*ends_elsewhere)(void *model, TSNode node, char *const *lasts, const size_t *lens, size_t n);
  /** Does the file import `module` or a submodule of it, in any form? */
  bool (*imports)(void *model, const char *module);
  /** The string `node` holds when it can be followed to one (a name to its string, an f-string's
   *  literal parts), or NULL. NULL when the surface has none. */
  const char *(*string_value)(void *model, TSNode node);
  /** Is the definition of the callee `node` in the project? NULL when the surface has none. */
  bool (*defined)(void *model, TSNode node);
  /** Does `node` hold a mapping literal (followed through names; each of several, when it is one
   *  of them)? NULL when the surface has none. */
  bool (*mapping)(void *model, TSNode node);
} hg_names;

typedef struct {
  const char *src;  // the file's bytes
  size_t len;       // their number (0: up to the terminator)
  pcre2_match_data *md;
  const hg_names *names;  // the surface's answers about names (NULL: it has none)
  void *model;            // what they read (the surface's own)
  hg_buf *scratch;
  // What the file-wide predicates (#file-contains?) said, by predicate: the same for every match
  // of the file, so the file is searched once per predicate. Zeroed with the context.
  struct {
    const void *key;
    bool value;
  } file_memo[16];
  unsigned n_file_memo;
  // The words of the surface's #file-contains? predicates (NULL: each searches the file itself), and
  // the bits of those the file holds, found in one pass when a first one is asked. Zeroed with the
  // context too (hg_matches_exec_keeping sets `words` to its query's).
  const hg_file_words *words;
  uint64_t words_in;
  bool words_read;
} hg_predctx;

/** Calls fn for each predicate hg_predicates_may_hold can decide on one node before a match is
 *  made: `i` numbers it, `capture` is the capture whose node it reads (UINT32_MAX: none, it reads
 *  the file). They are #eq? and #not-eq? of a capture and a string, #any-of?, #contains?,
 *  #file-contains?, and #resolves-to? and #resolves-to-suffix? through the names' ends_elsewhere
 *  (#match? is left to the match: its regex may cost more than the match saves). */
void hg_predicates_node_tests(const hg_predicates *self, void (*fn)(void *ctx, uint32_t i, uint32_t capture),
                              void *ctx);
/** Could predicate `i` hold of a match whose capture is `node` (any node, for one that reads the
 *  file), whatever else the match holds and whatever the file's names turn out to be? False only
 *  when hg_predicates_eval would say no to every such match. */
bool hg_predicates_may_hold(const hg_predicates *self, uint32_t i, TSNode node, hg_predctx *ctx);

/** Are node tests i of a and j of b the same test, whatever captures they name (the same
 *  predicate, the same strings)? */
bool hg_predicates_same_test(const hg_predicates *a, uint32_t i, const hg_predicates *b, uint32_t j);

/** Gives the #file-contains? strings of self bits in `words` (before it is sealed): a context whose
 *  words are these finds them all in one pass over the file. NULL self: nothing to do. */
void hg_predicates_bind_words(hg_predicates *self, hg_file_words *words);

/** Do all predicates hold for this match? A NULL self always holds. */
bool hg_predicates_eval(const hg_predicates *self, const TSQueryMatch *match, hg_predctx *ctx);
/** Do those that read the match's text alone (#eq?, #not-eq?, #any-of?, #contains?, #match?,
 *  #not-match?, #file-contains?) hold? They need no imports, so a match can be dropped as soon as
 *  the cursor yields it. */
bool hg_predicates_eval_text(const hg_predicates *self, const TSQueryMatch *match, hg_predctx *ctx);
/** ... and do the others (imports, aliases, the project: #resolves-to? and the like) hold? Both
 *  together are hg_predicates_eval. */
bool hg_predicates_eval_context(const hg_predicates *self, const TSQueryMatch *match, hg_predctx *ctx);

#endif
