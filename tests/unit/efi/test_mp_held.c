// SPDX-License-Identifier: MIT
// Unit tests of the processors a front end holds (efi/mp_held.c) over a stub
// firmware: ids are the firmware's numbers, not the slots; a group starts only when every one
// of it can; a processor that does not come back is marked lost in the table the caller sees;
// the processors a job leaves out leave chase's loop before it starts, all at the end.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mp_held.h"

#define HELD 4

/* The stub firmware and front end: what they were asked, and which processor never returns. */
static struct {
    bool hangs[HELD];
    bool job_done[HELD];
    unsigned starts[HELD];
    unsigned prepared[HELD];
    bool (*step)(void *);
    void *arg[HELD];
    int result;              /* what every job of plat_cpu_run gave */
    unsigned releases;       /* calls of the front end's release */
    unsigned kept[HELD + 1]; /* the slots the last one kept */
    unsigned nkept;
} stub;

static enum mp_fw fw_start(void *ctx, unsigned i, bool wait, uint64_t timeout_us)
{
    (void)ctx;
    (void)timeout_us;
    stub.starts[i]++;
    stub.job_done[i] = !stub.hangs[i];
    return wait && stub.hangs[i] ? MP_FW_TIMEOUT : MP_FW_OK;
}

static bool fw_done(void *ctx, unsigned i)
{
    (void)ctx;
    return stub.job_done[i];
}

static void fw_stall(void *ctx, uint64_t us)
{
    (void)ctx;
    (void)us;
}

static bool prepare(void *ctx, unsigned i, void (*fn)(void *), bool (*step)(void *), void *arg)
{
    (void)ctx;
    (void)fn;
    stub.prepared[i]++;
    stub.step = step;
    stub.arg[i] = arg;
    return true;
}

static int result(void *ctx, unsigned i)
{
    (void)ctx;
    (void)i;
    return stub.result;
}

static void release(void *ctx, const unsigned *keep, unsigned nkeep)
{
    (void)ctx;
    stub.releases++;
    stub.nkept = nkeep;
    for (unsigned k = 0; k < nkeep && k <= HELD; k++)
        stub.kept[k] = keep[k];
}

static const struct mp_fw_ops fw_ops = {fw_start, fw_done, fw_done, fw_stall, NULL};
static struct mp_held_ops held_ops = {prepare, result, NULL, NULL};
static struct plat_cpu cpu[HELD];
static struct mp_ctl_slot ctl_slot[HELD];
static unsigned started[HELD];
static struct mp_held held;

/* Four processors numbered 0, 2, 5, 7 by the firmware (one disabled between each), the first
 * the caller's own. */
static void setup_held(void)
{
    static const unsigned ids[HELD] = {0, 2, 5, 7};
    memset(&stub, 0, sizeof(stub));
    memset(ctl_slot, 0, sizeof(ctl_slot));
    for (unsigned i = 0; i < HELD; i++)
        cpu[i] = (struct plat_cpu){.id = ids[i], .bsp = i == 0};
    ctl_slot[0].bsp = true;
    held = (struct mp_held){.probed = true,
                            .cpu = cpu,
                            .n = HELD,
                            .total = 8,
                            .enabled = HELD,
                            .ctl = {&fw_ops, ctl_slot, HELD, 0, 0, 0},
                            .started = started,
                            .window_cpu = -1,
                            .ops = &held_ops};
}

static void test_cpus_and_why(void **state)
{
    (void)state;
    setup_held();
    struct plat_cpu out[HELD];
    char why[64] = "";
    assert_int_equal(mp_held_cpus(&held, out, 2, why, sizeof(why)), 2);
    assert_int_equal(out[1].id, 2);
    unsigned enabled, n, failed;
    assert_int_equal(mp_held_total(&held, &enabled, &n, &failed), 8);
    assert_int_equal(enabled, HELD);
    assert_int_equal(n, HELD);
    /* One processor is no other processor to use: the reason is passed on. */
    held.n = 1;
    strcpy(held.why, "one processor only");
    assert_int_equal(mp_held_cpus(&held, out, HELD, why, sizeof(why)), 0);
    assert_string_equal(why, "one processor only");
}

