// SPDX-License-Identifier: MIT
// The prefetch key: the hardware prefetchers off through their documented MSR while an
// experiment measures, and back as they were after it, on exit and on the panic path.
#include "run/prefetch.h"

#include "lib/console.h"
#include "lib/fmt.h"
#include "machine/ap_msr.h"
#include "platform.h"

/* Turn off the prefetchers ctl names; false with p->note saying why not. */
static bool turn_off(struct prefetch_run *p, const struct prefetch_ctl *ctl)
{
    uint64_t before, after;
    if (!ctl->msr) {
        ksnprintf(p->note, sizeof(p->note), "%s", ctl->doc);
        return false;
    }
    if (!plat_read_msr(ctl->msr, &before)) {
        ksnprintf(p->note, sizeof(p->note), "MSR 0x%x (%s) cannot be read here", ctl->msr,
                  ctl->doc);
        return false;
    }
    uint64_t off = before | ctl->disable_bits;
    if (!plat_write_msr(ctl->msr, off)) {
        ksnprintf(p->note, sizeof(p->note), "MSR 0x%x refused the write of 0x%llx (#GP)", ctl->msr,
                  (unsigned long long)off);
        return false;
    }
    if (!plat_read_msr(ctl->msr, &after) || (after & ctl->disable_bits) != ctl->disable_bits) {
        plat_write_msr(ctl->msr, before);
        ksnprintf(p->note, sizeof(p->note),
                  "MSR 0x%x did not keep 0x%llx (read back 0x%llx): this CPU or emulator "
                  "ignores it",
                  ctl->msr, (unsigned long long)off, (unsigned long long)after);
        return false;
    }
    p->changed = true;
    p->msr = ctl->msr;
    p->saved = before;
    /* The control is per core: the other processors turn theirs off for their work too. */
    ap_msr_want(ap_msr_book(), AP_MSR_PREFETCH, ctl->msr, ctl->disable_bits);
    return true;
}

const char *prefetch_apply(struct prefetch_run *p, const struct machine *m, enum prefetch_mode mode)
{
    if (mode != PREFETCH_OFF) {
        prefetch_restore(p);
        return "as-is";
    }
    if (p->changed)
        return "off";
    if (turn_off(p, &m->facts.prefetch)) {
        con_printf("  prefetch   off for this experiment: MSR 0x%x bits 0x%llx (%s)\n", p->msr,
                   (unsigned long long)m->facts.prefetch.disable_bits, m->facts.prefetch.names);
        return "off";
    }
    con_printf("  prefetch   cannot be turned off: %s; measuring with the prefetchers as they "
               "are\n",
               p->note);
    return "as-is";
}

void prefetch_restore(struct prefetch_run *p)
{
    if (!p->changed)
        return;
    p->changed = false;
    ap_msr_want(ap_msr_book(), AP_MSR_PREFETCH, 0, 0);
    uint64_t now = 0;
    if (!plat_write_msr(p->msr, p->saved) || !plat_read_msr(p->msr, &now) || now != p->saved)
        con_printf("warning: MSR 0x%x could not be given back its value 0x%llx (it holds "
                   "0x%llx): the prefetchers may stay off until reset\n",
                   p->msr, (unsigned long long)p->saved, (unsigned long long)now);
}
