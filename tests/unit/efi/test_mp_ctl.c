// SPDX-License-Identifier: MIT
// Unit tests of the processor controller over stub MP services: a firmware that answers
// EFI_NOT_READY once is retried, a processor is reused only after the firmware's completion
// event, an AP that never finishes is lost (and never started again), and the run must then end
// with a reset.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mp_ctl.h"

#define SLOTS 4

/* The stub firmware: what it answers, what the APs do, and what it was asked. */
struct stub_fw {
    unsigned not_ready_left[SLOTS]; /* busy answers still to give */
    bool never_finishes[SLOTS];     /* the job never raises its flag, the event never signals */
    unsigned event_after_polls;     /* the completion event signals this many looks late */
    bool job_done[SLOTS];
    bool event[SLOTS];
    unsigned polls_left[SLOTS];
    unsigned starts[SLOTS];      /* starts accepted */
    unsigned start_calls[SLOTS]; /* start calls, busy answers included */
    bool started_while_busy;     /* a start came before the firmware said the AP was back */
    uint64_t stalled_us;
};

static enum mp_fw stub_start(void *ctx, unsigned slot, bool wait, uint64_t timeout_us)
{
    struct stub_fw *f = ctx;
    assert_true(timeout_us > 0); /* never an infinite timeout */
    f->start_calls[slot]++;
    if (f->not_ready_left[slot]) {
        f->not_ready_left[slot]--;
        return MP_FW_NOT_READY;
    }
    if (f->starts[slot] && !f->event[slot] && !wait)
        f->started_while_busy = true;
    f->starts[slot]++;
    f->event[slot] = false;
    f->job_done[slot] = !f->never_finishes[slot];
    f->polls_left[slot] = f->event_after_polls;
    if (wait)
        return f->never_finishes[slot] ? MP_FW_TIMEOUT : MP_FW_OK;
    return MP_FW_OK;
}

static bool stub_finished(void *ctx, unsigned slot)
{
    struct stub_fw *f = ctx;
    if (f->never_finishes[slot])
        return false;
    if (f->polls_left[slot]) {
        f->polls_left[slot]--;
        return false;
    }
    f->event[slot] = true;
    return true;
}

static bool stub_job_done(void *ctx, unsigned slot)
{
    return ((struct stub_fw *)ctx)->job_done[slot];
}

static void stub_stall(void *ctx, uint64_t us)
{
    ((struct stub_fw *)ctx)->stalled_us += us;
}

static struct stub_fw fw;
static struct mp_fw_ops ops = {stub_start, stub_finished, stub_job_done, stub_stall, &fw};
static struct mp_ctl_slot slots[SLOTS];
static struct mp_ctl ctl;

static void setup_ctl(void)
{
    memset(&fw, 0, sizeof(fw));
    memset(slots, 0, sizeof(slots));
    slots[0].bsp = true;
    ctl = (struct mp_ctl){&ops, slots, SLOTS, 0, 0, 0};
}

static void test_not_ready_once_is_retried(void **state)
{
    (void)state;
    setup_ctl();
    fw.not_ready_left[1] = 1;
    assert_int_equal(mp_ctl_run(&ctl, 1, 1000), 0);
    assert_int_equal(fw.start_calls[1], 2);
    assert_int_equal(fw.starts[1], 1);
    assert_int_equal(ctl.not_ready, 1);
    assert_true(fw.stalled_us >= MP_NOT_READY_STALL_US);
    assert_false(mp_ctl_must_reset(&ctl));
    /* Busy for ever: the start fails after the bounded tries, the processor is not lost. */
    fw.not_ready_left[2] = MP_NOT_READY_TRIES;
    assert_int_equal(mp_ctl_start(&ctl, 2, 1000), -1);
    assert_false(slots[2].lost);
    assert_int_equal(mp_ctl_run(&ctl, 0, 1000), -1); /* the caller's own: never started */
}

static void test_reuse_after_completion_event(void **state)
{
    (void)state;
    setup_ctl();
    fw.event_after_polls = 5; /* the job is over long before the firmware says so */
    unsigned two[2] = {1, 2};
    bool done[2];
    assert_int_equal(mp_ctl_start(&ctl, 1, 1000), 0);
    assert_int_equal(mp_ctl_start(&ctl, 2, 1000), 0);
    assert_int_equal(mp_ctl_wait(&ctl, two, 2, done, 1000), 0);
    assert_true(done[0] && done[1]);
    assert_true(slots[1].busy); /* done, but not yet back with the firmware */
    assert_int_equal(ctl.settle_waited_us, 0);
    assert_int_equal(mp_ctl_start(&ctl, 1, 1000), 0);
    assert_false(fw.started_while_busy);
    assert_int_equal(ctl.settle_waited_us, 5 * MP_POLL_US); /* five looks, a stall between */
    assert_int_equal(fw.starts[1], 2);
    mp_ctl_settle(&ctl);
    assert_false(slots[1].busy || slots[2].busy);
    assert_false(mp_ctl_must_reset(&ctl));
}

/* An AP that never finishes: the wait ends, the AP is lost and never started again, the run
 * ends with a reset; the others go on. */
static void test_never_finishes_is_lost(void **state)
{
    (void)state;
    setup_ctl();
    fw.not_ready_left[3] = 1;
    fw.never_finishes[2] = true;
    unsigned two[2] = {2, 3};
    bool done[2];
    assert_int_equal(mp_ctl_start(&ctl, 2, 1000), 0);
    assert_int_equal(mp_ctl_start(&ctl, 3, 1000), 0);
    assert_int_equal(mp_ctl_wait(&ctl, two, 2, done, 500), MP_CTL_TIMEOUT);
    assert_false(done[0]);
    assert_true(done[1]);
    assert_true(slots[2].lost);
    assert_false(slots[3].lost);
    assert_int_equal(ctl.lost, 1);
    assert_true(mp_ctl_must_reset(&ctl));
    unsigned calls = fw.start_calls[2];
    assert_int_equal(mp_ctl_start(&ctl, 2, 1000), -1);
    assert_int_equal(mp_ctl_run(&ctl, 2, 1000), -1);
    assert_int_equal(fw.start_calls[2], calls);
    assert_int_equal(mp_ctl_run(&ctl, 3, 1000), 0); /* the others still work */
    /* A blocking run that times out loses its processor too. */
    fw.never_finishes[1] = true;
    assert_int_equal(mp_ctl_run(&ctl, 1, 1000), MP_CTL_TIMEOUT);
    assert_true(slots[1].lost);
    assert_int_equal(ctl.lost, 2);
    mp_ctl_settle(&ctl); /* bounded: lost ones are not waited for */
}

/* A job that is over but whose processor the firmware never takes back is lost at the next
 * start, after a bounded wait. */
static void test_never_back_with_firmware(void **state)
{
    (void)state;
    setup_ctl();
    fw.event_after_polls = UINT32_MAX;
    unsigned one = 1;
    bool done;
    assert_int_equal(mp_ctl_start(&ctl, 1, 1000), 0);
    assert_int_equal(mp_ctl_wait(&ctl, &one, 1, &done, 1000), 0);
    assert_int_equal(mp_ctl_start(&ctl, 1, 1000), -1);
    assert_true(slots[1].lost);
    assert_true(fw.stalled_us >= MP_SETTLE_US);
    assert_true(mp_ctl_must_reset(&ctl));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_ready_once_is_retried),
        cmocka_unit_test(test_reuse_after_completion_event),
        cmocka_unit_test(test_never_finishes_is_lost),
        cmocka_unit_test(test_never_back_with_firmware),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
