// SPDX-License-Identifier: MIT
// The prefetch key: the hardware prefetchers off through their documented MSR while an
// experiment measures, and back as they were after it, on exit and on the panic path.
#include "run/prefetch.h"

#include "lib/console.h"
#include "lib/fmt.h"
#include "machine/ap_msr.h"
#include "platform.h"

const char *const prefetch_state_names[] = {"on", "off", "already off", "on: write refused (#GP)",
                                            "on: write not kept"};

/* Set bits on top of cur in msr: PREFETCHER_OFF, or why not (cur written back then). */
static enum prefetch_state try_bits(uint32_t msr, uint64_t cur, uint64_t bits, uint64_t *after)
{
    *after = cur;
    if (!plat_write_msr(msr, cur | bits))
        return PREFETCHER_REFUSED;
    if (!plat_read_msr(msr, after) || (*after & bits) != bits) {
        plat_write_msr(msr, cur);
        return PREFETCHER_NOT_KEPT;
    }
    return PREFETCHER_OFF;
}

/* Each prefetcher's bit alone; returns the MSR's value with those that held set. */
static uint64_t one_by_one(struct prefetch_run *p, const struct prefetch_ctl *ctl, uint64_t before)
{
    uint64_t cur = before, after;
    p->one_by_one = true;
    for (unsigned i = 0; i < ctl->nprefetchers; i++) {
        uint64_t bit = ctl->prefetcher[i].bit;
        if (before & bit) {
            p->state[i] = PREFETCHER_WAS_OFF;
            continue;
        }
        p->state[i] = try_bits(ctl->msr, cur, bit, &after);
        if (p->state[i] == PREFETCHER_OFF)
            cur |= bit;
    }
    return cur;
}

/* Say which prefetchers stayed on, and what else the core has, in p->note. */
static void note_partial(struct prefetch_run *p, const struct prefetch_ctl *ctl)
{
    size_t n = 0;
    p->note[0] = '\0';
    for (unsigned i = 0; i < ctl->nprefetchers && n < sizeof(p->note); i++)
        if (p->state[i] == PREFETCHER_REFUSED || p->state[i] == PREFETCHER_NOT_KEPT)
            n += (size_t)ksnprintf(p->note + n, sizeof(p->note) - n, "%s%s %s", n ? "; " : "",
                                   ctl->prefetcher[i].name, prefetch_state_names[p->state[i]]);
    if (ctl->uncontrolled && n < sizeof(p->note))
        ksnprintf(p->note + n, sizeof(p->note) - n, "%s%s", n ? "; " : "", ctl->uncontrolled);
}

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
    p->one_by_one = false;
    enum prefetch_state all =
        ctl->unsure ? PREFETCHER_NOT_KEPT : try_bits(ctl->msr, before, ctl->disable_bits, &after);
    uint64_t now = all == PREFETCHER_OFF ? before | ctl->disable_bits : one_by_one(p, ctl, before);
    for (unsigned i = 0; all == PREFETCHER_OFF && i < ctl->nprefetchers; i++)
        p->state[i] = (before & ctl->prefetcher[i].bit) ? PREFETCHER_WAS_OFF : PREFETCHER_OFF;
    if (now == before && !(before & ctl->disable_bits)) {
        ksnprintf(p->note, sizeof(p->note),
                  "MSR 0x%x kept none of the bits 0x%llx, each written alone (it reads 0x%llx): "
                  "this CPU or emulator ignores it or refuses them",
                  ctl->msr, (unsigned long long)ctl->disable_bits, (unsigned long long)before);
        return false;
    }
    p->changed = now != before;
    p->msr = ctl->msr;
    p->saved = before;
    p->off = now & ctl->disable_bits;
    note_partial(p, ctl);
    /* The control is per core: the other processors turn theirs off for their work too. */
    ap_msr_want(ap_msr_book(), AP_MSR_PREFETCH, ctl->msr, p->off);
    return true;
}

/* "off" when every prefetcher the table names is off and the core has no others: the note
 * names any that stayed on. */
static const char *off_state(const struct prefetch_run *p)
{
    return p->note[0] ? "partly off" : "off";
}

const char *prefetch_apply(struct prefetch_run *p, const struct machine *m, enum prefetch_mode mode)
{
    const struct prefetch_ctl *ctl = &m->facts.prefetch;
    if (mode != PREFETCH_AS_IS && p->msr && p->off)
        return off_state(p); /* still as the last experiment left it */
    if (mode != PREFETCH_OFF) {
        prefetch_restore(p);
        return "as-is";
    }
    if (turn_off(p, ctl)) {
        con_printf("  prefetch   %s for this experiment: MSR 0x%x bits 0x%llx (%s)%s%s\n",
                   off_state(p), p->msr, (unsigned long long)p->off, ctl->names,
                   p->note[0] ? "; " : "", p->note);
        return off_state(p);
    }
    con_printf("  prefetch   cannot be turned off: %s; measuring with the prefetchers as they "
               "are\n",
               p->note);
    return "as-is";
}

void prefetch_restore(struct prefetch_run *p)
{
    plat_cpus_release(); /* the others leave chase's loop first, their settings undone there */
    bool changed = p->changed;
    p->changed = false;
    p->off = 0; /* the next prefetch=off asks again */
    if (!changed)
        return;
    ap_msr_want(ap_msr_book(), AP_MSR_PREFETCH, 0, 0);
    uint64_t now = 0;
    if (!plat_write_msr(p->msr, p->saved) || !plat_read_msr(p->msr, &now) || now != p->saved)
        con_printf("warning: MSR 0x%x could not be given back its value 0x%llx (it holds "
                   "0x%llx): the prefetchers may stay off until reset\n",
                   p->msr, (unsigned long long)p->saved, (unsigned long long)now);
}
