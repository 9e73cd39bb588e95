// SPDX-License-Identifier: MIT
// Lines put in one coherence state in another processor's cache (modified, clean exclusive,
// shared by two) and read by a timing processor: the engine, the helper and home-node choices.
//
// How each state is made, and why it is that state. Every repetition takes a chunk of lines at
// twice the line size apart (an adjacent-line prefetcher fetching a line's pair would otherwise
// halve the transfers timed), linked in a random order; only the answerer and the helper touch
// them before the timer's walk.
//   modified: the answerer writes every line (it links the chain). A store needs the line alone:
//     every other copy is invalidated, and the line is dirty in the answerer's cache: M in
//     MESI, MESIF and MOESI, Arm's UniqueDirty. The timer's read is a HITM.
//   exclusive: the answerer writes the lines, flushes each from every cache of the machine
//     (CLFLUSH; Arm DC CIVAC to the point of coherency: written back, invalid everywhere), then
//     reads each. A read no other cache can answer is granted the line alone and clean: E in
//     MESI, MESIF and MOESI, Arm's UniqueClean. The timer's read finds it clean in the answerer
//     (Intel's L3 or snoop filter still sends the request there: the core may have written it
//     silently); on some parts the memory or the L3 answers instead, which is the finding.
//   shared: as exclusive, then a helper (a third processor) reads each line too. The second
//     reader's request downgrades the answerer's copy: the line is clean in two caches, S in
//     MESI and MOESI (both S, or the answerer's E handed on as S), S and F in MESIF (the last
//     reader, the helper, holds F: Intel forwards from it), Arm's SharedClean. The timer's read
//     is the third.
// The line's home (the node whose memory holds it) is where the area lies: the caller's choice.
#include "procs/linestate.h"

#include "arch/cpu.h"
#include "chase/chain.h"
#include "lib/rng.h"

static const char *const ls_names[LS_STATES] = {"modified", "exclusive", "shared"};

const char *ls_state_name(enum ls_state s)
{
    return s < LS_STATES ? ls_names[s] : "?";
}

/* The chunk repetition rep uses, its lines at base + perm[i] * stride. */
static uint8_t *ls_chunk(const struct ls_run *r, uint64_t rep)
{
    uint64_t chunk = r->lines * r->stride, n = r->area->bytes / chunk;
    uint64_t k = (r->first_chunk + (r->fresh ? rep : 0)) % (n ? n : 1);
    return r->area->base + k * chunk;
}

static void **ls_line(const struct ls_run *r, uint8_t *chunk, uint64_t i)
{
    return (void **)(chunk + (uint64_t)r->perm[i % r->lines] * r->stride);
}

void ls_order_random(uint32_t *perm, uint64_t n, uint64_t seed)
{
    struct rng g;
    rng_seed(&g, seed);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = (uint32_t)rng_below(&g, i + 1);
        perm[i] = perm[j];
        perm[j] = i;
    }
}

void ls_begin(struct ls_run *r, enum ls_state s)
{
    r->state = s;
    r->failed = false;
    r->timer = r->answer = r->helper = (struct ls_side){0};
    r->first_chunk = r->area->cursor;
    *r->ctl = 0;
}

void ls_end(struct ls_run *r)
{
    if (r->fresh)
        r->area->cursor += r->reps;
}

/* The control values of repetition rep: set it up, the helper's turn, ready to time. */
static inline uint64_t ls_ask(uint64_t rep)
{
    return 4 * rep + 1;
}
static inline uint64_t ls_helper_turn(uint64_t rep)
{
    return 4 * rep + 2;
}
static inline uint64_t ls_ready(uint64_t rep)
{
    return 4 * rep + 3;
}

/* Wait in window w for *ctl == value (the deadline set at the wait's start); WIN_DEADLINE marks
   the measurement failed. */
static enum win_state ls_wait(struct ls_run *r, struct ls_side *s, uint64_t value,
                              const struct win_slice *w)
{
    if (!s->deadline) {
        uint64_t now = arch_tsc_fenced();
        if (win_check(w, now, 0) != WIN_GO_ON)
            return WIN_WINDOW_END;
        s->deadline = now + r->wait_ticks;
    }
    enum win_state st = mp_wait_in(r->ctl, value, s->deadline, w);
    if (st == WIN_DEADLINE)
        r->failed = true;
    if (st == WIN_GO_ON)
        s->deadline = 0;
    return st;
}

