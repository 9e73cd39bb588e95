// SPDX-License-Identifier: MIT
// libFuzzer target: chase-report's reader of chase result folders (run.json and experiment CSVs)
// and the interpretation of what it read (kernel/analysis).
// The input is run.json's text, then any number of CSVs, each after a NUL byte and one byte
// naming its experiment ('0' random, '1' linear ... '8' tlb, modulo the experiment count).
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_report.h"
#include "inputs/input_run.h"
#include "inputs/source.h"

/* The readers get exactly the bytes of a part, so reading past its end is an ASan report. */
static char *copy_part(const uint8_t *p, size_t n)
{
    char *c = malloc(n ? n : 1);
    if (!c)
        abort();
    memcpy(c, p, n);
    return c;
}

static void load_table(struct source *s, const uint8_t *p, size_t n)
{
    if (n == 0)
        return;
    size_t e = (uint8_t)(p[0] - '0') % analysis_experiment_count();
    if (s->table[e])
        return; /* a folder has one file per experiment */
    char err[SOURCE_TEXT];
    char *text = copy_part(p + 1, n - 1);
    err[0] = 0;
    if (run_load_table(s, e, text, n - 1, err, sizeof(err)) != 0 && err[0] == 0)
        abort(); /* every failure says why */
    free(text);
}

/* The interpretation the console and chase-report share, on whatever the readers kept: it
 * must not crash, and its summary must be text. */
static void interpret(const struct source *s)
{
    struct an_result *r = malloc(sizeof(*r));
    struct an_input in = {.ncurves = s->ncurves, .curve = s->curve, .line_bytes = 64};
    if (!r)
        abort();
    for (size_t e = 0; e < EXP_COUNT; e++)
        in.table[e] = s->table[e];
    if (s->ncaches)
        in.llc_bytes = s->cache[s->ncaches - 1].size_bytes;
    analysis_run(&in, r);
    struct strbuf sb = {0};
    analysis_summary(&sb, &in, r);
    if (strlen(strbuf_str(&sb)) != sb.len)
        abort();
    strbuf_release(&sb);
    free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct source *s = calloc(1, sizeof(*s));
    if (!s)
        abort();
    snprintf(s->path, sizeof(s->path), "fuzz/0001");
    const uint8_t *end = data + size;
    const uint8_t *nul = memchr(data, 0, size);
    size_t json_len = nul ? (size_t)(nul - data) : size;
    char *json = copy_part(data, json_len);
    run_load_json(s, json, json_len);
    free(json);
    for (const uint8_t *p = nul ? nul + 1 : end; p < end;) {
        const uint8_t *next = memchr(p, 0, (size_t)(end - p));
        size_t n = next ? (size_t)(next - p) : (size_t)(end - p);
        load_table(s, p, n);
        p += n + 1;
    }
    fuzz_report_check(s);
    fuzz_report_finish(s);
    fuzz_report_check(s);
    interpret(s);
    source_free(s);
    free(s);
    return 0;
}
