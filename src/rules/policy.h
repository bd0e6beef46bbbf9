/* The policy: what a container site must carry (requirements) and how the docker CLI is read,
 * loaded from rules/policy.yml into an immutable hg_policy. Regexes are compiled at load; the
 * policy is shared read-only by every worker thread. */
#ifndef HG_POLICY_H
#define HG_POLICY_H

#include "model/site.h"
#include "rules/matcher.h"
#include "base/util.h"
#include "base/yamldoc.h"

/** Something an SDK accepts under a name the policy judges elsewhere, read another way than its
 *  docker-py namesake (podman-py's `security_opt` goes to SELinux): named in a failing site's
 *  message when the site sets it. */
typedef struct {
  char *name;
  char *text;
} hg_trap;

/** A dialect: how one SDK, the command line or compose spells the options, declared under
 *  `dialects:` in the policy. Requirements and forbidden options give one spelling per dialect
 *  (a key named after it); a dialect `like` another takes that one's spelling (and fix) wherever
 *  it gives none of its own. */
typedef struct {
  char *id;         // "docker-py", "cli", "podman-py", ...
  char *subject;    // how a message names its sites ("container created through podman-py"); NULL: by reading mode
  uint32_t reads;   // bit per hg_reads it serves; the first dialect serving a mode is that mode's default
  hg_shape shape;
  bool dotted;      // messages write a mapping name as the SDK does (HostConfig.CapDrop: Go, JavaScript), not as
                    // Python indexes it (["HostConfig"]["CapDrop"])
  bool fold_case;   // mapping names match in any case (Go's encoding/json, which the Engine API decodes with)
  char *at;         // a mapping dialect's sites hold the mapping at this dotted name of its spellings
                    // (docker-py's host_config= dict is the body's HostConfig); NULL: the whole
  char *fix_into;   // where a fix line's options go ("add ... to <fix_into>"); NULL: beside the site's own
  int like;         // the dialect it borrows spellings from, or -1
  hg_trap *traps;
  size_t n_traps;
} hg_dialect;

/** One dialect's spelling of a requirement or forbidden option: matchers (none: a site of the
 *  dialect can never satisfy the requirement / set the option) and the fix text. */
typedef struct {
  hg_matcher *m;
  size_t n;
  char *fix;     // how to write it, e.g. cap_drop=["ALL"]; NULL for forbidden options
  char **set;    // what `hardguard init` writes (`set:`): keywords as pairs {name, Python expression,
  size_t n_set;  // ...}, flags as words; NULL: none
  bool given;    // written in the policy (else borrowed from the `like` dialect, or none)
  bool borrowed; // m and fix belong to another dialect's spelling ...
  bool own_fix;  // ... but the fix, written for this dialect
} hg_spelling;

typedef struct {
  char *id;      // kebab-case requirement id, e.g. "cap-drop-all"
  char *summary; // one line: what it guarantees
  hg_spelling *spell; // one per dialect, indexed like hg_policy.dialects
} hg_requirement;

/** An option that undoes hardening: forbidden at every site, builder or not. A matcher without a
 *  value regex hits when the option is set at all; with one, when a literal value (any element of
 *  a list, any key or value of a dict) matches it, or, for a value hardguard cannot follow, when
 *  the expression's source text does. */
typedef struct {
  char *id;      // e.g. "privileged"
  char *message; // what it does, for the finding
  hg_spelling *spell; // one per dialect
} hg_forbidden;

/** A command that runs the rest of its words as a command (`sudo -u x`, `timeout -s KILL 60`,
 *  `env -u A B=1`), read by its own grammar (policy.yml cli.wrappers) so that the command after it
 *  is found whatever its arguments hold: an argument hardguard cannot know (`timeout "$1"`) is
 *  still the wrapper's. Options it does not list take no value; `--opt=value` and a short option
 *  with its value attached (`-oL`) are one word. */
typedef struct {
  char *name;
  char **value_options; // options that take the next word as their value (-u, --signal)
  size_t n_value_options;
  char **stops;         // options after which it runs no command (`command -v`, `sudo -l`)
  size_t n_stops;
  unsigned operands;    // words after its options and before the command (timeout's DURATION)
  bool assignments;     // NAME=value words may stand before the command (env, sudo)
} hg_wrapper;

/** Requirements are kept as bits of a uint64_t (hg_verdict.missing, hg_site.allowed): the policy
 *  refuses more. Forbidden options have no such limit. */
#define HG_POLICY_MAX_REQ 64
/** A site keeps its dialect in a byte (site.h). */
#define HG_POLICY_MAX_DIALECTS 64

