// The parts of a verdict's message that name values: where a value stands, the requirements a
// site misses (and on which alternative), and why: no limit, an SDK's trap, a builder's skipped
// branch, a value hardguard could not follow (explain.h).
#include "judge/explain.h"

#include <string.h>

#include "judge/effect.h"
#include "model/render.h"

// A word as the site's language writes it: a shell command's words bare, others as expressions.
void hg_explain_word(hg_buf *b, const hg_value *v, hg_reads reads) {
  if (reads != HG_READS_COMMAND || v->kind != HG_VAL_STR) {
    hg_put_expr(b, v, false);
    return;
  }
  hg_put_holes(b, v->text, "{…}");
}

void hg_explain_missing(const hg_policy *p, uint64_t missing, hg_buf *b) {
  bool first = true;
  for (size_t r = 0; r < p->n_req; r++)
    if (missing & (UINT64_C(1) << r)) {
      hg_buf_printf(b, "%s%s", first ? "" : ", ", p->req[r].id);
      first = false;
    }
}

// The missing requirements, each named with the alternative that lacks it when the site's
// alternatives disagree: "network-none (when `not strict`)". Those that share one condition are
// named together, in the order the first of them stands, and the condition once: "read-only,
// pids-limit (each when `not kwargs`), network-none (when `host`)".
void hg_explain_missing_where(const hg_judge *j, uint64_t missing, hg_buf *b) {
  uint64_t said = 0;
  bool first = true;
  for (size_t r = 0; r < j->policy->n_req; r++) {
    uint64_t bit = UINT64_C(1) << r;
    if (!(missing & bit) || (said & bit))
      continue;
    const char *c = j->alt_cond[r];
    size_t count = 0;
    for (size_t o = r; o < j->policy->n_req; o++) {
      uint64_t ob = UINT64_C(1) << o;
      const char *oc = j->alt_cond[o];
      if (!(missing & ob) || (said & ob) || (!c) != (!oc) || (c && strcmp(c, oc)))
        continue;
      hg_buf_printf(b, "%s%s", first ? "" : ", ", j->policy->req[o].id);
      said |= ob;
      first = false;
      count++;
    }
    if (c)
      hg_buf_printf(b, count > 1 ? " (each when %s)" : " (when %s)", c);
  }
}

// "; `pids_limit=-1` (line 4) means no limit to Docker" for each requirement a "no limit" value
// left unmet.
void hg_explain_unlimited(hg_buf *msg, const hg_judge *j, const hg_policy *policy, const hg_site *site,
                              uint64_t missing) {
  for (size_t r = 0; r < policy->n_req; r++) {
    if (!(missing & (UINT64_C(1) << r)) || !hg_judge_unlimited(j, r))
      continue;
    const hg_value *v = j->src[r];
    bool dotted = j->policy->dialects[j->dialect].dotted;
    const char *sep = site->reads == HG_READS_BODY                                  ? hg_path_sep(dotted)
                      : site->reads == HG_READS_KWARGS                               ? "="
                      : site->reads == HG_READS_COMPOSE                               ? ": "
                                                                                      : " ";
    bool quote = (site->reads == HG_READS_KWARGS || site->reads == HG_READS_BODY) && v->kind == HG_VAL_STR;
    if (j->src_value[r] != v->text) {
      // the word holds the flag and its value (`--cpus=0`, `-m0`): named as written
      hg_buf_printf(msg, "; `%s` (line %u) means no limit to Docker", v->text, v->line);
      continue;
    }
    hg_buf_puts(msg, "; `");
    if (site->reads == HG_READS_BODY)
      hg_put_path(msg, j->src_name[r], j->policy->dialects[j->dialect].dotted);
    else
      hg_buf_puts(msg, j->src_name[r]);
    hg_buf_printf(msg, "%s%s%s%s` (line %u) means no limit to Docker", sep, quote ? "\"" : "", v->text,
                  quote ? "\"" : "", v->line);
  }
}

// "; `security_opt` (line 5): podman-py passes ..." for each option the site sets that its SDK
// reads otherwise than the policy's other dialects do.
void hg_explain_traps(hg_buf *msg, const hg_judge *j, const hg_site *site) {
  const hg_dialect *d = &j->policy->dialects[j->dialect];
  for (size_t t = 0; t < d->n_traps; t++) {
    const hg_value *v = j->trap_hit[t];
    if (!v)
      continue;
    hg_buf_printf(msg, "; `%s` (", d->traps[t].name);
    hg_explain_where(msg, site, v);
    hg_buf_printf(msg, "): %s", d->traps[t].text);
  }
}

// Where a value stands, for a message: "line 7" in the site's file, else "path:7", and the builder
// or constant it came through.
void hg_explain_where(hg_buf *b, const hg_site *site, const hg_value *v) {
  if (v->path && site->path && strcmp(v->path, site->path) != 0)
    hg_buf_printf(b, "%s:%u", v->path, v->line);
  else
    hg_buf_printf(b, "line %u", v->line);
  if (v->via && v->kind != HG_VAL_BUILDER)
    hg_buf_printf(b, ", via %s", v->via);
}

// For each missing requirement a branch of the builder mentions (by keyword or flag name) but
// did not take: "; cap-drop-all is added only when `self.cap_drop_all` is true, and it is False (x.py:12)"
void hg_explain_skipped(hg_buf *msg, const hg_policy *p, size_t dialect, const hg_site *site, uint64_t missing) {
  for (size_t r = 0; r < p->n_req; r++) {
    if (!(missing & (UINT64_C(1) << r)))
      continue;
    const hg_requirement *req = &p->req[r];
    for (size_t k = 0; k < site->n_notes; k++) {
      const hg_note *n = &site->notes[k];
      bool mentions = false;
      const hg_spelling *sp = &req->spell[dialect];
      for (size_t m = 0; m < sp->n && !mentions; m++)
        for (size_t x = 0; x < sp->m[m].n_names && !mentions; x++)
          mentions = strstr(n->branch, sp->m[m].names[x]);
      if (!mentions)
        continue;
      hg_buf_printf(msg, "; %s is added only when `%s` is true (%s:%u), and it is %s", req->id, n->condition, n->path,
                    n->line, n->why);
      break;
    }
  }
}

// "; cannot be verified: memory-limit (`self._mem` at line 13: an attribute)" for the requirements
// whose values hardguard could not follow, at a site that misses others plainly.
void hg_explain_unsure(hg_buf *msg, const hg_judge *j, const hg_site *site, uint64_t unsure) {
  bool first = true;
  for (size_t r = 0; r < j->policy->n_req; r++) {
    if (!(unsure & (UINT64_C(1) << r)))
      continue;
    hg_buf_printf(msg, "%s%s", first ? "; cannot be verified: " : ", ", j->policy->req[r].id);
    first = false;
    const hg_value *v = j->unverifiable[r];
    size_t next = r + 1; // requirements in a row left unverifiable by one value name it once
    while (next < j->policy->n_req && !(unsure & (UINT64_C(1) << next)))
      next++;
    if (!v || (next < j->policy->n_req && j->unverifiable[next] == v))
      continue;
    hg_buf_puts(msg, " (`");
    if (hg_readings[site->reads].yaml)
      hg_yaml_put_value(msg, v, false);
    else
      hg_explain_word(msg, v, site->reads);
    hg_buf_puts(msg, "` at ");
    hg_explain_where(msg, site, v);
    hg_buf_printf(msg, ": %s)", v->origin ? v->origin : "not a literal");
  }
}
