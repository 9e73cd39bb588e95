// SPDX-License-Identifier: MIT
// The serial log: machine-readable key=value lines for each finished point and summary item.
#include "lib/slog.h"

#include <stdarg.h>

#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform.h"

#define SLOG_FIELDS_MAX 128 /* CSV columns turned into keys */

/* One run's log: a run has one, as it has one console. */
static struct {
    bool on;
    char run_id[64];
    char exp[32];
    size_t sent;     /* bytes of the current experiment's CSV already written */
    unsigned row;    /* rows of it written */
    uint64_t lines;  /* lines written this run */
    uint64_t points; /* kind=point lines this run */
} slog;

static struct strbuf line;

static void emit(void)
{
    if (line.len > SLOG_LINE_MAX) {
        line.len = SLOG_LINE_MAX;
        strbuf_puts(&line, " cut=1");
    }
    strbuf_puts(&line, "\r\n");
    if (!plat_serial_write(strbuf_str(&line)))
        slog.on = false; /* the port went away: stop rather than fail each line */
    else
        slog.lines++;
    strbuf_reset(&line);
}

static void start(const char *kind)
{
    strbuf_reset(&line);
    strbuf_printf(&line, "%s run=%s kind=%s", SLOG_PREFIX, slog.run_id, kind);
}

static bool needs_quotes(const char *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == ' ' || v[i] == '"' || v[i] == '=' || v[i] == '\\' || v[i] == '\t')
            return true;
    return false;
}

/* Append " key=value" with the value's n bytes quoted where needed. */
static void field(const char *key, size_t klen, const char *v, size_t n)
{
    strbuf_puts(&line, " ");
    strbuf_append(&line, key, klen);
    strbuf_puts(&line, "=");
    if (!needs_quotes(v, n)) {
        strbuf_append(&line, v, n);
        return;
    }
    strbuf_puts(&line, "\"");
    for (size_t i = 0; i < n; i++) {
        if (v[i] == '"' || v[i] == '\\')
            strbuf_puts(&line, "\\");
        strbuf_append(&line, &v[i], 1);
    }
    strbuf_puts(&line, "\"");
}

bool slog_begin(bool on, const char *run_id, const char *start_time, const char *version,
                const char *platform)
{
    kmemset(&slog, 0, sizeof(slog));
    strbuf_reset(&line);
    if (!on)
        return true;
    kstrlcpy(slog.run_id, run_id, sizeof(slog.run_id));
    slog.on = true;
    start("run");
    field("version", 7, version, kstrlen(version));
    field("platform", 8, platform, kstrlen(platform));
    field("start", 5, start_time ? start_time : "", start_time ? kstrlen(start_time) : 0);
    emit();
    if (slog.on)
        con_printf("serial log: on, run id %s (machine-readable lines on the serial port)\n",
                   slog.run_id);
    else
        con_printf("serial log: on, but there is no serial port here: no lines written\n");
    return slog.on;
}

bool slog_active(void)
{
    return slog.on;
}

const char *slog_run_id(void)
{
    return slog.run_id;
}

uint64_t slog_lines(void)
{
    return slog.lines;
}

void slog_experiment(const char *name)
{
    kstrlcpy(slog.exp, name, sizeof(slog.exp));
    slog.sent = 0;
    slog.row = 0;
}

/* The length of the line at p (up to '\n' or end), or -1 when it has no '\n' yet. */
static long line_len(const char *p, const char *end)
{
    for (const char *q = p; q < end; q++)
        if (*q == '\n')
            return (long)(q - p);
    return -1;
}

/* Split [p, p + n) at commas into at most max cells; returns how many. */
static unsigned cells(const char *p, size_t n, const char **cell, size_t *len, unsigned max)
{
    unsigned k = 0;
    size_t from = 0;
    for (size_t i = 0; i <= n && k < max; i++) {
        if (i == n || p[i] == ',') {
            size_t l = i - from;
            if (l && p[from + l - 1] == '\r')
                l--;
            cell[k] = p + from;
            len[k++] = l;
            from = i + 1;
        }
    }
    return k;
}

static void row_line(const char *hdr, size_t hlen, const char *row, size_t rlen)
{
    const char *key[SLOG_FIELDS_MAX], *val[SLOG_FIELDS_MAX];
    size_t klen[SLOG_FIELDS_MAX], vlen[SLOG_FIELDS_MAX];
    unsigned nk = cells(hdr, hlen, key, klen, SLOG_FIELDS_MAX);
    unsigned nv = cells(row, rlen, val, vlen, SLOG_FIELDS_MAX);
    start("point");
    field("exp", 3, slog.exp, kstrlen(slog.exp));
    char n[16];
    ksnprintf(n, sizeof(n), "%u", slog.row);
    field("row", 3, n, kstrlen(n));
    for (unsigned i = 0; i < nk && i < nv; i++)
        field(key[i], klen[i], val[i], vlen[i]);
    emit();
    slog.points++;
}

void slog_rows(const struct strbuf *csv)
{
    if (!slog.on || !csv)
        return;
    const char *text = strbuf_str(csv), *end = text + csv->len;
    long hlen = line_len(text, end);
    if (hlen < 0)
        return; /* no header yet */
    size_t pos = slog.sent > (size_t)hlen ? slog.sent : (size_t)hlen + 1;
    while (slog.on && pos < csv->len) {
        long rlen = line_len(text + pos, end);
        if (rlen < 0)
            break; /* a row not finished yet */
        if (rlen > 0 && text[pos] != '#') {
            row_line(text, (size_t)hlen, text + pos, (size_t)rlen);
            slog.row++;
        }
        pos += (size_t)rlen + 1;
    }
    slog.sent = pos;
}

void slog_summary(const char *item, const char *fmt, ...)
{
    if (!slog.on)
        return;
    start("summary");
    field("item", 4, item, kstrlen(item));
    strbuf_puts(&line, " ");
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(&line, fmt, ap);
    va_end(ap);
    emit();
}

void slog_end(const char *status)
{
    if (slog.on) {
        start("end");
        field("status", 6, status, kstrlen(status));
        char n[24];
        ksnprintf(n, sizeof(n), "%llu", (unsigned long long)slog.points);
        field("points", 6, n, kstrlen(n));
        emit();
    }
    slog.on = false;
    strbuf_release(&line);
}
