// devcontainer.json: the `docker run` the Dev Containers CLI builds from it (spawnDevContainer in
// devcontainers/cli, src/spec-node/singleContainer.ts): `-p` for appPort, `--mount` for
// workspaceMount and each of mounts, runArgs as written, `--init`, `--privileged`, `--cap-add`
// and `--security-opt` for the properties of those names, then the image. What the features it
// installs add to those properties (their devcontainer-feature.json, fetched when it is built) is
// not read: each feature is a word that may hold any flags.
#include "surfaces/devcontainer/devcontainer.h"

#include <jansson.h>
#include <string.h>

#include "model/site.h"
#include "surfaces/node.h"
#include "surfaces/registry.h"

// Past this many words a devcontainer is not read further: the site is unverifiable.
enum { MAX_WORDS = 4096 };

typedef struct {
  const hg_source *src;
  hg_arena *arena;
  hg_site_vec *sites;
  bool all_read;  // the file's only errors are trailing commas (only_trailing_commas of its root)
} dc_ctx;

static uint32_t line_of(TSNode n) { return ts_node_start_point(n).row + 1; }

// An element of an array as the CLI reads it: not a comment, nor what the parser made of a
// trailing comma (a missing value, or an error holding the comma: see only_trailing_commas).
static bool is_item(TSNode n) { return !hg_node_is(n, "comment") && !ts_node_is_missing(n) && !hg_node_is(n, "ERROR"); }

typedef HG_VEC(TSNode) node_vec;

// Is kids[i] (an ERROR or MISSING node) a trailing comma, `[1, 2,]` or `{"a": 1,}`: a comma after a
// value or pair, before the closing bracket, comments aside? The parser makes it a missing value
// (in an array) or an error holding the comma alone. Judged among its siblings: libtree-sitter
// finds no sibling or parent of a missing node.
static bool trailing_comma(const dc_ctx *c, const TSNode *kids, size_t n, size_t i) {
  size_t k = i + 1;
  while (k < n && hg_node_is(kids[k], "comment"))
    k++;
  if (k == n || !(hg_node_is(kids[k], "]") || hg_node_is(kids[k], "}")))
    return false;
  TSNode e = kids[i];
  size_t j = i;  // kids[j - 1] is the next to look at, backwards
  if (ts_node_is_missing(e)) {
    while (j > 0 && hg_node_is(kids[j - 1], "comment"))
      j--;
    if (j == 0 || !hg_node_is(kids[j - 1], ","))
      return false;
    j--;
  } else if (ts_node_end_byte(e) != ts_node_start_byte(e) + 1 || c->src->data[ts_node_start_byte(e)] != ',') {
    return false;
  }
  while (j > 0 && hg_node_is(kids[j - 1], "comment"))
    j--;
  return j > 0 && ts_node_is_named(kids[j - 1]) && !ts_node_is_missing(kids[j - 1]) && !hg_node_is(kids[j - 1], "ERROR");
}

// Does `top` parse but for trailing commas? The Dev Containers CLI reads devcontainer.json with
// jsonc-parser, which takes `[1, 2,]` as [1, 2] and `{"a": 1,}` as {"a": 1} (VS Code's templates
// write them); any other error is one. The nodes holding errors are kept on a stack of their own:
// the nesting may be deep.
static bool only_trailing_commas(const dc_ctx *c, TSNode top) {
  node_vec todo = {0}, kids = {0};
  bool ok = !hg_node_is(top, "ERROR") && !ts_node_is_missing(top);
  if (ok && ts_node_has_error(top))
    HG_VEC_PUSH(&todo, top);
  while (ok && todo.len) {
    TSNode n = todo.items[--todo.len];
    kids.len = 0;
    TSTreeCursor cur = ts_tree_cursor_new(n);
    for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur))
      HG_VEC_PUSH(&kids, ts_tree_cursor_current_node(&cur));
    ts_tree_cursor_delete(&cur);
    for (size_t i = 0; i < kids.len && ok; i++) {
      TSNode k = kids.items[i];
      if (hg_node_is(k, "ERROR") || ts_node_is_missing(k))
        ok = trailing_comma(c, kids.items, kids.len, i);
      else if (ts_node_has_error(k))
        HG_VEC_PUSH(&todo, k);
    }
  }
  free(todo.items);
  free(kids.items);
  return ok;
}

