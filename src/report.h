/* Reporters: one vtable per output format, filled with designated initialisers in
 * report_<format>.c. Every reporter reads the same sorted findings and file errors. */
#ifndef HG_REPORT_H
#define HG_REPORT_H

#include <stdio.h>

#include "finding.h"
#include "scan.h"

typedef struct {
  FILE *out;
  bool color;
  bool audit;  // list passing sites too
  bool quiet;  // findings only: no summary
  const hg_findings *findings;
  const hg_file_errors *errors;
  const hg_scan_stats *stats;
} hg_report_input;

typedef struct {
  const char *name;
  void (*begin)(const hg_report_input *in, void **state);
  void (*finding)(const hg_report_input *in, void *state, const hg_finding *f);
  void (*end)(const hg_report_input *in, void *state);
} hg_reporter;

extern const hg_reporter hg_reporter_text;
extern const hg_reporter hg_reporter_json;

/** The reporter called `name`, or NULL. */
const hg_reporter *hg_reporter_find(const char *name);
/** The names of every format, comma-separated, for usage text. */
const char *hg_reporter_names(void);
/** Runs a reporter over the input: begin, each finding it should see, end. */
void hg_report(const hg_reporter *r, const hg_report_input *in);

#endif
