// Compose files: each selected service is a site at its key, its value built by
// src/surfaces/compose/service.c and judged with the policy's compose spellings.
#include "surfaces/compose/compose.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/compose/service.h"
#include "surfaces/ydoc.h"
#include "surfaces/registry.h"

typedef struct {
  const hg_source *src;
  hg_arena *arena;
  size_t budget; // shared by the file's services (hg_compose_budget)
  hg_site_vec *sites;
  const hg_dotenv *dotenv;
} compose_ctx;

static void service(hg_ydoc *doc, yaml_node_t *const *above, size_t n, yaml_node_t *key, yaml_node_t *node,
                    void *vctx) {
  (void)above;
  (void)n;
  compose_ctx *c = vctx;
  if (!key)
    return; // `services` is a mapping of names to services
  hg_site s = {.path = c->src->path, .kind = doc->rule->kind, .reads = HG_READS_COMPOSE};
  hg_ydoc_place(doc, key, &s);
  s.flags = hg_compose_service(c->arena, &doc->yaml.doc, node, &c->budget, c->dotenv);
  HG_VEC_PUSH(c->sites, s);
}

void hg_compose_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                        const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  (void)self;
  (void)config;
  (void)project;
  (void)tree;
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  hg_ydoc doc;
  hg_sites failed = {0};
  if (hg_ydoc_load(&doc, source, arena, &failed)) {
    hg_dotenv dotenv;
    hg_dotenv_load(&dotenv, arena, source->path);
    compose_ctx c = {.src = source,
                     .arena = arena,
                     .sites = &sites,
                     .budget = hg_compose_budget(&doc.yaml.doc),
                     .dotenv = &dotenv};
    hg_ydoc_select_rules(&doc, rules, HG_SURFACE_COMPOSE, "compose", service, &c);
  } else if (hg_ruleset_may_contain_site(rules, HG_SURFACE_COMPOSE, source->data, source->len, NULL)) {
    hg_site s;
    hg_ydoc_failed_region(&doc, &failed, &s);
    HG_VEC_PUSH(&sites, s);
  }
  hg_ydoc_markers(&doc, arena, NULL, NULL, 0, &markers);
  hg_ydoc_free(&doc);
  hg_extract__finish(out, arena, &sites, &markers);
  out->syntax_error = failed.syntax_error;
  out->syntax_at = failed.syntax_at;
}
