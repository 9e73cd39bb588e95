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
    prefetch_restore(&p);
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

static void test_model_table(void **state)
{
    (void)state;
    struct prefetch_ctl c;
    prefetch_models_intel(0x55, &c);
    assert_int_equal(c.nprefetchers, 4);
    assert_int_equal(c.disable_bits, 0xf);
    assert_false(c.unsure);
    assert_null(c.uncontrolled);
    assert_string_equal(c.prefetcher[1].name, "L2 adjacent line");
    prefetch_models_intel(0x8f, &c); /* Sapphire Rapids: bits 0..3, more prefetchers besides */
    assert_int_equal(c.disable_bits, 0xf);
    assert_non_null(c.uncontrolled);
    prefetch_models_intel(0x5c, &c); /* Goldmont: bits 0 and 2 only */
    assert_int_equal(c.nprefetchers, 2);
    assert_int_equal(c.disable_bits, 0x5);
    assert_string_equal(c.prefetcher[1].name, "L1D next line (DCU)");
    prefetch_models_intel(0x57, &c); /* Knights Landing: DCU bit 0, L2 bit 1 */
    assert_int_equal(c.disable_bits, 0x3);
    assert_string_equal(c.prefetcher[0].name, "L1D next line (DCU)");
    assert_int_equal(c.prefetcher[1].bit, 0x2);
    prefetch_models_intel(0x37, &c); /* Silvermont client: not in the table */
    assert_true(c.unsure);
    assert_int_equal(c.disable_bits, 0xf);
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
    struct machine m = intel(0x4); /* DCU already off */
    prefetch_models_intel(0x37, &m.facts.prefetch);
    fake.drop_bits = 0x8; /* bit 3 does not hold */
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
    assert_int_equal(fake.value, 0xf);
    assert_non_null(strstr(p.note, "stay as they are"));
    for (unsigned i = 0; i < 4; i++)
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
