// SPDX-License-Identifier: MIT
// Unit tests of the AArch64 processor description: cpu_info from MIDR, CLIDR and CCSIDR as a
// Cortex-A72 reports them (Cortex-A72 TRM r0p3, 4.3), caches from a PPTT, the MADT's GICC UID.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/arm_cpu.h"
#include "machine/arm_smp.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)

/* CCSIDR_EL1 in the 32-bit format: NumSets [27:13], Associativity [12:3], LineSize [2:0]. */
static uint64_t ccsidr32(unsigned sets, unsigned ways, unsigned line_bytes)
{
    unsigned ls = 0;
    while ((16u << ls) < line_bytes)
        ls++;
    return ((uint64_t)(sets - 1) << 13) | ((uint64_t)(ways - 1) << 3) | ls;
}

/* The Cortex-A72 of QEMU's -cpu cortex-a72: 32K 2-way L1D, 48K 3-way L1I, 1M 16-way L2. */
static void a72_regs(struct arm_regs *r)
{
    memset(r, 0, sizeof(*r));
    r->read = true;
    r->el = 1;
    r->midr = 0x410fd083;
    r->clidr = 0x0a200023; /* L1 separate, L2 unified, LoUU 1, LoC 2, LoUIS 1 */
    r->ccsidr[0][0] = ccsidr32(256, 2, 64);
    r->ccsidr[0][1] = ccsidr32(256, 3, 64);
    r->ccsidr[1][0] = ccsidr32(1024, 16, 64);
    r->timer_hz = 62500000;
}

static void test_describe_a72(void **state)
{
    (void)state;
    struct arm_regs r;
    struct cpu_info ci;
    a72_regs(&r);
    arm_cpu_describe(&ci, &r);
    assert_string_equal(ci.vendor, "Arm");
    assert_string_equal(ci.brand, "Cortex-A72 r0p3 (MIDR 0x410fd083)");
    assert_string_equal(ci.cache_source, "CLIDR_EL1/CCSIDR_EL1");
    assert_int_equal(ci.ncaches, 3);
    assert_int_equal(ci.caches[0].level, 1);
    assert_int_equal(ci.caches[0].type, CACHE_DATA);
    assert_int_equal(ci.caches[0].size_bytes, 32 * KiB);
    assert_int_equal(ci.caches[1].type, CACHE_INSTRUCTION);
    assert_int_equal(ci.caches[1].size_bytes, 48 * KiB);
    assert_int_equal(ci.caches[2].level, 2);
    assert_int_equal(ci.caches[2].type, CACHE_UNIFIED);
    assert_int_equal(ci.caches[2].size_bytes, 1 * MiB);
    assert_int_equal(ci.caches[2].ways, 16);
    assert_int_equal(ci.cpuid_tsc_hz, 62500000);
    assert_string_equal(ci.cpuid_tsc_leaf, "CNTFRQ_EL0");
}

static void put32(uint8_t *at, uint32_t v)
{
    memcpy(at, &v, 4);
}

static void put64(uint8_t *at, uint64_t v)
{
    memcpy(at, &v, 8);
}

/* A PPTT: one package node with a 2 MiB L2, one leaf (ACPI ID 7) with a 64 KiB L1D. */
static size_t pptt_build(uint8_t *t)
{
    memset(t, 0, 256);
    memcpy(t, "PPTT", 4);
    t[8] = 2;
    uint8_t *pkg = t + 36, *l2 = pkg + 24, *leaf = l2 + 24, *l1 = leaf + 24;
    pkg[0] = PPTT_TYPE_PROCESSOR, pkg[1] = 24;
    put32(pkg + 4, PPTT_PHYSICAL_PACKAGE);
    put32(pkg + 16, 1);
    put32(pkg + 20, (uint32_t)(l2 - t));
    l2[0] = PPTT_TYPE_CACHE, l2[1] = PPTT_CACHE_BYTES;
    put32(l2 + 4, PPTT_CACHE_SIZE_VALID | PPTT_CACHE_WAYS_VALID | PPTT_CACHE_TYPE_VALID);
    put32(l2 + 12, 2 * MiB);
    l2[20] = 8;
    l2[21] = 2 << PPTT_ATTR_TYPE_SHIFT;
    leaf[0] = PPTT_TYPE_PROCESSOR, leaf[1] = 24;
    put32(leaf + 4, PPTT_IS_LEAF | PPTT_ACPI_ID_VALID);
    put32(leaf + 8, (uint32_t)(pkg - t));
    put32(leaf + 12, 7);
    put32(leaf + 16, 1);
    put32(leaf + 20, (uint32_t)(l1 - t));
    l1[0] = PPTT_TYPE_CACHE, l1[1] = PPTT_CACHE_BYTES;
    put32(l1 + 4, PPTT_CACHE_SIZE_VALID | PPTT_CACHE_LINE_VALID | PPTT_CACHE_TYPE_VALID);
    put32(l1 + 12, 64 * KiB);
    l1[22] = 64;
    l1[21] = 0 << PPTT_ATTR_TYPE_SHIFT;
    size_t len = (size_t)(l1 + PPTT_CACHE_BYTES - t);
    put32(t + 4, (uint32_t)len);
    return len;
}

