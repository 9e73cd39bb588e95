// SPDX-License-Identifier: MIT
// An experiment's verdict: a headline, Markdown lines and a list of typed items.
//
// How an experiment adds its items: its analysis file (kernel/analysis/<name>.c) fills them in
// its judge function, and nothing else names them. chase-report --json prints each item as
// verdicts.<experiment>.<item name> (a number, true/false/null, a list of numbers or a list of
// records), its unit under verdicts.<experiment>.units and its note under .notes; report.md
// lists them under the verdict. For example:
//
//     verdict_number(v, "example_ns", ns, "ns", "what the number is");
//     verdict_bool(v, "example_true", ratio > LIMIT, "what the truth says (NaN: cannot tell)");
//     static const struct vcolumn cols[] = {{"level", "", true}, {"read_gbs", "GB/s", false}};
//     int t = verdict_table(v, "rows", "one row per cache level", cols, 2);
//     struct vcell *row = verdict_row(v, t);  /* NULL when full: fill nothing */
//     if (row) { vcell_text(&row[0], "L1"); row[1].num = 123.4; }
//
// Item names are JSON keys: lower case with underscores, the unit last (size_bytes, read_gbs).
#ifndef CHASE_VERDICT_H
#define CHASE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#define VERDICT_LINES 40
#define VERDICT_ITEMS 24
#define VERDICT_CHARS 240
#define VITEM_NAME_CHARS 48
#define VITEM_UNIT_CHARS 16
#define VITEM_NOTE_CHARS 120
/* Lists and tables of one verdict (the tlb steps and bandwidth's levels are the largest). */
#define VERDICT_TABLES 3
#define VTABLE_COLS 10   /* tail's percentiles: level, size, five of them, slow, stalls, page */
#define VTABLE_CELLS 240 /* rows x columns of one table: 32 rows of 7, 24 of 10 */
#define VCELL_TEXT 16

enum vitem_type {
    VITEM_NUMBER, /* value; NaN: unknown (null) */
    VITEM_BOOL,   /* value 1 true, 0 false, NaN: the data cannot tell (null) */
    VITEM_LIST,   /* a list of numbers: the one column of table[table] */
    VITEM_TABLE,  /* a list of records: the rows of table[table] */
};

/* A column of a table: its name (the record's key), unit, and whether its cells are text. */
struct vcolumn {
    const char *name;
    const char *unit;
    bool text;
};

/* One cell: a number (NaN: null) or, in a text column, text. */
struct vcell {
    double num;
    char text[VCELL_TEXT];
};

struct vtable {
    size_t ncols, nrows;
    char name[VTABLE_COLS][VITEM_NAME_CHARS];
    char unit[VTABLE_COLS][VITEM_UNIT_CHARS];
    bool text[VTABLE_COLS];
    struct vcell cell[VTABLE_CELLS]; /* row-major */
};

struct vitem {
    char name[VITEM_NAME_CHARS];
    enum vitem_type type;
    double value;                /* VITEM_NUMBER, VITEM_BOOL */
    int table;                   /* VITEM_LIST, VITEM_TABLE: index into verdict.table */
    char unit[VITEM_UNIT_CHARS]; /* "" when none (a ratio, a truth) */
    char note[VITEM_NOTE_CHARS]; /* what it is, "" when the name says it */
};

/* What one experiment shows, in words and numbers. */
struct verdict {
    bool present;
    char headline[VERDICT_CHARS];
    size_t nlines;
    char line[VERDICT_LINES][VERDICT_CHARS]; /* Markdown lines (table rows or bullets) */
    size_t nitems;
    struct vitem item[VERDICT_ITEMS];
    size_t ntables;
    struct vtable table[VERDICT_TABLES];
};

/* Add a Markdown line (dropped when full). */
void verdict_line(struct verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Set the headline (printf-like). */
void verdict_headline(struct verdict *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Add a number, or a truth (1, 0, NaN: cannot tell); unit and note may be NULL. Dropped when
 * the verdict holds VERDICT_ITEMS items. */
void verdict_number(struct verdict *v, const char *name, double value, const char *unit,
                    const char *note);
void verdict_bool(struct verdict *v, const char *name, double truth, const char *note);
/* Add a list of records with ncols columns (or a list of numbers: verdict_list, one column
 * named after the list); returns its handle for verdict_row, -1 when full. */
int verdict_table(struct verdict *v, const char *name, const char *note, const struct vcolumn *cols,
                  size_t ncols);
int verdict_list(struct verdict *v, const char *name, const char *unit, const char *note);
/* A new row of table t: its ncols cells, numbers NaN and text empty; NULL when full. */
struct vcell *verdict_row(struct verdict *v, int t);
/* Append a number to list t (dropped when full). */
void verdict_list_add(struct verdict *v, int t, double x);
/* Set a text cell. */
void vcell_text(struct vcell *c, const char *text);

/* The item called name, or NULL. */
const struct vitem *verdict_find(const struct verdict *v, const char *name);
/* The value of number or truth item name; NaN when absent. */
double verdict_value(const struct verdict *v, const char *name);
/* The table of a list or table item, NULL for other items. */
const struct vtable *verdict_item_table(const struct verdict *v, const struct vitem *it);
/* Cell (row, col) of table t. */
const struct vcell *vtable_cell(const struct vtable *t, size_t row, size_t col);

#endif
