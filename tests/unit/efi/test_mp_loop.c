// SPDX-License-Identifier: MIT
// Unit tests of the mailbox a processor serves an experiment's jobs from (efi/mp_loop.c), the
// serving side a real thread: a job posted before it enters runs first, each post runs exactly
// once and in order, a post while a job runs is refused, the release ends the loop only after
// the job in hand, and a box reset for the next experiment starts clean.
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mp_loop.h"

#define JOBS 2000 /* posts in the ordered test: enough for the two threads to interleave */

struct server {
    struct mp_mailbox box;
    pthread_t thread;
    unsigned ran;        /* jobs run (the serving side writes it) */
    unsigned served;     /* what mp_loop_serve returned */
    uint32_t seen[JOBS]; /* the generation each job saw posted */
    volatile int hold;   /* a job spins while this is set (the boot processor lets it go) */
    volatile int in_job;
};

static void job(void *ctx)
{
    struct server *s = ctx;
    s->in_job = 1;
    while (s->hold)
        sched_yield();
    if (s->ran < JOBS)
        s->seen[s->ran] = __atomic_load_n(&s->box.gen, __ATOMIC_ACQUIRE);
    s->ran++;
    s->in_job = 0;
}

static void idle(void *ctx)
{
    (void)ctx;
    sched_yield();
}

static void *serve(void *arg)
{
    struct server *s = arg;
    struct mp_loop_ops ops = {job, idle, s};
    s->served = mp_loop_serve(&s->box, &ops);
    return NULL;
}

static void start(struct server *s)
{
    assert_int_equal(pthread_create(&s->thread, NULL, serve, s), 0);
}

static void wait_done(struct server *s)
{
    while (!mp_loop_done(&s->box))
        sched_yield();
}

/* The first job is posted before the processor enters (as x86 starts it): it runs first; then
   every post once, in order, each seeing its own generation; release ends it. */
static void test_posts_run_once_in_order(void **state)
{
    (void)state;
    static struct server s;
    memset(&s, 0, sizeof(s));
    mp_loop_reset(&s.box);
    assert_true(mp_loop_post(&s.box));
    start(&s);
    for (unsigned i = 1; i < JOBS; i++) {
        wait_done(&s);
        assert_true(mp_loop_post(&s.box));
    }
    wait_done(&s);
    mp_loop_release(&s.box);
    pthread_join(s.thread, NULL);
    assert_int_equal(s.ran, JOBS);
    assert_int_equal(s.served, JOBS);
    for (unsigned i = 0; i < JOBS; i++)
        assert_int_equal(s.seen[i], i + 1);
    assert_false(mp_loop_serving(&s.box));
}

/* A post while the job runs is refused; the release waits for the job in hand. */
static void test_busy_refused_and_release_after_job(void **state)
{
    (void)state;
    static struct server s;
    memset(&s, 0, sizeof(s));
    mp_loop_reset(&s.box);
    s.hold = 1;
    start(&s);
    while (!mp_loop_serving(&s.box))
        sched_yield();
    assert_true(mp_loop_post(&s.box));
    while (!s.in_job)
        sched_yield();
    assert_false(mp_loop_done(&s.box));
    assert_false(mp_loop_post(&s.box)); /* the last job is not over: nothing posted */
    mp_loop_release(&s.box);
    assert_true(mp_loop_serving(&s.box)); /* still in its job */
    s.hold = 0;
    pthread_join(s.thread, NULL);
    assert_int_equal(s.ran, 1);
    assert_true(mp_loop_done(&s.box));
    assert_false(mp_loop_serving(&s.box));
}

/* Released with nothing posted: it leaves having run nothing. A reset box for the next
   experiment serves again from where the generations stand. */
static void test_release_idle_then_reset(void **state)
{
    (void)state;
    static struct server s;
    memset(&s, 0, sizeof(s));
    s.box.gen = s.box.done = 41; /* an earlier experiment's count */
    mp_loop_reset(&s.box);
    start(&s);
    while (!mp_loop_serving(&s.box))
        sched_yield();
    mp_loop_release(&s.box);
    pthread_join(s.thread, NULL);
    assert_int_equal(s.served, 0);
    mp_loop_reset(&s.box);
    assert_true(mp_loop_post(&s.box));
    start(&s);
    wait_done(&s);
    mp_loop_release(&s.box);
    pthread_join(s.thread, NULL);
    assert_int_equal(s.served, 1);
    assert_int_equal(s.box.done, 42);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_posts_run_once_in_order),
        cmocka_unit_test(test_busy_refused_and_release_after_job),
        cmocka_unit_test(test_release_idle_then_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
