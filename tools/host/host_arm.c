// SPDX-License-Identifier: MIT
// chase-host on AArch64 Linux: the processor from MIDR_EL1 and the caches from sysfs.
#include "host_arm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "arch/aarch64/cpu.h"
#include "machine/arm_id.h"

/* Linux arm64 AT_HWCAP bits (arch/arm64/include/uapi/asm/hwcap.h). */
#define HWCAP_ASIMD_BIT (1UL << 1)  /* Advanced SIMD (NEON) may be used */
#define HWCAP_CPUID_BIT (1UL << 11) /* EL0 reads of ID registers are emulated */
#define HWCAP_SVE_BIT (1UL << 22)   /* SVE exists and Linux lets EL0 use it */

/* MIDR_EL1, read at EL0: Linux traps and emulates it when HWCAP_CPUID is set. */
static int read_midr(uint32_t *midr)
{
    if (!(getauxval(AT_HWCAP) & HWCAP_CPUID_BIT))
        return -1;
    *midr = (uint32_t)arch_read_midr();
    return 0;
}

static void describe_midr(struct cpu_info *ci)
{
    uint32_t midr;
    if (read_midr(&midr) != 0) {
        snprintf(ci->vendor, sizeof(ci->vendor), "unknown");
        snprintf(ci->brand, sizeof(ci->brand), "MIDR_EL1 not readable (no HWCAP_CPUID)");
        return;
    }
    struct arm_midr m;
    arm_midr_decode(midr, &m);
    const char *impl = arm_implementer_name(m.implementer);
    const char *part = arm_part_name(m.implementer, m.part);
    if (impl)
        snprintf(ci->vendor, sizeof(ci->vendor), "%s", impl);
    else
        snprintf(ci->vendor, sizeof(ci->vendor), "0x%02x", m.implementer);
    if (part)
        snprintf(ci->brand, sizeof(ci->brand), "%s r%up%u (MIDR 0x%08x)", part, m.variant,
                 m.revision, midr);
    else
        snprintf(ci->brand, sizeof(ci->brand), "part 0x%03x r%up%u (MIDR 0x%08x)", m.part,
                 m.variant, m.revision, midr);
    ci->family = m.implementer;
    ci->model = m.part;
    ci->stepping = m.revision;
}

/* One line of a sysfs file into buf; false when it cannot be read. */
static bool read_line(const char *dir, const char *name, char *buf, size_t cap)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)cap, f) != NULL;
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    return ok;
}

static unsigned read_unsigned(const char *dir, const char *name)
{
    char buf[64];
    return read_line(dir, name, buf, sizeof(buf)) ? (unsigned)strtoul(buf, NULL, 10) : 0;
}

/* CPUs in a list such as "0-3,8": how many. */
static unsigned count_cpus(const char *list)
{
    unsigned n = 0;
    for (const char *p = list; *p;) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p)
            break;
        if (*end == '-')
            b = strtoul(end + 1, &end, 10);
        n += b >= a ? (unsigned)(b - a + 1) : 0;
        p = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* Read cache index idx of cpu into k; false when there is no such index. */
static bool read_cache(int cpu, unsigned idx, struct cache_info *k)
{
    char dir[128], buf[128];
    snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cache/index%u", cpu, idx);
    if (!read_line(dir, "type", buf, sizeof(buf)))
        return false;
    memset(k, 0, sizeof(*k));
    k->type = !strcmp(buf, "Data")          ? CACHE_DATA
              : !strcmp(buf, "Instruction") ? CACHE_INSTRUCTION
                                            : CACHE_UNIFIED;
    k->level = read_unsigned(dir, "level");
    if (read_line(dir, "size", buf, sizeof(buf))) /* "64K" */
        k->size_bytes = strtoull(buf, NULL, 10) * (strchr(buf, 'M') ? 1ULL << 20 : 1ULL << 10);
    k->ways = read_unsigned(dir, "ways_of_associativity");
    k->line_bytes = read_unsigned(dir, "coherency_line_size");
    k->sets = read_unsigned(dir, "number_of_sets");
    if (read_line(dir, "shared_cpu_list", buf, sizeof(buf)))
        k->shared_by = count_cpus(buf);
    return k->level > 0 && k->size_bytes > 0;
}

/* The vector units Linux lets chase-host use: HWCAP says both that they exist and that EL0 may
   run them, so SVE is enabled where it is present. */
static void read_simd(struct simd_caps *c)
{
    unsigned long hwcap = getauxval(AT_HWCAP);
    c->neon = (hwcap & HWCAP_ASIMD_BIT) != 0;
    c->sve = c->sve_enabled = (hwcap & HWCAP_SVE_BIT) != 0;
    c->sve_vector_bytes = c->sve ? (unsigned)arch_sve_vector_bytes() : 0;
}

void host_arm_cpu_read(struct cpu_info *ci, int cpu)
{
    memset(ci, 0, sizeof(*ci));
    describe_midr(ci);
    read_simd(&ci->simd);
    for (unsigned i = 0; ci->ncaches < CPU_MAX_CACHES; i++) {
        struct cache_info k;
        if (!read_cache(cpu, i, &k))
            break;
        ci->caches[ci->ncaches++] = k;
    }
    ci->cache_source = ci->ncaches ? "sysfs" : "none";
    ci->invariant_tsc = true;
    ci->cpuid_tsc_hz = arch_counter_hz();
    ci->cpuid_tsc_leaf = "CNTFRQ_EL0";
}
