// SPDX-License-Identifier: MIT
// Memory nodes on Linux: the node folders of sysfs, and buffers bound to one node (mbind).
#ifndef CHASE_HOST_NUMA_H
#define CHASE_HOST_NUMA_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

/*
 * Read the memory nodes under sysfs (normally "/sys"; tests give a tree of their own):
 * SYSFS/devices/system/node/nodeN with cpulist, meminfo and distance, ascending by N.
 * Each node's cpu[] and apic_id[] get the CPU numbers (Linux shows no APIC ID there);
 * distance[][] from the distance files when every one is whole (t->slit). Returns how many
 * nodes, or 0 with the reason in why (no node folders: a kernel without NUMA).
 */
unsigned host_numa_read(const char *sysfs, struct plat_numa *t, char *why, size_t why_cap);

/* Physical address of a virtual address from /proc/self/pagemap; 0 when not readable. */
uint64_t host_phys_addr(const void *virt);

/*
 * Record the memory node Linux placed the chase buffer in (b->node, an index into plat_numa's
 * nodes), from the nodes move_pages reports for pages sampled over it; pages on several nodes
 * leave it unknown with a note saying so, as does a kernel without NUMA.
 */
void host_buffer_node(struct plat_buffer *b);

/* Parse a Linux CPU list ("0-3,8,10-11") into cpus (at most cap); how many, or -1 if malformed. */
int host_parse_cpulist(const char *s, int *cpus, unsigned cap);

#endif
