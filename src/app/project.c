#include "app/project.h"

#include <stdlib.h>

struct hg_projects {
  void *of[HG_SURFACE_MAX];
};

hg_projects *hg_projects_new(const hg_ruleset *rules, const hg_config *config, const char *start) {
  hg_projects *self = hg_xcalloc(1, sizeof(hg_projects));
  for (int s = 0; s < hg_surface_count; s++)
    if (hg_surfaces[s]->project_new)
      self->of[s] = hg_surfaces[s]->project_new(rules, config, start);
  return self;
}

void hg_projects_free(hg_projects *self) {
  if (!self)
    return;
  for (int s = 0; s < hg_surface_count; s++)
    if (self->of[s])
      hg_surfaces[s]->project_free(self->of[s]);
  free(self);
}

void *hg_projects_of(const hg_projects *self, hg_surface_id s) { return self ? self->of[s] : NULL; }

void hg_projects_overlay(hg_projects *self, const char *path, const char *bytes, size_t len) {
  for (int s = 0; self && s < hg_surface_count; s++)
    if (self->of[s] && hg_surfaces[s]->project_overlay)
      hg_surfaces[s]->project_overlay(self->of[s], path, bytes, len);
}

size_t hg_projects_parsed(const hg_projects *self) {
  size_t n = 0;
  for (int s = 0; self && s < hg_surface_count; s++)
    if (self->of[s] && hg_surfaces[s]->project_parsed)
      n += hg_surfaces[s]->project_parsed(self->of[s]);
  return n;
}

void hg_projects_lend(const hg_projects *self, bool (*busy)(void *ctx), void *ctx) {
  for (int s = 0; self && s < hg_surface_count; s++)
    if (self->of[s] && hg_surfaces[s]->project_lend)
      hg_surfaces[s]->project_lend(self->of[s], busy, ctx);
}

void hg_projects_wake(const hg_projects *self) {
  for (int s = 0; self && s < hg_surface_count; s++)
    if (self->of[s] && hg_surfaces[s]->project_wake)
      hg_surfaces[s]->project_wake(self->of[s]);
}

bool hg_projects_has_module(const hg_projects *self, const char *module) {
  for (int s = 0; self && s < hg_surface_count; s++)
    if (self->of[s] && hg_surfaces[s]->project_has_module && hg_surfaces[s]->project_has_module(self->of[s], module))
      return true;
  return false;
}
