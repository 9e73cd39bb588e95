// SPDX-License-Identifier: MIT
// Console output that is also kept for console.txt, and the progress line of long experiments.
#include "lib/console.h"

#include "lib/fmt.h"
#include "platform.h"

/* The log is output, not configuration: one per process, like the console itself. */
static struct strbuf console_log;
/* Width of the progress line now on the screen (0: none), so kept text can erase it first. */
static unsigned transient_width;

#define PROGRESS_LINE_MAX 100

static void erase_transient(void)
{
    char blank[PROGRESS_LINE_MAX + 3];
    unsigned n = transient_width < PROGRESS_LINE_MAX ? transient_width : PROGRESS_LINE_MAX;
    if (!transient_width)
        return;
    blank[0] = '\r';
    for (unsigned i = 0; i < n; i++)
        blank[1 + i] = ' ';
    blank[1 + n] = '\r';
    blank[2 + n] = 0;
    plat_console_write(blank);
    transient_width = 0;
}

static void con_vprint(bool keep, const char *fmt, va_list ap)
{
    char small[512];
    va_list copy;
    va_copy(copy, ap);
    int n = kvsnprintf(small, sizeof(small), fmt, copy);
    va_end(copy);
    erase_transient();
    if (n < (int)sizeof(small)) {
        plat_console_write(small);
        if (keep)
            strbuf_puts(&console_log, small);
        return;
    }
    struct strbuf big = {0};
    strbuf_vprintf(&big, fmt, ap);
    plat_console_write(strbuf_str(&big));
    if (keep)
        strbuf_puts(&console_log, strbuf_str(&big));
    strbuf_release(&big);
}

void con_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    con_vprint(true, fmt, ap);
    va_end(ap);
}

void con_transient(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    con_vprint(false, fmt, ap);
    va_end(ap);
}

const struct strbuf *con_log(void)
{
    return &console_log;
}

void con_log_reset(void)
{
    strbuf_release(&console_log);
}

void con_format_duration(char *buf, unsigned long cap, double seconds)
{
    unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;
    if (s < 60)
        ksnprintf(buf, cap, "%lus", s);
    else if (s < 3600)
        ksnprintf(buf, cap, "%lum%02lus", s / 60, s % 60);
    else
        ksnprintf(buf, cap, "%luh%02lum", s / 3600, s / 60 % 60);
}

void con_progress_begin(struct con_progress *p, unsigned points, double total_work,
                        uint64_t now_ticks, uint64_t tsc_hz)
{
    p->tsc_hz = tsc_hz ? tsc_hz : 1;
    p->start_ticks = now_ticks;
    p->shown_ticks = now_ticks;
    p->total_work = total_work > 0 ? total_work : 1;
    p->done_work = 0;
    p->points = points;
    p->done_points = 0;
    p->unit = NULL;
}

void con_progress_step(struct con_progress *p, double work, uint64_t now_ticks)
{
    p->done_work += work;
    p->done_points++;
    double elapsed = (double)(now_ticks - p->start_ticks) / (double)p->tsc_hz;
    double since = (double)(now_ticks - p->shown_ticks) / (double)p->tsc_hz;
    if (elapsed < CON_PROGRESS_AFTER_S || since < CON_PROGRESS_EVERY_S ||
        p->done_points >= p->points)
        return;
    double share = p->done_work / p->total_work;
    share = share > 0.99 ? 0.99 : share;
    char left[24], line[PROGRESS_LINE_MAX];
    con_format_duration(left, sizeof(left), share > 0 ? elapsed * (1 - share) / share : 0);
    int n = ksnprintf(line, sizeof(line), "  [%3u%%] %u of %u %s, about %s left",
                      (unsigned)(share * 100), p->done_points, p->points,
                      p->unit ? p->unit : "points", left);
    erase_transient();
    plat_console_write(line);
    transient_width = n > 0 && n < PROGRESS_LINE_MAX ? (unsigned)n : PROGRESS_LINE_MAX - 1;
    p->shown_ticks = now_ticks;
}

void con_progress_end(struct con_progress *p)
{
    (void)p;
    erase_transient();
}
