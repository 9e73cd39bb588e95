// SPDX-License-Identifier: MIT
// libFuzzer target: chase-report's readers of other tools' text output (lmbench lat_mem_rd,
// random-chase, tinymembench, multichase -v), through the format sniffing and each on its own,
// and of one chase experiment CSV given on its own (named after the input's length).
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_report.h"
#include "inputs/load.h"
#include "inputs/readers.h"
#include "inputs/source.h"

/* Run one reader (NULL: pick by name and shape) on a fresh source and check what it left. */
static void run_reader(const char *name, const char *text, size_t len,
                       int (*parse)(const char *text, size_t len, struct source *s, char *err,
                                    size_t cap))
{
    struct source *s = calloc(1, sizeof(*s));
    char err[SOURCE_TEXT];
    if (!s)
        abort();
    snprintf(s->path, sizeof(s->path), "fuzz/%s", name);
    err[0] = 0;
    int rc = parse ? parse(text, len, s, err, sizeof(err))
                   : source_load_text(s, text, len, err, sizeof(err));
    if (rc != 0 && err[0] == 0)
        abort(); /* every failure says why */
    fuzz_report_check(s);
    if (rc == 0) {
        fuzz_report_finish(s);
        fuzz_report_check(s);
    }
    source_free(s);
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Exactly size bytes, no terminator: a read past the end is an ASan report. */
    char *text = malloc(size ? size : 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    /* As chase-report does: recognise the format by shape, then read it. */
    run_reader("output.txt", text, size, NULL);
    /* And every reader on every input, so each sees what the sniffing would send elsewhere. */
    for (const struct reader *r = readers; r->name; r++)
        run_reader("output.txt", text, size, r->parse);
    /* A CSV named after an experiment (or after none: "notes.csv" is refused). */
    char csv_name[32];
    const char *exp = exp_name(size % (analysis_experiment_count() + 1));
    snprintf(csv_name, sizeof(csv_name), "%s.csv", exp ? exp : "notes");
    run_reader(csv_name, text, size, NULL);
    free(text);
    return 0;
}
