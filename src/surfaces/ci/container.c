// GitHub Actions job containers and service containers: the runner starts each with `docker create`,
// its options string and its volumes and ports as flags, then the image. Each is a site at its key,
// read as those words (reading mode `command`, judged by the policy's cli spellings).
#include "surfaces/ci/container.h"

#include <string.h>

#include "surfaces/embed.h"

// Past this many words an options string is not read further: the site is unverifiable.
enum { MAX_WORDS = 4096 };
static const char BUDGET[] = "an options string of more than 4096 words, past hardguard's budget";

typedef hg_value_vec value_vec;

static uint32_t line_at(const hg_ydoc *doc, uint32_t byte) { return hg_lines_row(&doc->lines, byte) + 1; }

static hg_value word(const hg_ydoc *doc, hg_arena *arena, const char *text, size_t len, uint32_t byte) {
  return (hg_value){.kind = HG_VAL_STR, .text = hg_arena_strndup(arena, text, len), .line = line_at(doc, byte)};
}

// A word holding `${{ ... }}`: the runner fills the expression in before it splits the options, so
// it may stand for any words at all.
static hg_value expression(const hg_ydoc *doc, hg_arena *arena, const char *text, size_t len, uint32_t byte) {
  hg_value v = word(doc, arena, text, len, byte);
  v.kind = HG_VAL_UNKNOWN;
  v.origin = "a GitHub Actions expression `${{ ... }}`, filled in by the runner before it splits the options";
  return v;
}

// The options string as the runner's process start splits it (.NET on Linux): blanks separate
// words, double quotes group them (a backslash escapes a quote), single quotes are ordinary
// characters; a `${{ ... }}` expression is kept whole.
static void split_options(hg_ydoc *doc, yaml_node_t *node, hg_arena *arena, value_vec *out) {
  hg_embed e;
  hg_ydoc_embed(doc, node, arena, &e);
  hg_buf w = {0};
  uint32_t first = 0;
  bool in_word = false, quoted = false, expr = false;
  for (uint32_t i = 0; i <= e.len; i++) {
    char c = i < e.len ? e.text[i] : '\0';
    bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (i == e.len || (blank && !quoted)) {
      if (in_word) {
        hg_value v = (expr ? expression : word)(doc, arena, w.data ? w.data : "", w.len, e.at[first]);
        v.splat = expr; // it may stand for several words, flags among them
        hg_extract__push_word(out, v, MAX_WORDS, BUDGET);
        if (out->len > MAX_WORDS)
          break; // the rest is the unknown the budget names
      }
      w.len = 0;
      in_word = expr = false;
      continue;
    }
    if (!in_word)
      first = i;
    in_word = true;
    if (c == '$' && i + 2 < e.len && e.text[i + 1] == '{' && e.text[i + 2] == '{') {
      const char *end = strstr(e.text + i, "}}");
      uint32_t stop = end ? (uint32_t)(end - e.text) + 2 : e.len;
      hg_buf_add(&w, e.text + i, stop - i);
      expr = true;
      i = stop - 1;
    } else if (c == '\\') {
      uint32_t n = 0;
      while (i + n < e.len && e.text[i + n] == '\\')
        n++;
      bool before_quote = i + n < e.len && e.text[i + n] == '"';
      for (uint32_t k = 0; k < (before_quote ? n / 2 : n); k++)
        hg_buf_add(&w, "\\", 1);
      if (before_quote && n % 2) {
        hg_buf_add(&w, "\"", 1);
        n++; // the escaped quote too
      }
      i += n - 1;
    } else if (c == '"') {
      quoted = !quoted;
    } else {
      hg_buf_add(&w, &c, 1);
    }
  }
  hg_buf_free(&w);
}

// `flag` before each scalar of a list (`volumes:`, `ports:`).
static void flag_each(hg_ydoc *doc, yaml_node_t *list, const char *flag, hg_arena *arena, value_vec *out) {
  if (!list || list->type != YAML_SEQUENCE_NODE)
    return;
  for (yaml_node_item_t *i = list->data.sequence.items.start; i < list->data.sequence.items.top; i++) {
    yaml_node_t *item = yaml_document_get_node(&doc->yaml.doc, *i);
    if (!item || item->type != YAML_SCALAR_NODE)
      continue;
    uint32_t at = hg_ydoc_byte(doc, item->start_mark);
    const char *text = (const char *)item->data.scalar.value;
    size_t len = item->data.scalar.length;
    hg_extract__push_word(out, word(doc, arena, flag, strlen(flag), at), MAX_WORDS, BUDGET);
    hg_extract__push_word(out, (strstr(text, "${{") ? expression : word)(doc, arena, text, len, at), MAX_WORDS,
                          BUDGET);
  }
}

static hg_value words_of(hg_ydoc *doc, yaml_node_t *key, yaml_node_t *node, hg_arena *arena) {
  uint32_t at = hg_ydoc_byte(doc, key ? key->start_mark : node->start_mark);
  value_vec words = {0};
  // What the runner runs: `docker create`, its own flags (a name, a label, the job's network, the
  // workspace), the options, the ports and volumes, the image.
  HG_VEC_PUSH(&words, word(doc, arena, "docker", 6, at));
  HG_VEC_PUSH(&words, word(doc, arena, "create", 6, at));
  yaml_node_t *image = node;
  if (node->type == YAML_MAPPING_NODE) {
    yaml_node_t *options = hg_yaml_get(&doc->yaml, node, "options");
    if (options && options->type == YAML_SCALAR_NODE)
      split_options(doc, options, arena, &words);
    flag_each(doc, hg_yaml_get(&doc->yaml, node, "ports"), "-p", arena, &words);
    flag_each(doc, hg_yaml_get(&doc->yaml, node, "volumes"), "-v", arena, &words);
    image = hg_yaml_get(&doc->yaml, node, "image");
  }
  if (image && image->type == YAML_SCALAR_NODE) {
    const char *text = (const char *)image->data.scalar.value;
    uint32_t ib = hg_ydoc_byte(doc, image->start_mark);
    HG_VEC_PUSH(&words, (strstr(text, "${{") ? expression : word)(doc, arena, text, image->data.scalar.length, ib));
  }
  return hg_values_finish(arena, (hg_value){.kind = HG_VAL_LIST, .text = "docker create", .line = line_at(doc, at)},
                          &words);
}

void hg_ci_container(hg_ydoc *doc, yaml_node_t *key, yaml_node_t *node, const hg_source *src, hg_arena *arena,
                     hg_site_vec *sites) {
  if (!key || (node->type != YAML_SCALAR_NODE && node->type != YAML_MAPPING_NODE))
    return;
  if (node->type == YAML_SCALAR_NODE && !node->data.scalar.length)
    return; // `container: ''`: no container (GitHub skips an empty one)
  hg_site s = {.path = src->path, .kind = doc->rule->kind, .reads = HG_READS_COMMAND};
  hg_ydoc_place(doc, key, &s);
  s.flags = words_of(doc, key, node, arena);
  HG_VEC_PUSH(sites, s);
}
