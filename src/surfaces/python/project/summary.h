/* Function summaries: what a call to a function, class or method defined in the project yields,
 * read from its definition with the call's arguments bound — a builder judged by what it returns,
 * not by its name. Also what an imported name or an attribute of a project object holds. Works on
 * hg_values (resolve.h) and asks the project index for other modules; results are allocated in the
 * caller's arena. Depth and cycles are bounded: past them a value is UNKNOWN with the reason. */
#ifndef HG_PROJECT_SUMMARY_H
#define HG_PROJECT_SUMMARY_H

#include "surfaces/python/project/frame.h"
#include "surfaces/python/project/index.h"
#include "surfaces/python/resolve.h"

/** What calls without arguments yielded in one file (in its arena), so that a file of sites that
 *  all apply the same builder reads it once. */
typedef struct hg_summary_cache hg_summary_cache;
hg_summary_cache *hg_summary_cache_new(hg_arena *arena);
/** A site's reading begins: what calls return is kept for it apart from the readings before. */
void hg_summary_cache_next_read(hg_summary_cache *c);


/** What `call` yields: for a configured builder a BUILDER value holding what it yields (or an
 *  UNKNOWN when it cannot be read, saying why); for a class of the project an OBJECT; for a
 *  function or method of the project its return value; else an UNKNOWN. */
hg_value hg_summary_call(const hg_resolver *r, TSNode call, int depth);
/** Does `call` call a function or method defined in the project (or a configured builder)? Such a
 *  call is read by what it returns (hg_summary_call), under r->call_keywords too. */
bool hg_summary_follows(const hg_resolver *r, TSNode call, int depth);
/** What calling `callee` (a name or attribute, e.g. a dataclass field's default_factory) with no
 *  arguments yields, as hg_summary_call. */
hg_value hg_summary_factory(const hg_resolver *r, TSNode callee, int depth);
/** What the configured builder callable `name`, a function defined at the top of module `m`,
 *  yields when a site calls it without arguments: a BUILDER holding it (as hg_summary_call gives
 *  for such a call), or an UNKNOWN saying why it cannot be read. */
hg_value hg_summary_builder(const hg_resolver *r, const hg_module *m, const char *name);
/** Is `callee` (a call's function: a name or `obj.name`) a function, class or method defined in
 *  the project: in r's module or a module of the index, a method of the class of a project object,
 *  or `self.name` inside a method of a class of r's module that (or whose project base) defines
 *  it? False when it cannot be told (a parameter, an attribute of an unknown object). */
bool hg_summary_defined(const hg_resolver *r, TSNode callee);
/** The value of a name the file imported as `qualified` (a constant of another module), or an
 *  UNKNOWN standing for `use`. */
hg_value hg_summary_imported(const hg_resolver *r, const char *qualified, TSNode use, int depth);
/** What `self.a.b` read in a method may hold, for the rules' `#value-contains?`: the value the
 *  class's constructor leaves there (its class attributes and fields, `__init__`'s `self.a = ...`
 *  with its arguments unknown), followed through the objects of the project's classes it holds;
 *  unknown for another expression, outside a method, or where the chain leads elsewhere. */
hg_value hg_summary_self_state(const hg_resolver *r, TSNode attribute);
/** The value of `attribute` (obj.name): an attribute of a project object, a constant of an
 *  imported project module, or an UNKNOWN. */
hg_value hg_summary_attribute(const hg_resolver *r, TSNode attribute, int depth);

/** How many calling contexts a site is read in (beyond: unverifiable, the budget named), and how
 *  many callers up a chain of parameters is followed (a caller's argument that is its own
 *  parameter is followed to its callers, and so on). */
#define HG_CALLERS_MAX_CONTEXTS 16
/** Statements and items the values of one call may take of the file's budget (HG_RESOLVE_BUDGET). */
#define HG_CALLERS_CALL_BUDGET ((size_t)50000)
#define HG_CALLERS_MAX_LEVELS 3
/** A site's options read once per calling context of the function it stands in, when `first`
 *  (read where the site stands, recording in `reads` the parameters it found unbound) took a
 *  parameter of that function or an attribute of its `self`: `read(r, node)` with each call's
 *  arguments bound — for `self` alone, once per construction of the class — as one alternative
 *  per context, its condition naming the call ("called from app.py:12"). No call in the project,
 *  or past the budget: read again, each such parameter's reason saying so. Otherwise, and for a
 *  value that is not a list or a mapping, `first`. */
hg_value hg_summary_callers(const hg_resolver *r, TSNode site, const hg_param_reads *reads,
                            hg_value (*read)(const hg_resolver *, TSNode), TSNode node, hg_value first);
#endif
