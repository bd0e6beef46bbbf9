#include "judge/verdict.h"

#include <stdlib.h>
#include <string.h>

#include "base/argv.h"
#include "model/render.h"
#include "judge/effect.h"
#include "judge/explain.h"
#include "judge/offer.h"
#include "judge/options.h"
#include "judge/worlds.h"

// What one reading mode's options look like in messages and fix hints (how they are judged is
// the reading-mode table's: model/reads.h).
static const struct {
  const char *subject; // how the message names the site
  bool argv_style;     // fix flags written as list items ("--cap-drop", "ALL")
  bool builder;        // the configured (Python) builders can be applied here
  const char *apply;   // how a builder is applied, around its name
  const char *apply_end;
} MODES[] = {
    [HG_READS_KWARGS] = {"container created with keywords", false, true, "**", "()"},
    [HG_READS_ARGV] = {"container command line", true, true, "*", "()"},
    [HG_READS_SHELL] = {"container shell command", false, true, "{shlex.join(", "())}"},
    [HG_READS_COMMAND] = {"container command", false, false, "", ""},
    [HG_READS_SCRIPT] = {"shell script", false, false, "", ""},
    [HG_READS_CLIENT] = {"Docker client", false, true, "", "()"},
    [HG_READS_OPAQUE] = {"code run at run time", false, true, "", "()"},
    [HG_READS_COMPOSE] = {"compose service", false, false, "", ""},
    [HG_READS_BODY] = {"container created through the Engine API", false, true, "**", "()"},
};

// How a message names a site: its dialect's subject, else its reading mode's.
static const char *subject_of(const hg_policy *p, const hg_site *site, size_t dialect) {
  const char *s = p->dialects[dialect].subject;
  return s ? s : MODES[site->reads].subject;
}

static const char *builder_modules(const hg_config *c, hg_buf *b) {
  for (size_t i = 0; i < c->n_builders; i++)
    hg_buf_printf(b, "%s%s", i ? ", " : "", c->builders[i].module);
  return b->data ? b->data : "";
}

static char *fix_hint(const hg_judge *j, const hg_config *c, const hg_site *site, uint64_t missing) {
  const hg_policy *p = j->policy;
  hg_reads reads = site->reads;
  size_t dialect = j->dialect;
  hg_buf b = {0}, not_offered = {0};
  size_t n_builders = MODES[reads].builder ? hg_offer_builders(&b, &not_offered, j, c, site,
                                                               hg_readings[reads].shape == HG_SHAPE_FLAGS,
                                                               MODES[reads].apply, MODES[reads].apply_end)
                                           : 0;
  if (n_builders) {
    hg_buf_puts(&b, ", merged last");
    if (missing)
      hg_buf_puts(&b, "; or add ");
  } else if (missing) {
    hg_buf_puts(&b, "add ");
  }
  bool first = true;
  for (size_t r = 0; r < p->n_req; r++) {
    if (!(missing & (UINT64_C(1) << r)))
      continue;
    hg_buf_puts(&b, first ? "" : ", ");
    first = false;
    const hg_requirement *req = &p->req[r];
    const char *fix = req->spell[dialect].n ? req->spell[dialect].fix : NULL;
    if (!req->spell[dialect].n && req->spell[dialect].fix) {
      // A requirement the dialect cannot express: its fix text says what does it instead.
      hg_buf_printf(&b, "%s (%s)", req->id, req->spell[dialect].fix);
    } else if (!fix) {
      hg_buf_printf(&b, "%s (the policy has no %s spelling for it)", req->id, p->dialects[dialect].id);
    } else if (hg_readings[reads].yaml) {
      hg_buf_printf(&b, "`%s`", fix);
    } else if (!MODES[reads].argv_style) {
      hg_buf_puts(&b, fix);
    } else {
      hg_argv_words w = {0};
      hg_argv_split(&w, fix);
      for (size_t k = 0; k < w.len; k++)
        hg_buf_printf(&b, "%s\"%s\"", k ? ", " : "", w.items[k]);
      hg_strvec_free(&w);
    }
  }
  if (!first && p->dialects[dialect].fix_into)
    hg_buf_printf(&b, " to %s", p->dialects[dialect].fix_into);
  if (not_offered.len)
    hg_buf_printf(&b, "%s(not offered: %s)", b.len ? " " : "",
                  not_offered.data);
  hg_buf_free(&not_offered);
  return hg_buf_detach(&b);
}

