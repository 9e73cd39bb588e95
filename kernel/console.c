// SPDX-License-Identifier: MIT
// Console output that is also kept for console.txt.
#include "console.h"

#include "fmt.h"
#include "platform.h"

/* The log is output, not configuration: one per process, like the console itself. */
static struct strbuf console_log;

static void con_vprint(bool keep, const char *fmt, va_list ap)
{
    char small[512];
    va_list copy;
    va_copy(copy, ap);
    int n = kvsnprintf(small, sizeof(small), fmt, copy);
    va_end(copy);
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
