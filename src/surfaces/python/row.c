#include "surfaces/python/row.h"

#include <string.h>

#include "surfaces/python/fix.h"
#include "surfaces/python/extract.h"
#include "surfaces/python/project/index.h"

// The project: the index of its modules, parsed when a value is followed into one.
static void *project_new(const struct hg_ruleset *rules, const struct hg_config *config, const char *start) {
  return hg_index_new(rules, config, start);
}
static void project_free(void *project) { hg_index_free(project); }
static size_t project_parsed(void *project) { return hg_index_parsed(project); }
static void project_overlay(void *project, const char *path, const char *bytes, size_t len) {
  hg_index_overlay(project, path, bytes, len);
}
static void project_lend(void *project, bool (*busy)(void *ctx), void *ctx) { hg_index_lend(project, busy, ctx); }
static void project_wake(void *project) { hg_index_wake(project); }
static bool project_has_module(void *project, const char *module) {
  return hg_index_has_module(project, module, strlen(module));
}

static const char *const EXT[] = {".py", NULL};
static const char *const INTERP[] = {"python", "python3", "python2", NULL};
static const char *const NONE[] = {NULL};
static const char *const BLOCKS[] = {"module", "block", NULL};

const hg_surface hg_surface_python = {.id = "python",
                                    .grammar = "tree-sitter-python",
                                    .extensions = EXT,
                                    .names = NONE,
                                    .paths = NONE,
                                    .interpreters = INTERP,
                                    .language = tree_sitter_python,
                                    .fix = &hg_python_fix,
                                    .extract = hg_extract,
                                    .blocks = BLOCKS,
                                    .project_new = project_new,
                                    .project_free = project_free,
                                    .project_parsed = project_parsed,
                                    .project_overlay = project_overlay,
                                    .project_has_module = project_has_module,
                                    .project_lend = project_lend,
                                    .project_wake = project_wake,
                                    .bracket_limit = true,
                                    .comment_run_limit = true};