static void judge_client(hg_verdict *out, const hg_config *config, const hg_site *site) {
  if (site->imports_builder) {
    out->via = HG_VIA_BUILDER;
    out->message = hg_xstrdup("Docker client in a module that imports the hardening builder");
    return;
  }
  hg_buf mods = {0};
  out->rule = HG_RULE_CLIENT_WITHOUT_BUILDER;
  if (config->n_builders) {
    out->message = hg_xasprintf("Docker client opened in a module that does not import the hardening "
                                "builder (%s)",
                                builder_modules(config, &mods));
    out->fix = hg_xasprintf("import the builder from %s here and apply it at every container site",
                            config->builders[0].module);
  } else {
    out->message = hg_xstrdup("Docker client opened, and no hardening builder is configured");
    out->fix = hg_xstrdup("name the project's builder under `builders:` in .hardguard.yml and import it here");
  }
  hg_buf_free(&mods);
}

// The options that undo hardening become the first rule; whatever else fails stays in `also` and
// in the message.

static void add_weakening(hg_verdict *out, const hg_judge *j, const hg_site *site) {
  hg_reads reads = site->reads;
  hg_buf msg = {0}, fix = {0};
  hg_buf_printf(&msg, "%s undoes hardening:", subject_of(j->policy, site, j->dialect));
  hg_buf_puts(&fix, "remove ");
  bool first = true;
  for (size_t f = 0; f < j->policy->n_forbid; f++) {
    const hg_value *v = j->forbid_hit[f];
    if (!v)
      continue;
    const hg_value *entry = j->forbid_value[f];
    if (hg_readings[reads].yaml) {
      // `privileged: true`, or the list entry that sets it: `volumes: ["/:/host"]`
      hg_buf_puts(&msg, first ? " `" : "; `");
      hg_buf_printf(&fix, "%s`", first ? "" : ", ");
      if (entry) {
        hg_value one = {.kind = HG_VAL_LIST, .items = (hg_value *)entry, .n_items = 1};
        hg_yaml_put_entry(&msg, j->forbid_name[f], &one);
        hg_yaml_put_value(&fix, entry, true);
        hg_buf_printf(&fix, "` from `%s`", j->forbid_name[f]);
      } else {
        hg_yaml_put_entry(&msg, j->forbid_name[f], v);
        hg_yaml_put_entry(&fix, j->forbid_name[f], v);
        hg_buf_puts(&fix, "`");
      }
      hg_buf_puts(&msg, "` (");
      hg_explain_where(&msg, site, entry ? entry : v);
      hg_buf_printf(&msg, ") %s", j->policy->forbid[f].message);
      if (j->forbid_cond[f])
        hg_buf_printf(&msg, " when %s", j->forbid_cond[f]);
      first = false;
      continue;
    }
    hg_buf_puts(&msg, first ? " `" : "; `");
    hg_buf_puts(&fix, first ? "`" : ", `");
    if (reads == HG_READS_KWARGS) {
      hg_buf_printf(&msg, "%s=", j->forbid_name[f]);
      hg_buf_printf(&fix, "%s", j->forbid_name[f]);
    } else if (reads == HG_READS_BODY) {
      bool dotted = j->policy->dialects[j->dialect].dotted;
      hg_put_path(&msg, j->forbid_name[f], dotted);
      hg_put_path(&fix, j->forbid_name[f], dotted);
      hg_buf_puts(&msg, hg_path_sep(dotted));
    } else {
      hg_buf_puts(&fix, j->forbid_name[f]);
    }
    hg_explain_word(&msg, reads == HG_READS_BODY && j->forbid_value[f] ? j->forbid_value[f] : v, reads);
    if (j->forbid_value[f] && reads != HG_READS_BODY) {
      hg_buf_puts(&msg, reads == HG_READS_COMMAND ? " " : ", ");
      hg_explain_word(&msg, j->forbid_value[f], reads);
    }
    hg_buf_puts(&msg, "` (");
    hg_explain_where(&msg, site, v);
    hg_buf_printf(&msg, ") %s", j->policy->forbid[f].message);
    if (j->forbid_cond[f])
      hg_buf_printf(&msg, " when %s", j->forbid_cond[f]);
    hg_buf_puts(&fix, "`");
    first = false;
  }
  if (out->rule != HG_RULE_NONE) {
    out->also |= UINT32_C(1) << out->rule;
    hg_buf_printf(&msg, "; also %s: %s", hg_rules[out->rule].id, out->message);
    hg_buf_printf(&fix, "; %s", out->fix);
  }
  free(out->message);
  free(out->fix);
  out->message = hg_buf_detach(&msg);
  out->fix = hg_buf_detach(&fix);
  out->rule = HG_RULE_WEAKENING_OPTION;
}

