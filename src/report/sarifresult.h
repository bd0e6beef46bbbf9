/* One SARIF result, the failing site the JSON writer writes it for: its rule, message and location,
 * its partial fingerprint, what reached it (properties.effective) and the lines elsewhere it came
 * from (relatedLocations), its suppression, the fix --fix would apply, its baseline state. sarif.c
 * puts the results into the document around them. */
#ifndef HG_REPORT_SARIFRESULT_H
#define HG_REPORT_SARIFRESULT_H

#include <stdint.h>

#include "report/jsonw.h"
#include "report/report.h"

/** A location object with its physicalLocation (the file relative to %SRCROOT%, or an absolute
 *  file URI outside the repository; a region when `line` is set), left open for what follows it
 *  (an id, a message): the caller closes it. */
void hg_sarif_location_open(hg_jw *w, const char *relpath, uint32_t line, uint32_t col, uint32_t end_line,
                            uint32_t end_col);
/** The result of failing site `f` (of status `st`, at `path` as reported), with its fingerprint
 *  and the text of its message. */
void hg_sarif_result(hg_jw *w, const hg_report_input *in, const hg_finding *f, hg_status st, const char *path,
                     const char *fingerprint, const char *message);

#endif
