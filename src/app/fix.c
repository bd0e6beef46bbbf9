#include "app/fix.h"
#include "app/fixfile.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/check.h"
#include "fix/diff.h"
#include "fix/plan.h"
#include "fix/write.h"
#include "app/project.h"
#include "rules/ruleset.h"
#include "base/source.h"
#include "model/surface.h"
#include "surfaces/node.h"

// The types of fixfile.h, by their short names here.
typedef hg_fixsite site;
typedef hg_fixcand candidate;
typedef hg_fixer fixer;
typedef hg_fixfile file;

static void outcome_as(fixer *fx, const hg_finding *f, hg_fix_status status, char *text) {
  hg_fix_outcome oc = {
      .path = hg_xstrdup(f->path), .line = f->line, .col = f->col, .rule = f->rule, .status = status, .text = text};
  HG_VEC_PUSH(&fx->out->outcomes, oc);
  if (status == HG_FIX_FIXED)
    fx->out->fixed++;
  else if (status == HG_FIX_NOT_FIXED)
    fx->out->not_fixable++;
}

static void outcome(fixer *fx, const hg_finding *f, bool fixed, char *text) {
  outcome_as(fx, f, fixed ? HG_FIX_FIXED : HG_FIX_NOT_FIXED, text);
}

// A site's outcome: a caller's at the call, saying whose options it gives.
static void site_outcome(fixer *fx, const site *s, bool fixed, char *text) {
  if (!s->caller) {
    outcome(fx, s->f, fixed, text);
    return;
  }
  hg_finding at = *s->f;
  at.path = s->caller->path;
  at.line = s->caller->line;
  at.col = s->caller->col;
  outcome(fx, &at, fixed,
          hg_xasprintf("%s (a call of the site at %s:%u:%u, which takes its options from its callers)", text,
                       s->f->path, s->f->line, s->f->col));
  free(text);
}

static void refuse(fixer *fx, const char *path, char *message) {
  hg_file_error e = {.path = hg_xstrdup(path), .kind = HG_FILE_UNREADABLE, .message = message};
  HG_VEC_PUSH(&fx->out->refused, e);
}

// Why a failing finding of another rule is no fix's to make.
static const char *never_fixed(hg_rule_id rule) {
  switch (rule) {
  case HG_RULE_WEAKENING_OPTION: return "a weakening option: a human decides whether it goes";
  case HG_RULE_UNVERIFIABLE_FLAGS: return "options hardguard cannot follow: a human decides what they hold";
  case HG_RULE_CLIENT_WITHOUT_BUILDER: return "an import added only to satisfy this rule is not a fix";
  default: return "--fix applies the builder only at unhardened-site and builder-not-applied sites";
  }
}

static bool fixable_rule(hg_rule_id r) { return r == HG_RULE_UNHARDENED_SITE || r == HG_RULE_BUILDER_NOT_APPLIED; }

// ---- reading the candidates ---------------------------------------------------------------------

static void load_candidates(fixer *fx, const char *from_path) {
  const hg_config *c = fx->o->config;
  size_t n = 0;
  for (size_t i = 0; i < c->n_builders; i++)
    n += c->builders[i].n_callables;
  fx->cands = hg_xcalloc(n + 1, sizeof(candidate));
  // What each callable yields is read by the surface whose planner applies builders.
  const hg_fix_planner *reader = NULL;
  void *project = NULL;
  for (int s = 0; s < hg_surface_count && !reader; s++)
    if (hg_surfaces[s]->fix && hg_surfaces[s]->fix->builders)
      reader = hg_surfaces[s]->fix, project = hg_projects_of(fx->o->projects, s);
  for (size_t i = 0; i < c->n_builders; i++) {
    const hg_builder *b = &c->builders[i];
    for (size_t k = 0; k < b->n_callables; k++) {
      candidate *cd = &fx->cands[fx->n_cands++];
      cd->module = b->module;
      cd->name = b->callables[k];
      if (reader)
        reader->builder_yields(project, cd->module, cd->name, from_path, &cd->yields, &cd->n_yields);
    }
  }
}