// A JSON string's value, its escapes decoded by jansson, each `${...}` (a variable the CLI fills
// in: ${localEnv:X}, ${localWorkspaceFolder}, ...) replaced by HG_HOLE; a string jansson refuses
// (bytes that are not UTF-8, a broken escape) as written between its quotes. NULL for another node.
static const char *string_value(const dc_ctx *c, TSNode n) {
  if (!hg_node_is(n, "string"))
    return NULL;
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  json_error_t err;
  json_t *j = json_loadb(c->src->data + a, b - a, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
  const char *raw = j && json_is_string(j) ? json_string_value(j) : c->src->data + a + 1;
  size_t len = j && json_is_string(j) ? json_string_length(j) : (b - a >= 2 ? b - a - 2 : 0);
  hg_buf out = {0};
  for (size_t i = 0; i < len; i++) {
    const char *close = raw[i] == '$' && i + 1 < len && raw[i + 1] == '{' ? memchr(raw + i, '}', len - i) : NULL;
    if (close) {
      hg_buf_add(&out, (char[]){HG_HOLE}, 1);
      i = (size_t)(close - raw);
    } else {
      hg_buf_add(&out, raw + i, 1);
    }
  }
  const char *v = hg_arena_strndup(c->arena, out.data ? out.data : "", out.len);
  hg_buf_free(&out);
  json_decref(j);
  return v;
}

// The value of the last pair of `object` keyed `name`, or a null node.
static TSNode get(const dc_ctx *c, TSNode object, const char *name) {
  TSNode found = {0};
  size_t len = strlen(name);
  for (uint32_t i = 0, n = ts_node_named_child_count(object); i < n; i++) {
    TSNode pair = ts_node_named_child(object, i);
    if (!hg_node_is(pair, "pair"))
      continue;
    // A key without escapes is its text between the quotes; only one with escapes is decoded.
    TSNode key = hg_node_field(pair, "key");
    TSNode only = ts_node_named_child_count(key) == 1 ? ts_node_named_child(key, 0) : (TSNode){0};
    bool plain = hg_node_is(only, "string_content");
    const char *k = plain ? c->src->data + ts_node_start_byte(only) : string_value(c, key);
    size_t klen = plain ? ts_node_end_byte(only) - ts_node_start_byte(only) : k ? strlen(k) : 0;
    if (k && klen == len && !memcmp(k, name, len))
      found = hg_node_field(pair, "value");
  }
  return found;
}

typedef struct {
  const dc_ctx *c;
  hg_value_vec words;
} words;

static void push(words *w, hg_value v) {
  hg_extract__push_word(&w->words, v, MAX_WORDS, "a devcontainer of more than 4096 words, past hardguard's budget");
}

// A word standing for JSON value `n`: a string's value; a number or another literal as written.
static void push_node(words *w, TSNode n) {
  const char *s = string_value(w->c, n);
  push(w, (hg_value){.kind = HG_VAL_STR,
                     .text = s ? s : hg_node_text(n, w->c->src->data, w->c->arena),
                     .line = line_of(n)});
}

static void push_flag(words *w, const char *flag, TSNode at) {
  push(w, (hg_value){.kind = HG_VAL_STR, .text = flag, .line = line_of(at)});
}

// `flag` before each element of an array (or before the value itself when it is not one).
static void flag_each(words *w, const char *flag, TSNode value) {
  if (ts_node_is_null(value))
    return;
  if (!hg_node_is(value, "array")) {
    push_flag(w, flag, value);
    push_node(w, value);
    return;
  }
  for (uint32_t i = 0, n = ts_node_named_child_count(value); i < n; i++) {
    TSNode item = ts_node_named_child(value, i);
    if (!is_item(item))
      continue;
    push_flag(w, flag, item);
    push_node(w, item);
  }
}

// mounts: a string is given to --mount as it is; an object as type=...,src=...,dst=....
static void mounts(words *w, TSNode value) {
  if (ts_node_is_null(value) || !hg_node_is(value, "array"))
    return;
  for (uint32_t i = 0, n = ts_node_named_child_count(value); i < n; i++) {
    TSNode item = ts_node_named_child(value, i);
    if (!hg_node_is(item, "object")) {
      if (is_item(item))
        flag_each(w, "--mount", item);
      continue;
    }
    const char *parts[3] = {"type", "source", "target"}, *short_names[3] = {"type", "src", "dst"};
    hg_buf b = {0};
    for (int k = 0; k < 3; k++) {
      TSNode v = get(w->c, item, parts[k]);
      const char *s = ts_node_is_null(v) ? "undefined" : string_value(w->c, v);
      hg_buf_printf(&b, "%s%s=%s", k ? "," : "", short_names[k],
                    s ? s : hg_node_text(v, w->c->src->data, w->c->arena));
    }
    push_flag(w, "--mount", item);
    push(w, (hg_value){.kind = HG_VAL_STR, .text = hg_arena_strndup(w->c->arena, b.data, b.len), .line = line_of(item)});
    hg_buf_free(&b);
  }
}

static bool is_true(TSNode n) { return !ts_node_is_null(n) && hg_node_is(n, "true"); }

static void site(void *ctx, const hg_pattern *p, const TSQueryMatch *m, TSNode object) {
  (void)m;
  dc_ctx *c = ctx;
  if (!ts_node_is_null(get(c, object, "dockerComposeFile")))
    return; // its services are compose files' (the compose surface)
  words w = {.c = c};
  push_flag(&w, "docker", object);
  push_flag(&w, "run", object);
  TSNode port = get(c, object, "appPort");
  if (!ts_node_is_null(port)) {
    TSNode one = hg_node_is(port, "array") ? (TSNode){0} : port;
    for (uint32_t i = 0, n = ts_node_is_null(one) ? ts_node_named_child_count(port) : 1; i < n; i++) {
      TSNode item = ts_node_is_null(one) ? ts_node_named_child(port, i) : one;
      if (!is_item(item))
        continue;
      push_flag(&w, "-p", item);
      if (hg_node_is(item, "number")) {
        const char *num = hg_node_text(item, c->src->data, c->arena);
        push(&w, (hg_value){.kind = HG_VAL_STR,
                            .text = hg_arena_printf(c->arena, "127.0.0.1:%s:%s", num, num),
                            .line = line_of(item)});
      } else {
        push_node(&w, item);
      }
    }
  }
  TSNode workspace = get(c, object, "workspaceMount");
  if (!ts_node_is_null(workspace) && hg_node_is(workspace, "string"))
    flag_each(&w, "--mount", workspace);
  mounts(&w, get(c, object, "mounts"));
  TSNode run_args = get(c, object, "runArgs");
  for (uint32_t i = 0, n = hg_node_is(run_args, "array") ? ts_node_named_child_count(run_args) : 0; i < n; i++) {
    TSNode item = ts_node_named_child(run_args, i);
    if (is_item(item))
      push_node(&w, item);
  }
  TSNode init = get(c, object, "init"), privileged = get(c, object, "privileged");
  if (is_true(init))
    push_flag(&w, "--init", init);
  if (is_true(privileged))
    push_flag(&w, "--privileged", privileged);
  flag_each(&w, "--cap-add", get(c, object, "capAdd"));
  flag_each(&w, "--security-opt", get(c, object, "securityOpt"));
  // Each feature's own properties join these when the container is built: not read here.
  TSNode features = get(c, object, "features");
  for (uint32_t i = 0, n = hg_node_is(features, "object") ? ts_node_named_child_count(features) : 0; i < n; i++) {
    TSNode pair = ts_node_named_child(features, i);
    const char *id = hg_node_is(pair, "pair") ? string_value(c, hg_node_field(pair, "key")) : NULL;
    if (!id)
      continue;
    push(&w, (hg_value){.kind = HG_VAL_UNKNOWN,
                        .text = id,
                        .line = line_of(pair),
                        .splat = true,
                        .origin = hg_arena_printf(c->arena,
                                                  "a feature, whose own privileged, capAdd, securityOpt and mounts "
                                                  "join the container's when it is built; hardguard does not read them")});
  }
  TSNode image = get(c, object, "image");
  if (ts_node_is_null(image))
    image = get(c, object, "build");
  if (ts_node_is_null(image))
    image = get(c, object, "dockerFile");
  if (!ts_node_is_null(image))
    push(&w, (hg_value){.kind = HG_VAL_STR,
                        .text = hg_node_is(image, "string") ? string_value(c, image) : "(the image it builds)",
                        .line = line_of(image)});
  hg_site s = {.path = c->src->path, .kind = p->kind, .reads = p->reads};
  hg_extract__position(&s, c->src, object);
  s.has_error = ts_node_has_error(object) && !c->all_read && !only_trailing_commas(c, object); // unparsable-site
  // Reported at the opening brace, not across the whole file (its bytes stay the object's: a
  // region inside it that fails to parse is the site's own error, not another site).
  s.end_line = s.line;
  s.end_col = s.col + 1;
  s.flags = hg_values_finish(c->arena, (hg_value){.kind = HG_VAL_LIST, .text = "docker run", .line = s.line}, &w.words);
  HG_VEC_PUSH(c->sites, s);
}

void hg_devcontainer_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                             const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  (void)config;
  (void)project;
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  dc_ctx c = {.src = source, .arena = arena, .sites = &sites};
  TSNode root = ts_tree_root_node(tree);
  bool broken = ts_node_has_error(root);
  c.all_read = broken && only_trailing_commas(&c, root);
  hg_extract_matches(self, rules, HG_SURFACE_DEVCONTAINER, source, root, arena, &markers, site, &c);
  if (broken && !c.all_read)
    hg_extract__error_regions(self, rules, HG_SURFACE_DEVCONTAINER, source, root, &sites);
  hg_extract__finish(out, arena, &sites, &markers);
  out->errors_read = c.all_read;
}