/** Read-only after hg_policy_load. */
typedef struct {
  char *path;
  hg_dialect *dialects;
  size_t n_dialects;
  hg_requirement *req;
  size_t n_req;
  hg_forbidden *forbid;
  size_t n_forbid;
  char **boolean_flags; // CLI options that take no value; all others take one
  size_t n_boolean_flags;
  char **subcommands; // words that may follow the program before the flags ("container", "run")
  size_t n_subcommands;
  char **repeatable_flags; // CLI options whose occurrences add up; of any other the last one counts
  size_t n_repeatable_flags;
  char **process_calls; // qualified callees that run an argv list (subprocess.run, os.execv, …)
  size_t n_process_calls;
  char **programs; // container CLIs a shell command may run (docker, podman, nerdctl)
  size_t n_programs;
  char **verbs; // the subcommands that create a container (run, create)
  size_t n_verbs;
  hg_wrapper *wrappers; // commands that run the rest of their words as a command (sudo, env, timeout)
  size_t n_wrappers;
  char **global_value_flags; // the program's own options before the subcommand that take a value (-H, --context)
  size_t n_global_value_flags;
  // classes: how the project's classes are read (all optional)
  char **field_decorators; // a class taking its annotated fields as arguments, in order
  size_t n_field_decorators;
  char **field_bases; // ... the same by a base class
  size_t n_field_bases;
  char **field_calls; // field(default=...): a field's default
  size_t n_field_calls;
  char **property_decorators; // a method read as an attribute
  size_t n_property_decorators;
  char **mapping_calls; // qualified callees whose call is the mapping of its keyword arguments
  size_t n_mapping_calls; // (kubernetes' models: V1Pod(spec=...) is {spec: ...}); a trailing `*` any name
  char **forwarding_calls; // qualified callees calling the callable they are handed first with the
  size_t n_forwarding_calls; // arguments after it (deferToThread, executor.submit); `*.name`: any receiver
  char **partial_calls;   // ... of those, the ones whose callable is called later, with more
  size_t n_partial_calls; // arguments (functools.partial): the parameters they leave are unknown
  char **inspecting_calls;   // calls handed a function or class that do not call it (isinstance,
  size_t n_inspecting_calls; // issubclass, super): no calling context of it
  // init: the builder module `hardguard init` writes (all optional; NULL/0 when absent)
  char *init_module;     // its last dotted component ("container_hardening")
  char **init_callables; // function names, each yielding one dialect's `set:` values
  int *init_dialects;    // the dialect of each
  size_t n_init;
  bool lazy_regexes;  // its matchers' regexes are compiled when first matched (hg_policy_load_doc)
} hg_policy;

/** An entry of a `classes:` list of calls: a name (`functools.partial`, `*.submit`), then `@N` when
 *  the callable is the N-th argument from 0 (`*.run_in_executor@1`), or `@kw(args,kwargs)` when it
 *  is the keyword `kw` (`threading.Thread@target(args,kwargs)`). The length of its name, and in *at
 *  the part after `@` ("" without one). */
size_t hg_policy_call_name(const char *entry, const char **at);
/** The length of the keyword that part (`target(args,kwargs)`) hands the callable in; 0 for `@N`
 *  or no part. */
size_t hg_policy_call_keyword(const char *at);

/** Parses policy YAML; 0, or -1 with "path:line:col: what was expected" in err. */
int hg_policy_load(hg_policy **out, const char *path, const char *bytes, size_t len, hg_error *err);
/** The same from a document already loaded (the built-in policy's, built from the seed). `known_good`:
 *  a policy whose regexes compile (the built-in one, which unit/policy loads): they are compiled
 *  when first matched, not when loaded. */
int hg_policy_load_doc(hg_policy **out, hg_yaml *y, bool known_good, hg_error *err);
void hg_policy_free(hg_policy *self);

/** The dialect with this id (-1: none). */
int hg_policy_dialect(const hg_policy *self, const char *id);
/** The dialect a site of reading mode `reads` is judged in: `dialect` when >= 0, else the mode's
 *  default (the first dialect serving it), or -1 when no dialect serves it. */
int hg_policy_site_dialect(const hg_policy *self, int reads, int dialect);
/** The requirement with this id (its index in *index when not NULL), or NULL. */
const hg_requirement *hg_policy_requirement(const hg_policy *self, const char *id, size_t *index);

/* The docker command line as the policy's `cli:` describes it: is `word` one of its ...? */
bool hg_policy_is_boolean_flag(const hg_policy *self, const char *flag);
bool hg_policy_is_subcommand(const hg_policy *self, const char *word);
bool hg_policy_is_repeatable_flag(const hg_policy *self, const char *flag);
bool hg_policy_is_program(const hg_policy *self, const char *word);
bool hg_policy_is_verb(const hg_policy *self, const char *word);
/** The wrapper named `word` (a path's last component counts: /usr/bin/sudo), or NULL. */
const hg_wrapper *hg_policy_wrapper(const hg_policy *self, const char *word);
bool hg_policy_is_wrapper(const hg_policy *self, const char *word);
/** Where the command run through the wrappers that `words` (n of them) start with begins: the index
 *  of the first word after every wrapper and its options, assignments and operands (0 when
 *  words[0] is no wrapper; n when a wrapper runs no command). NULL stands for a word that cannot be
 *  known (`"$1"`): taken as the wrapper's operand or value where one is due, as its option when a
 *  program or another wrapper follows, else as the command. Linear in n, no allocation. */
size_t hg_policy_skip_wrappers(const hg_policy *self, const char *const *words, size_t n);
bool hg_policy_is_global_value_flag(const hg_policy *self, const char *word);
/** Is `qualified` a call that runs a process with an argv list (cli.process_calls)? */
bool hg_policy_is_process_call(const hg_policy *self, const char *qualified);
/** Is `qualified` a partial application (classes.partial_calls: `functools.partial`), whose first
 *  argument is called later with the keywords it binds and more? False for a NULL policy. */
bool hg_policy_is_partial_call(const hg_policy *self, const char *qualified);
/** Is `name` (len bytes) one of the `n` strings of `list`? */
bool hg_policy_list_has(char *const *list, size_t n, const char *name, size_t len);

#endif
