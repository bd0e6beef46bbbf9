/* Following a name through the statements of its scope (follow.c), shared with the readers of the
 * compound statements it passes (branch.c: if/else and try/except arms as alternatives, `for`
 * loops over known iterables unrolled). For the value engine's files only. */
#ifndef HG_PYTHON_FOLLOW_H
#define HG_PYTHON_FOLLOW_H

#include "surfaces/python/resolve_internal.h"
#include "surfaces/python/scope.h"

// What a name holds at a point, built from the statements before it: assignments, item
// assignments, update/extend/append/insert/pop calls, += and |=. A change on only some paths
// (inside an if, a loop, an except) is `conditional`: it may not have happened.
typedef struct {
  const hg_resolver *r;
  const char *name;
  size_t len;
  int depth;
  TSNode use, fn; // where the name is read, and the function around it (null: module scope)
  bool defined;
  bool container; // the value is a DICT or LIST being built in `items`
  hg_value cur;   // otherwise, the value itself
  hg_value_vec items;
  bool spent; // the file's budget ran out while following
  unsigned changes; // how many statements changed what the name holds (branch.c: did an arm?)
  unsigned rebinds; // ... of them bound it anew (`name = ...`), not changed what it holds in place
  int nesting;      // compound statements read as alternatives or unrolled around this follow
} follow;


/** Is `n` the identifier being followed? */
bool hg_follow__is_name(const follow *f, TSNode n);
/** What a follow that ran out of the file's budget stands for. */
hg_value hg_follow__over_budget(const hg_resolver *self, TSNode use);
/** Charges `n` steps to the file's budget; false (and the follow marked spent) once it is out. */
bool hg_follow__charge(follow *f, size_t n);
/** Appends the items of `v` (a container of kind `kind`), or `v` itself as a spread. */
void hg_follow__add_items(follow *f, hg_value_kind kind, hg_value v, bool cond);
/** The name is bound to `v` (on some paths only: `cond`). */
void hg_follow__set_value(follow *f, hg_value v, bool cond);
/** A statement between the name's creation and its use (hg_scope_walk's callback; ctx: a follow). */
bool hg_follow__on_stmt(void *ctx, hg_stmt s);
/** What the follow leaves in the name, read at `use`; frees its items. */
hg_value hg_follow__value(follow *f, TSNode use);
/** hg_scope_compound for a follow (branch.c): an if/elif/else or try/except whose every arm
 *  changes the name becomes an ALT of the arms; a `for` over a known iterable is unrolled with its
 *  variables bound. False: walk it as usual (changes on some paths only). */
bool hg_follow__compound(void *ctx, TSNode stmt, bool conditional);

#endif
