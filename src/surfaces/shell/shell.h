/* The shell surface: shell scripts (tree-sitter-bash) read into sites. A `docker|podman|nerdctl
 * run|create` command, after wrappers such as sudo, is a site of kind cli-run whose words are
 * judged like an argv list; variables and arrays assigned in the script are followed. */
#ifndef HG_SHELL_H
#define HG_SHELL_H

#include "surfaces/embed.h"
#include "surfaces/python/extract.h"

struct hg_sh_env;

/** The sites and marker comments of a parsed shell script (surface.h's extract function). */
void hg_shell_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                      const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out);

/** The sites and markers of shell code parsed into `root` (a script, or one embedded in another
 *  file: `source` holds just that code), appended to the vectors. */
void hg_shell_sites(hg_extractor *self, const hg_ruleset *rules, const hg_source *source, TSNode root,
                    const struct hg_sh_env *env, hg_arena *arena, hg_site_vec *sites, hg_marker_vec *markers);

/** Parses shell code embedded in `file` (a CI step, a Makefile recipe, a Python `sh -c` string)
 *  and appends its sites and markers, placed at the file's lines and columns. `env` (NULL: none)
 *  names the variables the embedding file defines outside the code. */
void hg_shell_embedded(hg_extractor *self, const hg_ruleset *rules, const hg_source *file, const hg_lines *lines,
                       const hg_embed *e, const struct hg_sh_env *env, hg_arena *arena, hg_site_vec *sites,
                       hg_marker_vec *markers);

#endif
