// SPDX-License-Identifier: MIT
// A verdict's typed items in JSON and Markdown, for any experiment (analysis/verdict.h).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/fmt.h"
#include "lib/json.h"
#include "outputs/output.h"

/* Digits after the point of a number in JSON: none for a whole number or bytes; four for the
 * rest (ratios of two latencies differ in the third). */
static int item_decimals(const char *unit, double x)
{
    return strcmp(unit, "bytes") == 0 || x == floor(x) ? 0 : 4;
}

static void cell_json(struct json *j, const char *key, const struct vtable *t,
                      const struct vcell *c, size_t col)
{
    if (t->text[col])
        json_string(j, key, c->text);
    else
        json_double(j, key, c->num, item_decimals(t->unit[col], c->num));
}

static void table_json(struct json *j, const struct vitem *it, const struct vtable *t)
{
    json_array_begin(j, it->name);
    for (size_t r = 0; r < t->nrows; r++) {
        if (it->type == VITEM_LIST) {
            cell_json(j, NULL, t, vtable_cell(t, r, 0), 0);
            continue;
        }
        json_object_begin(j, NULL);
        for (size_t c = 0; c < t->ncols; c++)
            cell_json(j, t->name[c], t, vtable_cell(t, r, c), c);
        json_object_end(j);
    }
    json_array_end(j);
}

/* Whether any item has a unit (or, with notes, a note): the units and notes objects. */
static bool any_meta(const struct verdict *v, bool notes)
{
    for (size_t i = 0; i < v->nitems; i++)
        if ((notes ? v->item[i].note : v->item[i].unit)[0])
            return true;
    return false;
}

void verdict_items_json(struct json *j, const struct verdict *v)
{
    for (size_t i = 0; i < v->nitems; i++) {
        const struct vitem *it = &v->item[i];
        const struct vtable *t = verdict_item_table(v, it);
        if (t)
            table_json(j, it, t);
        else if (it->type == VITEM_BOOL && !isnan(it->value))
            json_bool(j, it->name, it->value != 0);
        else
            json_double(j, it->name, it->value, item_decimals(it->unit, it->value));
    }
    for (int notes = 0; notes < 2; notes++) {
        if (!any_meta(v, notes))
            continue;
        json_object_begin(j, notes ? "notes" : "units");
        for (size_t i = 0; i < v->nitems; i++) {
            const char *s = notes ? v->item[i].note : v->item[i].unit;
            if (s[0])
                json_string(j, v->item[i].name, s);
        }
        json_object_end(j);
    }
}

/* A number as people read it: a size in bytes as fmt_size writes it, else %.4g; "-" when
 * unknown. */
static void md_number(FILE *f, double x, const char *unit)
{
    char sz[32];
    if (isnan(x)) {
        fprintf(f, "-");
    } else if (strcmp(unit, "bytes") == 0) {
        fmt_size(sz, sizeof(sz), x);
        fprintf(f, "%s", sz);
    } else {
        fprintf(f, "%.4g", x);
    }
}

static void table_md(FILE *f, const struct vitem *it, const struct vtable *t)
{
    fprintf(f, "\n%s%s%s:\n\n|", it->name, it->note[0] ? ", " : "", it->note);
    for (size_t c = 0; c < t->ncols; c++)
        fprintf(f, " %s |", t->name[c]);
    fprintf(f, "\n|");
    for (size_t c = 0; c < t->ncols; c++)
        fprintf(f, "---|");
    for (size_t r = 0; r < t->nrows; r++) {
        fprintf(f, "\n|");
        for (size_t c = 0; c < t->ncols; c++) {
            const struct vcell *cl = vtable_cell(t, r, c);
            fprintf(f, " ");
            if (t->text[c])
                fprintf(f, "%s", cl->text);
            else
                md_number(f, cl->num, t->unit[c]);
            fprintf(f, " |");
        }
    }
    fprintf(f, "\n\n");
}

void verdict_items_md(FILE *f, const struct verdict *v, const char *shown)
{
    bool head = false;
    for (size_t i = 0; i < v->nitems; i++) {
        const struct vitem *it = &v->item[i];
        if (it->type == VITEM_TABLE)
            continue;
        if (!head)
            fprintf(f, "| item (--json) | value | unit | what |\n|---|---|---|---|\n");
        head = true;
        fprintf(f, "| %s | ", it->name);
        const struct vtable *t = verdict_item_table(v, it);
        if (it->type == VITEM_BOOL)
            fprintf(f, "%s", isnan(it->value) ? "cannot tell" : it->value ? "true" : "false");
        for (size_t r = 0; t && r < t->nrows; r++) {
            fprintf(f, "%s", r ? ", " : "");
            md_number(f, vtable_cell(t, r, 0)->num, it->unit);
        }
        if (it->type == VITEM_NUMBER)
            md_number(f, it->value, it->unit);
        fprintf(f, " | %s | %s |\n", it->unit, it->note);
    }
    for (size_t i = 0; i < v->nitems; i++) {
        const struct vitem *it = &v->item[i];
        if (it->type != VITEM_TABLE || !verdict_item_table(v, it))
            continue;
        if (shown && strcmp(it->name, shown) == 0)
            fprintf(f, "\n%s%s%s: the distribution's table above (the same rows).\n\n", it->name,
                    it->note[0] ? ", " : "", it->note);
        else
            table_md(f, it, verdict_item_table(v, it));
    }
    if (head)
        fprintf(f, "\n");
}
