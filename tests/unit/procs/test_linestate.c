// SPDX-License-Identifier: MIT
// Unit tests of the line-state engine and the contended increments: the home node away from a
// pair, the shared state's helper, each state's set-up and timed walk on real threads (fresh
// chunks or the same one), and N threads incrementing one line (no increment lost).
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cpu.h"
#include "procs/contend.h"
#include "procs/linestate.h"

/* The engine's two outside calls, the real ones' behaviour without the platform behind them. */
enum win_state mp_wait_in(const volatile uint64_t *flag, uint64_t value, uint64_t deadline_tsc,
                          const struct win_slice *w)
{
    uint64_t until = win_wait_until(w, deadline_tsc);
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != value)
        if (arch_tsc_fenced() >= until) {
            enum win_state st = win_check(w, arch_tsc_fenced(), deadline_tsc);
            return st == WIN_GO_ON ? WIN_WINDOW_END : st;
        }
    return WIN_GO_ON;
}

void **chain_walk(void **p, uint64_t hops)
{
    while (hops--)
        p = (void **)*(void *volatile *)p;
    return p;
}

#define LONG_WAIT_TICKS 20000000000ULL /* a side that waits longer failed (seconds at any TSC) */

static void test_home_other(void **state)
{
    (void)state;
    bool mem2[2] = {true, true};
    assert_int_equal(ls_home_other(2, mem2, NULL, 0, 0, 0), 1);  /* both on the buffer's node */
    assert_int_equal(ls_home_other(2, mem2, NULL, 1, 1, 0), -1); /* the buffer is away already */
    assert_int_equal(ls_home_other(2, mem2, NULL, 0, 1, 0), -1); /* no third node */
    /* four nodes: from node 0, node 2 is nearest (20), 3 beyond (30), 1 has no memory */
    bool mem4[4] = {true, false, true, true};
    uint8_t d[16] = {10, 12, 20, 30, 12, 10, 20, 30, 20, 20, 10, 20, 30, 30, 20, 10};
    assert_int_equal(ls_home_other(4, mem4, d, 0, 0, 0), 2);
    assert_int_equal(ls_home_other(4, mem4, d, 0, 2, 0), 3);
    assert_int_equal(ls_home_other(4, mem4, d, 3, 0, 3), 2);
    d[2] = 30; /* a tie between 2 and 3: the lower index */
    assert_int_equal(ls_home_other(4, mem4, d, 0, 0, 0), 2);
    assert_int_equal(ls_home_other(4, mem4, NULL, 0, 0, 0), 2); /* no distances: by index */
}

static void test_helper_pick(void **state)
{
    (void)state;
    struct mp_cpu c[6];
    memset(c, 0, sizeof(c));
    for (unsigned i = 0; i < 6; i++) { /* two packages of 3; package 1 has two L3 groups */
        c[i].p.id = i;
        c[i].p.package = i / 3;
        c[i].l3_group = i < 3 ? 0 : i < 5 ? 1 : 2;
        c[i].groups_known = true;
    }
    assert_int_equal(ls_helper_pick(c, 6, 0, 3), 4); /* 3's L3 group */
    assert_int_equal(ls_helper_pick(c, 6, 3, 0), 1); /* 0's L3 group */
    assert_int_equal(ls_helper_pick(c, 6, 0, 5), 3); /* none in 5's L3: its package */
    c[1].p.lost = c[2].p.lost = true;
    assert_int_equal(ls_helper_pick(c, 6, 3, 0), 4);  /* 0's L3 and package lost: any */
    assert_int_equal(ls_helper_pick(c, 2, 0, 1), -1); /* two processors: no third */
    assert_string_equal(ls_state_name(LS_SHARED), "shared");
}

static void *side(void *arg)
{
    void **a = arg;
    bool (*step)(void *) = (bool (*)(void *))a[0];
    while (step(a[1]))
        ;
    return NULL;
}

#define LINES 64
#define STRIDE 128
#define CHUNK (LINES * STRIDE)
#define REPS 4

