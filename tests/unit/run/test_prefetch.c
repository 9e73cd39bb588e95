// SPDX-License-Identifier: MIT
// Unit tests of the prefetch key's MSR handling: off and back, an MSR that ignores writes,
// one that faults, no documented control, and restoring twice (exit after panic); the
// per-model table of MSR 0x1a4's bits, and bits written one at a time where a combined write
// faults or the table is unsure.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "machine/ap_msr.h"
#include "platform.h"
#include "run/prefetch.h"

/* One fake MSR: what it holds, whether writes stick, whether it exists. */
static struct {
    uint32_t msr;
    uint64_t value;
    bool exists, ignores_writes;
    uint64_t fault_bits; /* a write setting any of these faults (#GP) */
    uint64_t drop_bits;  /* bits a write does not keep */
    unsigned writes;
    uint64_t written[32]; /* the values written, in order */
} fake;
static char printed[1024];

static unsigned releases; /* plat_cpus_release calls: the others leave chase's loop first */

void plat_cpus_release(void)
{
    releases++;
}

bool plat_read_msr(uint32_t msr, uint64_t *value)
{
    if (!fake.exists || msr != fake.msr)
        return false;
    *value = fake.value;
    return true;
}

bool plat_write_msr(uint32_t msr, uint64_t value)
{
    if (!fake.exists || msr != fake.msr || (value & fake.fault_bits))
        return false;
    if (fake.writes < 32)
        fake.written[fake.writes] = value;
    fake.writes++;
    if (!fake.ignores_writes)
        fake.value = value & ~fake.drop_bits;
    return true;
}

void con_printf(const char *fmt, ...)
{
    va_list ap;
    size_t n = strlen(printed);
    va_start(ap, fmt);
    vsnprintf(printed + n, sizeof(printed) - n, fmt, ap);
    va_end(ap);
}

static struct machine intel(uint64_t start_value)
{
    struct machine m;
    memset(&m, 0, sizeof(m));
    m.facts.read = true;
    prefetch_models_intel(0x55, &m.facts.prefetch); /* Skylake-SP, Cascade Lake */
    memset(&fake, 0, sizeof(fake));
    fake.msr = 0x1a4;
    fake.exists = true;
    fake.value = start_value;
    printed[0] = 0;
    return m;
}

static void test_off_then_restored(void **state)
{
    (void)state;
    struct machine m = intel(0x20); /* an unrelated bit set: kept through it all */
    struct prefetch_run p = {0};
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_OFF), "off");
    assert_int_equal(fake.value, 0x2f);
    assert_string_equal(p.note, "");
    /* the other processors are asked to turn theirs off for their work */
    const struct ap_msr_want *ap = &ap_msr_book()->want[AP_MSR_PREFETCH];
    assert_int_equal(ap->msr, 0x1a4);
    assert_int_equal(ap->bits, 0xf);
    /* The next experiment asks off too: nothing written again. */
    unsigned writes = fake.writes;
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_OFF), "off");
    assert_int_equal(fake.writes, writes);
    unsigned released = releases;
    prefetch_restore(&p);
    assert_int_equal(releases, released + 1); /* the others leave chase's loop at the end too */
    assert_int_equal(fake.value, 0x20);
    assert_int_equal(ap->msr, 0); /* and no longer after it */
    /* Restoring twice (the panic path, then exit) writes nothing more. */
    writes = fake.writes;
    prefetch_restore(&p);
    assert_int_equal(fake.writes, writes);
    /* as-is after off gives the value back too. */
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_OFF), "off");
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_AS_IS), "as-is");
    assert_int_equal(fake.value, 0x20);
}

static void test_msr_ignores_writes(void **state)
{
    (void)state;
    struct machine m = intel(0); /* QEMU's TCG: reads 0, keeps nothing */
    fake.ignores_writes = true;
    struct prefetch_run p = {0};
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_OFF), "as-is");
    assert_non_null(strstr(p.note, "MSR 0x1a4 kept none of the bits 0xf"));
    assert_non_null(strstr(printed, "cannot be turned off"));
    assert_false(p.changed);
    /* as-is here: the other processors are not asked either */
    assert_int_equal(ap_msr_book()->want[AP_MSR_PREFETCH].msr, 0);
}

