/* A run's project state: each surface's own (its row's project_new; Python: the index of the
 * project's modules), made once for the run's first path and handed to that surface's extraction
 * and fix planning. */
#ifndef HG_PROJECT_H
#define HG_PROJECT_H

#include "model/surface.h"
#include "rules/config.h"
#include "rules/ruleset.h"

typedef struct hg_projects hg_projects;

/** The project state of every surface that keeps one, for a run whose first path is `start`.
 *  Reads nothing until asked; `rules` (NULL: modules are found but not read) and `config` must
 *  outlive it. */
hg_projects *hg_projects_new(const hg_ruleset *rules, const hg_config *config, const char *start);
void hg_projects_free(hg_projects *self);
/** Surface `s`'s state (NULL: none, or a NULL self). */
void *hg_projects_of(const hg_projects *self, hg_surface_id s);
/** File `path` is read as `bytes` (len) by every surface's state, which must not have read it yet
 *  (--fix: a site judged with a caller's file edited). */
void hg_projects_overlay(hg_projects *self, const char *path, const char *bytes, size_t len);
/** How many files were parsed for their definitions only, over every surface. */
size_t hg_projects_parsed(const hg_projects *self);
/** A worker of the scan out of files lends itself to every surface's state (its row's project_lend)
 *  until `busy(ctx)` says no worker is checking files or the states' shared work is done; a worker
 *  that runs out of files calls hg_projects_wake first. */
void hg_projects_lend(const hg_projects *self, bool (*busy)(void *ctx), void *ctx);
void hg_projects_wake(const hg_projects *self);
/** Is `module` a module of the project, by some surface that knows modules? */
bool hg_projects_has_module(const hg_projects *self, const char *module);

#endif
