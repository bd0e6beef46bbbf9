#include "report.h"

#include <string.h>

static const hg_reporter *const REPORTERS[] = {&hg_reporter_text, &hg_reporter_json};

const hg_reporter *hg_reporter_find(const char *name) {
  for (size_t i = 0; i < HG_ARRAY_LEN(REPORTERS); i++)
    if (strcmp(REPORTERS[i]->name, name) == 0) return REPORTERS[i];
  return NULL;
}

const char *hg_reporter_names(void) { return "text, json"; }

void hg_report(const hg_reporter *r, const hg_report_input *in) {
  void *state = NULL;
  if (r->begin) r->begin(in, &state);
  for (size_t i = 0; i < in->findings->len; i++) r->finding(in, state, &in->findings->items[i]);
  if (r->end) r->end(in, state);
}
