// SPDX-License-Identifier: MIT
// chase-host's processors: every CPU Linux has online and lets it run on, placed from sysfs.
#include "host_cpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NODES_MAX 1024 /* node numbers looked at for a CPU's nodeN link (Linux: MAX_NUMNODES) */
#define LIST_TEXT_MAX 4096

/* An unsigned number from a sysfs file; false when it cannot be read. */
static bool read_unsigned(const char *path, unsigned *v)
{
    FILE *f = fopen(path, "r");
    bool ok = f && fscanf(f, "%u", v) == 1;
    if (f)
        fclose(f);
    return ok;
}

/* The first line of a text file into buf; false when it cannot be read. */
static bool read_line(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    bool ok = f && fgets(buf, (int)cap, f);
    if (f)
        fclose(f);
    return ok;
}

unsigned host_cpulist_top(const char *s, unsigned *count)
{
    unsigned top = 0, n = 0;
    *count = 0;
    for (const char *p = s; *p && *p != '\n';) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p)
            return 0;
        if (*end == '-') {
            p = end + 1;
            b = strtoul(p, &end, 10);
            if (end == p || b < a)
                return 0;
        }
        if (b >= HOST_CPU_NUMBERS_MAX)
            b = HOST_CPU_NUMBERS_MAX - 1;
        if (a > b)
            return 0;
        n += (unsigned)(b - a + 1);
        top = (unsigned)b + 1 > top ? (unsigned)b + 1 : top;
        p = *end == ',' ? end + 1 : end;
        if (p == end && *p && *p != '\n')
            return 0; /* neither a comma nor the end */
    }
    *count = n;
    return top;
}

/* The position of cpu in its core's thread_siblings_list ("0-1" or "0,4"). */
static unsigned thread_index(const char *root, unsigned cpu)
{
    char path[256], list[LIST_TEXT_MAX];
    snprintf(path, sizeof(path), "%s/cpu%u/topology/thread_siblings_list", root, cpu);
    if (!read_line(path, list, sizeof(list)))
        return 0;
    unsigned index = 0;
    for (char *s = list; *s;) {
        unsigned a = (unsigned)strtoul(s, &s, 10), b = a;
        if (*s == '-')
            b = (unsigned)strtoul(s + 1, &s, 10);
        for (unsigned c = a; c <= b; c++, index++)
            if (c == cpu)
                return index;
        if (*s != ',')
            break;
        s++;
    }
    return 0;
}

/* The memory node of cpu: the nodeN entry in its sysfs folder; false when none. */
static bool cpu_node(const char *root, unsigned cpu, unsigned *node)
{
    char path[256];
    for (*node = 0; *node < NODES_MAX; (*node)++) {
        snprintf(path, sizeof(path), "%s/cpu%u/node%u", root, cpu, *node);
        if (access(path, F_OK) == 0)
            return true;
    }
    *node = 0;
    return false;
}

/* The machine's counts from root's present and online lists (else sysconf); the table's room. */
static unsigned machine_counts(const char *root, struct host_cpus *t)
{
    char path[256], list[LIST_TEXT_MAX];
    unsigned count = 0, top = 0;
    snprintf(path, sizeof(path), "%s/possible", root);
    if (read_line(path, list, sizeof(list)))
        top = host_cpulist_top(list, &count);
    long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);
    snprintf(path, sizeof(path), "%s/present", root);
    t->present = read_line(path, list, sizeof(list)) && host_cpulist_top(list, &count)
                     ? count
                     : (unsigned)(conf > 0 ? conf : 0);
    snprintf(path, sizeof(path), "%s/online", root);
    t->online = read_line(path, list, sizeof(list)) && host_cpulist_top(list, &count)
                    ? count
                    : (unsigned)(onln > 0 ? onln : 0);
    if (!top) /* no possible list: CPU numbers up to the configured count */
        top = t->present;
    return top < HOST_CPU_NUMBERS_MAX ? top : HOST_CPU_NUMBERS_MAX;
}

/* CPU c's place from its topology folder; false when it has none (not present, or offline). */
static bool place(const char *root, unsigned c, struct plat_cpu *p)
{
    char path[256];
    unsigned v = 0;
    snprintf(path, sizeof(path), "%s/cpu%u/topology/physical_package_id", root, c);
    if (!read_unsigned(path, &v))
        return false;
    memset(p, 0, sizeof(*p));
    p->id = c;
    p->package = v;
    snprintf(path, sizeof(path), "%s/cpu%u/topology/die_id", root, c);
    read_unsigned(path, &p->die);
    snprintf(path, sizeof(path), "%s/cpu%u/topology/core_id", root, c);
    read_unsigned(path, &p->core);
    p->thread = thread_index(root, c);
    p->topology = "sysfs (the OS's reading of CPUID)";
    p->node_known = cpu_node(root, c, &p->node);
    return true;
}

unsigned host_cpus_read(const char *root, const cpu_set_t *allow, size_t set_bytes, unsigned here,
                        struct host_cpus *t, char *why, size_t why_cap)
{
    memset(t, 0, sizeof(*t));
    unsigned room = machine_counts(root, t);
    t->cpu = room ? calloc(room, sizeof(*t->cpu)) : NULL;
    if (!t->cpu) {
        snprintf(why, why_cap, "no CPU table: %s lists no CPU number (%u)", root, room);
        return 0;
    }
    for (unsigned c = 0; c < room; c++) {
        if (allow && !CPU_ISSET_S(c, set_bytes, allow))
            continue; /* this process may not run there: it cannot pin a worker */
        struct plat_cpu *p = &t->cpu[t->n];
        if (!place(root, c, p))
            continue;
        p->bsp = c == here;
        t->n++;
    }
    if (!t->n)
        snprintf(why, why_cap, "Linux shows no online CPU this process may run on in %s", root);
    return t->n;
}

void host_cpus_free(struct host_cpus *t)
{
    free(t->cpu);
    memset(t, 0, sizeof(*t));
}
