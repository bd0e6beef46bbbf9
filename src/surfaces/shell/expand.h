/* Inside the shell surface's word reader: the value a variable holds where it is used, the word
 * being built, and the functions the reader's files share (assigns.c: the assignments; word.c:
 * building one word; words.c: expanding a command's words with the variables; alternatives.c: the
 * values a program word may hold; branches.c: a command's argument, a variable's branches read as
 * alternatives). Everything lives in the file's arena. */
#ifndef HG_SH_EXPAND_H
#define HG_SH_EXPAND_H

#include "base/util.h"
#include "surfaces/node.h"
#include "surfaces/shell/sh.h"

// Variables followed through other variables at most this deep (`A=$B`, `B=$C`, ...): a script
// assigning a chain longer than this is generated, and a cycle (`A=$A`) must end.
enum { MAX_VAR_DEPTH = 16 };
// A variable's value longer than this (or with more elements) is not followed: `A="$B $B"` over a
// few dozen lines doubles it each time, and a generated script must not exhaust memory.
enum { MAX_VALUE_BYTES = 1 << 16, MAX_VALUE_ITEMS = 4096 };

// A variable's value where it is used.
typedef struct {
  enum { VAL_UNKNOWN, VAL_SCALAR, VAL_ARRAY } kind;
  const char *text;   // SCALAR, HG_HOLE marking unknown parts
  const char **items; // ARRAY
  size_t n;
  const char *origin; // UNKNOWN: why; SCALAR and ARRAY: why a hole in them is unknown
  bool conditional;   // assigned on only some paths to the use
  uint32_t line;      // of the assignment (0: none)
  // SCALAR assigned `X=${X:-default}` (or with such a part) while the script had not assigned X:
  // the environment's value or the default, as in a word (env_var, the default at text[env_off..
  // +env_len)).
  const char *env_var;
  size_t env_off, env_len;
} shval;

// The word being built.
typedef struct {
  hg_buf text;
  bool open;          // a word has started (even an empty one: "" is a word)
  const char *origin; // the first unknown part's reason
  bool spread;        // an unknown part stands unquoted: it may split into any number of words
  bool conditional;
  uint32_t line; // of the assignment a part came from, else of the argument
  // ${VAR:-default} of a variable the script never assigns: the environment's value or the
  // default (the value model's alternatives). The default's text stands at env_at.., env_len bytes.
  const char *env_var;
  size_t env_at, env_len;
  bool env_done; // env_len is known
  uint32_t env_line; // the assignment X=${X:-default} it came through (0: in the word itself)
} word;

static inline const char *hg_sh__text(hg_sh *sh, TSNode n) { return hg_node_text(n, sh->src, sh->arena); }

// assigns.c
bool hg_sh__same_node(TSNode a, TSNode b);
/** How many of the script's assignments start before byte `at` (those a use there may see, and
 *  those that hold it): a search from the use back starts there, not at the script's end. */
size_t hg_sh__assigns_before(const hg_sh *sh, uint32_t at);
/** Does `n` run its statements on only some paths: a branch of an if (the if_statement itself for
 *  its `then` part, an elif_clause, an else_clause), an arm of a case, or a loop, `&&` / `||`? */
typedef enum { SH_NOT_BRANCHING, SH_IF_BRANCH, SH_CASE_ARM, SH_OTHER_BRANCH } hg_sh_branching;
hg_sh_branching hg_sh__branching(TSNode n);
/** Is the assignment made on only some of the paths that reach `use`? */
bool hg_sh__conditional_for(TSNode assign, TSNode use);
/** Is the assignment made in a subshell (or a pipeline stage) that `use` is not in? */
bool hg_sh__walled_off(TSNode assign, TSNode use);

// word.c
void hg_sh__put(word *w, const char *s, size_t n);
/** An unknown part, with why. */
void hg_sh__hole(word *w, const char *origin, bool quoted);
/** Ends the word being built and appends it to `out` (an ALT when it holds an environment's value
 *  or a default). */
void hg_sh__finish(hg_sh *sh, word *w, TSNode arg, hg_value_vec *out);
void hg_sh__put_split(hg_sh *sh, word *w, const char *s, TSNode arg, hg_value_vec *out);
void hg_sh__put_unescaped(word *w, const char *s, size_t n, bool quoted);

// words.c
/** Appends what node `n` expands to to the word `w` (words it ends go to `out`). */
void hg_sh__emit(hg_sh *sh, TSNode n, bool quoted, word *w, TSNode arg, hg_value_vec *out);
/** The value of variable `name` at `use`. */
shval hg_sh__lookup(hg_sh *sh, const char *name, TSNode use);
/** The value of assignment `a` as seen from `use`. */
shval hg_sh__assigned(hg_sh *sh, const hg_sh_assign *a, TSNode use);
/** $0..$9, $@, $*, $#: the script's or function's arguments. */
bool hg_sh__special(const char *name);
/** Appends variable value `v` to the word (quoted: as one piece; else split into fields;
 *  all_items: an array's elements as words of their own, `joined` by blanks for `${a[*]}`). */
void hg_sh__put_value(hg_sh *sh, const shval *v, bool quoted, bool all_items, bool joined, word *w, TSNode arg,
                      hg_value_vec *out);

// alternatives.c
/** How a word that is a variable alone puts it: its default's nodes (`${X:-d}`; one null node for
 *  `${X:-}`), quoted, an array's elements (`${A[@]}`), joined by blanks (`${A[*]}`). */
typedef struct {
  TSNode deflt[8];
  uint32_t n_deflt;
  bool quoted, all_items, joined;
} hg_sh_ref;
/** `n` as a variable standing alone — `$X`, `${X}`, `"$X"`, `${X:-default}` (and the `=` forms),
 *  `"${A[@]}"`, `${A[*]}` — its name and how it is put; NULL for any other word. */
const char *hg_sh__lone_variable(hg_sh *sh, TSNode n, hg_sh_ref *ref);


#endif
