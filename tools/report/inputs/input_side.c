// SPDX-License-Identifier: MIT
// An experiment's side files in a run folder: its histogram (<exp>.hist.csv) and its time series
// of slow batches (<exp>.samples.csv), each kept when it has the columns the report reads, and
// the second table its verdict reads (<exp>.<side_table>.csv).
#include "inputs/input_side.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/rbounds.h"
#include "inputs/rtext.h"

/* The longest header line looked at before a side file is read whole. */
#define SIDE_HEADER_CHARS 512

static const char *const side_suffix[SIDE_KINDS] = {
    [SIDE_HIST] = ".hist.csv", [SIDE_SAMPLES] = ".samples.csv"};

/* Whether the header line names every column of cols (n of them): another experiment's samples
 * file has other columns, and is left unread. */
static bool header_fits(const char *path, const char *const *cols, size_t n)
{
    char line[SIDE_HEADER_CHARS];
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return false;
    bool ok = fgets(line, sizeof(line), fp) != NULL;
    fclose(fp);
    line[strcspn(line, "\r\n")] = 0;
    for (size_t c = 0; ok && c < n; c++) {
        bool found = false;
        for (char *tok = line, *end; cols[c] && !found && tok; tok = end ? end + 1 : NULL) {
            end = strchr(tok, ',');
            size_t len = end ? (size_t)(end - tok) : strlen(tok);
            found = len == strlen(cols[c]) && strncmp(tok, cols[c], len) == 0;
        }
        ok = found;
    }
    return ok;
}

static struct csv *side_read(struct source *s, const char *path, const char *file)
{
    struct rtext t;
    char err[SOURCE_TEXT];
    struct csv *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    if (rtext_read(path, &t, err, sizeof(err)) != 0) {
        source_warn(s, "%s", err);
        free(c);
        return NULL;
    }
    int rc = csv_parse(t.data, t.len, c, err, sizeof(err));
    rtext_free(&t);
    if (rc != 0) {
        source_warn(s, "%s: %s: skipped", file, err);
        free(c);
        return NULL;
    }
    rbounds_csv(s, file, c);
    return c;
}

/* The second table its verdict reads (<exp>.<side_table>.csv), whatever its columns. */
static void load_side_table(struct source *s, size_t e)
{
    const char *suffix = analysis_experiment(e)->side_table;
    char file[96], path[4300];
    if (!suffix)
        return;
    snprintf(file, sizeof(file), "%s.%s.csv", exp_name(e), suffix);
    snprintf(path, sizeof(path), "%s/%s", s->path, file);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return;
    fclose(fp);
    if (s->side[e][SIDE_TABLE]) {
        csv_free(s->side[e][SIDE_TABLE]);
        free(s->side[e][SIDE_TABLE]);
    }
    s->side[e][SIDE_TABLE] = side_read(s, path, file);
}

void run_load_sides(struct source *s, size_t e)
{
    const struct an_dist *x = analysis_experiment(e)->dist;
    load_side_table(s, e);
    if (!x)
        return;
    const char *const cols[SIDE_KINDS][4] = {
        [SIDE_HIST] = {x->size, x->bin_low, x->bin_high, x->count},
        [SIDE_SAMPLES] = {x->size, x->time_us, x->excess_ns, x->size},
    };
    for (size_t k = 0; k < SIDE_TABLE; k++) {
        char file[96], path[4300];
        snprintf(file, sizeof(file), "%s%s", exp_name(e), side_suffix[k]);
        snprintf(path, sizeof(path), "%s/%s", s->path, file);
        if (!header_fits(path, cols[k], 4))
            continue;
        if (s->side[e][k]) {
            csv_free(s->side[e][k]);
            free(s->side[e][k]);
        }
        s->side[e][k] = side_read(s, path, file);
    }
}
