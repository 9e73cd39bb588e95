// SPDX-License-Identifier: MIT
// What chase-host on AArch64 reads from files under a root (/ on the machine, a fake tree in
// tests): the PPTT, sysfs's caches, /proc/cpuinfo's MIDR fields.
#include "host_arm_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/arm_pptt.h"

#define PPTT_FILE_MAX (256u << 10) /* a PPTT larger than this is not read (real ones: < 64K) */
#define MIDR_ARCH_ID_REGS 0xFu     /* MIDR_EL1.Architecture: features in the ID registers */

/* One line of root + path into buf; false when it cannot be read. */
static bool read_line(const char *root, const char *path, char *buf, size_t cap)
{
    char full[512];
    snprintf(full, sizeof(full), "%s%s", root, path);
    FILE *f = fopen(full, "r");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)cap, f) != NULL;
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    return ok;
}

static unsigned read_unsigned(const char *root, const char *path)
{
    char buf[64];
    return read_line(root, path, buf, sizeof(buf)) ? (unsigned)strtoul(buf, NULL, 0) : 0;
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
static bool read_cache(const char *root, int cpu, unsigned idx, struct cache_info *k)
{
    char dir[192], path[256], buf[128];
    snprintf(dir, sizeof(dir), HOST_ARM_CACHE_DIR "/index%u", cpu, idx);
#define AT(name) (snprintf(path, sizeof(path), "%s/%s", dir, name), path)
    if (!read_line(root, AT("type"), buf, sizeof(buf)))
        return false;
    memset(k, 0, sizeof(*k));
    k->type = !strcmp(buf, "Data")          ? CACHE_DATA
              : !strcmp(buf, "Instruction") ? CACHE_INSTRUCTION
                                            : CACHE_UNIFIED;
    k->level = read_unsigned(root, AT("level"));
    if (read_line(root, AT("size"), buf, sizeof(buf))) /* "64K" */
        k->size_bytes = strtoull(buf, NULL, 10) * (strchr(buf, 'M') ? 1ULL << 20 : 1ULL << 10);
    k->ways = read_unsigned(root, AT("ways_of_associativity"));
    k->line_bytes = read_unsigned(root, AT("coherency_line_size"));
    k->sets = read_unsigned(root, AT("number_of_sets"));
    if (read_line(root, AT("shared_cpu_list"), buf, sizeof(buf)))
        k->shared_by = count_cpus(buf);
#undef AT
    return k->level > 0 && k->size_bytes > 0;
}

unsigned host_arm_sysfs_caches(const char *root, int cpu, struct cpu_info *ci)
{
    ci->ncaches = 0;
    for (unsigned i = 0; ci->ncaches < CPU_MAX_CACHES; i++) {
        struct cache_info k;
        if (!read_cache(root, cpu, i, &k))
            break;
        ci->caches[ci->ncaches++] = k;
    }
    return ci->ncaches;
}

/* The whole file root + path into a buffer of *len bytes (malloc'd); NULL when unreadable. */
static uint8_t *read_all(const char *root, const char *path, size_t *len)
{
    char full[512];
    snprintf(full, sizeof(full), "%s%s", root, path);
    FILE *f = fopen(full, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = malloc(PPTT_FILE_MAX);
    *len = buf ? fread(buf, 1, PPTT_FILE_MAX, f) : 0;
    fclose(f);
    return buf;
}

/* One PPTT cache as chase's cache_info: its level as the table nests it, its sharers. */
static void pptt_to_cache(const struct pptt *p, const struct pptt_cpu_cache *c,
                          struct cache_info *k)
{
    const struct pptt_cache *s = c->cache;
    enum pptt_cache_type t = pptt_cache_type_of(s);
    memset(k, 0, sizeof(*k));
    k->level = c->level;
    k->type = t == PPTT_CACHE_DATA          ? CACHE_DATA
              : t == PPTT_CACHE_INSTRUCTION ? CACHE_INSTRUCTION
                                            : CACHE_UNIFIED;
    k->size_bytes = s->flags & PPTT_CACHE_SIZE_VALID ? s->size_bytes : 0;
    k->sets = s->flags & PPTT_CACHE_SETS_VALID ? s->sets : 0;
    k->ways = s->flags & PPTT_CACHE_WAYS_VALID ? s->ways : 0;
    k->line_bytes = s->flags & PPTT_CACHE_LINE_VALID ? s->line_bytes : 0;
    k->shared_by = pptt_cache_sharers(p, s->offset);
}

bool host_arm_pptt_caches(const char *root, int cpu, struct cpu_info *ci, char *why, size_t cap)
{
    static struct pptt p;
    struct pptt_cpu_cache list[PPTT_CPU_CACHES_MAX];
    char path[128], uid[32];
    size_t len = 0;
    int n = 0;
    uint8_t *table = read_all(root, HOST_ARM_PPTT_PATH, &len);
    if (!table) {
        snprintf(why, cap, "%s not readable", HOST_ARM_PPTT_PATH);
        goto out;
    }
    if (!pptt_parse(table, len, &p, why, cap))
        goto out;
    snprintf(path, sizeof(path), HOST_ARM_UID_PATH, cpu);
    if (!read_line(root, path, uid, sizeof(uid))) {
        snprintf(why, cap, "no ACPI processor UID for cpu%d (%s)", cpu, path);
        goto out;
    }
    n = pptt_cpu_caches(&p, (uint32_t)strtoul(uid, NULL, 0), list, PPTT_CPU_CACHES_MAX);
    if (n <= 0) {
        snprintf(why, cap, "the PPTT lists no caches for ACPI processor %s", uid);
        goto out;
    }
    ci->ncaches = 0;
    for (int i = 0; i < n && ci->ncaches < CPU_MAX_CACHES; i++) {
        /* nearest first, the table's order kept within a level (it lists a chain's next
           level before the leaf's other L1) */
        struct cache_info k;
        pptt_to_cache(&p, &list[i], &k);
        unsigned at = ci->ncaches++;
        for (; at > 0 && ci->caches[at - 1].level > k.level; at--)
            ci->caches[at] = ci->caches[at - 1];
        ci->caches[at] = k;
    }
out:
    free(table);
    return n > 0;
}

void host_arm_caches(struct cpu_info *ci, int cpu, const char *root)
{
    static char source[200];
    char why[160];
    if (host_arm_pptt_caches(root, cpu, ci, why, sizeof(why))) {
        ci->cache_source = "PPTT";
        return;
    }
    bool sysfs = host_arm_sysfs_caches(root, cpu, ci) > 0;
    snprintf(source, sizeof(source), "%s; PPTT: %s", sysfs ? "sysfs" : "none", why);
    ci->cache_source = source;
}

/* The value of a "name : value" line whose name is key; NULL when the line is another's. */
static const char *field(const char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) != 0)
        return NULL;
    const char *v = line + n;
    while (*v == ' ' || *v == '\t')
        v++;
    return *v == ':' ? v + 1 : NULL;
}

uint32_t host_arm_cpuinfo_midr(const char *root, int cpu)
{
    char path[256], line[256];
    snprintf(path, sizeof(path), "%s%s", root, HOST_ARM_CPUINFO_PATH);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int at = -1;
    unsigned impl = 0, variant = 0, part = 0, rev = 0;
    bool seen = false;
    while (fgets(line, sizeof(line), f)) {
        const char *v;
        if ((v = field(line, "processor")))
            at = atoi(v);
        else if (at != cpu)
            continue;
        else if ((v = field(line, "CPU implementer")))
            impl = (unsigned)strtoul(v, NULL, 0), seen = true;
        else if ((v = field(line, "CPU variant")))
            variant = (unsigned)strtoul(v, NULL, 0);
        else if ((v = field(line, "CPU part")))
            part = (unsigned)strtoul(v, NULL, 0);
        else if ((v = field(line, "CPU revision")))
            rev = (unsigned)strtoul(v, NULL, 0);
    }
    fclose(f);
    if (!seen)
        return 0;
    return (impl & 0xFFu) << 24 | (variant & 0xFu) << 20 | MIDR_ARCH_ID_REGS << 16 |
           (part & 0xFFFu) << 4 | (rev & 0xFu);
}
