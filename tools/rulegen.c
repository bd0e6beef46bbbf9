/* rulegen: writes, as C, the seed of the built-in rules (hg_ruleset_seed): their prefilters, so that
 * the binary knows which files can hold a site without compiling anything first, and policy.yml's
 * document, so that it does not parse it with libyaml on every run. Run by the build
 * (CMakeLists.txt), linked with the library alone, which has no seed and so compiles the rules.
 *   hg_rulegen OUT.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rules_embedded.h"
#include "base/yamlflat.h"
#include "rules/ruleset.h"

// A C string literal of `s`: printable ASCII as is, the rest octal-escaped.
static void c_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\' || *p == '?')
      fprintf(out, "\\%c", *p);
    else if (*p >= 0x20 && *p < 0x7f)
      fputc(*p, out);
    else
      fprintf(out, "\\%03o", *p);
  }
  fputc('"', out);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: hg_rulegen OUT.c\n");
    return 2;
  }
  hg_ruleset *rules;
  hg_error err;
  if (hg_ruleset_load(&rules, NULL, &err) != 0) {
    fprintf(stderr, "hg_rulegen: built-in rules: %s\n", err.message);
    return 1;
  }
  char *tmp = malloc(strlen(argv[1]) + 5);
  sprintf(tmp, "%s.tmp", argv[1]);
  FILE *out = fopen(tmp, "w");
  if (!out) {
    perror(tmp);
    return 1;
  }
  fprintf(out, "/* Written by hg_rulegen from the built-in rules: do not edit. */\n#include \"rules/ruleset.h\"\n\n");
  // policy.yml's document, as libyaml loads it.
  uint32_t policy_nodes = 0;
  for (const hg_embedded_file *f = hg_embedded_rules; f->path; f++) {
    if (strcmp(f->path, "policy.yml") != 0)
      continue;
    hg_yaml y;
    if (hg_yaml_load(&y, f->path, f->data, f->len, &err) != 0) {
      fprintf(stderr, "hg_rulegen: %s\n", err.message);
      return 1;
    }
    policy_nodes = hg_yaml_write_flat(out, &y, "policy");
    hg_yaml_free(&y);
  }
  if (!policy_nodes) {
    fprintf(stderr, "hg_rulegen: no built-in policy.yml\n");
    return 1;
  }
  for (int s = 0; s < hg_surface_count; s++) {
    hg_prefilter_seed seed = hg_ruleset_seed_of(rules, (hg_surface_id)s);
    if (!seed.source)
      continue;
    fprintf(out, "static const hg_prefilter_needle needles%d[] = {\n", s);
    for (size_t i = 0; i < seed.n_needles; i++) {
      const hg_prefilter_needle *n = &seed.needles[i];
      fprintf(out, "    {");
      c_string(out, n->text);
      fprintf(out, ", %zu, %uu, UINT64_C(0x%llx)},\n", n->len, n->combos, (unsigned long long)n->units);
    }
    fprintf(out, "    {0, 0, 0, 0},\n};\n");
  }
  fprintf(out, "\nconst hg_ruleset_seed hg_rules_seed = {\n    UINT64_C(0x%llx),\n    {\n",
          (unsigned long long)hg_ruleset_builtin_hash());
  for (int s = 0; s < hg_surface_count; s++) {
    hg_prefilter_seed seed = hg_ruleset_seed_of(rules, (hg_surface_id)s);
    if (!seed.source) {
      fprintf(out, "        {0, 0, 0},\n");
      continue;
    }
    fprintf(out, "        {");
    c_string(out, seed.source);
    fprintf(out, ", needles%d, %zu},\n", s, seed.n_needles);
  }
  fprintf(out, "    },\n    {policy_nodes, %uu, policy_ids},\n};\n", policy_nodes);
  hg_ruleset_free(rules);
  if (fclose(out) != 0 || rename(tmp, argv[1]) != 0) {
    perror(argv[1]);
    return 1;
  }
  free(tmp);
  return 0;
}
