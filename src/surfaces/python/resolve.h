/* Follows names to hg_values (literals, lists, dicts, builder calls, objects, or UNKNOWN with the
 * reason): the value core (resolve.c) beneath the evaluator (eval.c), which reads an expression
 * through the statements of a file (follow.c), its aliases (alias.c), strings and shell commands
 * (strcmd.c), and, through the project stage, other modules. Everything is allocated in the
 * caller's per-file arena. */
#ifndef HG_RESOLVE_H
#define HG_RESOLVE_H

#include <tree_sitter/api.h>

#include "rules/config.h"
#include "surfaces/python/imports.h"
#include "rules/policy.h"
#include "model/site.h"
#include "base/argv.h"
#include "base/util.h"

struct hg_index;
struct hg_module;
struct hg_frame;
struct hg_hop;
struct hg_summary_cache;

struct hg_resolver;

/** A name bound, inside `scope`, to one element of what a comprehension or an unrolled `for` loop
 *  iterates (comprehension.c); the chain is searched before the name's own scope. */
typedef struct hg_binding {
  const char *name;
  size_t len;
  TSNode scope; // the comprehension, or the loop's body
  hg_value value;
  const struct hg_binding *prev;
} hg_binding;

/** The parameters a site's reading found unbound (no frame): the site's own function's, read where
 *  the site stands. The project stage reads the site again once per call of that function in the
 *  project, its arguments bound (project/summary.h: hg_summary_callers). */
typedef struct hg_param_reads {
  TSNode fn;        // the function the first such parameter belongs to (null: none read)
  bool param;       // one of its parameters other than self was read
  bool self;        // an attribute of its `self` was read
  bool others;      // a parameter of another function was read too (then none is followed)
  const char *why;  // when set, added to each such parameter's reason ("no call of f() in the project")
} hg_param_reads;

/** What the value core (resolve.c) and the readers beneath the evaluator ask of the stages above
 *  them: how to read an expression (the evaluator, eval.c), and the project stage's answers
 *  (project/summary.h). Whoever makes a resolver gives it one (eval.h: hg_python_engine), so that
 *  these calls reach up through it rather than by name. */
typedef struct hg_resolve_engine {
  /** The value of an expression node, `depth` levels into an expression being read. */
  hg_value (*value_at)(const struct hg_resolver *self, TSNode node, int depth);
  /** The keywords of the call an expression stands for (host_config=api.create_host_config(...),
   *  or a name assigned one), as a DICT. */
  hg_value (*keywords)(const struct hg_resolver *self, TSNode node);
  /** The value of a name imported as `qualified`, from the module that defines it. */
  hg_value (*imported)(const struct hg_resolver *self, const char *qualified, TSNode use, int depth);
  /** What the frame being evaluated bound parameter `name` of function `fn` to: false when none. */
  bool (*bound)(const struct hg_resolver *self, TSNode fn, const char *name, size_t len, hg_value *out);
  /** Which branches run (hg_scope_walk_deciding's decider; ctx's first member is the resolver). */
  int (*decide)(void *ctx, TSNode condition, TSNode branch);
  /** What calling `callee` without arguments yields (a dataclass field's default_factory). */
  hg_value (*factory)(const struct hg_resolver *self, TSNode callee, int depth);
  /** Is `callee` a function, class or method the project defines (false when it cannot be told)? */
  bool (*defined)(const struct hg_resolver *self, TSNode callee);
} hg_resolve_engine;

typedef struct hg_resolver {
  const hg_resolve_engine *engine;  // the evaluator and project stage above the core
  const char *src;
  const hg_imports *imports;
  const hg_config *config;
  const hg_policy *policy; // cli.process_calls: where an argv list is handed over
  hg_arena *arena;
  struct hg_name_memo *memo; // per file, in the arena: which names the text assigns somewhere
  struct hg_scope_memo *scopes; // per file, in the arena: its blocks' statements (NULL: read each time)
  size_t *budget;            // statements and items value following may still take in this file
                             // (NULL: no limit); a value it runs out on is unverifiable
  const char *budget_why;    // why a value it runs out on is unknown (NULL: the file's budget)
  // The project stage (project/summary.h). With a NULL index, nothing outside the file is read and
  // a configured builder is taken at its word (the file-local resolver of the unit tests).
  const struct hg_module *module; // the module src and imports belong to (NULL: unnamed)
  struct hg_index *index;
  const struct hg_frame *frame; // the function being evaluated, with its bound parameters
  const struct hg_hop *hops;    // the definitions being evaluated on the way here
  hg_notes *notes;              // branches skipped on known-false conditions (NULL: not noted)
  struct hg_summary_cache *cache;  // what calls without arguments yield in this file (NULL: none)
  const hg_binding *bindings;      // loop variables of the comprehensions and loops being read
  hg_param_reads *params;          // unbound parameters read (NULL: not recorded)
  bool call_keywords;              // a call read here stands for its keywords (host_config=name,
                                   // the name assigned create_host_config(...) on each branch)
  const char *keywords_of;         // an item under this key stands for the keywords of the call its
                                   // value is, as the engine's `keywords` reads it (a pattern's
                                   // options-keyword: create_container(**kw), kw holding
                                   // host_config=...); NULL: none
  const hg_argv_words *own_keywords; // ... and the call's own keywords read beside it (the others, and
                                     // a builder's spread into the call, are no options it takes)
} hg_resolver;

/** A file's budget for value following: far above what real code needs (a file of 10,000 sites
 *  each following a name through 10,000 statements would need 10^8), so that hostile code cannot
 *  make time or memory grow with the square of its size. */