bool ls_timer(void *arg)
{
    struct ls_run *r = arg;
    struct ls_side *s = &r->timer;
    struct win_slice w;
    win_begin(&w, arch_tsc_fenced(), r->window_ticks);
    for (; s->r < r->reps; s->r++, s->requested = false) {
        if (!s->requested) {
            if (win_check(&w, arch_tsc_fenced(), 0) != WIN_GO_ON)
                return true;
            __atomic_store_n(r->ctl, ls_ask(s->r), __ATOMIC_RELEASE);
            s->requested = true;
        }
        enum win_state st = ls_wait(r, s, ls_ready(s->r), &w);
        if (st != WIN_GO_ON || r->failed)
            return st == WIN_WINDOW_END && !r->failed;
        if (!win_fits(&w, arch_tsc_fenced(), s->work_ticks))
            return true; /* the lines wait in the answerer's cache for the next window */
        void **first = ls_line(r, ls_chunk(r, s->r), 0);
        uint64_t t0 = arch_tsc_fenced();
        r->sink = chain_walk(first, r->lines);
        r->ticks[s->r] = s->work_ticks = arch_tsc_fenced() - t0;
    }
    return false;
}

/* The answerer's set-up of repetition rep's chunk (the file's comment says why each state). */
static void ls_set_up(struct ls_run *r, uint64_t rep)
{
    uint8_t *chunk = ls_chunk(r, rep);
    for (uint64_t i = 0; i < r->lines; i++)
        *(void *volatile *)ls_line(r, chunk, i) = ls_line(r, chunk, i + 1);
    if (r->state == LS_MODIFIED)
        return;
    for (uint64_t i = 0; i < r->lines; i++)
        arch_line_flush(ls_line(r, chunk, i));
    void *last = NULL;
    for (uint64_t i = 0; i < r->lines; i++)
        last = *(void *volatile *)ls_line(r, chunk, i);
    r->sink = last;
}

/* The answerer's or the helper's loop: wait for `turn`, do `work`, hand on with `next`. */
static bool ls_serve(struct ls_run *r, struct ls_side *s, bool helper)
{
    struct win_slice w;
    win_begin(&w, arch_tsc_fenced(), r->window_ticks);
    for (; s->r < r->reps; s->r++) {
        uint64_t turn = helper ? ls_helper_turn(s->r) : ls_ask(s->r);
        enum win_state st = ls_wait(r, s, turn, &w);
        if (st != WIN_GO_ON || r->failed)
            return st == WIN_WINDOW_END && !r->failed;
        uint64_t t0 = arch_tsc_fenced();
        if (!win_fits(&w, t0, s->work_ticks))
            return true;
        if (helper) {
            uint8_t *chunk = ls_chunk(r, s->r);
            void *last = NULL;
            for (uint64_t i = 0; i < r->lines; i++)
                last = *(void *volatile *)ls_line(r, chunk, i);
            r->sink = last;
        } else {
            ls_set_up(r, s->r);
        }
        s->work_ticks = arch_tsc_fenced() - t0;
        bool next_helper = !helper && r->state == LS_SHARED;
        __atomic_store_n(r->ctl, next_helper ? ls_helper_turn(s->r) : ls_ready(s->r),
                         __ATOMIC_RELEASE);
    }
    return false;
}

bool ls_answer(void *arg)
{
    struct ls_run *r = arg;
    return ls_serve(r, &r->answer, false);
}

bool ls_helper(void *arg)
{
    struct ls_run *r = arg;
    return ls_serve(r, &r->helper, true);
}

int ls_helper_pick(const struct mp_cpu *cpus, unsigned n, unsigned a, unsigned b)
{
    int best = -1, best_rank = 3;
    for (unsigned i = 0; i < n; i++) {
        if (i == a || i == b || cpus[i].p.lost)
            continue;
        int rank =
            cpus[i].groups_known && cpus[b].groups_known && cpus[i].l3_group == cpus[b].l3_group ? 0
            : cpus[i].p.package == cpus[b].p.package                                             ? 1
                                                     : 2;
        if (rank < best_rank) {
            best = (int)i;
            best_rank = rank;
        }
    }
    return best;
}

int ls_home_other(unsigned nnodes, const bool *has_mem, const uint8_t *dist, unsigned na,
                  unsigned nb, unsigned buffer_node)
{
    if (buffer_node != na && buffer_node != nb)
        return -1; /* the buffer is away from both already */
    int best = -1;
    for (unsigned i = 0; i < nnodes; i++) {
        if (i == na || i == nb || !has_mem[i])
            continue;
        if (best < 0 ||
            (dist && na < nnodes && dist[na * nnodes + i] < dist[na * nnodes + (unsigned)best]))
            best = (int)i;
    }
    return best;
}
