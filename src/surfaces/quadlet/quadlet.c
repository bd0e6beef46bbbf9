// Podman Quadlet `.container` units: the `podman run` the generator writes into the service's
// ExecStart (ConvertContainer in podman's pkg/systemd/quadlet/quadlet.go), in its order: a string
// key's last value, a boolean's last value, a list key's values (each split at blanks; an empty
// assignment resets the list), PodmanArgs= split as systemd splits a command line, the image last.
#include "surfaces/quadlet/quadlet.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/site.h"
#include "surfaces/quadlet/unit.h"
#include "surfaces/registry.h"

// Past this many words a unit is not read further: the site is unverifiable.
enum { MAX_WORDS = 4096 };

typedef struct {
  const hg_unit *unit;
  const char *section;
  hg_arena *arena;
  hg_value_vec words;
} reader;

static void push(reader *r, hg_value v) {
  hg_extract__push_word(&r->words, v, MAX_WORDS, "a unit of more than 4096 words, past hardguard's budget");
}

// A value as podman receives it: `%t` (the runtime directory of a system unit) as /run, `%%` as
// `%`, any other specifier and any `$VAR`/`${VAR}` systemd substitutes when it starts the service
// as an unknown part (HG_HOLE).
static const char *resolved(reader *r, const char *s, size_t n) {
  hg_buf b = {0};
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '%' && i + 1 < n) {
      if (s[i + 1] == '%')
        hg_buf_add(&b, "%", 1);
      else if (s[i + 1] == 't')
        hg_buf_puts(&b, "/run");
      else
        hg_buf_add(&b, (char[]){HG_HOLE}, 1);
      i++;
    } else if (s[i] == '$' && i + 1 < n && (s[i + 1] == '{' || s[i + 1] == '_' || (s[i + 1] >= 'A' && s[i + 1] <= 'Z') ||
                                            (s[i + 1] >= 'a' && s[i + 1] <= 'z'))) {
      size_t j = i + 1;
      if (s[j] == '{') {
        while (j < n && s[j] != '}')
          j++;
      } else {
        while (j + 1 < n && (s[j + 1] == '_' || (s[j + 1] >= 'A' && s[j + 1] <= 'Z') ||
                             (s[j + 1] >= 'a' && s[j + 1] <= 'z') || (s[j + 1] >= '0' && s[j + 1] <= '9')))
          j++;
      }
      hg_buf_add(&b, (char[]){HG_HOLE}, 1);
      i = j;
    } else {
      hg_buf_add(&b, s + i, 1);
    }
  }
  const char *v = hg_arena_strndup(r->arena, b.data ? b.data : "", b.len);
  hg_buf_free(&b);
  return v;
}

static void word(reader *r, const char *text, size_t n, uint32_t line) {
  const char *v = resolved(r, text, n);
  if (v[0] == HG_HOLE && !v[1] && text[0] == '$') {
    // A whole word from the environment: systemd splits it into words of its own.
    push(r, (hg_value){.kind = HG_VAL_UNKNOWN,
                       .text = hg_arena_strndup(r->arena, text, n),
                       .line = line,
                       .splat = true,
                       .origin = "an environment variable systemd substitutes when it starts the service"});
    return;
  }
  push(r, (hg_value){.kind = HG_VAL_STR, .text = v, .line = line});
}

static void flag(reader *r, const char *f, uint32_t line) {
  push(r, (hg_value){.kind = HG_VAL_STR, .text = f, .line = line});
}

// The entries of the section keyed `key`, after the last empty assignment (which resets a list).
static size_t first_of(const reader *r, const char *key) {
  size_t first = 0;
  for (size_t i = 0; i < r->unit->n_entries; i++) {
    const hg_unit_entry *e = &r->unit->entries[i];
    if (e->section && !strcmp(e->section, r->section) && !strcmp(e->key, key) && !*e->value)
      first = i + 1;
  }
  return first;
}

