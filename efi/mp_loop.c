// SPDX-License-Identifier: MIT
// The mailbox a processor serves jobs from while it stays in chase's own loop for a whole
// experiment: the boot processor posts a job and reads its end, the processor runs it.
//
// On EDK II a processor started for a job is free again only when the firmware's status timer
// has looked (100 ms by default), and firmware that parks processors in HLT sends INIT-SIPI-SIPI
// at each start: c2c over 64 processors (4,032 pairs, one after another) spent minutes waiting.
// So each processor is started once per experiment, into this loop, and handed its jobs here.
// Each field has one writer; a release store publishes what was written before it.
#include "mp_loop.h"

static uint32_t load(const uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store(uint32_t *p, uint32_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

unsigned mp_loop_serve(struct mp_mailbox *m, const struct mp_loop_ops *ops)
{
    uint32_t seen = load(&m->done); /* a job posted before the processor came runs first */
    unsigned jobs = 0;
    store(&m->serving, 1);
    for (;;) {
        uint32_t g;
        while ((g = load(&m->gen)) == seen && !load(&m->release))
            ops->idle(ops->ctx);
        if (g == seen) /* released, no job pending */
            break;
        seen = g;
        ops->job(ops->ctx);
        jobs++;
        store(&m->done, g);
    }
    store(&m->serving, 0);
    return jobs;
}

void mp_loop_reset(struct mp_mailbox *m)
{
    store(&m->release, 0);
    store(&m->serving, 0);
    store(&m->done, load(&m->gen));
}

bool mp_loop_post(struct mp_mailbox *m)
{
    if (!mp_loop_done(m))
        return false;
    store(&m->gen, m->gen + 1);
    return true;
}

bool mp_loop_done(const struct mp_mailbox *m)
{
    return load(&m->done) == load(&m->gen);
}

void mp_loop_release(struct mp_mailbox *m)
{
    store(&m->release, 1);
}

bool mp_loop_serving(const struct mp_mailbox *m)
{
    return load(&m->serving) != 0;
}
