/* The project stage's own shared pieces (not for the rest of hardguard): what a dotted name or a
 * name of a module stands for in the project (defs.c), binding a call's arguments (bind.c), objects
 * of the project's classes (object.c), deciding conditions (decide.c), and the context they share:
 * a resolver moved into another module, the chain of definitions being evaluated. */
#ifndef HG_PROJECT_DEFS_H
#define HG_PROJECT_DEFS_H

#include "base/table.h"
#include "surfaces/python/project/frame.h"

/** What a name of the project stands for. */
typedef enum { HG_DEF_NONE, HG_DEF_FUNCTION, HG_DEF_CLASS, HG_DEF_CONSTANT, HG_DEF_MODULE } def_kind;

typedef struct {
  def_kind kind;
  const hg_module *module;
  TSNode node;      // FUNCTION, CLASS: the definition; CONSTANT: the assigned identifier
  TSNode decorated; // the decorated_definition around it, or null
} hg_target;

static inline uint32_t line_of(TSNode n) { return ts_node_start_point(n).row + 1; }

/** printf into the arena (at most 511 bytes). */
const char *hg_project__printf(hg_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** A module's path for messages ("?" when unnamed). */
const char *hg_project__path(const hg_module *m);
/** A copy of `r` reading module `m` at module scope (no frame). */
hg_resolver hg_project__in_module(const hg_resolver *r, const hg_module *m);
/** Enters definition `def` of module m: fills *hop; NULL, or why it must not be entered (a cycle,
 *  or deeper than HG_SUMMARY_MAX_DEPTH). */
const char *hg_project__enter(const hg_resolver *r, hg_hop *hop, const hg_module *m, TSNode def);

/** The last top-level definition of `name` in module m (a def, a class or an assignment). */
hg_target hg_defs__find(const hg_module *m, const char *name, size_t len);
/** The function a `def` among the statements of a function around identifier `use` defines under
 *  its name (a nested function: `def _f(): ...` then `return _f()`), the last before `use`, in the
 *  innermost function that has one; kind NONE when none. */
hg_target hg_defs__nested(const hg_resolver *r, TSNode use);
/** `name` as module m binds it: its own definition, else what it imports under that name. */
hg_target hg_defs__lookup(const hg_resolver *r, const hg_module *m, const char *name, size_t len, int depth);
/** The base classes of `cls` that are defined in the project (named by a bare name), in order. */
#define HG_DEFS_MAX_BASES 8
size_t hg_defs__bases(const hg_resolver *r, hg_target cls, hg_target *out, int depth);
/** A method of class `cls` or of a base class defined in the project. */
hg_target hg_defs__member(const hg_resolver *r, hg_target cls, const char *name, size_t len, int depth);
/** A qualified name: the longest prefix that is a module of the project, and what it holds. */
hg_target hg_defs__qualified(const hg_resolver *r, const char *q, int depth);

/** The class whose method `fn` (a function_definition) is, or a null node. */
TSNode hg_defs__class_of_method(TSNode fn);
/** The class around the method `name` (an identifier) is the first parameter of, when `name` is
 *  that parameter (self) of a plain method of a class of r's module; else a null node. */
TSNode hg_defs__self_class(const hg_resolver *r, TSNode name);

/** Binds the arguments of `args` (the caller's argument_list, or a null node) to the parameters of
 *  function `fn` of module m, `self` (when given) first; unbound ones take their defaults. */
void hg_bind__call(const hg_resolver *caller, const hg_module *m, TSNode fn, TSNode args, const hg_value *self,
                   hg_frame *out, int depth);

/** How a forwarding call (classes.forwarding_calls) hands its callable the arguments: its first
 *  `skip` positional arguments (up to the callable) are not the callable's, the rest are; or, with
 *  `args_kw`, only the sequence its keyword `args_kw` holds and the mapping its keyword `kwargs_kw`
 *  holds are (`threading.Thread(target=f, args=(a,), kwargs={...})`); `later` (a partial call):
 *  the parameters it leaves are unknown, given when what it makes is called, not their defaults. */
typedef struct {
  uint32_t skip;
  bool later;
  const char *args_kw, *kwargs_kw; // NULL: positional
  size_t args_len, kwargs_len;
} hg_forward;

/** The same for a forwarding call (`functools.partial(f, a)`, `executor.submit(f, a)`), handing
 *  f the arguments as `how` says. */
void hg_bind__forwarded(const hg_resolver *caller, const hg_module *m, TSNode fn, TSNode args, const hg_forward *how,
                        const hg_value *self, hg_frame *out, int depth);
/** Can `args` (a call's argument_list, its text in `src`, of whatever module) be bound to the
 *  parameters of `fn` of module m (`self`: its first taken by the instance) without Python's TypeError: no positional
 *  or keyword argument it has no parameter for, none bound twice, every one without a default
 *  bound? True when a `*seq` or `**mapping` argument hides which ones it fills. */
bool hg_bind__fits(const hg_module *m, TSNode fn, const char *src, TSNode args, bool self);

/** An instance of class `cls` made by `call`: attributes from the class body, its project bases,
 *  and __init__ (or the dataclass fields in order). */
hg_value hg_object__make(const hg_resolver *r, hg_target cls, TSNode call, int depth);
/** What `fn`, a call's function, names in the project: a function or class of r's module or one
 *  it imports, `module.function`, `module.Class.method`, or a method of the class of a project
 *  object (then *recv holds that object; otherwise *recv is zeroed or the receiver's value): the
 *  object `self.api` holds as the constructor leaves it, too (hg_object__self_state, held). */
hg_target hg_object__callee(const hg_resolver *r, TSNode fn, int depth, hg_value *recv);
/** Does `decorated` (a decorated_definition, or a null node) carry a decorator named in `list`? */
bool hg_defs__decorated(const hg_module *m, TSNode decorated, char *const *list, size_t count);
/** Is `n` (its text in `src`) one of the `count` names of `list`? */
bool hg_defs__named_in(TSNode n, const char *src, char *const *list, size_t count);
/** The last value an object holds under `key`, or NULL. */
const hg_value *hg_object__attribute(const hg_value *obj, const char *key, size_t len);
/** What `self.a.b` read in a method (no frame) holds as the class's constructor leaves it (its
 *  class attributes and fields, `__init__`'s `self.a = ...` with its arguments unknown), followed
 *  through the project objects it holds; an UNKNOWN for another expression or where the chain
 *  leads elsewhere. `held`: also an UNKNOWN when a method of the class other than its own
 *  `__init__` assigns `self.a` (what the object holds then is not only the constructor's). */
hg_value hg_object__self_state(const hg_resolver *r, TSNode attribute, bool held);

/** The project stage's per-file cache (r->cache, made by hg_summary_cache_new): what calls of the
 *  project yield (summary.c's entries), the calls of the module asked last (hg_summary__calls), and
 *  the methods classes were asked for (hg_defs__member's answers, defs.c). */
struct hg_summary_cache {
  hg_arena *arena;
  struct hg_summary_entry *items; // in the arena
  size_t len, cap;
  const hg_module *calls_module; // the module `calls` holds the calls of (the file being checked)
  struct hg_calls *calls;
  hg_table members; // keyed by a class's module and place and the name, in the arena
  hg_table returns; // what a call of a project function returns, read where it stands (summary.c)
  uint64_t reads;   // the site readings begun (hg_summary_cache_next_read): one's notes are its own
};
/** The calls of module m by name (calls.h), kept in r's per-file cache for the module it was asked
 *  of last (the file being checked: its sites ask again and again). */
const struct hg_calls *hg_summary__calls(const hg_resolver *r, const hg_module *m);

// builders.c
/** The configured builder a definition is: function `fn` of module m, or (cls given) the method
 *  `fn` of class `cls` of module m; NULL when none. */
const hg_builder *hg_project__configured(const hg_config *c, const hg_module *m, const char *cls, size_t cls_len,
                                         const char *fn, size_t fn_len);
/** The configured builder qualified name `q` stands for when its definition is not in the project
 *  (module.function, or with `method` module.Class whose method `attr` is configured). */
const hg_builder *hg_project__configured_by_name(const hg_config *c, const char *q, bool method, const char *attr,
                                                 size_t attr_len);
/** The configured Class.method whose method is named `attr`, or NULL. */
const char *hg_project__configured_method(const hg_config *c, const char *attr, size_t len);

#endif
