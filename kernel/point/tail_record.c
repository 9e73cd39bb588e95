// SPDX-License-Identifier: MIT
// The tail experiment's record beyond its files: stalls over all its points, the DIMMs' type.
#include "point/tail_record.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/machine.h"
#include "machine/smbios.h"

void tail_record_add(struct tail_stall_record *r, const struct tail_stalls *st, uint64_t batches,
                     bool smi_counting, uint64_t smi, uint64_t dropped)
{
    r->smi_counting = r->measured ? r->smi_counting && smi_counting : smi_counting;
    r->measured = true;
    r->batches += batches;
    r->span_ns += st->span_ns;
    r->count += st->count;
    r->longest_ns = st->longest_ns > r->longest_ns ? st->longest_ns : r->longest_ns;
    r->smi_count += smi;
    r->dropped_windows += dropped;
}

double tail_record_per_minute(const struct tail_stall_record *r)
{
    return r->span_ns > 0 ? (double)r->count * 60e9 / r->span_ns : 0;
}

char *tail_record_note(const struct tail_stall_record *r, bool hypervisor, char *buf, size_t cap)
{
    const char *cause;
    buf[0] = 0;
    if (!r->count)
        return buf;
    if (r->smi_counting && r->smi_count)
        cause = "SMIs were counted meanwhile: the firmware's System Management Mode took the CPU";
    else if (r->smi_counting)
        cause = hypervisor ? "no SMI was counted: a hypervisor's exits or the host's interrupts"
                           : "no SMI was counted: an NMI or another stall outside memory";
    else
        cause = hypervisor ? "SMIs are not counted here: a hypervisor's exits, the host's "
                             "interrupts or SMIs"
                           : "SMIs are not counted here: an SMI or an interrupt";
    ksnprintf(buf, cap,
              "%llu stalls no memory explains (over %.0f us each, the longest %.1f us, %.1f a "
              "minute); %s",
              (unsigned long long)r->count, TAIL_STALL_BEYOND_NS / 1e3, r->longest_ns / 1e3,
              tail_record_per_minute(r), cause);
    return buf;
}

const char *tail_dram_type(const struct machine *m)
{
    const struct smbios_info *s = m->id.smbios;
    const char *type = NULL;
    if (!s || !s->found)
        return "none";
    for (unsigned i = 0; i < s->ndevices; i++) {
        const struct smbios_memdev *d = &s->device[i];
        if (!d->size_bytes && !d->size_unknown)
            continue; /* an empty slot */
        const char *t = smbios_memtype_name(d->type);
        if (type && kstrcmp(type, t) != 0)
            return "mixed";
        type = t;
    }
    return type ? type : "unknown";
}