/* Run one state with its two or three sides on threads. */
static void run_state(struct ls_run *r, enum ls_state s)
{
    pthread_t t[3];
    void *args[3][2] = {{(void *)ls_timer, r}, {(void *)ls_answer, r}, {(void *)ls_helper, r}};
    unsigned n = s == LS_SHARED ? 3 : 2;
    ls_begin(r, s);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(pthread_create(&t[i], NULL, side, args[i]), 0);
    for (unsigned i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    ls_end(r);
}

/* Whether chunk k's lines form one cycle through all LINES (the answerer linked them). */
static bool chunk_linked(uint8_t *base, unsigned k, const uint32_t *perm)
{
    void **first = (void **)(base + k * CHUNK + perm[0] * STRIDE), **p = first;
    for (unsigned i = 0; i < LINES; i++) {
        if ((uint8_t *)p < base + k * CHUNK || (uint8_t *)p >= base + (k + 1) * CHUNK)
            return false;
        p = (void **)*p;
    }
    return p == first;
}

static void test_states_on_threads(void **state)
{
    (void)state;
    uint8_t *mem = aligned_alloc(4096, 16 * CHUNK);
    memset(mem, 0, 16 * CHUNK);
    static uint32_t perm[LINES];
    bool seen[LINES] = {false};
    ls_order_random(perm, LINES, 7);
    for (unsigned i = 0; i < LINES; i++) { /* every line once */
        assert_true(perm[i] < LINES && !seen[perm[i]]);
        seen[perm[i]] = true;
    }
    struct ls_area area = {mem, 16 * CHUNK, 0};
    static volatile uint64_t ctl __attribute__((aligned(128)));
    struct ls_run r = {.ctl = &ctl,
                       .area = &area,
                       .perm = perm,
                       .lines = LINES,
                       .stride = STRIDE,
                       .fresh = true,
                       .reps = REPS,
                       .wait_ticks = LONG_WAIT_TICKS,
                       .window_ticks = 0};
    for (unsigned s = 0; s < LS_STATES; s++) {
        memset(r.ticks, 0, sizeof(r.ticks));
        run_state(&r, (enum ls_state)s);
        assert_false(r.failed);
        for (unsigned k = 0; k < REPS; k++) {
            assert_true(r.ticks[k] > 0);
            assert_true(chunk_linked(mem, s * REPS + k, perm)); /* a fresh chunk each time */
        }
        assert_int_equal(area.cursor, (s + 1) * REPS);
    }
    assert_false(chunk_linked(mem, LS_STATES * REPS, perm)); /* nothing past them touched */
    r.fresh = false; /* the same chunk every repetition: the cursor stays */
    run_state(&r, LS_EXCLUSIVE);
    assert_false(r.failed);
    assert_int_equal(area.cursor, LS_STATES * REPS);
    assert_true(chunk_linked(mem, LS_STATES * REPS, perm));
    assert_false(chunk_linked(mem, LS_STATES * REPS + 1, perm));
    free(mem);
}

static void test_contended_increments(void **state)
{
    (void)state;
    static volatile uint64_t lines[3][16] __attribute__((aligned(128)));
    struct contend_run run = {.line = lines[0],
                              .start = lines[1],
                              .stop = lines[2],
                              .variant = arch_atomic_variant(),
                              .run_ticks = 1000000,
                              .window_ticks = 0};
    struct contend_side sides[3];
    pthread_t t[3];
    contend_begin(&run, sides, 3);
    run.deadline = arch_tsc_fenced() + LONG_WAIT_TICKS;
    void *args[3][2];
    for (unsigned i = 0; i < 3; i++) {
        args[i][0] = (void *)contend_step;
        args[i][1] = &sides[i];
        assert_int_equal(pthread_create(&t[i], NULL, side, args[i]), 0);
    }
    uint64_t sum = 0;
    for (unsigned i = 0; i < 3; i++) {
        pthread_join(t[i], NULL);
        assert_true(sides[i].ok);
        assert_true(sides[i].ops >= CONTEND_BATCH && sides[i].ops % CONTEND_BATCH == 0);
        sum += sides[i].ops;
    }
    assert_true(sides[0].leader && !sides[1].leader);
    assert_true(sides[0].ticks >= run.run_ticks);
    assert_int_equal(*run.line, sum); /* no increment lost: each one atomic */
    assert_int_equal(*run.start, 3);
    assert_int_equal(*run.stop, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_home_other),
        cmocka_unit_test(test_helper_pick),
        cmocka_unit_test(test_states_on_threads),
        cmocka_unit_test(test_contended_increments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
