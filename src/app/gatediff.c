/* The gate's comparisons (gate.h): what a change's config, baseline and markers relax that its
 * base's did not. Pure: no I/O, no git. An entry that is only edited (a glob spelled differently, a
 * builder given another callable) counts as added, since hardguard cannot tell whether it widens;
 * an entry removed or narrowed is never reported. */
#include <stdlib.h>
#include <string.h>

#include "app/gatediff.h"

static bool has(char *const *v, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(v[i], s))
      return true;
  return false;
}

static const char *name_of(const hg_config *c) { return c->path ? c->path : ".hardguard.yml"; }

// Does an `allow:` entry of base relax `req` for glob `glob`?
static bool base_allows(const hg_config *base, const char *glob, const char *req) {
  for (size_t i = 0; i < base->n_allow; i++)
    if (has(base->allow[i].paths, base->allow[i].n_paths, glob) &&
        has(base->allow[i].requirements, base->allow[i].n_requirements, req))
      return true;
  return false;
}

static void compare_allow(const hg_config *base, const hg_config *head, hg_relaxations *out) {
  for (size_t i = 0; i < head->n_allow; i++) {
    const hg_allowance *a = &head->allow[i];
    hg_buf reqs = {0}, globs = {0};
    for (size_t r = 0; r < a->n_requirements; r++) {
      bool new_req = false;
      for (size_t g = 0; g < a->n_paths && !new_req; g++)
        new_req = !base_allows(base, a->paths[g], a->requirements[r]);
      if (new_req)
        hg_buf_printf(&reqs, "%s%s", reqs.len ? ", " : "", a->requirements[r]);
    }
    for (size_t g = 0; g < a->n_paths && reqs.len; g++) {
      bool new_glob = false;
      for (size_t r = 0; r < a->n_requirements && !new_glob; r++)
        new_glob = !base_allows(base, a->paths[g], a->requirements[r]);
      if (new_glob)
        hg_buf_printf(&globs, "%s`%s`", globs.len ? ", " : "", a->paths[g]);
    }
    if (reqs.len) {
      char *msg = hg_xasprintf("`allow:` relaxes %s for %s", reqs.data, globs.data);
      hg_relaxations_add(out, name_of(head), a->line, HG_RELAX_ALLOW, msg, a->reason);
      free(msg);
    }
    hg_buf_free(&reqs);
    hg_buf_free(&globs);
  }
}

static const hg_builder *builder(const hg_config *c, const char *module) {
  for (size_t i = 0; i < c->n_builders; i++)
    if (!strcmp(c->builders[i].module, module))
      return &c->builders[i];
  return NULL;
}

static void compare_builders(const hg_config *base, const hg_config *head, hg_relaxations *out) {
  for (size_t i = 0; i < head->n_builders; i++) {
    const hg_builder *h = &head->builders[i], *b = builder(base, h->module);
    hg_buf callables = {0};
    for (size_t k = 0; k < h->n_callables; k++)
      if (!b || !has(b->callables, b->n_callables, h->callables[k]))
        hg_buf_printf(&callables, "%s`%s`", callables.len ? ", " : "", h->callables[k]);
    char *msg = NULL;
    if (!b)
      msg = hg_xasprintf("adds the builder `%s` (%s)%s: a site that applies it passes", h->module, callables.data,
                         h->trust ? ", taken at its word (`trust: true`)" : "");
    else if (callables.len)
      msg = hg_xasprintf("adds %s to the builder `%s`: a site that applies %s passes", callables.data, h->module,
                         strchr(callables.data, ',') ? "one of them" : "it");
    if (msg)
      hg_relaxations_add(out, name_of(head), h->line, HG_RELAX_BUILDER, msg, NULL);
    free(msg);
    if (b && h->trust && !b->trust) {
      msg = hg_xasprintf("marks the builder `%s` `trust: true`: what it yields is no longer read", h->module);
      hg_relaxations_add(out, name_of(head), h->line, HG_RELAX_TRUST, msg, NULL);
      free(msg);
    }
    hg_buf_free(&callables);
  }
}

void hg_gate_compare_config(const hg_config *base, const hg_config *head, hg_relaxations *out) {
  for (size_t i = 0; i < head->n_exclude; i++) {
    if (has(base->exclude, base->n_exclude, head->exclude[i]))
      continue;
    char *msg = hg_xasprintf("adds `exclude: %s`: the files it matches are not checked", head->exclude[i]);
    hg_relaxations_add(out, name_of(head), head->exclude_lines ? head->exclude_lines[i] : 0, HG_RELAX_EXCLUDE, msg,
                       NULL);
    free(msg);
  }
  compare_allow(base, head, out);
  for (int s = 0; s < hg_surface_count; s++) {
    if (!head->surface_off[s] || base->surface_off[s])
      continue;
    char *msg =
        hg_xasprintf("turns the `%s` surface off: its files are not read", hg_surface_get((hg_surface_id)s)->id);
    hg_relaxations_add(out, name_of(head), head->surface_line[s], HG_RELAX_SURFACE, msg, NULL);
    free(msg);
  }
  compare_builders(base, head, out);
  if (base->strict && !head->strict)
    hg_relaxations_add(out, name_of(head), head->strict_line, HG_RELAX_STRICT,
                       "turns `strict` off: gate-relaxed warnings no longer fail the run", NULL);
}

