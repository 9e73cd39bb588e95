// SPDX-License-Identifier: MIT
// Unit tests of the per-processor MSR bookkeeping: each processor's prefetch control and
// DE_CFG set for its work and given back after, over fake processors whose MSRs keep writes
// (a real core), drop them (QEMU's TCG), fault (no such MSR) or were already set by the OS; and
// two SMT siblings of a core whose MSR is the core's, finishing in either order.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/ap_msr.h"

#define MSR_PREFETCH 0x1a4u    /* Intel MISC_FEATURE_CONTROL */
#define PREFETCH_OFF_BITS 0xfu /* its four disable bits */
#define MSR_DE_CFG 0xc0011029u
#define DE_CFG_BIT1 (1ULL << 1)

/* One fake processor's two MSRs and how it treats them. */
struct fake_cpu {
    uint64_t prefetch, de_cfg;
    bool drops_writes;    /* TCG: reads work, writes are ignored */
    bool no_de_cfg;       /* reading or writing DE_CFG faults (#GP) */
    bool restore_refused; /* the write of the old value faults */
    uint64_t fault_bits;  /* a prefetch write setting any of these faults (bits it lacks) */
    unsigned writes, reads;
    bool changed_once;       /* a value other than the first was written */
    uint64_t *core_prefetch; /* the core's one 0x1A4, shared with its sibling (NULL: its own) */
};

static uint64_t *reg(struct fake_cpu *c, uint32_t msr)
{
    if (msr == MSR_PREFETCH)
        return c->core_prefetch ? c->core_prefetch : &c->prefetch;
    if (msr == MSR_DE_CFG && !c->no_de_cfg)
        return &c->de_cfg;
    return NULL;
}

static bool fake_read(void *ctx, uint32_t msr, uint64_t *value)
{
    struct fake_cpu *c = ctx;
    uint64_t *r = reg(c, msr);
    c->reads++;
    if (!r)
        return false;
    *value = *r;
    return true;
}

static bool fake_write(void *ctx, uint32_t msr, uint64_t value)
{
    struct fake_cpu *c = ctx;
    uint64_t *r = reg(c, msr);
    if (!r || (c->restore_refused && c->changed_once) ||
        (msr == MSR_PREFETCH && (value & c->fault_bits)))
        return false;
    c->writes++;
    if (!c->drops_writes) {
        c->changed_once = c->changed_once || value != *r;
        *r = value;
    }
    return true;
}

/* One piece of work on cpu (slot, id): apply, check what the work would see, restore. */
static uint64_t work_on(struct ap_msr_book *b, unsigned slot, unsigned id, struct fake_cpu *c,
                        uint64_t *de_cfg_seen)
{
    struct ap_msr_ops ops = {fake_read, fake_write, c};
    struct ap_msr_held h;
    struct plat_cpu p = {.id = id, .core = id};
    ap_msr_apply(b, slot, id, ap_msr_core_key(&p), &ops, &h);
    uint64_t seen = c->prefetch;
    *de_cfg_seen = c->de_cfg;
    ap_msr_restore(b, slot, &ops, &h);
    return seen;
}

/* A real core: its bits set for the work, its own other bits kept, all of it back after. */
static void test_real_core(void **state)
{
    (void)state;
    static struct ap_msr_book b;
    memset(&b, 0, sizeof(b));
    ap_msr_want(&b, AP_MSR_PREFETCH, MSR_PREFETCH, PREFETCH_OFF_BITS);
    ap_msr_want(&b, AP_MSR_DE_CFG, MSR_DE_CFG, DE_CFG_BIT1);
    struct fake_cpu c = {.prefetch = 0x20, .de_cfg = 0x200};
    uint64_t de;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(work_on(&b, 1, 7, &c, &de), 0x2f);
        assert_int_equal(de, 0x202);
        assert_int_equal(c.prefetch, 0x20); /* given back after every piece of work */
        assert_int_equal(c.de_cfg, 0x200);
    }
    assert_true(b.used[1]);
    assert_int_equal(b.cpu_id[1], 7);
    const struct ap_msr_record *p = &b.rec[1][AP_MSR_PREFETCH], *d = &b.rec[1][AP_MSR_DE_CFG];
    assert_true(p->read);
    assert_int_equal(p->found, 0x20);
    assert_int_equal(p->set, 3);
    assert_int_equal(p->not_stuck + p->already + p->unreadable + p->restore_failed, 0);
    assert_int_equal(d->found, 0x200);
    assert_int_equal(d->set, 3);
    assert_false(b.used[0]); /* a slot that ran nothing says nothing */
}

