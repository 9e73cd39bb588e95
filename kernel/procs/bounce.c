// SPDX-License-Identifier: MIT
// The core-to-core engine: one cache line bounced between two processors, each side in windows of
// its own (window_max_ms at most, interrupts off in each), and lines one modifies read by the
// other.
#include "procs/bounce.h"

#include "arch/cpu.h"
#include "procs/mp.h"

/* Round trips between two looks at the clock in a repetition that may outlast its window: one
   fenced TSC read (tens of cycles) per 64 round trips of hundreds, under 1% of the time. */
#define BOUNCE_ROUNDS_PER_LOOK 64

/* Whether a repetition of the timing side may outlast what is left of a window (the first
   one's length is not known yet): then it looks at the clock every BOUNCE_ROUNDS_PER_LOOK. */
static bool bounce_may_outlast(const struct win_slice *w, const struct bounce_side *s)
{
    return w->window_ticks && (!s->rep_ticks || s->rep_ticks > w->window_ticks / 2);
}

/*
 * The timed round trips, repetition after repetition: a repetition starts in a window that
 * holds it (at the last one's pace) and is cut only where it is longer than half a window or
 * the partner is late; a cut one is the sum of its parts (the round trip in flight at the cut
 * counts up to the cut).
 */
static enum win_state bounce_time_trips(struct bounce_pair *pr, struct bounce_side *s,
                                        const struct win_slice *w)
{
    for (; s->r < pr->reps; s->r++, s->i = 0) {
        uint64_t t0 = arch_tsc_fenced();
        if (s->i == 0 && !s->stored) { /* a new repetition (not one cut in its first trip) */
            if (!win_fits(w, t0, s->rep_ticks))
                return WIN_WINDOW_END; /* the next window holds it whole */
            pr->bounce_ticks[s->r] = 0;
            s->deadline = t0 + pr->timer_wait_ticks;
        }
        bool look = bounce_may_outlast(w, s);
        for (; s->i < pr->rounds; s->i++, s->v++, s->stored = false) {
            enum win_state st = WIN_GO_ON;
            if (!s->stored) {
                if (look && s->i && s->i % BOUNCE_ROUNDS_PER_LOOK == 0) /* a cut between trips */
                    st = win_check(w, arch_tsc_fenced(), s->deadline);
                if (st == WIN_GO_ON)
                    __atomic_store_n(pr->flag, ++s->v, __ATOMIC_RELEASE);
                s->stored = st == WIN_GO_ON;
            }
            if (st == WIN_GO_ON)
                st = mp_wait_in(pr->flag, s->v + 1, s->deadline, w);
            if (st != WIN_GO_ON) {
                pr->bounce_ticks[s->r] += arch_tsc_fenced() - t0;
                pr->cuts += st == WIN_WINDOW_END;
                return st;
            }
        }
        pr->bounce_ticks[s->r] += arch_tsc_fenced() - t0;
        s->rep_ticks = pr->bounce_ticks[s->r];
    }
    s->phase = BOUNCE_READ;
    s->r = 0;
    return WIN_GO_ON;
}

/* The reads of lines the other side modified: one request, its answer, the timed walk each. */
static enum win_state bounce_time_reads(struct bounce_pair *pr, struct bounce_side *s,
                                        const struct win_slice *w)
{
    for (; s->r < pr->reps; s->r++, s->v++, s->stored = false) {
        if (!s->stored) {
            uint64_t now = arch_tsc_fenced();
            if (win_check(w, now, 0) != WIN_GO_ON)
                return WIN_WINDOW_END;
            __atomic_store_n(pr->flag, ++s->v, __ATOMIC_RELEASE); /* "modify the lines" */
            s->deadline = now + pr->timer_wait_ticks;
        }
        s->stored = true;
        enum win_state st = mp_wait_in(pr->flag, s->v + 1, s->deadline, w);
        if (st != WIN_GO_ON)
            return st;
        uint64_t t0 = arch_tsc_fenced();
        void **p = chain_walk(pr->chain, pr->hops);
        pr->read_ticks[s->r] = arch_tsc_fenced() - t0;
        pr->sink = p;
    }
    __atomic_store_n(pr->flag, ++s->v, __ATOMIC_RELEASE); /* "done" */
    s->phase = BOUNCE_END;
    return WIN_GO_ON;
}