static const hg_unit_entry *last(const reader *r, const char *key) {
  const hg_unit_entry *found = NULL;
  for (size_t i = 0; i < r->unit->n_entries; i++) {
    const hg_unit_entry *e = &r->unit->entries[i];
    if (e->section && !strcmp(e->section, r->section) && !strcmp(e->key, key))
      found = e;
  }
  return found && *found->value ? found : NULL;
}

// systemd's booleans: 1, yes, true, on (and their negations); -1 when not one.
static int boolean(const char *v) {
  static const char *const yes[] = {"1", "yes", "y", "true", "t", "on"}, *const no[] = {"0", "no", "n", "false", "f", "off"};
  for (size_t i = 0; i < 6; i++) {
    if (!strcasecmp(v, yes[i]))
      return 1;
    if (!strcasecmp(v, no[i]))
      return 0;
  }
  return -1;
}

// `f VALUE` for the last value of a string key.
static void string_key(reader *r, const char *key, const char *f) {
  const hg_unit_entry *e = last(r, key);
  if (e) {
    flag(r, f, e->line);
    word(r, e->value, strlen(e->value), e->line);
  }
}

// `f` when the boolean's last value is true (`off` when it is false: --read-only=false).
static void bool_key(reader *r, const char *key, const char *on, const char *off) {
  const hg_unit_entry *e = last(r, key);
  int b = e ? boolean(e->value) : -1;
  if (b == 1)
    flag(r, on, e->line);
  else if (b == 0 && off)
    flag(r, off, e->line);
  else if (e && b < 0)
    push(r, (hg_value){.kind = HG_VAL_UNKNOWN, .text = e->value, .line = e->line, .splat = true,
                       .origin = hg_arena_printf(r->arena, "%s= is not a boolean systemd reads", key)});
}

// `f WORD` for each value of a list key, each value split at blanks (`lower`: the word lowercased,
// as podman passes capabilities; `prefix`: written before the word, `prefix_drop`: a leading
// character podman drops).
static void list_key(reader *r, const char *key, const char *f, bool split, const char *prefix) {
  for (size_t i = first_of(r, key); i < r->unit->n_entries; i++) {
    const hg_unit_entry *e = &r->unit->entries[i];
    if (!e->section || strcmp(e->section, r->section) || strcmp(e->key, key) || !*e->value)
      continue;
    const char *s = e->value;
    while (*s) {
      while (*s == ' ' || *s == '\t')
        s++;
      size_t n = split ? strcspn(s, " \t") : strlen(s);
      if (!n)
        break;
      const char *w = s;
      if (!strcmp(key, "AddDevice") && *w == '-')
        w++, n--; // `-` adds the device only if it exists
      hg_buf b = {0};
      hg_buf_puts(&b, prefix ? prefix : "");
      hg_buf_add(&b, w, n);
      flag(r, f, e->line);
      word(r, b.data, b.len, e->line);
      hg_buf_free(&b);
      s += (size_t)(w - s) + n;
    }
  }
}

// PodmanArgs=: each value split as systemd splits a command line (blanks separate words, '...'
// and "..." group them, a backslash escapes the next character).
static void podman_args(reader *r) {
  for (size_t i = first_of(r, "PodmanArgs"); i < r->unit->n_entries; i++) {
    const hg_unit_entry *e = &r->unit->entries[i];
    if (!e->section || strcmp(e->section, r->section) || strcmp(e->key, "PodmanArgs"))
      continue;
    hg_buf w = {0};
    bool in = false;
    char quote = 0;
    for (const char *s = e->value;; s++) {
      if (!*s || (!quote && (*s == ' ' || *s == '\t'))) {
        if (in)
          word(r, w.data ? w.data : "", w.len, e->line);
        w.len = 0;
        in = false;
        if (!*s)
          break;
        continue;
      }
      in = true;
      if (quote && *s == quote)
        quote = 0;
      else if (!quote && (*s == '\'' || *s == '"'))
        quote = *s;
      else if (*s == '\\' && s[1])
        hg_buf_add(&w, ++s, 1);
      else
        hg_buf_add(&w, s, 1);
    }
    hg_buf_free(&w);
  }
}

