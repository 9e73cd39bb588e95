// SPDX-License-Identifier: MIT
// An experiment's verdict: adding its headline, lines and typed items, and reading them back.
#include "analysis/verdict.h"

#include <stdarg.h>

#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"

void verdict_line(struct verdict *v, const char *fmt, ...)
{
    if (v->nlines >= VERDICT_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(v->line[v->nlines++], VERDICT_CHARS, fmt, ap);
    va_end(ap);
}

void verdict_headline(struct verdict *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(v->headline, sizeof(v->headline), fmt, ap);
    va_end(ap);
}

/* A new item of type, or NULL when the verdict is full. */
static struct vitem *new_item(struct verdict *v, const char *name, enum vitem_type type,
                              const char *unit, const char *note)
{
    if (v->nitems >= VERDICT_ITEMS)
        return NULL;
    struct vitem *it = &v->item[v->nitems++];
    kmemset(it, 0, sizeof(*it));
    kstrlcpy(it->name, name, sizeof(it->name));
    kstrlcpy(it->unit, unit ? unit : "", sizeof(it->unit));
    kstrlcpy(it->note, note ? note : "", sizeof(it->note));
    it->type = type;
    it->value = KM_NAN;
    it->table = -1;
    return it;
}

void verdict_number(struct verdict *v, const char *name, double value, const char *unit,
                    const char *note)
{
    struct vitem *it = new_item(v, name, VITEM_NUMBER, unit, note);
    if (it)
        it->value = value;
}

void verdict_bool(struct verdict *v, const char *name, double truth, const char *note)
{
    struct vitem *it = new_item(v, name, VITEM_BOOL, NULL, note);
    if (it)
        it->value = kisfinite(truth) ? (truth != 0) : KM_NAN;
}

int verdict_table(struct verdict *v, const char *name, const char *note, const struct vcolumn *cols,
                  size_t ncols)
{
    if (v->ntables >= VERDICT_TABLES || ncols == 0 || ncols > VTABLE_COLS)
        return -1;
    struct vitem *it = new_item(v, name, VITEM_TABLE, NULL, note);
    if (!it)
        return -1;
    struct vtable *t = &v->table[v->ntables];
    kmemset(t, 0, sizeof(*t));
    t->ncols = ncols;
    for (size_t c = 0; c < ncols; c++) {
        kstrlcpy(t->name[c], cols[c].name, sizeof(t->name[c]));
        kstrlcpy(t->unit[c], cols[c].unit ? cols[c].unit : "", sizeof(t->unit[c]));
        t->text[c] = cols[c].text;
    }
    it->table = (int)v->ntables;
    return (int)v->ntables++;
}

int verdict_list(struct verdict *v, const char *name, const char *unit, const char *note)
{
    struct vcolumn col = {name, unit, false};
    int t = verdict_table(v, name, note, &col, 1);
    if (t >= 0) {
        v->item[v->nitems - 1].type = VITEM_LIST;
        kstrlcpy(v->item[v->nitems - 1].unit, unit ? unit : "", VITEM_UNIT_CHARS);
    }
    return t;
}

struct vcell *verdict_row(struct verdict *v, int t)
{
    if (t < 0 || (size_t)t >= v->ntables)
        return NULL;
    struct vtable *tb = &v->table[t];
    if ((tb->nrows + 1) * tb->ncols > VTABLE_CELLS)
        return NULL;
    struct vcell *row = &tb->cell[tb->nrows++ * tb->ncols];
    for (size_t c = 0; c < tb->ncols; c++) {
        row[c].num = KM_NAN;
        row[c].text[0] = 0;
    }
    return row;
}

void verdict_list_add(struct verdict *v, int t, double x)
{
    struct vcell *c = verdict_row(v, t);
    if (c)
        c->num = x;
}

void vcell_text(struct vcell *c, const char *text)
{
    kstrlcpy(c->text, text ? text : "", sizeof(c->text));
}

const struct vitem *verdict_find(const struct verdict *v, const char *name)
{
    for (size_t i = 0; i < v->nitems; i++)
        if (kstrcmp(v->item[i].name, name) == 0)
            return &v->item[i];
    return NULL;
}

double verdict_value(const struct verdict *v, const char *name)
{
    const struct vitem *it = verdict_find(v, name);
    return it && (it->type == VITEM_NUMBER || it->type == VITEM_BOOL) ? it->value : KM_NAN;
}

const struct vtable *verdict_item_table(const struct verdict *v, const struct vitem *it)
{
    if (!it || (it->type != VITEM_LIST && it->type != VITEM_TABLE) || it->table < 0 ||
        (size_t)it->table >= v->ntables)
        return NULL;
    return &v->table[it->table];
}

const struct vcell *vtable_cell(const struct vtable *t, size_t row, size_t col)
{
    return &t->cell[row * t->ncols + col];
}
