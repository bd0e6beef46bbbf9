/* make's expansion of a Makefile's variables and functions, as the shell gets a recipe line: the
 * Makefile's assignments (=, :=, ::=, ?=, +=, !=) read whole, `$(X)`/`${X}` substituted by the
 * value make gives X when the recipe runs, `$$` as `$`, a `\` continuation as one space. What make
 * computes is not guessed: a variable the Makefile does not assign (or assigns with `!=`, or
 * through itself) stays `${X}` for the shell reading, with the reason in `unknown`/`why`; a
 * function is a `$(make-function)` word. Three things are one of two alternatives, a "fork":
 * `$(if C,A,B)` (A when C expands non-empty, else B), a variable set with `?=` (its value, or
 * whatever the environment or the make command line gives, `${X}`), and each condition of a make
 * conditional an assignment stands in (`ifdef LAX` or `ifndef LAX`; one reading takes a conditional
 * alike for every variable); a reading of a line takes at
 * its i-th fork the arm bit i of `pick` says, and notes in `conds` what selects it, so that reading
 * with every `pick` below 1 << HG_MAKE_MAX_FORKS walks every combination (a fork past those takes
 * its unknown arm). Bounded: variables refer to variables MAX_DEPTH deep, and one file expands at
 * most BUDGET bytes of values. Internal to the make surface. */
#ifndef HG_MAKE_EXPAND_H
#define HG_MAKE_EXPAND_H

#include <tree_sitter/api.h>

#include "base/source.h"
#include "base/util.h"

/** Forks one recipe line is read through in every combination (2^3 readings at most). */
#define HG_MAKE_MAX_FORKS 3
/** Conditions of one make conditional (ifeq ... else ifeq ... endif) read, and conditionals one
 *  assignment may be nested in: past them its variable is unknown. */
#define HG_MAKE_MAX_CONDS 8
#define HG_MAKE_MAX_NEST 4

/** A make conditional (`ifeq`/`ifneq`/`ifdef`/`ifndef` ... [`else if...`] [`else`] `endif`) some
 *  assignment stands in. Make decides it while reading the Makefile; hardguard does not evaluate
 *  its conditions: each is a fork (expand.h), taken alike by every variable in one reading. */
typedef struct {
  uint32_t at; // where it starts in its file (one walk adds its conditionals in this order)
  const char *conds[HG_MAKE_MAX_CONDS]; // the directive and each `else if...`'s, as written ...
  const char *nots[HG_MAKE_MAX_CONDS];  // ... and negated (ifdef <-> ifndef, ifeq <-> ifneq)
  unsigned n_conds;
  bool too_many; // more conditions than HG_MAKE_MAX_CONDS
  unsigned seen; // the reading `taken` was worked out in (0: none yet)
  int taken;     // the arm that reading takes: i for conds[i], n_conds for the else (or none); -1 unknown
} hg_make_conditional;

typedef struct {
  const char *name;
  const char *op;    // "=", ":=", "::=", "?=", "+=", "!="
  const char *value; // as written, continuation lines included
  size_t len;        // of value
  // The conditionals it stands in, outermost first (indexes into the makefile's `ifs`), and the
  // arm of each; `too_deep`: more than HG_MAKE_MAX_NEST of them (its value is unknown).
  uint32_t under[HG_MAKE_MAX_NEST];
  uint8_t arm[HG_MAKE_MAX_NEST];
  uint8_t n_under;
  bool too_deep;
} hg_make_assignment;

typedef struct {
  const char *data; // the file's bytes
  hg_arena *arena;
  HG_VEC(hg_make_assignment) vars; // in file order
  HG_VEC(hg_make_conditional) ifs; // the conditionals assignments stand in
  unsigned reading;                // numbers the readings of recipe lines, from 1 (conditionals' `seen`)
  HG_VEC(const char *) unknown; // variables left for the shell reading ...
  HG_VEC(const char *) why;     // ... and why
  unsigned pick;                // the arm each fork of this reading takes: bit i for the i-th
  unsigned forks;               // forks met in this reading
  const char *conds[HG_MAKE_MAX_FORKS]; // what selects the arm taken at each (in the arena)
  size_t spent;                 // bytes expanded so far (BUDGET)
  size_t cap;                   // the length of the expansion under way may reach this much
  bool cut, cut_noted;          // it did, and the rest was left unknown
  // Why the variable value_of just left unknown is: its assignments stand under conditionals past
  // the forks (HG_MAKE_UNSURE), or in arms this reading does not take (HG_MAKE_NOT_HERE); 0: neither.
  enum { HG_MAKE_UNSURE = 1, HG_MAKE_NOT_HERE } unset;
} hg_makefile;

// forks.c
/** The arm this reading takes at its next fork (bit `forks` of `pick`), noting cond0 or cond1 as
 *  what selects it; -1 past HG_MAKE_MAX_FORKS (the caller takes its unknown arm). */
int hg_make__fork_arm(hg_makefile *m, const char *cond0, const char *cond1);
/** Adds conditional node `c` of the file being read to `ifs` (a walk adds them in file order). */
void hg_make__add_conditional(hg_makefile *m, TSNode c);
/** Records in `a` the conditionals assignment node `n` stands in and its arm of each, found among
 *  those the walk under way added (from index `first`). */
void hg_make__place(hg_makefile *m, size_t first, TSNode n, hg_make_assignment *a);
/** Is v an assignment of `name` this reading makes (its arms taken)? One it cannot tell (past the
 *  forks, or nested too deep) sets *unsure. */
bool hg_make__made(hg_makefile *m, const hg_make_assignment *v, const char *name, bool *unsure);

// expand.c
/** Appends the variable assignments of the tree under `root` (recipe lines are not entered) that
 *  start in bytes [lo, hi) to `vars`, with the conditionals they stand in. */
void hg_make_collect(hg_makefile *m, TSNode root, uint32_t lo, uint32_t hi);
/** Appends make's expansion of `len` bytes of Makefile text `t` to `out`. */
void hg_make_expand(hg_makefile *m, const char *t, size_t len, hg_buf *out);
/** The index of the parenthesis closing the one at t[open] (make counts only its own kind), or n. */
size_t hg_make_closing(const char *t, size_t n, size_t open);
/** Frees what hg_make_collect and hg_make_expand allocated on the heap. */
void hg_make_free(hg_makefile *m);

#endif
