/* libFuzzer harness: compose services. The bytes are one YAML document; each service under its
 * top-level `services:` (every top-level value when there is none, so that the fuzzer need not
 * find the key first) goes through hg_compose_service and hg_evaluate with the built-in policy,
 * and each verdict's message is rendered. Anchors, aliases, merge keys and interpolation are
 * the interesting part: a bomb or a cycle must end. The same bytes are read as the .env file too
 * (hg_dotenv_parse), whose values the interpolation then takes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/compose/service.h"
#include "judge/verdict.h"
#include "base/rules_embedded.h"

static hg_policy *policy;
static hg_config *config;
static pcre2_match_data *md;
static hg_arena *arena;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  hg_error err;
  for (const hg_embedded_file *f = hg_embedded_rules; f->path; f++)
    if (!strcmp(f->path, "policy.yml") && hg_policy_load(&policy, "policy.yml", f->data, f->len, &err) != 0)
      abort();
  if (!policy)
    abort();
  config = hg_config_empty(".");
  md = pcre2_match_data_create(16, NULL);
  arena = hg_arena_new();
  return 0;
}

static void judge(yaml_document_t *doc, yaml_node_t *service, size_t *budget, const hg_dotenv *dotenv) {
  hg_site site = {.path = "compose.yaml", .kind = "compose-service", .reads = HG_READS_COMPOSE, .line = 1};
  site.flags = hg_compose_service(arena, doc, service, budget, dotenv);
  hg_verdict v;
  hg_evaluate(&v, policy, config, &site, md);
  hg_verdict_clear(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hg_dotenv dotenv;
  hg_dotenv_parse(&dotenv, arena, (const char *)data, size, ".env");
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, data, size);
  int loaded = yaml_parser_load(&parser, &doc);
  yaml_parser_delete(&parser);
  if (!loaded)
    return 0;
  yaml_node_t *root = yaml_document_get_root_node(&doc), *services = NULL;
  if (root && root->type == YAML_MAPPING_NODE) {
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
      yaml_node_t *k = yaml_document_get_node(&doc, p->key);
      if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, "services"))
        services = yaml_document_get_node(&doc, p->value);
    }
    yaml_node_t *m = services && services->type == YAML_MAPPING_NODE ? services : root;
    size_t budget = hg_compose_budget(&doc);
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
      yaml_node_t *service = yaml_document_get_node(&doc, p->value);
      if (service)
        judge(&doc, service, &budget, &dotenv);
    }
  }
  yaml_document_delete(&doc);
  hg_arena_reset(arena);
  return 0;
}