static void test_msr_faults_or_missing(void **state)
{
    (void)state;
    struct machine m = intel(0);
    fake.exists = false; /* #GP on read */
    struct prefetch_run p = {0};
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_OFF), "as-is");
    assert_non_null(strstr(p.note, "cannot be read"));
    m.facts.prefetch.msr = 0;
    m.facts.prefetch.doc = "no documented prefetcher control for this vendor and family";
    memset(&p, 0, sizeof(p));
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_OFF), "as-is");
    assert_string_equal(p.note, m.facts.prefetch.doc);
}

/* What the table says for one model: the bits, how many prefetchers, what stays on. */
struct model_row {
    unsigned model;
    uint64_t bits;
    unsigned n;
    const char *uncontrolled; /* a part of the note; NULL: none */
    bool unsure;
};

/* The table per model, from the SDM, Intel's 2014 disclosure and Intel's PerfSpect table. */
static const struct model_row model_rows[] = {
    {0x55, 0xf, 4, NULL, false},                       /* Skylake-SP, Cascade Lake: bits 0..3 */
    {0xa7, 0xf, 4, NULL, false},                       /* Rocket Lake */
    {0x97, 0xf, 4, "L2 AMP", false},                   /* Alder Lake: no documented bit for more */
    {0xaa, 0xf, 4, "L2 AMP", false},                   /* Meteor Lake */
    {0x8f, 0x3f, 6, "MSR 0x6d bits 14 and 42", false}, /* Sapphire Rapids: + DCU NP, AMP */
    {0xcf, 0x3f, 6, "MSR 0x6d bits 14 and 42", false}, /* Emerald Rapids */
    {0xad, 0xff, 8, "MSR 0x6d bits 14 and 42", false}, /* Granite Rapids: + LLC page, AOP */
    {0xae, 0xff, 8, "MSR 0x6d bits 14 and 42", false}, /* Granite Rapids D */
    {0x5c, 0x5, 2, NULL, false},                       /* Goldmont: bits 0 and 2 only */
    {0xaf, 0x5, 2, "MSR 0x1320 bit 43", false},        /* Sierra Forest: LLC stream elsewhere */
    {0x57, 0x3, 2, NULL, false},                       /* Knights Landing: DCU bit 0, L2 bit 1 */
    {0x37, 0x5, 2, NULL, true},                        /* Bay Trail: Atom bits, tried alone */
    {0xbe, 0xf, 4, NULL, false},                       /* Alder Lake-N (Gracemont): Core bits */
    {0xc5, 0xf, 4, "Lion Cove", true},                 /* Arrow Lake H: Core bits, tried alone */
    {0xc6, 0xf, 4, "Lion Cove", true},                 /* Arrow Lake S */
    {0xb5, 0xf, 4, "Lion Cove", true},                 /* Arrow Lake U */
    {0xbd, 0xf, 4, "Lion Cove", true},                 /* Lunar Lake */
    {0xfe, 0xf, 4, NULL, true},                        /* a model not in the table */
};

static void test_model_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(model_rows) / sizeof(model_rows[0]); i++) {
        const struct model_row *r = &model_rows[i];
        struct prefetch_ctl c;
        memset(&c, 0, sizeof(c));
        prefetch_models_intel(r->model, &c);
        assert_int_equal(c.msr, 0x1a4);
        assert_int_equal(c.disable_bits, r->bits);
        assert_int_equal(c.nprefetchers, r->n);
        assert_int_equal(c.unsure, r->unsure);
        uint64_t each = 0; /* every prefetcher named with its own bit, together the bits */
        for (unsigned k = 0; k < c.nprefetchers; k++) {
            assert_non_null(c.prefetcher[k].name);
            assert_int_equal(each & c.prefetcher[k].bit, 0);
            each |= c.prefetcher[k].bit;
        }
        assert_int_equal(each, r->bits);
        if (r->uncontrolled)
            assert_non_null(strstr(c.uncontrolled, r->uncontrolled));
        else
            assert_null(c.uncontrolled);
    }
    struct prefetch_ctl c;
    prefetch_models_intel(0x55, &c);
    assert_string_equal(c.prefetcher[1].name, "L2 adjacent line");
    prefetch_models_intel(0xad, &c);
    assert_string_equal(c.prefetcher[4].name, "L1D next page (DCU NP)");
    assert_string_equal(c.prefetcher[5].name, "L2 AMP (adaptive multipath)");
    assert_string_equal(c.prefetcher[6].name, "LLC page (LLCPP)");
    assert_string_equal(c.prefetcher[7].name, "L2 array of pointers (AOP)");
    prefetch_models_intel(0x5c, &c);
    assert_string_equal(c.prefetcher[1].name, "L1D next line (DCU)");
    prefetch_models_intel(0x57, &c);
    assert_string_equal(c.prefetcher[0].name, "L1D next line (DCU)");
    /* The four models of issue 50, each named in its doc with its signature. */
    static const struct {
        unsigned model;
        const char *doc;
    } named[] = {{0x37, "Bay Trail (06_37H"},
                 {0xbe, "Alder Lake-N (06_BEH"},
                 {0xc6, "Arrow Lake (06_C5H, 06_C6H"},
                 {0xbd, "Lunar Lake (06_BDH)"}};
    for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
        prefetch_models_intel(named[i].model, &c);
        assert_non_null(strstr(c.doc, named[i].doc));
    }
    prefetch_models_intel(0x37, &c);
    assert_string_equal(c.prefetcher[0].name, "L2 streamer");
    assert_string_equal(c.prefetcher[1].name, "L1D next line (DCU)");
    prefetch_models_intel(0xfe, &c);
    assert_non_null(strstr(c.doc, "not in chase's table"));
}

