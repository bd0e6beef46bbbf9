/* The resolver's own shared pieces, for the value engine's files only (resolve.c, eval.c, follow.c,
 * alias.c, strcmd.c): the nesting bound, an expression's text and an unknown standing for it, the
 * text of a string literal, the expression a name is an alias of, and the readers of literals. */
#ifndef HG_RESOLVE_INTERNAL_H
#define HG_RESOLVE_INTERNAL_H

#include "surfaces/python/resolve.h"

/** How deep an expression, a chain of names or an alias is followed. */
#define HG_RESOLVE_MAX_DEPTH 64

/** The source text of `n`, in the arena. */
const char *hg_resolve__text(const hg_resolver *self, TSNode n);
/** An UNKNOWN standing for `n`, with the reason (no path: value_at adds it). */
hg_value hg_resolve__unknown(const hg_resolver *self, TSNode n, const char *origin);
/** The content of a string or concatenated string into `out`; an interpolation is HG_HOLE, and,
 *  with `holes`, an UNKNOWN (or the BUILDER value of a builder called in it) is pushed per hole. An
 *  interpolation `{x}` of a known string, number or constant is its text (depth: as value_at's). */
void hg_resolve__string(const hg_resolver *self, TSNode n, hg_buf *out, hg_value_vec *holes, int depth);
/** The expression `use` (an identifier) was last assigned from before it is read, or a null node
 *  when it has no single alias. */
TSNode hg_resolve__alias_of(const hg_resolver *self, TSNode use);

/** The value of identifier `use` where it stands (follow.c): the statements of its scope before
 *  it, else what it held coming into the scope. */
hg_value hg_resolve__name(const hg_resolver *self, TSNode use, int depth);
/** A dict built from a call's arguments: positional mappings spread in, then keywords (dict(...),
 *  .update(...)). */
hg_value hg_resolve__keyword_dict(const hg_resolver *self, TSNode args, int depth);
/** The items of a list, tuple or set literal (`*` spreads of list literals flattened), pushed. */
void hg_resolve__items(const hg_resolver *self, TSNode seq, hg_value_vec *items, int depth);
/** The entries of a dict literal (`**` spreads of dict literals merged), pushed. */
void hg_resolve__entries(const hg_resolver *self, TSNode dict, hg_value_vec *items, int depth);
/** A `**x` spread: a dict literal's entries, else one spread item, pushed. */
void hg_resolve__spread(const hg_resolver *self, TSNode expr, hg_value_vec *items, int depth);
/** A keyword argument as a keyed item, pushed. */
void hg_resolve__keyword(const hg_resolver *self, TSNode kwarg, hg_value_vec *items, int depth);
/** `l op r` of two known numbers as Python computes it (arith.c), into out's kind and text; false
 *  when either is not a known number or the result is not exact. */
bool hg_resolve__arith(const hg_resolver *self, const char *op, const hg_value *l, const hg_value *r, hg_value *out);
/** Arithmetic on known numbers, a + b of lists, a | b of dicts; anything else is unknown. */
hg_value hg_resolve__binary(const hg_resolver *self, TSNode n, int depth);


/** `x if c else y`: the arm a known condition picks, else an ALT of both. */
hg_value hg_resolve__conditional(const hg_resolver *self, TSNode n, int depth);
/** `a or b`: a where known truthy, b where known falsy, else an ALT; `and` is unknown. */
hg_value hg_resolve__boolean(const hg_resolver *self, TSNode n, int depth);
/** os.environ.get / os.getenv (callee qualified): an ALT of the environment (UNKNOWN, origin "the
 *  environment variable X") and the default (None without one). False: not such a call. */
bool hg_resolve__environment(const hg_resolver *self, TSNode call, const char *callee, int depth, hg_value *out);
/** int(x) or str(x) (callee as written) of a number, a string or an ALT of them, converted; false
 *  when `call` is not one or x is something else. */
bool hg_resolve__conversion(const hg_resolver *self, TSNode call, const char *callee, int depth, hg_value *out);

/** `"..." % x` or `"...".format(...)` of a string literal: its text, a plain placeholder of a known
 *  value filled in, others HG_HOLE (strcmd.c). False: not such an expression. */
bool hg_resolve__format(const hg_resolver *self, TSNode n, int depth, hg_value *out);
/** `v[k]` of a known dict or list (subscript.c): the entry, else UNKNOWN saying why. */
hg_value hg_resolve__subscript(const hg_resolver *self, TSNode n, int depth);
/** A list, set or generator comprehension over a known iterable (comprehension.c): its elements,
 *  each read with the loop variables bound; a dict comprehension likewise. UNKNOWN when the
 *  iterable is not known, or past HG_COMPREHENSION_MAX elements (origin names the budget). */
hg_value hg_resolve__comprehension(const hg_resolver *self, TSNode n, int depth);
/** The elements `iterable` (an expression) yields when iterated, as a LIST value: a list, tuple or
 *  set, a dict's keys, `.items()` (pairs), `.keys()`, `.values()`, zip() and enumerate() of known
 *  sequences. False (and *why set) when it cannot be told or has more than HG_COMPREHENSION_MAX. */
bool hg_resolve__iterate(const hg_resolver *self, TSNode iterable, int depth, hg_value *out, const char **why);
/** Binds the target pattern of a for clause or loop (`k`, `k, v`, `(i, (k, v))`) to `element`,
 *  inside `scope`, onto the chain `*chain` (bindings allocated in the arena). False when the
 *  element cannot be unpacked into it. */
bool hg_resolve__bind_target(const hg_resolver *self, TSNode target, TSNode scope, hg_value element,
                             const hg_binding **chain);
/** How many elements a comprehension or an unrolled loop is read over at most. */
#define HG_COMPREHENSION_MAX 1024
#define HG_COMPREHENSION_BUDGET_ORIGIN "a loop over more elements than hardguard unrolls (budget: 1024 elements)"

#endif
