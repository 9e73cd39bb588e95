// SPDX-License-Identifier: MIT
// Reader of whole sbc-bench result logs (ThomasKaiser/sbc-bench): every tinymembench and ramlat
// table in them, each labelled with the cpu sbc-bench ran it on (a row of inputs/readers.c).
#ifndef REPORT_INPUT_SBCBENCH_H
#define REPORT_INPUT_SBCBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs/source.h"

/* Room for "cpu123 (" + a core name cut to SBC_CORE_CHARS + ")". */
#define SBC_CPU_BYTES 40

/*
 * Whether line [l, l + n) is sbc-bench's "Executing TOOL on cpuN (core)..." line ("Executing
 * benchmark on cpu4 (Cortex-A72):", "Executing ramlat on cpu0, results in ns:"); if so, cpu
 * (capacity cap) becomes "cpu4 (Cortex-A72)" or "cpu0", the core name cut to a few words.
 */
bool sbc_executing(const char *l, size_t n, const char *tool, char *cpu, size_t cap);

/* Whether text is an sbc-bench log: its first line starts "sbc-bench v", or it holds both a
 * tinymembench and a ramlat table (a part of a log pasted without the first line). */
bool foreign_is_sbcbench(const char *text, size_t len);
/* Every tinymembench table (single read: levels, dual: plotted) and every ramlat table (1xPTR:
 * levels, the other columns plotted) of the log, labelled with their cpus; the machine from the
 * first line. 0, or -1 with err (capacity cap) when no table has a row. */
int foreign_parse_sbcbench(const char *text, size_t len, struct source *s, char *err, size_t cap);

#endif
