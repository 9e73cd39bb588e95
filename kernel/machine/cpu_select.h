// SPDX-License-Identifier: MIT
// Which processors an experiment uses when it cannot use them all: a subset spread over the
// machine's memory nodes, packages, dies and core types, one thread of each core before any
// second thread.
#ifndef CHASE_CPU_SELECT_H
#define CHASE_CPU_SELECT_H

#include "platform.h"

/*
 * Choose at most k of cpus[0..n) (lost ones never): the caller's own (bsp) first, then in
 * rounds one from each group of equal (node, package, die, core type), groups in the order
 * they first appear; within a group the cores' first threads (ascending) come before their
 * second threads. chosen[] gets indices into cpus, ascending. Returns how many.
 */
unsigned cpu_select_spread(const struct plat_cpu *cpus, unsigned n, unsigned k, unsigned *chosen);

#endif