static void judge_flags(hg_verdict *out, const hg_judge *j, const hg_policy *policy, const hg_config *config,
                        const hg_site *site);

// The verdict on what the judge read: the first failing rule and its message, then the options
// that undo hardening in front of it.
static void verdict_of(hg_verdict *out, const hg_judge *j, const hg_policy *policy, const hg_config *config,
                       const hg_site *site) {
  out->rule = HG_RULE_NONE;
  judge_flags(out, j, policy, config, site);
  for (size_t f = 0; f < policy->n_forbid; f++)
    if (j->forbid_hit[f]) {
      add_weakening(out, j, site);
      break;
    }
}

// Can a calling context's call add what the site lacks: does the site take its options whole, or
// through a spread, from what the contexts' calls pass it (`**opts`, `*argv`, a body handed in:
// the surface marks such contexts `handed`)? Options written in the site (`volumes=self.volumes`,
// read for each construction of the object) are the site's to change, even where the callers
// decide their values.
static bool handed_by_callers(const hg_value *v, int depth) {
  if (v->kind == HG_VAL_ALT && v->contexts)
    return v->handed;
  for (size_t i = 0; depth < 8 && i < v->n_items; i++)
    if (handed_by_callers(&v->items[i], depth + 1))
      return true;
  return false;
}

// The calls of each calling context that falls short (of a requirement not relaxed, or by setting
// a forbidden option), as the finding's related places: the callers that must change.
static void related_of(hg_verdict *out, const hg_judge *j, const hg_policy *policy, const hg_config *config,
                       const hg_site *site) {
  HG_VEC(hg_related) v = {0};
  uint64_t at_calls = 0; // what the calls named lack between them
  for (size_t i = 0; i < j->ctx.len; i++) {
    const hg_judge_context *c = &j->ctx.items[i];
    uint64_t lacks = c->lacks & ~out->relaxed;
    if ((!lacks && !c->forbids) || !c->arm->calls)
      continue;
    at_calls |= lacks;
    hg_buf m = {0};
    hg_buf_printf(&m, "the calling context `%s`", c->arm->cond ? c->arm->cond : "?");
    const char *sep = " lacks ";
    for (size_t r = 0; r < policy->n_req; r++)
      if (lacks & (UINT64_C(1) << r)) {
        hg_buf_printf(&m, "%s%s", sep, policy->req[r].id);
        sep = ", ";
      }
    if (c->forbids)
      hg_buf_printf(&m, "%ssets a forbidden option", lacks ? " and " : " ");
    for (const hg_call_at *at = c->arm->calls; at; at = at->next)
      HG_VEC_PUSH(&v, ((hg_related){.path = hg_xstrdup(at->path),
                                    .line = at->line,
                                    .col = at->col,
                                    .end_line = at->end_line,
                                    .end_col = at->end_col,
                                    .nearest = at == c->arm->calls,
                                    .message = hg_xstrdup(m.data)}));
    hg_buf_free(&m);
  }
  out->related = v.items;
  out->n_related = v.len;
  // The options come from the callers: the fix is theirs to make (--fix makes it there), of what
  // they lack (what a context without calls to name cannot be verified to have is not theirs).
  out->at_callers = v.len && handed_by_callers(&site->flags, 0);
  if (out->fix && out->at_callers) {
    if (at_calls && at_calls != out->missing) {
      free(out->fix);
      out->fix = fix_hint(j, config, site, at_calls);
    }
    hg_buf b = {0};
    hg_buf_puts(&b, "at the calls that lack it (");
    const char *sep = "";
    for (size_t i = 0; i < v.len; i++) {
      bool again = false; // a call several contexts pass through is named once
      for (size_t k = 0; k < i && !again; k++)
        again = v.items[k].nearest && v.items[k].line == v.items[i].line && !strcmp(v.items[k].path, v.items[i].path);
      if (v.items[i].nearest && !again) {
        hg_buf_printf(&b, "%s%s:%u", sep, v.items[i].path, v.items[i].line);
        sep = ", ";
      }
    }
    hg_buf_printf(&b, "), not in the site: %s", out->fix);
    free(out->fix);
    out->fix = hg_buf_detach(&b);
  }
}