static const char *const *dialect_names(fixer *fx, const char *dialect) {
  int d = dialect ? hg_policy_dialect(fx->policy, dialect) : -1;
  if (d < 0)
    return NULL;
  if (!fx->names_by_dialect[d]) {
    HG_VEC(const char *) v = {0};
    for (size_t r = 0; r < fx->policy->n_req; r++)
      for (size_t m = 0; m < fx->policy->req[r].spell[d].n; m++)
        for (size_t k = 0; k < fx->policy->req[r].spell[d].m[m].n_names; k++)
          HG_VEC_PUSH(&v, fx->policy->req[r].spell[d].m[m].names[k]);
    for (size_t r = 0; r < fx->policy->n_forbid; r++)
      for (size_t m = 0; m < fx->policy->forbid[r].spell[d].n; m++)
        for (size_t k = 0; k < fx->policy->forbid[r].spell[d].m[m].n_names; k++)
          HG_VEC_PUSH(&v, fx->policy->forbid[r].spell[d].m[m].names[k]);
    HG_VEC_PUSH(&v, NULL);
    fx->names_by_dialect[d] = v.items;
  }
  return fx->names_by_dialect[d];
}

// ---- one file -----------------------------------------------------------------------------------

static void copy_edits(hg_edits *to, const hg_edits *from, size_t start, size_t end) {
  hg_edits_free(to);
  for (size_t i = start; i < end; i++)
    hg_edits_add(to, from->items[i].start, from->items[i].end, from->items[i].text);
}

// Records a site's plan: its note (owned), its edits (those from `before` on), and when it failed
// (rc != 0) the reason and no choice.
static void planned(site *s, const hg_edits *edits, size_t before, int rc, char *note, hg_buf *why) {
  free(s->note);
  s->note = note;
  copy_edits(&s->own, edits, before, edits->len);
  if (rc != 0) {
    free(s->why);
    s->why = hg_buf_detach(why);
    s->choice = -1;
  }
  hg_buf_free(why);
}

// The file's text with the chosen callables applied: edits (sorted) and the new bytes (BOM kept).
// Sites whose plan fails get their reason and no choice.
static int build(fixer *fx, file *fl, hg_edits *edits, hg_buf *out) {
  *edits = (hg_edits){0};
  // Imports first: one edit per builder module, naming every callable the chosen sites call.
  char **calls = hg_xcalloc(fx->n_cands + 1, sizeof(char *));
  uint32_t first = (uint32_t)fl->text.len;
  for (size_t i = 0; i < fl->n_sites; i++)
    if (fl->sites[i].choice >= 0 && fl->sites[i].start < first)
      first = fl->sites[i].start;
  for (size_t c = 0; c < fx->n_cands && fl->fix->builders; c++) {
    bool done = false;
    for (size_t k = 0; k < c && !done; k++)
      done = !strcmp(fx->cands[k].module, fx->cands[c].module);
    if (done)
      continue;
    HG_VEC(char *) names = {0};
    HG_VEC(size_t) which = {0};
    for (size_t k = c; k < fx->n_cands; k++) {
      if (strcmp(fx->cands[k].module, fx->cands[c].module))
        continue;
      bool used = false;
      for (size_t i = 0; i < fl->n_sites && !used; i++)
        used = fl->sites[i].choice == (int)k;
      if (used) {
        HG_VEC_PUSH(&names, (char *)fx->cands[k].name);
        HG_VEC_PUSH(&which, k);
      }
    }
    if (names.len) {
      char **got = hg_xcalloc(names.len, sizeof(char *));
      fl->fix->plan_import(&fl->text, fx->cands[c].module, names.items, names.len, first, edits, got);
      for (size_t k = 0; k < names.len; k++)
        calls[which.items[k]] = got[k];
      free(got);
    }
    free(names.items);
    free(which.items);
  }
  copy_edits(&fl->imports, edits, 0, edits->len);
  for (size_t i = 0; i < fl->n_sites; i++) {
    site *s = &fl->sites[i];
    if (s->choice < 0)
      continue;
    size_t before = edits->len;
    hg_buf note = {0}, why = {0};
    if (!fl->fix->builders) {
      char *added = NULL;
      int rc = fl->fix->plan_missing(&fl->text, s->node, s->f, fx->policy, edits, &added, &why);
      planned(s, edits, before, rc, added, &why);
      continue;
    }
    const candidate *cd = &fx->cands[s->choice];
    char *call = hg_xasprintf("%s()", calls[s->choice]);
    int rc = fl->fix->plan_builder(&fl->text, s->node, s->kind, call, cd->yields, cd->n_yields,
                                   dialect_names(fx, s->f->dialect), fx->policy, edits, &note, &why);
    planned(s, edits, before, rc, note.len ? hg_buf_detach(&note) : NULL, &why);
    hg_buf_free(&note);
    free(call);
  }
  for (size_t c = 0; c < fx->n_cands; c++)
    free(calls[c]);
  free(calls);
  hg_buf_add(out, fl->bytes, fl->bom);
  return hg_edits_apply(edits, fl->text.src, fl->text.len, out);
}

