/* Which Python files of the project call a name: the reverse table the project stage reads to find
 * the calls of a function whose parameters a site takes its options from. Built once per run, on
 * the first question, from one read of every `*.py` file under the project's root (the directories
 * the walk skips are skipped here too); each file is read for the words written as a call, `name(`
 * or `.name(`, whatever they stand in — a comment or a string too: the table only says where to
 * look, the calls themselves are found in the parsed module — and for the words of its `import` /
 * `from` lines and the bases of its `class` lines, which tell a file that cannot call a function
 * by name before it is parsed, and a class's subclasses. Bounded: past HG_MENTIONS_MAX_FILES
 * files or HG_MENTIONS_MAX_BYTES bytes the table is not built and every question gets the reason. */
#ifndef HG_PROJECT_MENTIONS_H
#define HG_PROJECT_MENTIONS_H

#include <stdbool.h>
#include <stddef.h>

#define HG_MENTIONS_MAX_FILES 20000
#define HG_MENTIONS_MAX_BYTES ((size_t)256 << 20)

typedef struct hg_mentions hg_mentions;

/** Reads every Python file under `root` (at most 1 MiB each: bigger ones are generated code). */
hg_mentions *hg_mentions_build(const char *root);

/** The same, by any number of threads at once: hg_mentions_begin lists the files (one thread), each
 *  thread that wants the table calls hg_mentions_read (it reads files not yet taken, until none
 *  is left), and once every one of them has returned, one calls hg_mentions_end, which gives the
 *  table (the same as hg_mentions_build's: the readings are taken in walk order, as they come,
 *  by one thread at a time) and frees the job. */
typedef struct hg_mentions_job hg_mentions_job;
hg_mentions_job *hg_mentions_begin(const char *root);
void hg_mentions_read(hg_mentions_job *job);
hg_mentions *hg_mentions_end(hg_mentions_job *job);
void hg_mentions_free(hg_mentions *self);
/** The files (paths under the root, as walked) in which `name` is written as a call; NULL with
 *  *why set when the table could not be built (past its budget), else an array of *n paths. */
const char *const *hg_mentions_files(const hg_mentions *self, const char *name, size_t len, size_t *n,
                                     const char **why);

/** Does file `path` (one hg_mentions_files gave) write `word` in an import statement (`import
 *  a.b as c`, `from .a import (b, c)`: a, b, c)? A filter before parsing: a module that imports
 *  nothing of that name cannot call a function of it by name. */
bool hg_mentions_imports(const hg_mentions *self, const char *path, const char *word, size_t len);

/** The files that write `word` in an import statement (those hg_mentions_imports says yes for),
 *  *n of them, or NULL. */
const char *const *hg_mentions_importers(const hg_mentions *self, const char *word, size_t len, size_t *n);

/** The names of the classes written with `base` among their bases (`class Strict(Policy):`), at
 *  most 64 per base: *n of them, or NULL. */
const char *const *hg_mentions_subclasses(const hg_mentions *self, const char *base, size_t len, size_t *n);

#endif
