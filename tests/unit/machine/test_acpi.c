// SPDX-License-Identifier: MIT
// Unit tests of the ACPI table walk (synthetic RSDP, XSDT/RSDT, FADT, HPET in host memory)
// and of TSC calibration against a wrapping counter.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/acpi.h"
#include "chase/refclock.h"

static uint8_t rsdp[36], xsdt[36 + 3 * 8], rsdt[36 + 2 * 4], fadt[276], hpet[56], junk[40];

static void header(uint8_t *t, const char *sig, uint32_t len)
{
    memset(t, 0, len);
    memcpy(t, sig, 4);
    memcpy(t + 4, &len, 4);
    t[8] = 2;
}

static void seal(uint8_t *t, uint32_t len, unsigned checksum_at)
{
    t[checksum_at] = 0;
    t[checksum_at] = (uint8_t)(0x100 - acpi_checksum(t, len));
}

static void put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* A machine's tables: FADT with a 24-bit I/O PM timer at 0x608 (and optionally X_PM_TMR_BLK),
 * an HPET at 0xfed00000, one table with a bad checksum. */
static void build_tables(bool extended_timer, bool x_pm_tmr_blk)
{
    header(fadt, "FACP", sizeof(fadt));
    put32(fadt + 76, 0x608);
    put32(fadt + 112, extended_timer ? 1u << 8 : 0);
    if (x_pm_tmr_blk) {
        fadt[208] = 1; /* system I/O */
        fadt[209] = 32;
        put64(fadt + 212, 0xb008);
    }
    seal(fadt, sizeof(fadt), 9);
    header(hpet, "HPET", sizeof(hpet));
    hpet[40] = 0; /* system memory */
    put64(hpet + 44, 0xfed00000);
    seal(hpet, sizeof(hpet), 9);
    header(junk, "FACP", sizeof(junk));
    junk[9] = 1; /* wrong checksum: must be ignored */
    header(xsdt, "XSDT", sizeof(xsdt));
    put64(xsdt + 36, (uintptr_t)junk);
    put64(xsdt + 44, (uintptr_t)fadt);
    put64(xsdt + 52, (uintptr_t)hpet);
    seal(xsdt, sizeof(xsdt), 9);
    header(rsdt, "RSDT", sizeof(rsdt));
    put32(rsdt + 36, 0); /* host addresses do not fit 32 bits: the RSDT test uses none */
    put32(rsdt + 40, 0);
    seal(rsdt, sizeof(rsdt), 9);
    memset(rsdp, 0, sizeof(rsdp));
    memcpy(rsdp, "RSD PTR ", 8);
    memcpy(rsdp + 9, "CHASE ", 6);
    rsdp[15] = 2;
    put32(rsdp + 16, 0);
    put32(rsdp + 20, 36);
    put64(rsdp + 24, (uintptr_t)xsdt);
    seal(rsdp, 20, 8);
    seal(rsdp, 36, 32);
}

static void test_fadt_and_hpet(void **state)
{
    (void)state;
    struct acpi_timers t;
    build_tables(false, false);
    assert_true(acpi_find_timers(rsdp, &t));
    assert_string_equal(t.oem, "CHASE ");
    assert_true(t.pm_timer && t.pm_timer_io);
    assert_int_equal(t.pm_timer_addr, 0x608);
    assert_false(t.pm_timer_32bit);
    assert_true(t.hpet);
    assert_int_equal(t.hpet_base, 0xfed00000);
}

static void test_extended_timer_block_wins(void **state)
{
    (void)state;
    struct acpi_timers t;
    build_tables(true, true);
    assert_true(acpi_find_timers(rsdp, &t));
    assert_int_equal(t.pm_timer_addr, 0xb008);
    assert_true(t.pm_timer_32bit);
}

static void test_bad_rsdp_and_bad_tables(void **state)
{
    (void)state;
    struct acpi_timers t;
    build_tables(false, false);
    rsdp[0] = 'X';
    assert_false(acpi_find_timers(rsdp, &t));
    assert_false(acpi_find_timers(NULL, &t));
    build_tables(false, false);
    fadt[100] ^= 0xff; /* the FADT's checksum no longer holds */
    hpet[50] ^= 0xff;
    assert_true(acpi_find_timers(rsdp, &t));
    assert_false(t.pm_timer);
    assert_false(t.hpet);
}

/* A counter that advances `step` per read and wraps at 2^bits. */
struct fake {
    struct counter c;
    uint64_t value, step, reads;
};

static uint64_t fake_read(const struct counter *c)
{
    struct fake *f = (struct fake *)c;
    f->reads++;
    f->value += f->step;
    return f->value;
}

static void test_sample_follows_wraparound(void **state)
{
    (void)state;
    /* a 24-bit PM timer near its wrap: 10 ms is 35795 counts */
    struct fake f = {{fake_read, 3579545, 24, 0}, (1u << 24) - 1000, 7, 0};
    uint64_t ticks, ns;
    assert_true(refclock_sample(&f.c, 10000000, &ticks, &ns));
    assert_true(f.value > (1u << 24));                   /* it wrapped during the sample */
    assert_true(ns >= 10000000 && ns < 10000000 + 3000); /* whole counts, one step past */
    assert_true(ticks > 0);
}

static void test_stuck_counter_fails(void **state)
{
    (void)state;
    struct fake f = {{fake_read, 3579545, 24, 0}, 5, 0, 0};
    uint64_t ticks, ns;
    assert_false(refclock_sample(&f.c, 10000000, &ticks, &ns));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fadt_and_hpet),
        cmocka_unit_test(test_extended_timer_block_wins),
        cmocka_unit_test(test_bad_rsdp_and_bad_tables),
        cmocka_unit_test(test_sample_follows_wraparound),
        cmocka_unit_test(test_stuck_counter_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
