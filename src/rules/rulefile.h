/* The rule files of a ruleset: read from a rules directory (rules/<surface>/ with its .scm,
 * facts/ and .yml files) or from the built-in copy, kept in name order with their place in
 * their surface's combined query source, so that an error of the combined query is named at its
 * file, line and column. */
#ifndef HG_RULEFILE_H
#define HG_RULEFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"

typedef struct {
  char *path;  // as shown in errors: "rules/python/sdk-run.scm" or DIR/python/sdk-run.scm
  char *name;  // relative: "python/sdk-run.scm"
  char *data;
  size_t len;
  uint32_t offset;  // where it starts in the combined query source
  int unit;         // a site file: its unit (its bit in hg_units); a facts file: -1
} hg_rule_file;

typedef HG_VEC(hg_rule_file) hg_rule_files;

/** qsort order of rule files: by relative name. */
int hg_rule_file_cmp(const void *a, const void *b);
/** Does `s` end with `suffix`? */
bool hg_rule_file_ends_with(const char *s, const char *suffix);
/** Appends a copy of a file: `shown` in errors, `name` relative to the rules directory. */
void hg_rule_files_add(hg_rule_files *files, const char *shown, const char *name, const char *data, size_t len);
/** Appends the rule files of DIR/SUB (none when it does not exist); -1 with err when unreadable. */
int hg_rule_files_read_dir(hg_rule_files *files, const char *dir, const char *sub, hg_error *err);
/** Every folder of a rules directory must be a surface's: -1 with err naming one that is not. */
int hg_rule_files_check_folders(const char *dir, hg_error *err);
void hg_rule_files_free(hg_rule_files *files);
/** The file holding byte `offset` of the combined query source. */
const hg_rule_file *hg_rule_files_at(const hg_rule_files *files, uint32_t offset);
/** Sets err to "file:line:col: what" for byte `offset` of the combined query source; -1. */
int hg_rule_files_error(hg_error *err, const hg_rule_files *files, uint32_t offset, const char *what);
/** The kind of site a site file finds: its base name without ".scm" (heap). */
char *hg_rule_file_kind(const char *name);
/** Is it a facts file (facts/...)? */
bool hg_rule_file_is_fact(const char *name);

#endif