void hg_evaluate(hg_verdict *out, const hg_policy *policy, const hg_config *config, const hg_site *site,
                 pcre2_match_data *md) {
  memset(out, 0, sizeof(*out));
  out->rule = HG_RULE_NONE;
  if (site->has_error) {
    out->rule = HG_RULE_UNPARSABLE_SITE;
    out->message = hg_xstrdup(site->region ? "code that failed to parse mentions a container or client site's "
                                             "words, so a site may be hidden in it"
                                           : "the site's own code has a syntax error, so its flags cannot be judged");
    out->fix = hg_xstrdup("fix the syntax error; the site is judged once it parses");
    return;
  }
  if (site->reads == HG_READS_OPAQUE) {
    out->rule = HG_RULE_UNVERIFIABLE_FLAGS;
    out->message = hg_xstrdup("code that mentions Docker is run through exec/eval/compile or imported by a "
                              "computed name, so what it starts cannot be checked");
    out->fix = hg_xstrdup("call docker-py or build the command in ordinary code, with the hardening builder");
    return;
  }
  if (site->reads == HG_READS_CLIENT) {
    judge_client(out, config, site);
    return;
  }
  int dialect = hg_policy_site_dialect(policy, site->reads, (int)site->dialect - 1);
  if (dialect < 0)
    abort(); // the rules were checked against the policy when loaded (ruleset.c)
  hg_judge j;
  hg_judge_init(&j, policy, dialect, md);
  hg_judge_read_worlds(&j,
                       site->reads == HG_READS_KWARGS                                   ? hg_judge_read_kwargs
                       : site->reads == HG_READS_COMPOSE || site->reads == HG_READS_BODY ? hg_judge_read_mapping
                                                                                        : hg_judge_read_argv,
                       &site->flags);
  verdict_of(out, &j, policy, config, site);
  // A failing site's missing requirements that an allow[...] marker names are relaxed: the verdict
  // is given again from the same reading, with them counted as met.
  uint64_t relax = out->rule != HG_RULE_NONE ? site->allowable & out->missing : 0;
  if (relax) {
    for (size_t r = 0; r < policy->n_req; r++)
      if (relax & (UINT64_C(1) << r)) {
        j.req[r] = HG_SAT;
        j.unverifiable[r] = NULL;
      }
    hg_verdict_clear(out);
    verdict_of(out, &j, policy, config, site);
    out->relaxed = relax;
  }
  out->effective = hg_effects_of(&j, site, out->relaxed, &out->n_effective);
  if (out->rule != HG_RULE_NONE)
    related_of(out, &j, policy, config, site);
  hg_judge_free(&j);
}

// "`kwargs` at line 4 (a parameter of f() at line 2)": a value hardguard could not follow, where
// it is and why.
static void put_carrier(hg_buf *msg, const hg_site *site, const hg_value *v) {
  if (hg_readings[site->reads].yaml && v->key)
    hg_yaml_put_entry(msg, v->key, v);
  else if (hg_readings[site->reads].yaml)
    hg_yaml_put_value(msg, v, false);
  else if (site->reads == HG_READS_COMMAND)
    hg_explain_word(msg, v, site->reads);
  else
    hg_put_expr(msg, v, true);
  hg_buf_puts(msg, "` at ");
  hg_explain_where(msg, site, v);
  hg_buf_printf(msg, " (%s)", v->origin ? v->origin : "not a literal");
}