/* QEMU's TCG keeps neither: recorded as not kept, nothing to restore, nothing changed. */
static void test_tcg_drops_writes(void **state)
{
    (void)state;
    static struct ap_msr_book b;
    memset(&b, 0, sizeof(b));
    ap_msr_want(&b, AP_MSR_DE_CFG, MSR_DE_CFG, DE_CFG_BIT1);
    struct fake_cpu c = {.drops_writes = true};
    uint64_t de;
    work_on(&b, 2, 2, &c, &de);
    work_on(&b, 2, 2, &c, &de);
    assert_int_equal(de, 0);
    const struct ap_msr_record *d = &b.rec[2][AP_MSR_DE_CFG];
    assert_true(d->read);
    assert_int_equal(d->found, 0);
    assert_int_equal(d->not_stuck, 2);
    assert_int_equal(d->set, 0);
    assert_int_equal(b.rec[2][AP_MSR_PREFETCH].msr, 0); /* never asked */
    char line[400];
    ap_msr_summary(&b, line, sizeof(line));
    assert_string_equal(line, "  per core   de_cfg (MSR 0xc0011029 bits 0x2) on the other "
                              "processors: set for their work on 0, not kept on 1, unreadable "
                              "on 0, not restored on 0 (of 1)\n");
    memset(&b, 0, sizeof(b));
    ap_msr_summary(&b, line, sizeof(line));
    assert_string_equal(line, ""); /* nothing asked: nothing said */
}

/* No such MSR (#GP), and the OS had set DE_CFG[1] already: counted, nothing written. */
static void test_faults_and_already_set(void **state)
{
    (void)state;
    static struct ap_msr_book b;
    memset(&b, 0, sizeof(b));
    ap_msr_want(&b, AP_MSR_DE_CFG, MSR_DE_CFG, DE_CFG_BIT1);
    struct fake_cpu missing = {.no_de_cfg = true}, linux_set = {.de_cfg = DE_CFG_BIT1 | 0x10};
    uint64_t de;
    work_on(&b, 1, 1, &missing, &de);
    work_on(&b, 3, 3, &linux_set, &de);
    assert_int_equal(b.rec[1][AP_MSR_DE_CFG].unreadable, 1);
    assert_false(b.rec[1][AP_MSR_DE_CFG].read);
    assert_int_equal(b.rec[3][AP_MSR_DE_CFG].already, 1);
    assert_int_equal(b.rec[3][AP_MSR_DE_CFG].found, DE_CFG_BIT1 | 0x10);
    assert_int_equal(linux_set.writes, 0);
}

/* A refused restore is counted; a new setting starts a new record; bits 0 asks nothing. */
static void test_restore_refused_and_new_setting(void **state)
{
    (void)state;
    static struct ap_msr_book b;
    memset(&b, 0, sizeof(b));
    ap_msr_want(&b, AP_MSR_PREFETCH, MSR_PREFETCH, PREFETCH_OFF_BITS);
    struct fake_cpu c = {.prefetch = 0, .restore_refused = true};
    uint64_t de;
    work_on(&b, 1, 1, &c, &de);
    assert_int_equal(b.rec[1][AP_MSR_PREFETCH].restore_failed, 1);
    ap_msr_want(&b, AP_MSR_PREFETCH, MSR_PREFETCH, 0x3);
    struct fake_cpu d = {.prefetch = 0};
    work_on(&b, 1, 1, &d, &de);
    assert_int_equal(b.rec[1][AP_MSR_PREFETCH].bits, 0x3);
    assert_int_equal(b.rec[1][AP_MSR_PREFETCH].restore_failed, 0);
    assert_int_equal(b.rec[1][AP_MSR_PREFETCH].set, 1);
    ap_msr_want(&b, AP_MSR_PREFETCH, MSR_PREFETCH, 0);
    assert_int_equal(b.want[AP_MSR_PREFETCH].msr, 0);
    struct fake_cpu e = {.prefetch = 0};
    work_on(&b, 4, 4, &e, &de);
    assert_int_equal(e.reads + e.writes, 0);
}

/* A core of another type (a hybrid CPU's) lacks two of the bits: the others alone hold. */
static void test_fewer_bits_on_this_core(void **state)
{
    (void)state;
    static struct ap_msr_book b;
    memset(&b, 0, sizeof(b));
    ap_msr_want(&b, AP_MSR_PREFETCH, MSR_PREFETCH, PREFETCH_OFF_BITS);
    struct fake_cpu c = {.fault_bits = 0xa};
    uint64_t de;
    assert_int_equal(work_on(&b, 3, 3, &c, &de), 0x5); /* bits 0 and 2 off for the work */
    assert_int_equal(c.prefetch, 0);                   /* and back after it */
    const struct ap_msr_record *p = &b.rec[3][AP_MSR_PREFETCH];
    assert_int_equal(p->partly, 1);
    assert_int_equal(p->partly_bits, 0x5);
    assert_int_equal(p->set + p->not_stuck, 0);
    struct fake_cpu none = {.fault_bits = 0xf};
    assert_int_equal(work_on(&b, 4, 4, &none, &de), 0);
    assert_int_equal(b.rec[4][AP_MSR_PREFETCH].not_stuck, 1);
    char line[400];
    ap_msr_summary(&b, line, sizeof(line));
    assert_string_equal(line, "  per core   prefetch (MSR 0x1a4 bits 0xf) on the other "
                              "processors: set for their work on 0, not kept on 1, unreadable "
                              "on 0, not restored on 0, only some of the bits on 1 (of 2)\n");
}