static void test_caches_from_pptt(void **state)
{
    (void)state;
    static uint8_t t[256];
    static struct pptt p;
    char why[120];
    size_t len = pptt_build(t);
    assert_true(pptt_parse(t, len, &p, why, sizeof(why)));
    struct arm_regs r;
    struct cpu_info ci;
    a72_regs(&r);
    arm_cpu_describe(&ci, &r);
    assert_false(arm_cpu_caches_from_pptt(&ci, &p, 3)); /* no such processor */
    assert_string_equal(ci.cache_source, "CLIDR_EL1/CCSIDR_EL1");
    assert_true(arm_cpu_caches_from_pptt(&ci, &p, 7));
    assert_string_equal(ci.cache_source, "ACPI PPTT");
    assert_int_equal(ci.ncaches, 2);
    assert_int_equal(ci.caches[0].level, 1);
    assert_int_equal(ci.caches[0].type, CACHE_DATA);
    assert_int_equal(ci.caches[0].size_bytes, 64 * KiB);
    assert_int_equal(ci.caches[0].line_bytes, 64);
    assert_int_equal(ci.caches[1].level, 2);
    assert_int_equal(ci.caches[1].type, CACHE_UNIFIED);
    assert_int_equal(ci.caches[1].size_bytes, 2 * MiB);
    assert_int_equal(ci.caches[1].ways, 8);
    assert_int_equal(ci.caches[1].shared_by, 1);
}

/*
 * KVM on Arm makes CCSIDR up: only the line size is real, every level decodes as one 64-byte
 * line. Those sizes are unknown (no cache kept, cache_source says why); a PPTT with sizes gives
 * them, and cache_source says the PPTT.
 */
static void test_kvm_ccsidr(void **state)
{
    (void)state;
    static uint8_t t[256];
    static struct pptt p;
    char why[120];
    struct arm_regs r;
    struct cpu_info ci;
    a72_regs(&r);
    r.ccsidr[0][0] = r.ccsidr[0][1] = r.ccsidr[1][0] = ccsidr32(1, 1, 64);
    arm_cpu_describe(&ci, &r);
    assert_int_equal(ci.ncaches, 0); /* without a PPTT: unknown */
    assert_null(cpuinfo_llc(&ci));
    assert_string_equal(ci.cache_source, "CLIDR_EL1/CCSIDR_EL1" CACHE_SIZES_UNKNOWN);
    size_t len = pptt_build(t);
    assert_true(pptt_parse(t, len, &p, why, sizeof(why)));
    assert_true(arm_cpu_caches_from_pptt(&ci, &p, 7));
    assert_string_equal(ci.cache_source, "ACPI PPTT");
    assert_int_equal(ci.ncaches, 2);
    assert_int_equal(ci.caches[0].size_bytes, 64 * KiB);
    assert_int_equal(cpuinfo_llc(&ci)->size_bytes, 2 * MiB);
}

static void test_madt_gicc_uid(void **state)
{
    (void)state;
    static uint8_t t[MADT_FIRST_ENTRY + 2 * 80 + 8];
    memset(t, 0, sizeof(t));
    memcpy(t, "APIC", 4);
    uint8_t *e = t + MADT_FIRST_ENTRY;
    for (unsigned i = 0; i < 2; i++, e += 80) {
        e[0] = MADT_TYPE_GICC, e[1] = 80;
        put32(e + MADT_GICC_UID, 10 + i);
        put64(e + MADT_GICC_MPIDR, 0x100ULL * i); /* Aff1 = i */
    }
    e[0] = 0x0c, e[1] = 8; /* a GICD entry after them */
    put32(t + 4, (uint32_t)sizeof(t));
    uint32_t uid = 0;
    assert_true(arm_madt_gicc_uid(t, 0x80000100ULL, &uid)); /* MPIDR bit 31 (RES1) ignored */
    assert_int_equal(uid, 11);
    assert_true(arm_madt_gicc_uid(t, 0x80000000ULL, &uid));
    assert_int_equal(uid, 10);
    assert_false(arm_madt_gicc_uid(t, 0x80000200ULL, &uid));
    t[MADT_FIRST_ENTRY + 1] = 1; /* a malformed length */
    assert_false(arm_madt_gicc_uid(t, 0x80000100ULL, &uid));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe_a72),
        cmocka_unit_test(test_caches_from_pptt),
        cmocka_unit_test(test_kvm_ccsidr),
        cmocka_unit_test(test_madt_gicc_uid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
