/* The audit as one self-contained HTML page, for a reviewer to browse: the run's summary, a chart
 * of sites by kind and verdict (inline SVG), one section per file with its sites, each with its
 * effective options, where each came from, and source excerpts of those lines; files that could
 * not be checked; stale baseline entries; what the configuration (and, with --diff, the change)
 * relaxes. Nothing is loaded from anywhere: the style and the
 * script are inline and named by their SHA-256 in a Content-Security-Policy that allows nothing
 * else, so text from the scanned tree (escaped everywhere) could not run even if it got through.
 * The page works without JavaScript; the script only adds filters. */
#include <stdlib.h>
#include <string.h>

#include "report/excerpt.h"
#include "report/report.h"
#include "base/sha256.h"

enum {
  MAX_KINDS = 64,
  CONTEXT = 2,           // lines shown around an origin's line
  SITE_LINES = 8,        // of a site spanning more lines, its first ones
  EXCERPTS_PER_SITE = 8, // the site's own and its origins' (distinct lines)
  EXCERPTS_PER_PAGE = 2000,
  MARKS_PER_EXCERPT = 32, // origins marked in one excerpt
  MARK_SPAN = 12,         // origins further apart than this are quoted apart
  EXCERPT_LINES = MARK_SPAN + 2 * CONTEXT,
};