/* Threads 0 and 1 of core 2 (book slots 1 and 2) whose 0x1A4 is one register: both start,
   then the first or the second to start ends first. The bits hold until the last ends. */
static void siblings_of_one_core(bool first_started_ends_first)
{
    static struct ap_msr_book b;
    memset(&b, 0, sizeof(b));
    ap_msr_want(&b, AP_MSR_PREFETCH, MSR_PREFETCH, PREFETCH_OFF_BITS);
    uint64_t core_msr = 0x20;
    struct fake_cpu t[2] = {{.core_prefetch = &core_msr}, {.core_prefetch = &core_msr}};
    struct plat_cpu p[2] = {{.id = 4, .package = 1, .core = 2, .thread = 0},
                            {.id = 5, .package = 1, .core = 2, .thread = 1}};
    struct ap_msr_ops ops[2] = {{fake_read, fake_write, &t[0]}, {fake_read, fake_write, &t[1]}};
    struct ap_msr_held h[2];
    assert_true(ap_msr_core_key(&p[0]) == ap_msr_core_key(&p[1]));
    for (unsigned i = 0; i < 2; i++) {
        ap_msr_apply(&b, 1 + i, p[i].id, ap_msr_core_key(&p[i]), &ops[i], &h[i]);
        assert_int_equal(core_msr, 0x2f);
    }
    unsigned first = first_started_ends_first ? 0 : 1, last = 1 - first;
    ap_msr_restore(&b, 1 + first, &ops[first], &h[first]);
    assert_int_equal(core_msr, 0x2f); /* the sibling still measures with them off */
    ap_msr_restore(&b, 1 + last, &ops[last], &h[last]);
    assert_int_equal(core_msr, 0x20); /* the core's own value once the last one ended */
    const struct ap_msr_record *r0 = &b.rec[1][AP_MSR_PREFETCH], *r1 = &b.rec[2][AP_MSR_PREFETCH];
    assert_int_equal(r0->set, 1);
    assert_int_equal(r1->already, 1);
    assert_int_equal(r1->shared_found, 1);
    assert_int_equal(r0->restore_left, first_started_ends_first ? 1 : 0);
    assert_int_equal(r1->restore_taken, first_started_ends_first ? 1 : 0);
    assert_int_equal(r0->restore_failed + r1->restore_failed, 0);
    /* the core's entry is free again: a later piece of work on it starts afresh */
    ap_msr_apply(&b, 2, p[1].id, ap_msr_core_key(&p[1]), &ops[1], &h[1]);
    assert_int_equal(core_msr, 0x2f);
    ap_msr_restore(&b, 2, &ops[1], &h[1]);
    assert_int_equal(core_msr, 0x20);
}

static void test_siblings_first_ends_first(void **state)
{
    (void)state;
    siblings_of_one_core(true);
}

static void test_siblings_second_ends_first(void **state)
{
    (void)state;
    siblings_of_one_core(false);
}

/* Two threads of one core whose 0x1A4 is each thread's own: each sets and restores its own. */
static void test_siblings_thread_scope(void **state)
{
    (void)state;
    static struct ap_msr_book b;
    memset(&b, 0, sizeof(b));
    ap_msr_want(&b, AP_MSR_PREFETCH, MSR_PREFETCH, PREFETCH_OFF_BITS);
    struct fake_cpu t[2] = {{.prefetch = 0x20}, {.prefetch = 0x40}};
    struct plat_cpu p = {.id = 8, .core = 3};
    struct ap_msr_ops ops[2] = {{fake_read, fake_write, &t[0]}, {fake_read, fake_write, &t[1]}};
    struct ap_msr_held h[2];
    for (unsigned i = 0; i < 2; i++)
        ap_msr_apply(&b, 1 + i, p.id + i, ap_msr_core_key(&p), &ops[i], &h[i]);
    assert_int_equal(t[0].prefetch, 0x2f);
    assert_int_equal(t[1].prefetch, 0x4f);
    ap_msr_restore(&b, 1, &ops[0], &h[0]);
    assert_int_equal(t[0].prefetch, 0x20); /* its own, back at once */
    assert_int_equal(t[1].prefetch, 0x4f);
    ap_msr_restore(&b, 2, &ops[1], &h[1]);
    assert_int_equal(t[1].prefetch, 0x40);
    assert_int_equal(b.rec[2][AP_MSR_PREFETCH].shared_found, 0);
    assert_int_equal(b.rec[1][AP_MSR_PREFETCH].restore_left, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_core),
        cmocka_unit_test(test_fewer_bits_on_this_core),
        cmocka_unit_test(test_siblings_first_ends_first),
        cmocka_unit_test(test_siblings_second_ends_first),
        cmocka_unit_test(test_siblings_thread_scope),
        cmocka_unit_test(test_tcg_drops_writes),
        cmocka_unit_test(test_faults_and_already_set),
        cmocka_unit_test(test_restore_refused_and_new_setting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