static void judge_flags(hg_verdict *out, const hg_judge *jp, const hg_policy *policy, const hg_config *config,
                        const hg_site *site) {
  const hg_judge j = *jp;
  // A spread hardguard cannot follow could carry anything, and a value it cannot follow for one
  // requirement could meet it (the worlds' readings count what a spread may carry as unverifiable,
  // worlds.c): either makes the site unverifiable only when nothing is plainly missing; else the
  // site is unhardened and the message names what it cannot verify too.
  const hg_value *unverifiable = NULL;
  uint64_t unsure = 0;
  for (size_t r = 0; r < policy->n_req; r++) {
    if (j.req[r] != HG_SAT)
      out->missing |= UINT64_C(1) << r;
    if (j.req[r] == HG_UNVERIFIABLE)
      unsure |= UINT64_C(1) << r;
  }
  bool plainly_missing = (out->missing & ~unsure) != 0;
  if (!plainly_missing)
    unverifiable = j.carrier;
  for (size_t r = 0; r < policy->n_req && !unverifiable && !plainly_missing; r++)
    if (j.req[r] == HG_UNVERIFIABLE)
      unverifiable = j.unverifiable[r];
  if (!unverifiable && !plainly_missing)
    unverifiable = j.undoer; // might set a forbidden option: unverifiable when nothing else fails
  hg_buf msg = {0}, mods = {0};
  const char *subject = subject_of(policy, site, j.dialect);
  if (j.builder) {
    out->via = HG_VIA_BUILDER;
    if (!j.builder_safe) {
      // `missing` and the effects say what wins: a later `"network_mode": "bridge"` replaces the
      // builder's "none"; a later spread hardguard cannot read may replace anything.
      out->missing = j.applied && !j.trusted ? out->missing & ~unsure : 0;
      out->rule = HG_RULE_BUILDER_OVERRIDABLE;
      hg_buf_printf(&msg, "%s applies the hardening builder, but `", subject);
      hg_put_expr(&msg, j.overrider, true);
      hg_buf_puts(&msg, "` (");
      hg_explain_where(&msg, site, j.overrider);
      hg_buf_puts(&msg, "), merged after it, can replace what it sets");
      if (out->missing) {
        hg_buf_puts(&msg, "; missing: ");
        hg_explain_missing_where(&j, out->missing, &msg);
      }
      out->message = hg_buf_detach(&msg);
      out->fix = hg_xstrdup(site->reads == HG_READS_KWARGS
                                ? "merge the builder last: **{**caller_kwargs, **hardening_kwargs()}"
                                : "put the builder's options after every other option");
      return;
    }
    if (j.trusted) {
      out->missing = 0;
      out->message = hg_xasprintf("%s applies the hardening builder, taken at its word (`trust: true`)", subject);
      return;
    }
    // Nothing merged after the builder can replace what it sets, so what came before it (an
    // unknown spread of the caller's options, say) cannot take a requirement away; a value that
    // might set a forbidden option still might (volumes=vols).
    if (!out->missing && !j.undoer) {
      out->message = hg_xasprintf("%s applies the hardening builder %s, which yields every requirement", subject,
                                  j.applied->via ? j.applied->via : j.applied->text);
      return;
    }
    if (!unverifiable) {
      out->rule = HG_RULE_BUILDER_INCOMPLETE;
      uint64_t yields = hg_judge_yields(&j, j.applied, (hg_readings[site->reads].shape == HG_SHAPE_FLAGS));
      hg_buf_printf(&msg, "%s applies the hardening builder %s, which yields ", subject,
                    j.applied->via ? j.applied->via : j.applied->text);
      if (yields)
        hg_explain_missing(policy, yields, &msg);
      else
        hg_buf_puts(&msg, "none of the requirements");
      hg_buf_puts(&msg, "; missing: ");
      hg_explain_missing_where(&j, out->missing, &msg);
      hg_explain_skipped(&msg, policy, j.dialect, site, out->missing);
      hg_explain_traps(&msg, &j, site);
      out->message = hg_buf_detach(&msg);
      out->fix = fix_hint(&j, config, site, out->missing);
      return;
    }
    out->via = HG_VIA_NONE;
  }
  if (!out->missing && !unverifiable) {
    out->via = HG_VIA_FLAGS;
    // Where the flags came from, when not from the site itself: constants and helpers.
    hg_buf_puts(&msg, subject);
    hg_buf_puts(&msg, " passes every hardening requirement");
    bool any = false;
    for (size_t r = 0; r < policy->n_req; r++) {
      const char *via = j.src[r] ? j.src[r]->via : NULL;
      bool seen = false;
      for (size_t k = 0; via && k < r && !seen; k++)
        seen = j.src[k] && j.src[k]->via && !strcmp(j.src[k]->via, via);
      if (!via || seen)
        continue;
      hg_buf_printf(&msg, "%s%s", any ? ", " : ", via flags from ", via);
      any = true;
    }
    if (!any)
      hg_buf_puts(&msg, " literally");
    if (j.n_worlds > 1)
      hg_buf_printf(&msg, ", set on every branch (%zu combinations of alternatives)", j.n_worlds);
    out->message = hg_buf_detach(&msg);
    return;
  }
  // A builder that was called but could not be read is unverifiable, not "not applied".
  if (site->imports_builder && !j.builder && !(unverifiable && unverifiable->of_builder)) {
    out->rule = HG_RULE_BUILDER_NOT_APPLIED;
    hg_buf_printf(&msg, "%s does not apply the hardening builder this module imports (%s)", subject,
                  builder_modules(config, &mods));
  } else if (unverifiable) {
    out->rule = HG_RULE_UNVERIFIABLE_FLAGS;
    hg_buf_printf(&msg, "%s takes options from `", subject);
    put_carrier(&msg, site, unverifiable);
    hg_buf_puts(&msg, ", which cannot be verified");
  } else {
    out->rule = HG_RULE_UNHARDENED_SITE;
    hg_buf_printf(&msg,
                  MODES[site->reads].builder ? "%s without the hardening builder or the full flag set"
                                             : "%s without the full flag set",
                  subject);
  }
  if (out->missing && out->rule != HG_RULE_UNVERIFIABLE_FLAGS && unsure) {
    hg_buf_puts(&msg, "; missing: ");
    hg_explain_missing_where(&j, out->missing & ~unsure, &msg);
    hg_explain_unsure(&msg, &j, site, unsure);
    hg_explain_unlimited(&msg, &j, policy, site, out->missing);
    hg_explain_traps(&msg, &j, site);
  } else if (out->missing) {
    hg_buf_puts(&msg, out->rule == HG_RULE_UNVERIFIABLE_FLAGS ? "; not literally present: " : "; missing: ");
    hg_explain_missing_where(&j, out->missing, &msg);
    hg_explain_unlimited(&msg, &j, policy, site, out->missing);
    hg_explain_traps(&msg, &j, site);
  }
  // A spread that could carry anything is named once: as what the site takes its options from, as
  // what leaves requirements unverifiable, else in a sentence of its own.
  bool carrier_named = !j.carrier || unverifiable == j.carrier;
  for (size_t r = 0; j.carrier && r < policy->n_req && !carrier_named; r++)
    carrier_named = (unsure & (UINT64_C(1) << r)) && j.unverifiable[r] == j.carrier;
  if (!carrier_named) {
    hg_buf_puts(&msg, "; cannot be verified either: `");
    put_carrier(&msg, site, j.carrier);
    hg_buf_puts(&msg, " may set any option");
  }
  bool undoer_named = false; // already named as a requirement it cannot verify
  for (size_t r = 0; j.undoer && r < policy->n_req && !undoer_named; r++) {
    const hg_value *v = (unsure & (UINT64_C(1) << r)) ? j.unverifiable[r] : NULL;
    undoer_named = v && (v == j.undoer || (v->line == j.undoer->line && v->text && j.undoer->text &&
                                           !strcmp(v->text, j.undoer->text)));
  }
  if (j.undoer && unverifiable != j.undoer && !undoer_named) {
    // A value that might undo hardening, at a site that fails anyway: named, not hidden.
    hg_buf_puts(&msg, "; cannot be verified either: `");
    if (hg_readings[site->reads].yaml)
      hg_yaml_put_value(&msg, j.undoer, false);
    else
      hg_explain_word(&msg, j.undoer, site->reads);
    hg_buf_puts(&msg, "` at ");
    hg_explain_where(&msg, site, j.undoer);
    hg_buf_printf(&msg, " (%s) may undo hardening", j.undoer->origin ? j.undoer->origin : "not a literal");
  }
  if (j.mismatch) {
    hg_buf_printf(&msg, "; `%s` (line %u) is a %s builder used as %s, which does not count", j.mismatch->text,
                  j.mismatch->line, (hg_readings[site->reads].shape == HG_SHAPE_FLAGS) ? "keyword" : "command-line",
                  (hg_readings[site->reads].shape == HG_SHAPE_FLAGS) ? "command-line flags" : "keywords");
  }
  out->message = hg_buf_detach(&msg);
  out->fix = fix_hint(&j, config, site, out->missing);
  if (!out->fix[0] && unverifiable) {
    // Nothing to add and no builder to apply: the value it cannot read is what to change.
    hg_buf fix = {0};
    hg_buf_puts(&fix, "give `");
    if (hg_readings[site->reads].yaml)
      hg_yaml_put_value(&fix, unverifiable, false);
    else
      hg_explain_word(&fix, unverifiable, site->reads);
    hg_buf_puts(&fix, "` a value hardguard can read (a literal, or a constant or function of this project), or "
                      "remove it");
    free(out->fix);
    out->fix = hg_buf_detach(&fix);
  }
  hg_buf_free(&mods);
}

void hg_verdict_clear(hg_verdict *self) {
  free(self->message);
  free(self->fix);
  free(self->effective);
  hg_related_free(self->related, self->n_related);
  memset(self, 0, sizeof(*self));
}