static const char STYLE[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px 32px;color:#1b1b1b;"
    "background:#fff}\n"
    "h1{font-size:22px;margin:16px 0 4px}h2{font-size:16px;margin:24px 0 6px;word-break:break-all}\n"
    "code,pre{font:12px/1.35 ui-monospace,monospace}h2 code{font-size:15px}td{overflow-wrap:anywhere}\n"
    "table.sites{table-layout:fixed}.sites th:nth-child(1){width:6%}.sites th:nth-child(2){width:9%}"
    ".sites th:nth-child(3){width:8%}.sites th:nth-child(4){width:12%}.sites th:nth-child(5){width:6%}"
    ".sites th:nth-child(6){width:19%}.effective td:first-child{white-space:nowrap}\n"
    "table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:3px 6px;"
    "border-bottom:1px solid #ddd}\n"
    "th{background:#f3f3f3}tbody.site>tr.detail>td{border-bottom:2px solid #bbb;padding-left:24px}\n"
    ".summary{display:flex;flex-wrap:wrap;gap:8px;padding:0;list-style:none}.summary li{border:1px solid #ccc;"
    "border-radius:4px;padding:4px 10px}.summary b{font-size:18px;display:block}\n"
    ".v{font-weight:bold;border-radius:3px;padding:0 5px;color:#fff}.v-pass{background:#2e7d32}"
    ".v-fail{background:#c62828}.v-suppressed{background:#9e6a00}.v-allowed{background:#1565c0}"
    ".v-baselined{background:#6a1b9a}\n"
    ".e-satisfied,.e-trusted,.e-allowed{color:#2e7d32}.e-missing,.e-forbidden{color:#c62828;font-weight:bold}"
    ".e-conditional,.e-unverifiable{color:#9e6a00;font-weight:bold}\n"
    "figure{margin:6px 0}figcaption{font-size:12px;color:#555}pre{background:#f7f7f7;border:1px solid #e3e3e3;"
    "padding:4px 0;margin:2px 0;overflow-x:auto}\n"
    "pre span{display:block;padding:0 6px;white-space:pre}pre span.hit{background:#fff3b0}pre i{color:#888;"
    "font-style:normal;user-select:none}\n"
    ".note{color:#555;font-style:italic}.fix{color:#333}#filters{margin:8px 0;padding:6px;background:#f3f3f3}"
    "#filters label{margin-right:10px}.sites th[data-sort]{cursor:pointer}\n";

// Filters by verdict, kind and path (sites that do not match, and files left empty, are hidden);
// a click on a file table's Line, Kind or Verdict heading sorts its sites by that column.
static const char SCRIPT[] =
    "(function(){var f=document.getElementById('filters');if(!f)return;f.hidden=false;\n"
    "var sites=document.querySelectorAll('tbody.site'),files=document.querySelectorAll('section.file'),"
    "shown=document.getElementById('shown');\n"
    "function apply(){var vs={},k=f.elements.kind.value,p=f.elements.path.value,n=0;\n"
    "f.querySelectorAll('input[name=verdict]').forEach(function(c){vs[c.value]=c.checked;});\n"
    "sites.forEach(function(s){var ok=vs[s.dataset.verdict]&&(!k||s.dataset.kind===k)&&"
    "s.dataset.path.indexOf(p)>=0;s.hidden=!ok;if(ok)n++;});\n"
    "files.forEach(function(s){s.hidden=!s.querySelector('tbody.site:not([hidden])');});\n"
    "shown.textContent=n+' of '+sites.length+' sites shown';}\n"
    "f.addEventListener('input',apply);f.addEventListener('change',apply);apply();\n"
    "function key(b,i){var c=b.rows[0].cells[i].textContent,p=c.split(':');return i?c:(+p[0])*1e6+(+p[1]);}\n"
    "document.querySelectorAll('table.sites').forEach(function(t){t.querySelectorAll('th').forEach(function(th,i){\n"
    "if(i>2)return;th.dataset.sort='none';th.tabIndex=0;th.addEventListener('click',function(){\n"
    "var d=th.dataset.sort==='ascending'?-1:1,bs=Array.prototype.slice.call(t.tBodies);\n"
    "th.dataset.sort=d>0?'ascending':'descending';th.setAttribute('aria-sort',th.dataset.sort);\n"
    "bs.sort(function(a,b){var x=key(a,i),y=key(b,i);return (x<y?-1:x>y?1:0)*d;});\n"
    "bs.forEach(function(b){t.appendChild(b);});});});});})();\n";

typedef struct {
  const char *last_path;
  size_t site;     // index of the finding being written
  size_t excerpts; // written on the page so far
  bool capped;     // the page's excerpt limit was reached
  hg_excerpts *cache;
  hg_buf b;
} html_state;

static void esc(hg_buf *b, const char *s) { hg_html_escape(b, s, strlen(s)); }

static size_t kind_index(const char **kinds, size_t *n, const char *kind) {
  size_t k = 0;
  while (k < *n && strcmp(kinds[k], kind) != 0)
    k++;
  if (k == *n && k < MAX_KINDS)
    kinds[(*n)++] = kind;
  return k;
}

static const char *const COLOURS[HG_STATUS_COUNT] = {
    [HG_STATUS_PASS] = "#2e7d32",    [HG_STATUS_FAIL] = "#c62828",      [HG_STATUS_SUPPRESSED] = "#9e6a00",
    [HG_STATUS_ALLOWED] = "#1565c0", [HG_STATUS_BASELINED] = "#6a1b9a",
};

// Sites by kind (rows, in the order the kinds first appear) and verdict (stacked bars).
static void chart(hg_buf *b, const char **kinds, size_t n_kinds, size_t by_kind[][HG_STATUS_COUNT], size_t cols) {
  enum { LABEL = 150, BAR = 560, ROW = 26, TOP = 8 };
  size_t most = 1;
  for (size_t k = 0; k < n_kinds; k++) {
    size_t sum = 0;
    for (size_t v = 0; v < cols; v++)
      sum += by_kind[k][v];
    if (sum > most)
      most = sum;
  }
  size_t height = TOP + ROW * n_kinds + 34;
  hg_buf_printf(b,
                "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d "
                "%zu\" role=\"img\" aria-labelledby=\"chart-title\">\n<title id=\"chart-title\">Sites by kind and "
                "verdict</title>\n",
                LABEL + BAR + 60, height, LABEL + BAR + 60, height);
  for (size_t k = 0; k < n_kinds; k++) {
    size_t y = TOP + ROW * k, x = LABEL, sum = 0;
    hg_buf_printf(b, "<text x=\"%d\" y=\"%zu\" text-anchor=\"end\" font-size=\"13\" font-family=\"monospace\">",
                  LABEL - 8, y + 17);
    esc(b, kinds[k]);
    hg_buf_puts(b, "</text>\n");
    for (size_t v = 0; v < cols; v++) {
      size_t n = by_kind[k][v];
      sum += n;
      if (!n)
        continue;
      size_t w = n * BAR / most;
      hg_buf_printf(b, "<rect x=\"%zu\" y=\"%zu\" width=\"%zu\" height=\"%d\" fill=\"%s\"><title>", x, y + 4, w ? w : 1,
                    ROW - 8, COLOURS[v]);
      esc(b, kinds[k]);
      hg_buf_printf(b, ", %s: %zu</title></rect>\n", hg_status_names[v], n);
      x += w;
    }
    hg_buf_printf(b, "<text x=\"%zu\" y=\"%zu\" font-size=\"13\">%zu</text>\n", x + 6, y + 17, sum);
  }
  size_t y = TOP + ROW * n_kinds + 14, x = LABEL;
  for (size_t v = 0; v < cols; v++) {
    hg_buf_printf(b,
                  "<rect x=\"%zu\" y=\"%zu\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%zu\" y=\"%zu\" "
                  "font-size=\"13\">%s</text>\n",
                  x, y, COLOURS[v], x + 16, y + 11, hg_status_names[v]);
    x += 110;
  }
  hg_buf_puts(b, "</svg>\n");
}

static void summary_item(hg_buf *b, size_t n, const char *what) { hg_buf_printf(b, "<li><b>%zu</b>%s</li>", n, what); }

static void begin(const hg_report_input *in, void **state) {
  html_state *s = hg_xcalloc(1, sizeof(html_state));
  s->cache = hg_excerpts_new();
  *state = s;
  const char *kinds[MAX_KINDS];
  size_t n_kinds = 0, by_kind[MAX_KINDS][HG_STATUS_COUNT] = {{0}}, total[HG_STATUS_COUNT] = {0};
  for (size_t i = 0; i < in->findings->len; i++) {
    const hg_finding *f = &in->findings->items[i];
    hg_status st = hg_report_status(in, f);
    total[st]++;
    size_t k = kind_index(kinds, &n_kinds, f->kind);
    if (k < MAX_KINDS)
      by_kind[k][st]++;
  }
  size_t unreadable = 0, syntax = 0;
  for (size_t i = 0; i < in->errors->len; i++) {
    unreadable += in->errors->items[i].kind == HG_FILE_UNREADABLE;
    syntax += in->errors->items[i].kind == HG_FILE_SYNTAX;
  }
  char style_hash[54], script_hash[54];
  hg_sha256_csp(STYLE, style_hash);
  hg_sha256_csp(SCRIPT, script_hash);
  hg_buf *b = &s->b;
  hg_buf_printf(b,
                "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src %s; "
                "script-src %s; base-uri 'none'; form-action 'none'\">\n"
                "<meta name=\"referrer\" content=\"no-referrer\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<meta name=\"generator\" content=\"hardguard %s\">\n<title>hardguard audit</title>\n"
                "<style>%s</style>\n</head>\n<body>\n<header>\n<h1>hardguard audit</h1>\n",
                style_hash, script_hash, HG_VERSION, STYLE);
  const hg_scan_stats *st = in->stats;
  hg_buf_puts(b, "<ul class=\"summary\" id=\"summary\">");
  summary_item(b, st->files, "files scanned");
  summary_item(b, st->parsed, "parsed");
  summary_item(b, st->modules_indexed, "modules indexed");
  summary_item(b, st->sites, "sites");
  summary_item(b, total[HG_STATUS_FAIL], "failing");
  summary_item(b, total[HG_STATUS_PASS], "passing");
  summary_item(b, total[HG_STATUS_SUPPRESSED], "suppressed");
  summary_item(b, total[HG_STATUS_ALLOWED], "allowed");
  if (in->baselined) {
    summary_item(b, total[HG_STATUS_BASELINED], "baselined");
    summary_item(b, in->n_stale, "stale baseline entries");
  }
  summary_item(b, st->excluded, "excluded by the config");
  summary_item(b, unreadable, "unreadable");
  summary_item(b, syntax, "with syntax errors");
  hg_buf_puts(b, "</ul>\n</header>\n<main>\n");
  size_t cols = in->baselined ? HG_STATUS_COUNT : HG_STATUS_BASELINED;
  if (n_kinds)
    chart(b, kinds, n_kinds, by_kind, cols);
  else
    hg_buf_puts(b, "<p>No sites found.</p>\n");
  // Shown by the script; without it the form stays hidden and every site is listed.
  hg_buf_puts(b, "<form id=\"filters\" hidden>Verdict: ");
  for (size_t v = 0; v < cols; v++)
    hg_buf_printf(b, "<label><input type=\"checkbox\" name=\"verdict\" value=\"%s\" checked> %s</label>",
                  hg_status_names[v], hg_status_names[v]);
  hg_buf_puts(b, " <label>Kind: <select name=\"kind\"><option value=\"\">all</option>");
  for (size_t k = 0; k < n_kinds; k++) {
    hg_buf_puts(b, "<option>");
    esc(b, kinds[k]);
    hg_buf_puts(b, "</option>");
  }
  hg_buf_puts(b, "</select></label> <label>Path contains: <input type=\"search\" name=\"path\"></label> "
                 "<output id=\"shown\"></output></form>\n");
  fwrite(b->data, 1, b->len, in->out);
  b->len = 0;
}

static void close_file(hg_buf *b, html_state *s) {
  if (s->last_path)
    hg_buf_puts(b, "</table>\n</section>\n");
}

// Lines of a file quoted on the page, with the lines that matter marked: the site's own lines, or
// the origins of its options that lie close together in one file (a builder's dict, one excerpt).
typedef struct {
  const char *path;
  uint32_t first, last;              // quoted
  uint32_t marks[MARKS_PER_EXCERPT]; // marked lines
  size_t effects[MARKS_PER_EXCERPT]; // the effective entry each mark is for
  size_t n_marks;
} quote;

static bool marked(const quote *q, uint32_t line) {
  for (size_t i = 0; i < q->n_marks; i++)
    if (q->marks[i] == line)
      return true;
  return false;
}

// Writes the excerpt `id`; false when the page's limit is reached and nothing was written.
static bool excerpt(hg_buf *b, html_state *s, const char *id, const quote *q, const char *caption) {
  if (s->excerpts >= EXCERPTS_PER_PAGE) {
    if (!s->capped)
      hg_buf_printf(b, "<p class=\"note\">No more excerpts on this page (limit %d).</p>\n", EXCERPTS_PER_PAGE);
    s->capped = true;
    return false;
  }
  s->excerpts++;
  hg_buf_printf(b, "<figure id=\"%s\"><figcaption>", id);
  hg_buf_puts(b, caption);
  hg_buf_puts(b, " <code>");
  esc(b, q->path);
  hg_buf_printf(b, "</code>:%u</figcaption>\n", q->marks[0]);
  hg_excerpt_line lines[EXCERPT_LINES];
  const char *why = NULL;
  int n = hg_excerpts_get(s->cache, q->path, q->first, q->last, lines, EXCERPT_LINES, &why);
  if (n < 0) {
    hg_buf_puts(b, "<p class=\"note\">Not quoted: ");
    esc(b, why);
    hg_buf_puts(b, ".</p>");
  } else if (n == 0) {
    hg_buf_puts(b, "<p class=\"note\">Not quoted: the file has no such line now.</p>");
  } else {
    hg_buf_puts(b, "<pre>");
    for (int i = 0; i < n; i++) {
      hg_buf_printf(b, "<span%s><i>%5u </i>", marked(q, lines[i].number) ? " class=\"hit\"" : "", lines[i].number);
      hg_html_escape(b, lines[i].text, lines[i].len);
      hg_buf_puts(b, lines[i].cut ? " …</span>" : "</span>");
    }
    hg_buf_puts(b, "</pre>");
  }
  hg_buf_puts(b, "</figure>\n");
  return true;
}

// The first and last marked lines.
static void span_of(const quote *q, uint32_t *lo, uint32_t *hi) {
  *lo = *hi = q->marks[0];
  for (size_t i = 1; i < q->n_marks; i++) {
    if (q->marks[i] < *lo)
      *lo = q->marks[i];
    if (q->marks[i] > *hi)
      *hi = q->marks[i];
  }
}

// The quote that takes an origin: one of the same file whose span stays short, or a new one (qs[0]
// is the site's own and takes none). Returns its index, or `cap` when there is no room.
static size_t place(quote *qs, size_t *n, size_t cap, const char *path, uint32_t line, size_t effect) {
  size_t k = 1;
  for (; k < *n; k++) {
    quote *q = &qs[k];
    uint32_t lo, hi;
    span_of(q, &lo, &hi);
    if (line < lo)
      lo = line;
    if (line > hi)
      hi = line;
    if (strcmp(q->path, path) == 0 && q->n_marks < MARKS_PER_EXCERPT && hi - lo < MARK_SPAN)
      break;
  }
  if (k == *n) {
    if (*n == cap)
      return cap;
    qs[(*n)++] = (quote){.path = path};
  }
  quote *q = &qs[k];
  q->marks[q->n_marks] = line;
  q->effects[q->n_marks++] = effect;
  return k;
}

static void origin_caption(hg_buf *cap, const hg_finding *f, const quote *q) {
  hg_buf_puts(cap, "Where ");
  for (size_t i = 0; i < q->n_marks; i++) {
    hg_buf_puts(cap, i ? ", <code>" : "<code>");
    esc(cap, f->effective[q->effects[i]].id);
    hg_buf_puts(cap, "</code>");
  }
  hg_buf_puts(cap, q->n_marks == 1 ? " comes from" : " come from");
  const char *via = f->effective[q->effects[0]].via;
  if (via) {
    hg_buf_puts(cap, " (through <code>");
    esc(cap, via);
    hg_buf_puts(cap, "</code>)");
  }
  hg_buf_puts(cap, ",");
}

static void code_cell(hg_buf *b, const char *s) {
  hg_buf_puts(b, "<td>");
  if (s) {
    hg_buf_puts(b, "<code>");
    esc(b, s);
    hg_buf_puts(b, "</code>");
  }
  hg_buf_puts(b, "</td>");
}

// The site's effective options, one row each with its origin linked to the excerpt quoting it;
// then the excerpts: the site's lines, and its origins' lines grouped by file and nearness.
static void effective(hg_buf *b, html_state *s, const hg_finding *f) {
  quote qs[EXCERPTS_PER_SITE];
  size_t n_qs = 1;
  // A site's first SITE_LINES lines; one line when it names no end.
  uint32_t end = f->end_line > f->line ? f->end_line : f->line;
  uint32_t last = end < f->line + SITE_LINES - 1 ? end : f->line + SITE_LINES - 1;
  qs[0] = (quote){.path = f->path, .first = f->line > CONTEXT ? f->line - CONTEXT : 1, .last = last + CONTEXT};
  for (uint32_t l = f->line; l <= last; l++)
    qs[0].marks[qs[0].n_marks++] = l;
  size_t *where = hg_xcalloc(f->n_effective + 1, sizeof(size_t)); // the quote of each entry; n_qs cap: none
  for (size_t i = 0; i < f->n_effective; i++) {
    const hg_effect *e = &f->effective[i];
    const char *path = e->path ? e->path : f->path;
    where[i] = EXCERPTS_PER_SITE;
    if (!e->line)
      continue;
    if (strcmp(path, f->path) == 0 && e->line >= f->line && e->line <= last)
      where[i] = 0;
    else
      where[i] = place(qs, &n_qs, EXCERPTS_PER_SITE, path, e->line, i);
  }
  // The excerpts first, so that only the ones written are linked.
  hg_buf figs = {0}, cap = {0};
  bool written[EXCERPTS_PER_SITE] = {false};
  char id[48];
  for (size_t k = 0; k < n_qs; k++) {
    quote *q = &qs[k];
    if (k) {
      uint32_t lo, hi;
      span_of(q, &lo, &hi);
      q->first = lo > CONTEXT ? lo - CONTEXT : 1;
      q->last = hi + CONTEXT;
      cap.len = 0;
      origin_caption(&cap, f, q);
    }
    snprintf(id, sizeof(id), "x%zu-%zu", s->site, k);
    written[k] = excerpt(&figs, s, id, q, k ? cap.data : "The site,");
  }
  hg_buf_printf(b, "<details%s><summary>", hg_finding_fails(f) ? " open" : "");
  if (f->n_effective)
    hg_buf_printf(b, "%zu effective option%s, where each came from</summary>\n", f->n_effective,
                  f->n_effective == 1 ? "" : "s");
  else
    hg_buf_puts(b, "The site's lines</summary>\n");
  if (f->n_effective)
    hg_buf_puts(b, "<table class=\"effective\"><thead><tr><th>Option</th><th>Type</th><th>Status</th><th>Value</th>"
                   "<th>Origin</th><th>Via</th><th>Reason</th></tr></thead>\n<tbody>\n");
  for (size_t i = 0; i < f->n_effective; i++) {
    const hg_effect *e = &f->effective[i];
    hg_buf_puts(b, "<tr>");
    code_cell(b, e->id);
    hg_buf_printf(b, "<td>%s</td><td class=\"e-%s\">%s</td>", e->forbidden ? "forbidden" : "required",
                  hg_effect_names[e->status], hg_effect_names[e->status]);
    code_cell(b, e->value);
    hg_buf_puts(b, "<td>");
    if (e->line) {
      bool linked = where[i] < n_qs && written[where[i]];
      if (linked)
        hg_buf_printf(b, "<a href=\"#x%zu-%zu\">", s->site, where[i]);
      hg_buf_puts(b, "<code>");
      esc(b, e->path ? e->path : f->path);
      hg_buf_printf(b, ":%u</code>%s", e->line, linked ? "</a>" : "");
    }
    hg_buf_puts(b, "</td>");
    code_cell(b, e->via);
    hg_buf_puts(b, "<td>");
    if (e->reason)
      esc(b, e->reason);
    hg_buf_puts(b, "</td></tr>\n");
  }
  if (f->n_effective)
    hg_buf_puts(b, "</tbody></table>\n");
  if (figs.data)
    hg_buf_puts(b, figs.data);
  hg_buf_puts(b, "</details>");
  hg_buf_free(&figs);
  hg_buf_free(&cap);
  free(where);
}

static void finding(const hg_report_input *in, void *state, const hg_finding *f) {
  html_state *s = state;
  hg_buf *b = &s->b;
  s->site = (size_t)(f - in->findings->items);
  hg_status st = hg_report_status(in, f);
  if (!s->last_path || strcmp(s->last_path, f->path) != 0) {
    close_file(b, s);
    hg_buf_puts(b, "<section class=\"file\">\n<h2><code>");
    esc(b, f->path);
    hg_buf_puts(b, "</code></h2>\n<table class=\"sites\"><thead><tr><th>Line</th><th>Kind</th><th>Verdict</th>"
                   "<th>Rules</th><th>Via</th><th>Missing</th><th>Details</th></tr></thead>\n");
  }
  s->last_path = f->path;
  hg_buf_puts(b, "<tbody class=\"site\" data-kind=\"");
  esc(b, f->kind);
  hg_buf_printf(b, "\" data-verdict=\"%s\" data-path=\"", hg_status_names[st]);
  esc(b, f->path);
  hg_buf_printf(b, "\" id=\"s%zu\">\n<tr class=\"site-row\"><td><a href=\"#s%zu\">%u:%u</a></td><td><code>", s->site,
                s->site, f->line, f->col);
  esc(b, f->kind);
  hg_buf_printf(b, "</code></td><td><span class=\"v v-%s\">%s</span></td><td>", hg_status_names[st],
                st == HG_STATUS_FAIL ? "FAIL" : hg_status_names[st]);
  bool first = true;
  for (int r = -1; r < HG_RULE_COUNT; r++) {
    bool has = r < 0 ? f->rule != HG_RULE_NONE : (f->also & (UINT32_C(1) << r)) != 0;
    if (!has)
      continue;
    hg_buf_printf(b, "%s<code>%s</code>", first ? "" : " ", hg_rules[r < 0 ? f->rule : r].id);
    first = false;
  }
  hg_buf_printf(b, "</td><td>%s</td><td>", hg_via_names[f->via]);
  for (size_t i = 0; i < f->n_missing; i++) {
    hg_buf_puts(b, i ? ", <code>" : "<code>");
    esc(b, f->missing[i]);
    hg_buf_puts(b, "</code>");
  }
  hg_buf_puts(b, "</td><td>");
  esc(b, f->message ? f->message : "");
  if (f->fix && st != HG_STATUS_PASS) {
    hg_buf_puts(b, "<br><span class=\"fix\"><b>Fix:</b> ");
    esc(b, f->fix);
    hg_buf_puts(b, "</span>");
  }
  if (f->suppression != HG_SUPPRESSION_NONE) {
    hg_buf_printf(b, "<br><b>%s:</b> ", f->suppression == HG_SUPPRESSION_SUPPRESSED ? "Suppressed" : "Allowed");
    esc(b, f->justification ? f->justification : "no reason given");
  }
  if (f->dialect) {
    hg_buf_puts(b, "<br>Dialect: <code>");
    esc(b, f->dialect);
    hg_buf_puts(b, "</code>");
  }
  hg_buf_puts(b, "</td></tr>\n<tr class=\"detail\"><td colspan=\"7\">");
  effective(b, s, f);
  hg_buf_puts(b, "</td></tr>\n</tbody>\n");
  fwrite(b->data, 1, b->len, in->out);
  b->len = 0;
}

// What the configuration (or, with --diff, the change) relaxes: one row each, with its reason.
static void relaxations(hg_buf *b, const char *id, const char *title, const hg_relaxations *v) {
  if (!v->len)
    return;
  hg_buf_printf(b, "<section id=\"%s\">\n<h2>%s</h2>\n<table><thead><tr><th>File</th><th>Line</th><th>Kind</th>"
                   "<th>What it relaxes</th></tr></thead>\n<tbody>\n",
                id, title);
  for (size_t i = 0; i < v->len; i++) {
    const hg_relaxation *r = &v->items[i];
    hg_buf_puts(b, "<tr><td><code>");
    esc(b, r->path);
    hg_buf_printf(b, "</code></td><td>%u</td><td>%s</td><td>", r->line, hg_relax_names[r->kind]);
    esc(b, r->message);
    if (r->reason) {
      hg_buf_puts(b, " &mdash; ");
      esc(b, r->reason);
    }
    hg_buf_puts(b, "</td></tr>\n");
  }
  hg_buf_puts(b, "</tbody></table>\n</section>\n");
}

static void end(const hg_report_input *in, void *state) {
  html_state *s = state;
  hg_buf *b = &s->b;
  close_file(b, s);
  if (in->errors->len) {
    hg_buf_puts(b, "<section id=\"errors\">\n<h2>Files not fully checked</h2>\n<table><thead><tr><th>File</th>"
                   "<th>Problem</th><th>Details</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < in->errors->len; i++) {
      const hg_file_error *e = &in->errors->items[i];
      hg_buf_puts(b, "<tr><td><code>");
      esc(b, e->path);
      if (e->kind == HG_FILE_SYNTAX)
        hg_buf_printf(b, "</code></td><td>syntax error at %u:%u (its sites are still judged)</td><td>", e->line,
                      e->col);
      else
        hg_buf_puts(b, "</code></td><td><b>not checked</b></td><td>");
      esc(b, e->message);
      hg_buf_puts(b, "</td></tr>\n");
    }
    hg_buf_puts(b, "</tbody></table>\n</section>\n");
  }
  if (in->n_stale) {
    hg_buf_puts(b, "<section id=\"stale\">\n<h2>Stale baseline entries</h2>\n<p>No finding matches these entries of "
                   "<code>");
    esc(b, in->baseline_path);
    hg_buf_puts(b, "</code> any more; delete them or rerun <code>--write-baseline</code>.</p>\n<table><thead><tr>"
                   "<th>Line</th><th>File</th><th>Rule</th><th>Kind</th><th>Code</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < in->n_stale; i++) {
      const hg_baseline_entry *e = in->stale[i];
      hg_buf_printf(b, "<tr><td>%u</td>", e->line);
      const char *cells[] = {e->path, e->rule, e->kind, e->code};
      for (size_t c = 0; c < HG_ARRAY_LEN(cells); c++) {
        hg_buf_puts(b, "<td><code>");
        esc(b, cells[c]);
        hg_buf_puts(b, "</code></td>");
      }
      hg_buf_puts(b, "</tr>\n");
    }
    hg_buf_puts(b, "</tbody></table>\n</section>\n");
  }
  if (in->gate) {
    relaxations(b, "gate-relaxed", "Gate relaxed by this change", &in->gate->added);
    relaxations(b, "relaxations", "Relaxations in force", &in->gate->in_force);
  }
  hg_buf_printf(b, "</main>\n<footer><p>hardguard %s</p></footer>\n<script>%s</script>\n</body>\n</html>\n", HG_VERSION,
                SCRIPT);
  fwrite(b->data, 1, b->len, in->out);
  hg_buf_free(b);
  hg_excerpts_free(s->cache);
  free(s);
}

const hg_reporter hg_reporter_html = {.name = "html", .begin = begin, .finding = finding, .end = end};
