/* Where the image stands in a docker / podman / nerdctl command line, read as the policy reads one
 * (programs, wrappers, the program's own options, subcommand words, boolean and value options): the
 * place --fix puts the hardening flags, so that the container's own command is left alone. Pure. */
#ifndef HG_FIX_CMDLINE_H
#define HG_FIX_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/policy.h"

/** The index of the image among `n` words: words[i] is a literal word, or NULL for an expression
 *  (taken for the image where an option could stand); spread[i] marks an expression that expands
 *  to several words (`*args`, "$@"), after which the image cannot be told. shown[i] is how word i
 *  is written, for reasons. -1 with the reason in `why` when there is no image to be found. */
int hg_fix_image_word(const hg_policy *policy, const char *const *words, const char *const *shown, const bool *spread,
                      size_t n, hg_buf *why);

#endif
