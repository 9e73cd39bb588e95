// SPDX-License-Identifier: MIT
// The stalls no memory explains over a whole experiment, and the note on what they are.
#include "point/stall_record.h"

#include "lib/fmt.h"

void stall_record_add(struct stall_record *r, const struct stall_point *p)
{
    r->smi_counting = r->measured ? r->smi_counting && p->smi_counting : p->smi_counting;
    r->measured = true;
    r->batches += p->batches;
    r->span_ns += p->span_ns;
    r->count += p->count;
    r->longest_ns = p->longest_ns > r->longest_ns ? p->longest_ns : r->longest_ns;
    r->smi_count += p->smi_count;
    r->dropped_windows += p->dropped_windows;
}

double stall_record_per_minute(const struct stall_record *r)
{
    return r->span_ns > 0 ? (double)r->count * 60e9 / r->span_ns : 0;
}

char *stall_record_note(const struct stall_record *r, bool hypervisor, char *buf, size_t cap)
{
    const char *cause;
    buf[0] = 0;
    if (!r->count)
        return buf;
    if (r->smi_counting && r->smi_count)
        cause = "SMIs were counted meanwhile: the firmware's System Management Mode took the CPU";
    else if (r->smi_counting)
        cause = hypervisor ? "no SMI was counted: a hypervisor's exits or the host's interrupts"
                           : "no SMI was counted: an NMI, or an operating system's interrupts "
                             "and scheduler";
    else
        cause = hypervisor ? "SMIs are not counted here: a hypervisor's exits, the host's "
                             "interrupts or SMIs"
                           : "SMIs are not counted here: an SMI, an NMI, or an operating "
                             "system's interrupts";
    ksnprintf(buf, cap,
              "%llu stalls no memory explains (over %.0f us each, the longest %.1f us, %.1f a "
              "minute); %s",
              (unsigned long long)r->count, r->beyond_ns / 1e3, r->longest_ns / 1e3,
              stall_record_per_minute(r), cause);
    return buf;
}