// Picks, site by site, the first callable that makes the site pass with the choices before it.
static void choose(fixer *fx, file *fl, size_t syntax_before) {
  for (size_t i = 0; i < fl->n_sites; i++) {
    site *s = &fl->sites[i];
    if (s->why)
      continue;
    hg_buf tried = {0}, site_why = {0};
    char *plan_why = NULL;
    size_t tries = fl->fix->builders ? fx->n_cands : 1; // without builders: one plan
    for (size_t c = 0; c < tries && s->choice < 0; c++) {
      s->choice = (int)c;
      hg_edits edits;
      hg_buf text = {0};
      bool ok = false;
      if (build(fx, fl, &edits, &text) == 0 && s->choice >= 0) {
        hg_fix_checked ck;
        hg_fix__check(fx, fl->surface, fl->path, text.data, text.len, &ck);
        site_why.len = 0;
        ok = hg_fix__syntax_errors(&ck) <= syntax_before && hg_fix__passes(fx, fl, s, &edits, &text, &ck, &site_why);
        hg_fix__checked_free(&ck);
      } else if (s->why) {
        // The first callable's reason: the others are tried as fallbacks.
        if (!plan_why)
          plan_why = s->why;
        else
          free(s->why);
        s->why = NULL;
      }
      if (fl->fix->builders)
        hg_buf_printf(&tried, "%s%s()", tried.len ? ", " : "", fx->cands[c].name);
      if (!ok)
        s->choice = -1;
      hg_edits_free(&edits);
      hg_buf_free(&text);
    }
    if (s->choice < 0 && s->caller && !plan_why)
      s->why = hg_xasprintf("the site still fails in this call's context with a builder merged into the call "
                            "(tried %s): the call's options do not reach it as keywords; set what it passes by hand",
                            tried.data ? tried.data : "none");
    else if (s->choice < 0)
      s->why = plan_why ? plan_why
               : !fl->fix->builders ? hg_xstrdup(fl->fix->still_fails)
                                    : hg_xasprintf("no configured builder makes this site pass (tried %s)", tried.data);
    else
      free(plan_why);
    hg_buf_free(&tried);
    hg_buf_free(&site_why);
  }
}

// Test hook (fixtures/fix/broken-fix-rolled-back): HG_FIX_TEST_BREAK=PATH appends an unclosed
// bracket to PATH's fixed text before its final re-check, as a fix that broke the file would.
static void test_hook_break(const char *path, hg_buf *text) {
  const char *target = getenv("HG_FIX_TEST_BREAK");
  if (target && !strcmp(target, path))
    hg_buf_puts(text, "broken = (\n");
}

