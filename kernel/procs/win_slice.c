// SPDX-License-Identifier: MIT
// Long work on a processor cut into windows of at most window_max_ms, with a deadline over all.
#include "procs/win_slice.h"

#define MS_PER_S 1000ULL

uint64_t win_ticks_of(uint64_t window_ms, uint64_t tsc_hz)
{
    return window_ms * tsc_hz / MS_PER_S;
}

void win_begin(struct win_slice *w, uint64_t now_tsc, uint64_t window_ticks)
{
    w->window_ticks = window_ticks;
    w->start_tsc = now_tsc;
    w->window_end_tsc =
        window_ticks && now_tsc <= UINT64_MAX - window_ticks ? now_tsc + window_ticks : UINT64_MAX;
}

enum win_state win_check(const struct win_slice *w, uint64_t now_tsc, uint64_t deadline_tsc)
{
    if (deadline_tsc && now_tsc > deadline_tsc)
        return WIN_DEADLINE;
    return now_tsc > w->window_end_tsc ? WIN_WINDOW_END : WIN_GO_ON;
}

uint64_t win_wait_until(const struct win_slice *w, uint64_t deadline_tsc)
{
    return deadline_tsc && deadline_tsc < w->window_end_tsc ? deadline_tsc : w->window_end_tsc;
}

bool win_fits(const struct win_slice *w, uint64_t now_tsc, uint64_t need_ticks)
{
    if (!w->window_ticks || need_ticks > w->window_ticks / 2)
        return true;
    return now_tsc <= w->window_end_tsc && need_ticks <= w->window_end_tsc - now_tsc;
}