/* A combined write that faults (undefined bits) falls back to one bit at a time. */
static void test_combined_write_faults(void **state)
{
    (void)state;
    struct machine m = intel(0);
    fake.fault_bits = 0xa; /* bits 1 and 3 undefined here */
    struct prefetch_run p = {0};
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_OFF), "partly off");
    assert_true(p.one_by_one);
    assert_int_equal(fake.value, 0x5);
    assert_int_equal(p.state[0], PREFETCHER_OFF);
    assert_int_equal(p.state[1], PREFETCHER_REFUSED);
    assert_int_equal(p.state[2], PREFETCHER_OFF);
    assert_int_equal(p.state[3], PREFETCHER_REFUSED);
    assert_non_null(strstr(p.note, "L2 adjacent line on: write refused"));
    assert_int_equal(ap_msr_book()->want[AP_MSR_PREFETCH].bits, 0x5);
    prefetch_restore(&p);
    assert_int_equal(fake.value, 0);
}

/* A model the table does not know: each bit alone, never two new ones in one write. */
static void test_unsure_model_one_at_a_time(void **state)
{
    (void)state;
    struct machine m = intel(0x4);                  /* DCU already off */
    prefetch_models_intel(0xfe, &m.facts.prefetch); /* no such family 6 model (yet) */
    fake.drop_bits = 0x8;                           /* bit 3 does not hold */
    struct prefetch_run p = {0};
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_OFF), "partly off");
    uint64_t held = 0x4; /* what the MSR held before each write */
    assert_true(fake.writes >= 3);
    for (unsigned i = 0; i < fake.writes; i++) {
        uint64_t added = fake.written[i] & ~held;
        assert_true(added == 0 || (added & (added - 1)) == 0);
        held = fake.written[i] & ~fake.drop_bits;
    }
    assert_int_equal(p.state[2], PREFETCHER_WAS_OFF);
    assert_int_equal(p.state[3], PREFETCHER_NOT_KEPT);
    assert_int_equal(fake.value, 0x7);
    prefetch_restore(&p);
    assert_int_equal(fake.value, 0x4);
}

/* Every listed prefetcher off on a core that has more: "partly off", and the note says so. */
static void test_uncontrolled_prefetchers(void **state)
{
    (void)state;
    struct machine m = intel(0);
    prefetch_models_intel(0xcf, &m.facts.prefetch); /* Emerald Rapids */
    struct prefetch_run p = {0};
    assert_string_equal(prefetch_apply(&p, &m, PREFETCH_OFF), "partly off");
    assert_false(p.one_by_one);
    assert_int_equal(fake.value, 0x3f); /* bits 0..3, DCU next page, AMP */
    assert_non_null(strstr(p.note, "stay as they are"));
    for (unsigned i = 0; i < 6; i++)
        assert_int_equal(p.state[i], PREFETCHER_OFF);
    prefetch_restore(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_off_then_restored),
        cmocka_unit_test(test_msr_ignores_writes),
        cmocka_unit_test(test_msr_faults_or_missing),
        cmocka_unit_test(test_model_table),
        cmocka_unit_test(test_combined_write_faults),
        cmocka_unit_test(test_unsure_model_one_at_a_time),
        cmocka_unit_test(test_uncontrolled_prefetchers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
