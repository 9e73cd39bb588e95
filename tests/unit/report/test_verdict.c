// SPDX-License-Identifier: MIT
// Unit tests of a verdict's typed items: numbers, truths, lists and tables, read back and
// printed as JSON by chase-report's generic printer, whatever the experiment.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/verdict.h"
#include "lib/json.h"
#include "outputs/output.h"

static struct verdict v;

/* The items of v as the members of one JSON object, in sb (released by the caller). */
static const char *items_json(struct strbuf *sb)
{
    struct json j;
    json_init(&j, sb);
    json_object_begin(&j, NULL);
    verdict_items_json(&j, &v);
    json_object_end(&j);
    return strbuf_str(sb);
}

/* Whether text holds needle once the spaces and newlines of indentation are gone. */
static bool holds(const char *text, const char *needle)
{
    static char flat[8192];
    size_t k = 0;
    for (const char *p = text; *p && k + 1 < sizeof(flat); p++)
        if (*p != ' ' && *p != '\n')
            flat[k++] = *p;
    flat[k] = 0;
    if (strstr(flat, needle))
        return true;
    print_message("no %s in %s\n", needle, flat);
    return false;
}

static void test_scalars(void **state)
{
    (void)state;
    memset(&v, 0, sizeof(v));
    verdict_number(&v, "ratio", 0.91876, NULL, "dual over random");
    verdict_number(&v, "size_bytes", 5619712.4, "bytes", NULL);
    verdict_bool(&v, "adaptive_insertion", 1, NULL);
    verdict_bool(&v, "scan_resistant", NAN, "cannot tell");
    verdict_bool(&v, "agrees", 0.0, NULL);
    assert_true(verdict_value(&v, "ratio") == 0.91876);
    assert_true(verdict_value(&v, "adaptive_insertion") == 1);
    assert_true(isnan(verdict_value(&v, "scan_resistant")));
    assert_true(isnan(verdict_value(&v, "absent")));
    assert_null(verdict_find(&v, "absent"));
    struct strbuf sb = {0};
    const char *s = items_json(&sb);
    assert_true(holds(s, "\"ratio\":0.9188"));
    assert_true(holds(s, "\"size_bytes\":5619712,")); /* whole bytes */
    assert_true(holds(s, "\"adaptive_insertion\":true"));
    assert_true(holds(s, "\"scan_resistant\":null"));
    assert_true(holds(s, "\"agrees\":false"));
    assert_true(holds(s, "\"units\":{\"size_bytes\":\"bytes\"}"));
    assert_true(holds(s, "\"notes\":{\"ratio\":\"dualoverrandom\",\"scan_resistant\":"));
    strbuf_release(&sb);
}

/* A list of numbers is a plain array; a table a list of records, text columns as strings
 * (the shape of bandwidth's levels: {level, size_bytes, read_gbs}). */
static void test_lists_and_tables(void **state)
{
    (void)state;
    memset(&v, 0, sizeof(v));
    int l = verdict_list(&v, "offsets_bytes", "bytes", NULL);
    verdict_list_add(&v, l, 4096);
    verdict_list_add(&v, l, 8192);
    static const struct vcolumn cols[] = {
        {"level", NULL, true}, {"size_bytes", "bytes", false}, {"read_gbs", "GB/s", false}};
    int t = verdict_table(&v, "levels", "per level", cols, 3);
    struct vcell *row = verdict_row(&v, t);
    assert_non_null(row);
    vcell_text(&row[0], "L1");
    row[1].num = 32768;
    row[2].num = 210.25;
    row = verdict_row(&v, t);
    vcell_text(&row[0], "L2"); /* its numbers left unknown: null */
    const struct vitem *it = verdict_find(&v, "levels");
    assert_non_null(it);
    assert_int_equal(it->type, VITEM_TABLE);
    const struct vtable *tb = verdict_item_table(&v, it);
    assert_int_equal(tb->nrows, 2);
    assert_string_equal(vtable_cell(tb, 1, 0)->text, "L2");
    assert_true(isnan(vtable_cell(tb, 1, 2)->num));
    struct strbuf sb = {0};
    const char *s = items_json(&sb);
    assert_true(holds(s, "\"offsets_bytes\":[4096,8192]"));
    assert_true(holds(s,
                      "\"levels\":[{\"level\":\"L1\",\"size_bytes\":32768,\"read_gbs\":210.2500},"
                      "{\"level\":\"L2\",\"size_bytes\":null,\"read_gbs\":null}]"));
    strbuf_release(&sb);
}

/* Full tables and verdicts drop what does not fit and say so by NULL or -1. */
static void test_limits(void **state)
{
    (void)state;
    memset(&v, 0, sizeof(v));
    static const struct vcolumn cols[VTABLE_COLS + 1] = {{"a", NULL, false}};
    assert_int_equal(verdict_table(&v, "wide", NULL, cols, VTABLE_COLS + 1), -1);
    int t = verdict_table(&v, "t", NULL, cols, 1);
    size_t rows = 0;
    while (verdict_row(&v, t))
        rows++;
    assert_int_equal(rows, VTABLE_CELLS);
    assert_null(verdict_row(&v, -1));
    for (size_t i = 1; i < VERDICT_TABLES; i++)
        assert_true(verdict_list(&v, "l", NULL, NULL) >= 0);
    assert_int_equal(verdict_list(&v, "l", NULL, NULL), -1);
    while (v.nitems < VERDICT_ITEMS)
        verdict_number(&v, "n", 1, NULL, NULL);
    verdict_number(&v, "dropped", 1, NULL, NULL);
    assert_null(verdict_find(&v, "dropped"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_lists_and_tables),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
