/* A systemd unit file as systemd.syntax(7) reads it: `[Section]` headers, `Key=Value` entries
 * (whitespace around the key and the value dropped), lines starting with `#` or `;` as comments,
 * and a line ending in a backslash continued on the next (the backslash read as a blank; comment
 * lines inside a continuation skipped). Repeated keys are all kept, in order. */
#ifndef HG_QUADLET_UNIT_H
#define HG_QUADLET_UNIT_H

#include "base/source.h"
#include "base/util.h"

typedef struct {
  const char *section; // the section it stands in ("Container"), in the arena; NULL before any
  const char *key;     // in the arena
  const char *value;   // continuations joined, in the arena
  uint32_t line;       // 1-based line of the key
  uint32_t byte;       // offset of the key
} hg_unit_entry;

typedef struct {
  uint32_t line, byte; // 1-based line of a `# hardguard:` comment, its offset
  const char *text;    // the comment, in the arena
} hg_unit_comment;

typedef struct {
  hg_unit_entry *entries;
  size_t n_entries;
  hg_unit_comment *comments; // every comment line, in file order
  size_t n_comments;
  // Section headers: name and line, in file order.
  const char **sections;
  uint32_t *section_lines, *section_bytes;
  size_t n_sections;
  // The first line that is none of the above (systemd ignores it with a warning); 0: none.
  uint32_t bad_line, bad_byte;
} hg_unit;

/** Reads `len` bytes at `data` into `out`, everything in the arena. Linear in the bytes. */
void hg_unit_read(hg_unit *out, const char *data, size_t len, hg_arena *arena);

#endif