/*
 * The timing side (its own TSC only), one window's share: round trips, then reads of lines
 * the other modified. Returns true while more remains.
 */
bool bounce_timer(void *arg)
{
    struct bounce_pair *pr = arg;
    struct bounce_side *s = &pr->timer;
    struct win_slice w;
    win_begin(&w, arch_tsc_fenced(), pr->window_ticks);
    enum win_state st = WIN_GO_ON;
    if (s->phase == BOUNCE_START) {
        s->deadline = s->deadline ? s->deadline : w.start_tsc + pr->timer_wait_ticks;
        st = mp_wait_in(pr->ready, 1, s->deadline, &w);
        s->phase = st == WIN_GO_ON ? BOUNCE_BOUNCE : BOUNCE_START;
    }
    if (st == WIN_GO_ON && s->phase == BOUNCE_BOUNCE)
        st = bounce_time_trips(pr, s, &w);
    if (st == WIN_GO_ON && s->phase == BOUNCE_READ)
        st = bounce_time_reads(pr, s, &w);
    if (st == WIN_DEADLINE) {
        pr->failed = true;
        __atomic_store_n(pr->flag, ~0ULL, __ATOMIC_RELEASE);
    }
    return st == WIN_WINDOW_END;
}

/* The answering side of hang_test: never returns, so its processor's timeout must end it. */
static void bounce_hang(volatile uint64_t *ready)
{
    __atomic_store_n(ready, 1, __ATOMIC_RELEASE);
    for (;;)
        arch_pause();
}

/*
 * The answering side's wait for the next odd value (deadline: answer_wait_ticks from its start);
 * the clock read for the deadline also ends the window when it is over.
 */
static enum win_state bounce_await(struct bounce_pair *pr, struct bounce_side *s,
                                   const struct win_slice *w)
{
    if (!s->deadline) {
        uint64_t now = arch_tsc_fenced();
        if (win_check(w, now, 0) != WIN_GO_ON)
            return WIN_WINDOW_END;
        s->deadline = now + pr->answer_wait_ticks;
    }
    enum win_state st = mp_wait_in(pr->flag, s->v + 1, s->deadline, w);
    if (st == WIN_GO_ON)
        s->deadline = 0;
    return st;
}

/* One window's share of answering: each odd value with the next even one, the lines modified
   before each read answer. Returns true while more remains. */
bool bounce_answer(void *arg)
{
    struct bounce_pair *pr = arg;
    struct bounce_side *s = &pr->answer;
    struct win_slice w;
    win_begin(&w, arch_tsc_fenced(), pr->window_ticks);
    if (pr->hang)
        bounce_hang(pr->ready);
    __atomic_store_n(pr->ready, 1, __ATOMIC_RELEASE);
    for (enum win_state st; s->phase != BOUNCE_END; s->v += 2) {
        if ((st = bounce_await(pr, s, &w)) != WIN_GO_ON || pr->failed)
            return st == WIN_WINDOW_END && !pr->failed;
        if (s->phase == BOUNCE_FINISH) {
            s->phase = BOUNCE_END;
            break;
        }
        if (s->phase == BOUNCE_READ) {
            void **p = pr->chain; /* rewrite every link as it is: each line modified here */
            for (uint64_t h = 0; h < pr->hops; h++) {
                void **next = (void **)*p;
                *(void *volatile *)p = next;
                p = next;
            }
        }
        __atomic_store_n(pr->flag, s->v + 2, __ATOMIC_RELEASE);
        uint64_t phase_len = s->phase == BOUNCE_READ ? pr->reps : pr->rounds * pr->reps;
        if (++s->i == phase_len) {
            s->phase = s->phase == BOUNCE_READ ? BOUNCE_FINISH : BOUNCE_READ;
            s->i = 0;
        }
    }
    return false;
}
