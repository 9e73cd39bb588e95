// SPDX-License-Identifier: MIT
// Unit tests of the prefetch key's MSR handling: off and back, an MSR that ignores writes,
// one that faults, no documented control, and restoring twice (exit after panic).
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
    unsigned writes;
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
    if (!fake.exists || msr != fake.msr)
        return false;
    fake.writes++;
    if (!fake.ignores_writes)
        fake.value = value;
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
    m.facts.prefetch.msr = 0x1a4;
    m.facts.prefetch.disable_bits = 0xf;
    m.facts.prefetch.names = "four";
    m.facts.prefetch.doc = "doc";
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
    assert_non_null(strstr(p.note, "did not keep 0xf (read back 0x0)"));
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_off_then_restored),
        cmocka_unit_test(test_msr_ignores_writes),
        cmocka_unit_test(test_msr_faults_or_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
