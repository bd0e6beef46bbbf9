/* Compose files known by their content, whatever their name (`deploy/stack.yml`, `backend.yml`):
 * a YAML file whose top level has a `services:` mapping with an entry holding `image:` or
 * `build:`. Read as text, not loaded: the keys at column 0, then the keys two levels in; `image:`
 * counts with a scalar on its line (a Helm chart's values have `services:` entries whose `image:`
 * is a mapping). */
#ifndef HG_COMPOSE_CLAIM_H
#define HG_COMPOSE_CLAIM_H

#include <stdbool.h>
#include <stddef.h>

/** Is `data` (its first HG_SURFACE_CLAIM_BYTES) a compose file? The surface row's `claims`. */
bool hg_compose_claims(const char *data, size_t len);

#endif