// The site's edits and the file's import edits as changes in lines and columns, in file order.
static void changes_of(const file *fl, const site *s, hg_fix_outcome *oc) {
  hg_edits all = {0};
  for (size_t i = 0; i < fl->imports.len; i++)
    hg_edits_add(&all, fl->imports.items[i].start, fl->imports.items[i].end, fl->imports.items[i].text);
  for (size_t i = 0; i < s->own.len; i++)
    hg_edits_add(&all, s->own.items[i].start, s->own.items[i].end, s->own.items[i].text);
  hg_edits_sort(&all);
  oc->changes = hg_xcalloc(all.len + 1, sizeof(hg_fix_change));
  for (size_t i = 0; i < all.len; i++) {
    hg_fix_change *c = &oc->changes[oc->n_changes++];
    hg_fix__position(fl->text.src, all.items[i].start, &c->line, &c->col);
    hg_fix__position(fl->text.src, all.items[i].end, &c->end_line, &c->end_col);
    c->text = all.items[i].text;
    all.items[i].text = NULL;
  }
  hg_edits_free(&all);
}

static void report_site(fixer *fx, const file *fl, const site *s) {
  if (s->choice < 0) {
    site_outcome(fx, s, false, hg_xstrdup(s->why ? s->why : "not fixable"));
    return;
  }
  hg_buf b = {0};
  const candidate *cd = fl->fix->builders ? &fx->cands[s->choice] : NULL;
  fl->fix->describe(&b, fx->o->dry_run, s->kind, s->note, cd ? cd->name : NULL, cd ? cd->module : NULL);
  site_outcome(fx, s, true, hg_buf_detach(&b));
  changes_of(fl, s, &fx->out->outcomes.items[fx->out->outcomes.len - 1]);
}

// Every site of the file not fixed, with `why` (a file-level reason).
static void all_not_fixed(fixer *fx, const file *fl, const char *why) {
  for (size_t i = 0; i < fl->n_sites; i++)
    site_outcome(fx, &fl->sites[i], false, hg_xstrdup(why));
}

