// SPDX-License-Identifier: MIT
// Stalls in time: DRAM refresh (a DRAM load waits out a refresh in progress) and SMIs.
#include "sim_stalls.h"

#include <stdio.h>
#include <string.h>

/* One time: a decimal number, then ns, us or ms; len bytes at s. */
static bool parse_time_ns(const char *s, size_t len, double *ns)
{
    double v = 0, scale = 0;
    size_t i = 0, digits = 0;
    for (; i < len && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); i++) {
        if (s[i] == '.') {
            if (scale)
                return false;
            scale = 1;
            continue;
        }
        v = v * 10 + (s[i] - '0');
        scale *= 10;
        digits++;
    }
    if (!digits || digits > 12 || len - i != 2)
        return false;
    v /= scale ? scale : 1;
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}};
    for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
        if (!strncmp(s + i, units[u].unit, 2)) {
            *ns = v * units[u].ns;
            return true;
        }
    return false;
}

bool sim_stall_parse(const char *s, size_t len, struct sim_stall *out)
{
    const char *slash = memchr(s, '/', len);
    struct sim_stall st;
    if (!slash || !parse_time_ns(s, (size_t)(slash - s), &st.period_ns) ||
        !parse_time_ns(slash + 1, len - (size_t)(slash - s) - 1, &st.stall_ns))
        return false;
    if (!(st.stall_ns > 0 && st.stall_ns < st.period_ns))
        return false;
    *out = st;
    return true;
}

void sim_stall_format(const struct sim_stall *st, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.10gns/%.10gns", st->period_ns, st->stall_ns);
}

void sim_clock_set(struct sim_clock *c, const struct sim_stall *refresh,
                   const struct sim_stall *smi, double ghz, unsigned dram_cycles)
{
    memset(c, 0, sizeof(*c));
    c->cycles_per_ns = ghz;
    c->refresh_period_c = refresh->period_ns * ghz;
    c->refresh_stall_c = refresh->stall_ns * ghz;
    c->refresh_late_c = dram_cycles;
    c->smi_period_c = smi->period_ns * ghz;
    c->smi_stall_c = smi->stall_ns * ghz;
}

/* Where t lies in the current period p (t >= 0). */
static double phase(double t, double p)
{
    return t - (double)(uint64_t)(t / p) * p;
}

/* When refresh k starts: k periods, and its delay (splitmix64 of k, as a share of late_c). */
static double refresh_start(const struct sim_clock *c, uint64_t k)
{
    uint64_t z = k + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)k * c->refresh_period_c + (double)(z >> 11) * 0x1p-53 * c->refresh_late_c;
}

/* The cycles a DRAM load issued now waits for a refresh in progress (this period's or, when
 * it started late, the one before). */
static double refresh_wait(struct sim_clock *c)
{
    uint64_t k = (uint64_t)(c->now_cycles / c->refresh_period_c);
    for (uint64_t j = k + 1; j-- > (k ? k - 1 : 0);) {
        double s = refresh_start(c, j);
        if (c->now_cycles >= s && c->now_cycles < s + c->refresh_stall_c) {
            c->refreshes_met++;
            return s + c->refresh_stall_c - c->now_cycles;
        }
    }
    return 0;
}

unsigned sim_clock_load(struct sim_clock *c, unsigned cycles, bool dram)
{
    double extra = 0;
    if (dram && c->refresh_period_c > 0)
        extra += refresh_wait(c);
    if (c->smi_period_c > 0 &&
        phase(c->now_cycles, c->smi_period_c) + cycles + extra >= c->smi_period_c) {
        extra += c->smi_stall_c;
        c->smis++;
    }
    unsigned total = cycles + (unsigned)(extra + 0.5);
    c->now_cycles += total;
    return total;
}
