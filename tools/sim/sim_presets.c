// SPDX-License-Identifier: MIT
// Hierarchy presets named after real machines whose cache geometry is public.
#include <string.h>

#include "sim_spec.h"

/*
 * Geometry (size, ways, line, slices, inclusion) is from the vendors' manuals and
 * datasheets. Latencies are round numbers in core cycles from public measurements, and
 * where a vendor does not publish its replacement policy the preset says what models it;
 * DRAM latency depends on the memory fitted and is a typical value. See docs/sim.md.
 */
const struct sim_preset sim_presets[] = {
    {"ivybridge",
     "Intel Core i5-3470 (Ivy Bridge client): 6 MiB 12-way L3 in 4 slices, "
     "inclusive; adaptive L3 policy modelled as DRRIP",
     "L1:32K:8w:4c:plru,L2:256K:8w:12c:plru,L3:6M:12w:30c:drrip:incl:slices=4:hash=intel,"
     "DRAM:200c"},
    {"skylake",
     "Intel Core i7-6700 (Skylake client): 4-way L2, 8 MiB 16-way L3 in 4 "
     "slices, inclusive; L3 policy modelled as DRRIP",
     "L1:32K:8w:4c:plru,L2:256K:4w:12c:plru,L3:8M:16w:42c:drrip:incl:slices=4:hash=intel,"
     "DRAM:250c"},
    {"epyc-zen4",
     "AMD EPYC 9004 (Zen 4), one CCD: L2 inclusive of L1, 32 MiB 16-way L3 "
     "victim cache in 8 slices; policies not public, modelled as LRU",
     "L1:32K:8w:4c:lru,L2:1M:8w:14c:lru:incl,L3:32M:16w:50c:lru:excl:slices=8:hash=mix,"
     "DRAM:400c"},
    {"neoverse-n1",
     "Arm Neoverse N1 (AWS Graviton2): 64 KiB 4-way PLRU L1, 1 MiB 8-way L2, "
     "32 MiB 16-way system-level cache on the mesh; L2/SLC policy as LRU",
     "L1:64K:4w:4c:plru,L2:1M:8w:11c:lru,SLC:32M:16w:80c:lru:slices=32:hash=mix,DRAM:300c"},
    {"cortex-a72",
     "Arm Cortex-A72 (Raspberry Pi 4, BCM2711): 32 KiB 2-way L1, 1 MiB 16-way "
     "L2 inclusive of L1, no L3",
     "L1:32K:2w:4c:lru,L2:1M:16w:21c:plru:incl,DRAM:200c"},
};

const size_t sim_preset_count = sizeof(sim_presets) / sizeof(sim_presets[0]);

const struct sim_preset *sim_preset_find(const char *name)
{
    for (size_t i = 0; i < sim_preset_count; i++)
        if (!strcmp(sim_presets[i].name, name))
            return &sim_presets[i];
    return NULL;
}
