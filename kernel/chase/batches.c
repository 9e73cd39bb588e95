// SPDX-License-Identifier: MIT
// The tail's batches in a measurement window: TLBs refilled untimed, SMIs counted around them.
#include "chase/batches.h"

#include "arch/chase_loop.h"
#include "arch/cpu.h"
#include "chase/timing.h"
#include "machine/fault.h"

/* What the window runs; start is kept so that a dropped window starts again from it. */
struct batch_job {
    struct batch_window *w;
    void **start;
};

static void batch_job_run(void *arg)
{
    struct batch_job *j = arg;
    struct batch_window *w = j->w;
    void **p = j->start;
    if (w->prewalk_hops) {
        uint64_t untimed[2];
        p = chase_batches(p, 1, w->prewalk_hops, untimed);
    }
    uint64_t smi0 = w->smi ? arch_rdmsr(MSR_SMI_COUNT) : 0;
    w->p = chase_batches(p, w->batches, w->hops, w->stamps);
    if (w->smi)
        w->smi_delta = arch_rdmsr(MSR_SMI_COUNT) - smi0;
}

int batch_window_run(struct batch_window *w)
{
    struct batch_job job = {w, w->p};
    w->dropped = 0;
    w->smi_delta = 0;
    while (plat_window_run(batch_job_run, &job, &w->fault) != 0) {
        if (!fault_is_interruption(&w->fault) || w->dropped >= BATCHES_MAX_DROPPED)
            return -1;
        w->dropped++;
    }
    return 0;
}
