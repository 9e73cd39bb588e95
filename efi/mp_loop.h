// SPDX-License-Identifier: MIT
// The mailbox a processor serves jobs from while it stays in chase's own loop for a whole
// experiment: the boot processor posts a job and reads its end, the processor runs it.
#ifndef CHASE_MP_LOOP_H
#define CHASE_MP_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#define MP_MAILBOX_ALIGN                                                                           \
    64 /* a mailbox on a line of its own: an idle processor's spin reads only                      \
          its own line, which changes only when a job is posted to it */

/* Written by one side each: gen and release by the boot processor, done and serving by the other.
 */
struct mp_mailbox {
    uint32_t gen;     /* the last job posted (a count) */
    uint32_t done;    /* the last generation whose job is over */
    uint32_t release; /* leave the loop once no job is pending */
    uint32_t serving; /* 1 while the processor is in the loop */
} __attribute__((aligned(MP_MAILBOX_ALIGN)));

/* What the serving processor does: a job, and a short pause between two looks at the box. */
struct mp_loop_ops {
    void (*job)(void *ctx);
    void (*idle)(void *ctx);
    void *ctx;
};

/*
 * On the serving processor: run a job for every generation posted (one pending at entry runs
 * first), raising done after each, until release is set with no job pending. Returns the
 * number of jobs run.
 */
unsigned mp_loop_serve(struct mp_mailbox *m, const struct mp_loop_ops *ops);

/* Boot processor: a fresh box for a processor about to enter the loop (nothing pending). */
void mp_loop_reset(struct mp_mailbox *m);

/* Boot processor: post the next job; false (nothing posted) while the last is not over. */
bool mp_loop_post(struct mp_mailbox *m);

/* Boot processor: the last job posted is over (true when none was posted). */
bool mp_loop_done(const struct mp_mailbox *m);

/* Boot processor: ask the processor to leave the loop once its job, if any, is over. */
void mp_loop_release(struct mp_mailbox *m);

/* The processor is in the loop now (it has entered and not yet left). */
bool mp_loop_serving(const struct mp_mailbox *m);

#endif