static void fix_file(fixer *fx, file *fl) {
  struct stat st;
  hg_error e;
  const char *refusal = NULL;
  if (lstat(fl->path, &st) != 0)
    refusal = "cannot be read";
  else if (S_ISLNK(st.st_mode))
    refusal = "a symbolic link; --fix rewrites only regular files (fix its target)";
  else if (!S_ISREG(st.st_mode))
    refusal = "not a regular file";
  else if (!(st.st_mode & S_IWUSR))
    refusal = "read-only; --fix leaves it as it is";
  else if (!hg_fix_inside(fl->path, fx->o->root))
    refusal = "outside the project root; --fix leaves it as it is";
  if (refusal) {
    refuse(fx, fl->path, hg_xstrdup(refusal));
    all_not_fixed(fx, fl, refusal);
    return;
  }
  if (hg_read_file(&fl->bytes, &fl->len, fl->path, &e) != 0) {
    refuse(fx, fl->path, hg_xstrdup(e.message));
    all_not_fixed(fx, fl, "cannot be read");
    return;
  }
  fl->bom = hg_text_bom(fl->bytes, fl->len);
  fl->text = (hg_fix_text){.src = fl->bytes + fl->bom, .len = fl->len - fl->bom};
  fl->text.eol = hg_text_eol(fl->text.src, fl->text.len);
  TSParser **parser = &fx->parser[fl->surface];
  if (!*parser) {
    *parser = ts_parser_new();
    if (!ts_parser_set_language(*parser, hg_surface_get(fl->surface)->language()))
      abort(); // ABI checked at build
  }
  fl->tree = ts_parser_parse_string(*parser, NULL, fl->text.src, (uint32_t)fl->text.len);
  fl->text.root = ts_tree_root_node(fl->tree);
  for (size_t i = 0; i < fl->n_sites; i++) {
    site *s = &fl->sites[i];
    const hg_related *c = s->caller;
    s->start = hg_text_offset(fl->text.src, fl->text.len, c ? c->line : s->f->line, c ? c->col : s->f->col);
    s->end = hg_text_offset(fl->text.src, fl->text.len, c ? c->end_line : s->f->end_line,
                            c ? c->end_col : s->f->end_col);
    int d = c && s->f->dialect ? hg_policy_dialect(fx->policy, s->f->dialect) : -1;
    if (d >= 0 && fx->policy->dialects[d].shape != HG_SHAPE_KEYWORDS)
      s->why = hg_xasprintf("the site reads its %s options from this call as command-line words or an object: "
                            "--fix merges a builder only into the keywords a call hands on; change what it "
                            "passes by hand",
                            s->f->dialect);
    else
      s->why = fl->fix->locate(&fl->text, s->f, fx->policy, fx->n_cands, s->start, s->end, &s->node, &s->kind);
  }
  hg_fix_checked before;
  hg_fix__check(fx, fl->surface, fl->path, fl->bytes, fl->len, &before);
  size_t syntax_before = hg_fix__syntax_errors(&before);
  hg_fix__checked_free(&before);
  if (syntax_before) {
    // Where the parser recovered from an error is no place to edit: fix the syntax first.
    all_not_fixed(fx, fl, "the file has a syntax error; --fix leaves it as it is");
    return;
  }
  choose(fx, fl, syntax_before);
  bool any = false;
  for (size_t i = 0; i < fl->n_sites; i++)
    any |= fl->sites[i].choice >= 0;
  if (!any) {
    for (size_t i = 0; i < fl->n_sites; i++)
      report_site(fx, fl, &fl->sites[i]);
    return;
  }
  // The whole file once more, with every choice: it must parse as before and each site pass.
  hg_edits edits;
  hg_buf text = {0};
  char *why = NULL;
  if (build(fx, fl, &edits, &text) != 0) {
    why = hg_xstrdup("the fixes overlap; rolled back");
  } else {
    test_hook_break(fl->path, &text);
    hg_fix_checked ck;
    hg_fix__check(fx, fl->surface, fl->path, text.data, text.len, &ck);
    hg_buf site_why = {0};
    if (hg_fix__syntax_errors(&ck) > syntax_before)
      why = hg_xstrdup("the fixed file does not parse; rolled back");
    for (size_t i = 0; i < fl->n_sites && !why; i++)
      if (fl->sites[i].choice >= 0 && !hg_fix__passes(fx, fl, &fl->sites[i], &edits, &text, &ck, &site_why))
        why = hg_xasprintf("line %u still fails after the fix (%s); rolled back",
                           fl->sites[i].caller ? fl->sites[i].caller->line : fl->sites[i].f->line, site_why.data);
    hg_buf_free(&site_why);
    hg_fix__checked_free(&ck);
  }
  if (!why && fx->o->dry_run)
    hg_diff_unified(&fx->out->diff, fl->path, fl->text.src, fl->text.len, &edits);
  else if (!why)
    hg_fix_write(fl->path, text.data, text.len, fl->bytes, fl->len, &st, &why);
  if (why) {
    refuse(fx, fl->path, hg_xstrdup(why));
    all_not_fixed(fx, fl, why);
  } else {
    fx->out->files_changed++;
    for (size_t i = 0; i < fl->n_sites; i++)
      report_site(fx, fl, &fl->sites[i]);
  }
  free(why);
  hg_edits_free(&edits);
  hg_buf_free(&text);
}

// ---- the run ------------------------------------------------------------------------------------

// The findings of one file (findings[from, to)), and the indexes of the callers standing in it.
typedef struct {
  const char *path;
  size_t from, to;
  HG_VEC(size_t) callers;
} group;

typedef HG_VEC(site) site_vec;

