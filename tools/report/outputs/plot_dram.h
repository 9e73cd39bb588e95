// SPDX-License-Identifier: MIT
// The theoretical DRAM bandwidth SMBIOS gives, marked on a plot whose x is GB/s (loaded's family).
#ifndef REPORT_PLOT_DRAM_H
#define REPORT_PLOT_DRAM_H

#include "outputs/plot.h"

struct rjson;

/*
 * x in GB/s: the theoretical DRAM bandwidth run.json (run) records from SMBIOS (per channel the
 * slowest module's MT/s x its data width, summed), a vertical line from the lowest to the
 * highest y of the series already on ps, named in the key with its source; nothing where
 * run.json has no such figure (no SMBIOS, a module of unknown speed).
 */
void plot_mark_dram(struct plot_spec *ps, const struct rjson *run);

#endif