static hg_value words_of(reader *r, uint32_t line) {
  flag(r, "podman", line);
  flag(r, "run", line);
  string_key(r, "PidsLimit", "--pids-limit");
  string_key(r, "Memory", "--memory");
  bool_key(r, "RunInit", "--init", NULL);
  list_key(r, "Network", "--network", false, NULL);
  bool_key(r, "NoNewPrivileges", "--security-opt=no-new-privileges", NULL);
  bool_key(r, "SecurityLabelDisable", "--security-opt=label=disable", NULL);
  list_key(r, "AddDevice", "--device", true, NULL);
  const hg_unit_entry *seccomp = last(r, "SeccompProfile");
  if (seccomp) {
    flag(r, "--security-opt", seccomp->line);
    hg_buf b = {0};
    hg_buf_printf(&b, "seccomp=%s", seccomp->value);
    word(r, b.data, b.len, seccomp->line);
    hg_buf_free(&b);
  }
  list_key(r, "DropCapability", "--cap-drop", true, NULL);
  list_key(r, "AddCapability", "--cap-add", true, NULL);
  bool_key(r, "ReadOnly", "--read-only", "--read-only=false");
  list_key(r, "Volume", "-v", false, NULL);
  list_key(r, "Unmask", "--security-opt", true, "unmask=");
  list_key(r, "Mount", "--mount", false, NULL);
  podman_args(r);
  const hg_unit_entry *image = last(r, "Image");
  if (image)
    word(r, image->value, strlen(image->value), image->line);
  return hg_values_finish(r->arena, (hg_value){.kind = HG_VAL_LIST, .text = "podman run", .line = line}, &r->words);
}

void hg_quadlet_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                        const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  (void)self;
  (void)config;
  (void)project;
  (void)tree;
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  hg_unit unit;
  hg_unit_read(&unit, source->data, source->len, arena);
  size_t n_rules;
  const hg_yaml_rule *rule = hg_ruleset_yaml_rules(rules, HG_SURFACE_QUADLET, &n_rules);
  for (size_t k = 0; k < n_rules; k++) {
    if (strcmp(rule[k].reads, "command"))
      continue;
    for (size_t s = 0; s < rule[k].n_select; s++) {
      const hg_yaml_select *sel = &rule[k].select[s];
      bool file = !sel->n_files;
      for (size_t f = 0; f < sel->n_files && !file; f++)
        file = hg_surface_path_matches(sel->files[f], source->path);
      for (size_t p = 0; p < sel->n_paths && file; p++)
        for (size_t i = 0; i < unit.n_sections; i++) {
          if (strcmp(unit.sections[i], sel->paths[p]))
            continue;
          reader r = {.unit = &unit, .section = sel->paths[p], .arena = arena};
          hg_site st = {.path = source->path, .kind = rule[k].kind, .reads = HG_READS_COMMAND};
          hg_extract__span(&st, source, unit.section_bytes[i],
                           unit.section_bytes[i] + (uint32_t)strlen(unit.sections[i]) + 2, unit.section_lines[i] - 1,
                           unit.section_lines[i] - 1);
          // A line that is not an entry makes the section's reading unsure: systemd skips it.
          st.has_error = unit.bad_line > unit.section_lines[i] &&
                         (i + 1 == unit.n_sections || unit.bad_line < unit.section_lines[i + 1]);
          st.flags = words_of(&r, st.line);
          HG_VEC_PUSH(&sites, st);
          break; // one site per unit: its sections of that name read as one
        }
    }
  }
  for (size_t i = 0; i < unit.n_comments; i++) {
    hg_pos pos = hg_source_pos(source, unit.comments[i].byte, unit.comments[i].line - 1);
    HG_VEC_PUSH(&markers, ((hg_marker_comment){unit.comments[i].byte, pos.line, pos.col, unit.comments[i].text}));
  }
  hg_extract__finish(out, arena, &sites, &markers);
  if (unit.bad_line) {
    out->syntax_error = hg_arena_printf(arena, "line %u is not a section, an entry or a comment; systemd skips it",
                                        unit.bad_line);
    out->syntax_at = hg_source_pos(source, unit.bad_byte, unit.bad_line - 1);
  }
}
