/* A mapping or list handed to a call of the project's own may be changed by it (handon.c), or an
 * item of it changed in place: what the follow of a name (follow.c) must take as no longer known.
 * For the value engine's files only. */
#ifndef HG_PYTHON_HANDON_H
#define HG_PYTHON_HANDON_H

#include "surfaces/python/resolve_internal.h"

/** A name being followed, in the file `r` reads. */
typedef struct {
  const hg_resolver *r;
  const char *name;
  size_t len;
} hg_named;

/** What a statement may change of what the name holds: `call` (null: nothing) that may change it,
 *  `item` when it changes one item in place (`opts.setdefault("host_config", {}).update(hc)`),
 *  whose key is `key` when a string literal names it; `why`, in r's arena, says so. */
typedef struct {
  TSNode call;
  bool item;
  const char *key;
  const char *why;
} hg_handon;

/** The call in `stmt` (a simple statement) handing the name itself to a call of the project's own
 *  that may change it (`loosen(opts)`; not a function of the file whose body leaves that parameter
 *  alone, nor a library's, an SDK's or a builtin call, nor `f(**opts)`), or changing an item of it
 *  in place; nothing when the statement binds the name anew. */
hg_handon hg_handon_find(const hg_named *f, TSNode stmt);

#endif