static void fix_group(fixer *fx, const group *g, const hg_findings *findings, const site_vec *callers) {
  file fl = {.path = g->path};
  site_vec sites = {0};
  HG_VEC(const hg_finding *) clients = {0};
  for (size_t k = g->from; k < g->to; k++) {
    const hg_finding *f = &findings->items[k];
    if (!hg_finding_fails(f))
      continue;
    if (f->rule == HG_RULE_CLIENT_WITHOUT_BUILDER && !(f->also & ~(UINT32_C(1) << f->rule))) {
      HG_VEC_PUSH(&clients, f); // settled below when a site of the file is fixed
      continue;
    }
    if (!fixable_rule(f->rule)) {
      outcome(fx, f, false, hg_xstrdup(never_fixed(f->rule)));
      continue;
    }
    if (!f->at_callers) // else fixed at its callers
      HG_VEC_PUSH(&sites, ((site){.f = f, .choice = -1}));
  }
  for (size_t k = 0; k < g->callers.len; k++)
    HG_VEC_PUSH(&sites, callers->items[g->callers.items[k]]);
  fl.sites = sites.items;
  fl.n_sites = sites.len;
  int surface = hg_surface_by_name(fl.path);
  bool fixable = surface >= 0 && hg_surface_get(surface)->fix;
  if (fl.n_sites && !fixable) {
    // Named from the registry: the surfaces with a planner, and this file's.
    hg_buf why = {0};
    hg_buf_puts(&why, "--fix rewrites only the files of surfaces it has a planner for (");
    for (int k = 0, n = 0; k < hg_surface_count; k++)
      if (hg_surface_get(k)->fix)
        hg_buf_printf(&why, "%s%s", n++ ? ", " : "", hg_surface_get(k)->id);
    hg_buf_printf(&why, "); this %s%sfile is not fixed: add what the finding names",
                  surface >= 0 ? hg_surface_get(surface)->id : "", surface >= 0 ? " " : "");
    all_not_fixed(fx, &fl, why.data);
    hg_buf_free(&why);
  }
  size_t changed = fx->out->files_changed;
  fl.surface = fixable ? (hg_surface_id)surface : 0;
  fl.fix = fixable ? hg_surface_get(surface)->fix : NULL;
  if (fl.n_sites && fixable)
    fix_file(fx, &fl);
  // The import a fix adds is for the sites it fixed, which apply the builder: the module no
  // longer opens a client without it.
  for (size_t k = 0; k < clients.len; k++)
    if (fx->out->files_changed > changed)
      outcome_as(fx, clients.items[k], HG_FIX_RESOLVED,
                 hg_xstrdup(fx->o->dry_run ? "would be settled by the import the fixes add"
                                           : "settled by the import the fixes added"));
    else
      outcome(fx, clients.items[k], false, hg_xstrdup(never_fixed(HG_RULE_CLIENT_WITHOUT_BUILDER)));
  free(clients.items);
  for (size_t k = 0; k < fl.n_sites; k++) {
    free(fl.sites[k].why);
    free(fl.sites[k].note);
    hg_edits_free(&fl.sites[k].own);
  }
  hg_edits_free(&fl.imports);
  free(fl.sites);
  free(fl.bytes);
  if (fl.tree)
    hg_tree_delete(fl.tree);
}

