#include "model/reads.h"

#include <string.h>

const hg_reading hg_readings[HG_READS_COUNT] = {
    [HG_READS_KWARGS] = {"kwargs", HG_SHAPE_KEYWORDS, true, "args", false},
    [HG_READS_ARGV] = {"argv", HG_SHAPE_FLAGS, true, "argv", false},
    [HG_READS_SHELL] = {"shell", HG_SHAPE_FLAGS, true, "command", false},
    [HG_READS_COMMAND] = {"command", HG_SHAPE_FLAGS, true, NULL, false},
    [HG_READS_SCRIPT] = {"script", HG_SHAPE_FLAGS, false, NULL, false},
    [HG_READS_CLIENT] = {"client", -1, false, NULL, false},
    [HG_READS_OPAQUE] = {"opaque", -1, false, NULL, false},
    [HG_READS_COMPOSE] = {"compose", HG_SHAPE_MAPPING, true, NULL, true},
    [HG_READS_BODY] = {"body", HG_SHAPE_MAPPING, true, "body", false},
};

int hg_reads_by_name(const char *name) {
  for (int i = 0; i < HG_READS_COUNT; i++)
    if (!strcmp(hg_readings[i].name, name))
      return i;
  return -1;
}

const char *hg_reads_name(int reads) { return reads >= 0 && reads < HG_READS_COUNT ? hg_readings[reads].name : NULL; }