#define HG_RESOLVE_BUDGET ((size_t)2000000)
/** Why a value past the file's budget is unknown. */
#define HG_RESOLVE_BUDGET_ORIGIN "a value this file changes more often than hardguard follows (the per-file budget ran out)"

/** Records, in self->params, that a parameter of `fn` (self: an attribute of its `self`) was read
 *  unbound; returns the reason to add to it, or NULL. */
const char *hg_resolve_param_read(const hg_resolver *self, TSNode fn, bool is_self);

/** A condition as written (`text`, after `prefix`: NULL or "not "), shortened for messages, in the
 *  arena: "not (a or b)", and `x` for the negation of `not x`. */
const char *hg_resolve_condition(const hg_resolver *self, const char *prefix, const char *text);

/** How many alternatives one value holds (an if/elif chain's arms, nested conditionals multiplied
 *  out): past it the value is UNKNOWN with HG_ALT_BUDGET_ORIGIN. The judge reads every combination
 *  of a site's alternatives, so a site's worth of them must stay small. */
#define HG_ALT_MAX 32
#define HG_ALT_BUDGET_ORIGIN "more alternatives than hardguard follows (budget: 32 alternatives per value)"

/** One of `n` alternatives (choice.c), `conds[i]` (or NULL) selecting each: nested ALTs are
 *  flattened, their conditions joined; one alternative is itself; past HG_ALT_MAX, UNKNOWN standing
 *  for `at`. */
hg_value hg_resolve_alt(const hg_resolver *self, TSNode at, const hg_value *alts, const char *const *conds, size_t n);

/** Like hg_imports_qualify, but also follows local aliases: `run = client.containers.run`,
 *  `c = client.containers` then `c.run`, `getattr(client.containers, "run")`,
 *  `functools.partial(client.containers.run, ...)`. A call stands for its result: `docker.from_env()`
 *  qualifies as "docker.from_env()". */
bool hg_resolve_qualify(const hg_resolver *self, TSNode node, hg_buf *out);

/** What hg_resolve_may_end_in reads of a callee, worked out once for all the names it is tried
 *  against. */
typedef struct {
  bool any;         // a call (getattr, partial): it may end in anything
  const char *text; // its own last identifier (NULL: none, it ends in nothing)
  size_t len;
  bool bare;        // the callee is that identifier alone ...
  bool imported;    // ... and an import binds it, or ...
  bool unread;      // ... the file's assignments are not read (no memo): any of them may bind it, or ...
  const struct rhs_span *assigned;  // ... the spans of its assignments in the file, looked up once (NULL: none)
} hg_callee_end;

void hg_resolve_callee_end(const hg_resolver *self, TSNode callee, hg_callee_end *out);
/** Its part that the callee's own syntax decides (any, text, len, bare), read before the file's
 *  names are known; the rest left unset. `src`: the file's bytes. */
void hg_callee_tail(const char *src, TSNode callee, hg_callee_end *out);
/** Could the callee qualify as a name whose last component is `last` (len bytes)? A cheap test
 *  before hg_resolve_qualify: its own last identifier is `last`, or it is a name bound by an
 *  import or an assignment, or a call (getattr, partial). */
bool hg_resolve_may_end_in(const hg_callee_end *callee, const char *last, size_t len);

/** The call a name or expression stands for (following `x = f(...)`), or a null node. */
TSNode hg_resolve_call(const hg_resolver *self, TSNode node);

/** A per-file memo for the resolver, in the arena. */
struct hg_name_memo *hg_name_memo_new(hg_arena *arena);

/** Is `call` (a call node) a call of a configured builder imported in this file? */
bool hg_resolve_is_builder(const hg_resolver *self, TSNode call);
/** The value of an expression node, `depth` levels into an expression being read (a bound on
 *  nesting), as the resolver's engine reads it. */
hg_value hg_resolve_value_at(const hg_resolver *self, TSNode node, int depth);
/** The value of a mapping's item keyed `key` (len bytes) whose value is expression `node`: as
 *  hg_resolve_value_at reads it, or, under self->keywords_of, as a call's keywords (the engine's
 *  `keywords`). */
hg_value hg_resolve_item_at(const hg_resolver *self, const char *key, size_t len, TSNode node, int depth);
/** An unknown value standing for `node`, with the reason. */
hg_value hg_resolve_unknown(const hg_resolver *self, TSNode node, const char *origin);
/** What a module leaves in the name `name` (an identifier node of self's module) after running
 *  to its end: the value of a module constant. */
hg_value hg_resolve_global(const hg_resolver *self, TSNode name, int depth);
/** The words of an argv list or tuple, `*` spreads of list literals flattened in place, with what
 *  is concatenated to it and, when it is assigned to a name, what is added to that name before
 *  it is handed to a process call (policy cli.process_calls) or returned. */
hg_value hg_resolve_argv(const hg_resolver *self, TSNode list);
/** The words of a shell command built from string literals (concatenated, joined with `+`,
 *  formatted with `%` or str.format, or an f-string); an expression that calls a builder becomes a
 *  BUILDER word, others stay holes inside their word. */
hg_value hg_resolve_shell(const hg_resolver *self, TSNode command);
/** The text of a command string (a literal, an f-string, a concatenation, a %- or .format()-ted
 *  string, a name bound to one), HG_HOLE standing for each part that cannot be followed; `holes`
 *  gets those parts, in order, as UNKNOWN values (the caller frees the vector's array). */
void hg_resolve_shell_text(const hg_resolver *self, TSNode command, hg_buf *out, hg_value_vec *holes);

#endif