static void test_run_by_firmware_number(void **state)
{
    (void)state;
    setup_held();
    assert_int_equal(mp_held_index(&held, 5), 2);
    assert_int_equal(mp_held_index(&held, 3), -1);
    stub.result = 7;
    assert_int_equal(mp_held_run(&held, 5, NULL, NULL, 1000), 7); /* the job's own result */
    assert_int_equal(stub.starts[2], 1);
    held_ops.result = NULL; /* a front end whose jobs always run whole */
    assert_int_equal(mp_held_run(&held, 5, NULL, NULL, 1000), 0);
    held_ops.result = result;
    assert_int_equal(mp_held_run(&held, 3, NULL, NULL, 1000), -1); /* not held */
    assert_int_equal(mp_held_run(&held, 0, NULL, NULL, 1000), -1); /* the caller's own */
    assert_int_equal(stub.prepared[0], 0);
    /* One that does not come back is lost, in the table too, and never given work again. */
    stub.hangs[3] = true;
    assert_int_equal(mp_held_run(&held, 7, NULL, NULL, 1000), PLAT_CPU_TIMEOUT);
    assert_true(cpu[3].lost);
    assert_int_equal(mp_held_run(&held, 7, NULL, NULL, 1000), -1);
    assert_int_equal(stub.prepared[3], 1);
    assert_int_equal(mp_held_window_cpu(&held, 7, 1000), -1);
}

static bool step(void *arg)
{
    (void)arg;
    return false;
}

static void test_group_starts_whole_or_not_at_all(void **state)
{
    (void)state;
    setup_held();
    int a[2];
    void *args[2] = {&a[0], &a[1]};
    bool done[2];
    const unsigned ids[2] = {2, 7};
    ctl_slot[3].lost = true; /* one of the group cannot: none starts */
    assert_int_equal(mp_held_start(&held, ids, 2, step, args, 1000), -1);
    assert_true(cpu[3].lost);
    assert_int_equal(stub.starts[1] + stub.starts[3], 0);
    ctl_slot[3].lost = false;
    assert_int_equal(mp_held_start(&held, ids, 2, step, args, 1000), 0);
    assert_ptr_equal(stub.arg[3], &a[1]);
    assert_ptr_equal(stub.step, step);
    assert_int_equal(mp_held_start(&held, ids, 2, step, args, 1000), -1); /* not waited for */
    assert_int_equal(mp_held_wait(&held, done, 1, 1000), -1);             /* not what started */
    assert_int_equal(mp_held_wait(&held, done, 2, 1000), 0);
    assert_true(done[0] && done[1]);
    /* One of the group never returns: the wait says so and the table marks it lost. */
    stub.hangs[1] = true;
    assert_int_equal(mp_held_start(&held, ids, 2, step, args, 1000), 0);
    assert_int_equal(mp_held_wait(&held, done, 2, 1000), PLAT_CPU_TIMEOUT);
    assert_false(done[0]);
    assert_true(cpu[1].lost && !cpu[3].lost);
}

static void test_window_cpu(void **state)
{
    (void)state;
    setup_held();
    assert_int_equal(mp_held_window_cpu(&held, 5, 250), 0);
    assert_int_equal(held.window_cpu, 2);
    assert_int_equal(held.window_timeout_us, 250);
    assert_int_equal(mp_held_window_cpu(&held, 0, 250), 0); /* the caller's own: here */
    assert_int_equal(held.window_cpu, -1);
    assert_int_equal(mp_held_window_cpu(&held, 5, 250), 0);
    assert_int_equal(mp_held_window_cpu(&held, PLAT_WINDOW_HERE, 250), 0);
    assert_int_equal(held.window_cpu, -1);
    assert_int_equal(mp_held_window_cpu(&held, 4, 250), -1); /* not held */
}

/* A job keeps in chase's loop only its own processors (slots, not ids); the end keeps none. */
static void test_release_all_but_the_job(void **state)
{
    (void)state;
    setup_held();
    held_ops.release = release;
    assert_int_equal(mp_held_run(&held, 5, NULL, NULL, 1000), 0);
    assert_int_equal(stub.releases, 1);
    assert_int_equal(stub.nkept, 1);
    assert_int_equal(stub.kept[0], 2);
    int a[2];
    void *args[2] = {&a[0], &a[1]};
    bool done[2];
    const unsigned ids[2] = {7, 2};
    assert_int_equal(mp_held_start(&held, ids, 2, step, args, 1000), 0);
    assert_int_equal(stub.releases, 2); /* before any of the group started */
    assert_int_equal(stub.nkept, 2);
    assert_int_equal(stub.kept[0], 3);
    assert_int_equal(stub.kept[1], 1);
    assert_int_equal(mp_held_wait(&held, done, 2, 1000), 0);
    mp_held_release(&held); /* the experiment's end */
    assert_int_equal(stub.releases, 3);
    assert_int_equal(stub.nkept, 0);
    held.probed = false; /* processors never looked for: nothing to release */
    mp_held_release(&held);
    assert_int_equal(stub.releases, 3);
    held_ops.release = NULL;
    held.probed = true;
    mp_held_release(&held); /* a front end without loops (AArch64) */
    assert_int_equal(mp_held_run(&held, 5, NULL, NULL, 1000), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpus_and_why),
        cmocka_unit_test(test_run_by_firmware_number),
        cmocka_unit_test(test_group_starts_whole_or_not_at_all),
        cmocka_unit_test(test_window_cpu),
        cmocka_unit_test(test_release_all_but_the_job),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
