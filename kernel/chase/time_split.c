// SPDX-License-Identifier: MIT
// Where the wall time of a point and of an experiment goes: timed chasing and all around it.
#include "chase/time_split.h"

uint64_t time_split_total(const struct time_split *s)
{
    return s->build + s->warm + s->timed + s->bookkeeping + s->output + s->other;
}

double time_split_timed_fraction(const struct time_split *s)
{
    uint64_t total = time_split_total(s);
    return total ? (double)s->timed / (double)total : 0;
}

double time_split_tick_share(const struct time_split *s, uint64_t regions)
{
    return s->timed && regions ? (double)regions / (double)s->timed : 0;
}

void time_split_measured(struct time_split *s, uint64_t span, uint64_t warm, uint64_t timed)
{
    s->warm = warm;
    s->timed = timed;
    s->bookkeeping = span > warm + timed ? span - warm - timed : 0;
}

void time_split_add(struct time_split *sum, const struct time_split *s)
{
    sum->build += s->build;
    sum->warm += s->warm;
    sum->timed += s->timed;
    sum->bookkeeping += s->bookkeeping;
    sum->output += s->output;
    sum->other += s->other;
}

void time_split_close(struct time_split *s, uint64_t wall_ticks)
{
    uint64_t counted = time_split_total(s);
    if (wall_ticks > counted)
        s->other += wall_ticks - counted;
}
