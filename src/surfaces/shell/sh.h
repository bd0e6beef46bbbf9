/* Inside the shell surface: a script's variable assignments and the expansion of a command's
 * words with them. Everything lives in the file's arena. */
#ifndef HG_SH_H
#define HG_SH_H

#include <tree_sitter/api.h>

#include "rules/policy.h"
#include "model/site.h"

/** One assignment `NAME=value`, `NAME+=(...)`, `local NAME=...`, in file order. */
typedef struct {
  const char *name;
  TSNode node;  // the variable_assignment
  TSNode value; // its value (null for `local X` without one)
  TSNode func;  // the function_definition holding it, or a null node at the top level
  bool append;  // +=
} hg_sh_assign;

/** Where the script runs, for the variables it does not assign: `names` are set by the file that
 *  embeds it (a Makefile's variables, a GitHub expression), `origins[i]` says where names[i] comes
 *  from (NULL: `origin`). */
typedef struct hg_sh_env {
  const char *const *names;
  const char *const *origins;
  size_t n;
  const char *origin;
} hg_sh_env;

typedef struct {
  const char *src;
  hg_arena *arena;
  const hg_sh_env *env; // NULL: a script of its own
  hg_sh_assign *assigns;
  size_t n_assigns;
  int depth;  // of variables followed through other variables
  void *memo; // what each assignment gives, once worked out (words.c)
  // While a word is read once per branch of an if or case (branches.c): the variable those
  // branches assign, and the assignment this reading takes for it where the word names it.
  const char *pin_name;
  const hg_sh_assign *pin;
} hg_sh;

/** Collects the assignments of the script under `root`. */
void hg_sh_init(hg_sh *self, const char *src, hg_arena *arena, TSNode root);

/** Appends the words that argument node `arg` expands to (after word splitting) to `out`: STR
 *  words (HG_HOLE marks a part that cannot be known), or UNKNOWN for a word that is all unknown. */
void hg_sh_words(hg_sh *self, TSNode arg, hg_value_vec *out);

/** The values word `arg` may hold when it is a variable standing alone (`$ENGINE`, "${DOCKER}",
 *  ${ENGINE:-podman}): the value of every assignment of it in the script that may reach `arg`, the
 *  environment's unless an assignment on every path before it hides it, and the default. *out is
 *  then an HG_VAL_ALT of them (each STR or UNKNOWN, with `cond`), or the one value there is; false
 *  (out untouched) for any other word. Bounded: at most MAX_ALTERNATIVES, the rest "budget". */
bool hg_sh_alternatives(hg_sh *self, TSNode arg, hg_value *out);

/** The value of variable `name` where `use` stands, when it is a string known in full (the last
 *  assignment before `use` in its scope, as hg_sh_words reads it); NULL otherwise. */
const char *hg_sh_scalar_at(hg_sh *self, const char *name, TSNode use);

/** The function_definition holding `n`, or a null node. */
TSNode hg_sh_function_of(TSNode n);

#endif