int hg_fix_run(hg_fix_report *out, const hg_fix_options *o, const hg_findings *findings, hg_error *err) {
  (void)err;
  *out = (hg_fix_report){0};
  fixer fx = {.o = o, .policy = hg_ruleset_policy(o->rules), .out = out};
  fx.checker = hg_checker_new();
  load_candidates(&fx, findings->len ? findings->items[0].path : ".");
  // A site whose options come from its callers is fixed at them: the call nearest the site of each
  // calling context that fails.
  site_vec callers = {0};
  for (size_t i = 0; i < findings->len; i++) {
    const hg_finding *f = &findings->items[i];
    for (size_t k = 0; f->at_callers && k < f->n_related && hg_finding_fails(f) && fixable_rule(f->rule); k++)
      if (f->related[k].nearest)
        HG_VEC_PUSH(&callers, ((site){.f = f, .caller = &f->related[k], .choice = -1}));
  }
  // Findings come sorted by path: one file at a time, and the files where only callers stand.
  HG_VEC(group) groups = {0};
  for (size_t i = 0; i < findings->len;) {
    size_t j = i;
    while (j < findings->len && !strcmp(findings->items[j].path, findings->items[i].path))
      j++;
    HG_VEC_PUSH(&groups, ((group){.path = findings->items[i].path, .from = i, .to = j}));
    i = j;
  }
  for (size_t c = 0; c < callers.len; c++) {
    size_t g = 0;
    while (g < groups.len && !hg_fix__same_file(groups.items[g].path, callers.items[c].caller->path))
      g++;
    if (g == groups.len)
      HG_VEC_PUSH(&groups, ((group){.path = callers.items[c].caller->path}));
    HG_VEC_PUSH(&groups.items[g].callers, c);
  }
  // Files with callers first: a caller is judged with its site's file as it is on disk, before
  // fixes of that file's own sites move its lines.
  for (int pass = 0; pass < 2; pass++)
    for (size_t g = 0; g < groups.len; g++)
      if ((groups.items[g].callers.len > 0) == (pass == 0))
        fix_group(&fx, &groups.items[g], findings, &callers);
  for (size_t g = 0; g < groups.len; g++)
    free(groups.items[g].callers.items);
  free(groups.items);
  free(callers.items);
  for (size_t c = 0; c < fx.n_cands; c++)
    hg_strv_free(fx.cands[c].yields, fx.cands[c].n_yields);
  free(fx.cands);
  for (size_t d = 0; d < HG_POLICY_MAX_DIALECTS; d++)
    free(fx.names_by_dialect[d]);
  for (int i = 0; i < hg_surface_count; i++)
    if (fx.parser[i])
      ts_parser_delete(fx.parser[i]);
  hg_checker_free(fx.checker);
  return 0;
}

void hg_fix_report_free(hg_fix_report *self) {
  for (size_t i = 0; i < self->outcomes.len; i++) {
    hg_fix_outcome *oc = &self->outcomes.items[i];
    free(oc->path);
    free(oc->text);
    for (size_t k = 0; k < oc->n_changes; k++)
      free(oc->changes[k].text);
    free(oc->changes);
  }
  free(self->outcomes.items);
  hg_file_errors_free(&self->refused);
  hg_buf_free(&self->diff);
  *self = (hg_fix_report){0};
}

const hg_fix_outcome *hg_fix_report_find(const hg_fix_report *self, const char *path, uint32_t line, uint32_t col,
                                         hg_rule_id rule) {
  for (size_t i = 0; self && i < self->outcomes.len; i++) {
    const hg_fix_outcome *oc = &self->outcomes.items[i];
    if (oc->line == line && oc->col == col && oc->rule == rule && !strcmp(oc->path, path))
      return oc;
  }
  return NULL;
}

const char *hg_fix_explain(hg_rule_id rule) {
  switch (rule) {
  case HG_RULE_UNHARDENED_SITE:
  case HG_RULE_BUILDER_NOT_APPLIED:
    return "hardguard --fix applies the configured builder here: a keyword call (docker-py, podman-py) gets "
           "**builder() merged last, and a keyword the call also passes that the builder yields is dropped (Python "
           "refuses a keyword given twice) and named; an argv list gets *builder() spliced right before the image; "
           "the import goes into the file's import block in the form the file uses. The first configured callable "
           "that makes the site pass is chosen, and the file is checked again before it is written. A site whose "
           "options come from its callers is fixed at them: the builder goes into each failing calling context's "
           "call nearest the site, which must then pass. A command of a "
           "shell script, which has no builder, gets the missing flags (the policy's set: words) before the image. "
           "Shell command strings in Python, compose services, Makefiles, CI files, devcontainer.json and Quadlet "
           "units are not fixed. `hardguard "
           "init` writes a builder when the project has none; `--fix --show-fixes` shows the diff without writing.";
  case HG_RULE_CLIENT_WITHOUT_BUILDER:
    return "Never fixed on its own: an import added only to satisfy this rule is not a fix. When --fix applies the "
           "builder at a site of the module, the import it adds settles this finding.";
  case HG_RULE_WEAKENING_OPTION:
  case HG_RULE_UNVERIFIABLE_FLAGS:
    return "Never fixed: a human decides whether the option goes or what the expression holds.";
  default: return "Not fixed by --fix.";
  }
}