void hg_gate_compare_baseline(const hg_baseline *base, const hg_baseline *head, const char *head_path,
                              hg_relaxations *out) {
  // Multisets: each base entry accounts for one equal head entry.
  bool *used = hg_xcalloc(base->len + 1, sizeof(bool));
  for (size_t i = 0; i < head->len; i++) {
    const hg_baseline_entry *h = &head->items[i];
    bool found = false;
    for (size_t k = 0; k < base->len && !found; k++)
      if (!used[k] && !hg_baseline_entry_cmp(&base->items[k], h))
        found = used[k] = true;
    if (found)
      continue;
    hg_buf code = {0};
    hg_baseline_escape(&code, h->code);
    char *msg = hg_xasprintf("adds a baseline entry: %s %s (%s) at `%s` no longer fails the run", h->path, h->rule,
                             h->kind, code.data ? code.data : "");
    hg_relaxations_add(out, head_path, h->line, HG_RELAX_BASELINE, msg, NULL);
    free(msg);
    hg_buf_free(&code);
  }
  free(used);
}

/* Markers, read from the text: a '#' comment whose text starts with "hardguard:" and goes on with
 * allow[...] or ignore[...] (the markers of every surface are '#' comments). */

typedef struct {
  uint32_t line;
  bool ignore; // ignore[...], else allow[...]
  char **ids;  // trimmed
  size_t n_ids;
  char *code; // the code it applies to, whitespace collapsed: its line without the comment, or
              // for a marker alone on its line, the next line
  char *text; // the marker as written, from "allow[" / "ignore[" to the end of the line
  bool used;
} text_marker;

typedef HG_VEC(text_marker) text_markers;

static const char *skip_blank(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

static char *normalised(const char *p, const char *end) {
  char *raw = hg_xstrndup(p, (size_t)(end - p));
  char *out = hg_code_normalise(raw);
  free(raw);
  return out;
}

// The marker on one line [p, end), if any; `next_end` ends the line after it (for a marker alone).
static bool marker_on(const char *p, const char *end, const char *next_end, uint32_t line, text_marker *out) {
  for (const char *h = p; (h = memchr(h, '#', (size_t)(end - h))) != NULL; h++) {
    const char *t = skip_blank(h + 1, end);
    if ((size_t)(end - t) < 10 || memcmp(t, "hardguard:", 10) != 0)
      continue;
    t = skip_blank(t + 10, end);
    bool ignore = (size_t)(end - t) >= 7 && !memcmp(t, "ignore[", 7);
    if (!ignore && !((size_t)(end - t) >= 6 && !memcmp(t, "allow[", 6)))
      continue;
    const char *open = t + (ignore ? 7 : 6), *close = memchr(open, ']', (size_t)(end - open));
    if (!close)
      continue;
    *out = (text_marker){.line = line, .ignore = ignore};
    for (const char *q = open; q < close;) {
      const char *comma = memchr(q, ',', (size_t)(close - q));
      const char *e = comma ? comma : close, *s = skip_blank(q, e);
      while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
      if (e > s) {
        out->ids = hg_xrealloc(out->ids, (out->n_ids + 1) * sizeof(char *));
        out->ids[out->n_ids++] = hg_xstrndup(s, (size_t)(e - s));
      }
      q = comma ? comma + 1 : close;
    }
    out->text = normalised(t, end);
    bool alone = skip_blank(p, h) == h;
    out->code = alone ? normalised(end + (end < next_end), next_end) : normalised(p, h);
    return true;
  }
  return false;
}

static void read_markers(const char *text, size_t len, text_markers *out) {
  uint32_t line = 1;
  const char *end = text + len;
  for (const char *p = text; p < end; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    const char *next = nl ? memchr(nl + 1, '\n', (size_t)(end - nl - 1)) : NULL;
    text_marker m;
    if (memchr(p, '#', (size_t)(eol - p)) && marker_on(p, eol, nl ? (next ? next : end) : end, line, &m))
      HG_VEC_PUSH(out, m);
    p = nl ? nl + 1 : end;
  }
}

static void markers_free(text_markers *v) {
  for (size_t i = 0; i < v->len; i++) {
    hg_strv_free(v->items[i].ids, v->items[i].n_ids);
    free(v->items[i].code);
    free(v->items[i].text);
  }
  free(v->items);
}

static bool covers(const text_marker *b, const text_marker *h) {
  for (size_t i = 0; i < h->n_ids; i++)
    if (!has(b->ids, b->n_ids, h->ids[i]))
      return false;
  return true;
}

void hg_gate_compare_markers(const char *base, size_t base_len, const char *head, size_t head_len, const char *path,
                             hg_relaxations *out) {
  text_markers b = {0}, h = {0};
  if (base)
    read_markers(base, base_len, &b);
  read_markers(head, head_len, &h);
  // A head marker is base's unchanged (same text at the same code), rewritten in place without
  // naming more (same code), or moved (same text elsewhere); each base marker accounts for one.
  for (int pass = 0; pass < 3; pass++)
    for (size_t i = 0; i < h.len; i++)
      for (size_t k = 0; k < b.len && !h.items[i].used; k++) {
        text_marker *bm = &b.items[k], *hm = &h.items[i];
        if (bm->used || bm->ignore != hm->ignore || !covers(bm, hm))
          continue;
        bool same_code = !strcmp(bm->code, hm->code), same_text = !strcmp(bm->text, hm->text);
        if (pass == 0 ? same_code && same_text : pass == 1 ? same_code : same_text)
          bm->used = hm->used = true;
      }
  for (size_t i = 0; i < h.len; i++) {
    if (h.items[i].used)
      continue;
    char *msg = hg_xasprintf("adds or widens the marker `%s`: %s", h.items[i].text,
                             h.items[i].ignore ? "the findings it names no longer fail the run"
                                               : "the requirements it names are relaxed for the site");
    hg_relaxations_add(out, path, h.items[i].line, HG_RELAX_MARKER, msg, NULL);
    free(msg);
  }
  markers_free(&b);
  markers_free(&h);
}
