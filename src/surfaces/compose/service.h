/* A compose service, from its libyaml node to the value the judge reads (HG_READS_COMPOSE; the
 * shape is described in site.h): aliases and `<<` merge keys followed, `${VAR:-default}`
 * interpolation resolved, lines from the parser's marks. Pure: reads a loaded document and
 * allocates only in the caller's arena. */
#ifndef HG_COMPOSE_SERVICE_H
#define HG_COMPOSE_SERVICE_H

#include <yaml.h>

#include "model/site.h"
#include "surfaces/compose/dotenv.h"
#include "base/util.h"

/** Values built for a document beyond one per node: aliases and merge keys repeat what they
 *  name, and can make a small file expand exponentially (a "billion laughs"); past this the rest
 *  is UNKNOWN, which fails closed. */
#define HG_COMPOSE_MAX_VALUES 100000
/** Mappings and lists nested (through aliases and merge keys) at most; an anchor that contains
 *  an alias to itself would otherwise never end. */
#define HG_COMPOSE_MAX_DEPTH 64

/** How many values the services of `doc` may build together: one per node, and
 *  HG_COMPOSE_MAX_VALUES more for what aliases and merge keys repeat. */
size_t hg_compose_budget(const yaml_document_t *doc);

/** The service whose mapping is `service` (a node of `doc`, from yaml_parser_load) as a DICT of
 *  its keys. A service that is not a mapping (`web:` with no value) is an empty DICT. Every text
 *  is copied into `arena`, which owns the result; `doc` is only read and may be freed after.
 *  `budget`: the document's hg_compose_budget, shared by its services and spent here, so that a
 *  file of many services that all name an alias bomb stays bounded; NULL: a budget of its own.
 *  `dotenv`: the .env file beside the compose file (NULL: none), whose values a variable the
 *  environment does not set takes before any default (an alternative: the environment's, or the
 *  file's; the known arm's `via` names the file). */
hg_value hg_compose_service(hg_arena *arena, yaml_document_t *doc, yaml_node_t *service, size_t *budget,
                            const hg_dotenv *dotenv);

/** Compose interpolation of the value text s[0..n): the result in `out` (appended) and 0, or -1
 *  when it depends on the environment, with the first interpolation that does (`$VAR`, `${VAR}`,
 *  `${VAR:?err}`, `${VAR:+alt}`, or one compose cannot read) in s[*at..*at + *len). */
int hg_compose_interpolate(const char *s, size_t n, hg_buf *out, size_t *at, size_t *len);

#endif
