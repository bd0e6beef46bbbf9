/* SHA-256 (FIPS 180-4) and the base64 form a Content-Security-Policy source expression takes
 * ('sha256-<base64>'), for the HTML report's inline style and script. Pure. */
#ifndef HG_SHA256_H
#define HG_SHA256_H

#include <stddef.h>
#include <stdint.h>

/** The 32-byte digest of `len` bytes at `data`. */
void hg_sha256(const void *data, size_t len, uint8_t out[32]);
/** `'sha256-…'` for `text`, quotes included, as a CSP source expression: written into `out`
 *  (53 characters and the NUL). */
void hg_sha256_csp(const char *text, char out[54]);

#endif
