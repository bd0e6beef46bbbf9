#include "cli/info.h"

#include <string.h>

#include "app/fix.h"
#include "cli/cli.h"
#include "cli/options.h"

int hg_cli_list_rules(const hg_ruleset *rules, FILE *out) {
  fputs("rules:\n", out);
  for (size_t i = 0; i < HG_RULE_COUNT; i++) fprintf(out, "  %-24s %s\n", hg_rules[i].id, hg_rules[i].summary);
  const char *const *kinds;
  size_t n = hg_ruleset_kinds(rules, &kinds);
  fputs("site kinds:\n", out);
  for (size_t i = 0; i < n; i++) fprintf(out, "  %s\n", kinds[i]);
  const hg_policy *p = hg_ruleset_policy(rules);
  fputs("requirements:\n", out);
  for (size_t i = 0; i < p->n_req; i++) fprintf(out, "  %-24s %s\n", p->req[i].id, p->req[i].summary);
  fputs("surfaces:\n", out);
  for (int s = 0; s < hg_surface_count; s++) {
    const hg_surface *sf = hg_surface_get((hg_surface_id)s);
    if (!hg_ruleset_has(rules, (hg_surface_id)s)) {
      fprintf(out, "  %-8s off (the rules have no %s/ patterns)\n", sf->id, sf->id);
      continue;
    }
    const char *pre = hg_ruleset_prefilter_source(rules, (hg_surface_id)s);
    fprintf(out, "  %-8s prefilter: %s\n", sf->id, *pre ? pre : "off (a site pattern has no literal)");
  }
  return HG_EXIT_CLEAN;
}

// Prose wrapped at 80 columns under a two-space indent; a newline in the text starts a new line.
static void wrapped(FILE *out, const char *text) {
  enum { WIDTH = 80, INDENT = 2 };
  size_t col = 0;
  for (const char *p = text; *p;) {
    if (*p == '\n') {
      fputc('\n', out);
      col = 0;
      p++;
      continue;
    }
    if (*p == ' ') {
      p++;
      continue;
    }
    size_t n = strcspn(p, " \n");
    if (col && col + 1 + n > WIDTH) {
      fputc('\n', out);
      col = 0;
    }
    if (col == 0) col = (size_t)fprintf(out, "%*s", INDENT, "");
    else col += (size_t)fprintf(out, " ");
    col += fwrite(p, 1, n, out);
    p += n;
  }
  fputc('\n', out);
}

// Code kept as written, each line under a four-space indent.
static void code_block(FILE *out, const char *code) {
  for (const char *p = code; *p;) {
    size_t n = strcspn(p, "\n");
    fprintf(out, "    %.*s\n", (int)n, p);
    p += n + (p[n] == '\n');
  }
}

int hg_cli_explain(const char *id, FILE *out, FILE *err) {
  const hg_rule *r = hg_rule_find(id);
  if (!r) return hg_cli_usage_error(err, "unknown rule '%s' (see --list-rules)", id);
  fprintf(out, "%s: %s\n\nWhat it checks\n", r->id, r->summary);
  wrapped(out, r->what);
  fputs("\nWhy it matters\n", out);
  wrapped(out, r->why);
  fputs("\nHow to fix\n", out);
  wrapped(out, r->fix);
  fputs("\nFails\n", out);
  code_block(out, r->example_fail);
  fputs("\nPasses\n", out);
  code_block(out, r->example_pass);
  fputs("\nWith --fix\n", out);
  wrapped(out, hg_fix_explain((hg_rule_id)(r - hg_rules)));
  return HG_EXIT_CLEAN;
}
