// SPDX-License-Identifier: MIT
// Unit tests of the topology decoder over CPUID register values laid out as the SDM (leaves 1,
// 4, 0xB, 0x1F) and the APM (0x80000008, 0x8000001E, 0x80000026) define them, and of the
// firmware cross-check: a firmware whose Location is all zeros gives the same topology.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/topology.h"
#include "platform.h"

#define LEAVES_MAX 16
#define AUTH 0x68747541U /* "Auth": AuthenticAMD */
#define GENU 0x756e6547U /* "Genu": GenuineIntel */
#define LEVEL(type, sub) ((uint32_t)(type) << 8 | (sub))

/* A processor as CPUID answers: (leaf, subleaf) -> EAX, EBX, ECX, EDX; others read 0. */
struct fake_cpu {
    unsigned n;
    struct {
        uint32_t leaf, sub, r[4];
    } e[LEAVES_MAX];
};

static void fake_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    const struct fake_cpu *f = ctx;
    for (unsigned i = 0; i < f->n; i++)
        if (f->e[i].leaf == leaf && f->e[i].sub == sub)
            memcpy(r, f->e[i].r, sizeof(f->e[i].r));
}

static void put(struct fake_cpu *f, uint32_t leaf, uint32_t sub, uint32_t a, uint32_t b, uint32_t c,
                uint32_t d)
{
    f->e[f->n].leaf = leaf;
    f->e[f->n].sub = sub;
    f->e[f->n].r[0] = a;
    f->e[f->n].r[1] = b;
    f->e[f->n].r[2] = c;
    f->e[f->n].r[3] = d;
    f->n++;
}

static struct topology decode(struct fake_cpu *f)
{
    struct topo_cpuid c = {fake_cpuid, f};
    struct topology t;
    topo_decode(&c, &t);
    return t;
}

static void expect(const struct topology *t, unsigned pkg, unsigned die, unsigned core,
                   unsigned thread, const char *source)
{
    assert_int_equal(t->package, pkg);
    assert_int_equal(t->die, die);
    assert_int_equal(t->core, core);
    assert_int_equal(t->thread, thread);
    assert_string_equal(t->source, source);
}

/*
 * An Intel two-socket part with two dies per package: leaf 0x1F lists SMT (shift 1), core
 * (shift 6), die (shift 7). x2APIC ID 231 = package 1 | die 1 | core 0x13 | thread 1.
 */
static void test_intel_leaf_1f(void **state)
{
    (void)state;
    struct fake_cpu f = {0};
    uint32_t apic = 1U << 7 | 1U << 6 | 0x13U << 1 | 1U;
    put(&f, 0, 0, 0x1f, GENU, 0, 0);
    put(&f, 0x1f, 0, 1, 2, LEVEL(1, 0), apic);
    put(&f, 0x1f, 1, 6, 56, LEVEL(2, 1), apic);
    put(&f, 0x1f, 2, 7, 112, LEVEL(5, 2), apic);
    put(&f, 0x1f, 3, 0, 0, LEVEL(0, 3), apic);
    struct topology t = decode(&f);
    assert_int_equal(t.apic_id, 231);
    expect(&t, 1, 1, (1U << 6 | 0x13U << 1) >> 1, 1, "CPUID 0x1F");
    assert_int_equal(t.pkg_bits, 7);
    /* The same processor with leaf 0xB only (max leaf 0x16): no die level, same core. */
    struct fake_cpu g = {0};
    put(&g, 0, 0, 0x16, GENU, 0, 0);
    put(&g, 0xb, 0, 1, 2, LEVEL(1, 0), apic);
    put(&g, 0xb, 1, 7, 112, LEVEL(2, 1), apic);
    put(&g, 0xb, 2, 0, 0, LEVEL(0, 2), apic);
    t = decode(&g);
    expect(&t, 1, 0, (1U << 6 | 0x13U << 1) >> 1, 1, "CPUID 0xB");
}

/*
 * AMD family 19h/1Ah leaf 0x80000026: core (its threads, shift 1), complex (shift 4), die (the
 * CCD, shift 8), socket (shift 8). x2APIC ID 343 = socket 1 | CCD 5 | core 3 | thread 1.
 */
static void test_amd_leaf_80000026(void **state)
{
    (void)state;
    struct fake_cpu f = {0};
    uint32_t apic = 1U << 8 | 5U << 4 | 3U << 1 | 1U;
    put(&f, 0, 0, 0x10, AUTH, 0, 0);
    put(&f, 0x80000000U, 0, 0x80000026U, 0, 0, 0);
    put(&f, 0x80000026U, 0, 1, 2, LEVEL(1, 0), apic);
    put(&f, 0x80000026U, 1, 4, 16, LEVEL(2, 1), apic);
    put(&f, 0x80000026U, 2, 8, 192, LEVEL(3, 2), apic);
    put(&f, 0x80000026U, 3, 8, 192, LEVEL(4, 3), apic);
    struct topology t = decode(&f);
    expect(&t, 1, 5, (5U << 4 | 3U << 1) >> 1, 1, "CPUID 0x80000026");
}

/* AMD family 17h: leaf 0xB (SMT shift 1, core shift 7), the die from 0x8000001E's node ID. */
static void test_amd_leaf_b_and_1e(void **state)
{
    (void)state;
    struct fake_cpu f = {0};
    uint32_t apic = 0x9d; /* package 1, core 14, thread 1 */
    put(&f, 0, 0, 0x10, AUTH, 0, 0);
    put(&f, 0x80000000U, 0, 0x80000020U, 0, 0, 0);
    put(&f, 0xb, 0, 1, 2, LEVEL(1, 0), apic);
    put(&f, 0xb, 1, 7, 128, LEVEL(2, 1), apic);
    put(&f, 0x8000001eU, 0, apic, 1U << 8 | 14, 3U << 8 | 7, 0); /* node 7, 4 per package */
    struct topology t = decode(&f);
    expect(&t, 1, 3, 14, 1, "CPUID 0xB");
}

/* Before leaf 0xB: Intel leaf 1 (16 logical) and leaf 4 (8 cores); AMD 0x80000008. */
static void test_legacy(void **state)
{
    (void)state;
    struct fake_cpu f = {0};
    put(&f, 0, 0, 0xa, GENU, 0, 0);
    put(&f, 1, 0, 0, 0x13U << 24 | 16U << 16, 0, 1U << 28);
    put(&f, 4, 0, 7U << 26 | 0x121, 0, 0, 0);
    struct topology t = decode(&f);
    assert_int_equal(t.apic_id, 0x13);
    expect(&t, 1, 0, 1, 1, "CPUID 1, 4");
    struct fake_cpu g = {0};
    put(&g, 0, 0, 0xd, AUTH, 0, 0);
    put(&g, 0x80000000U, 0, 0x80000008U, 0, 0, 0);
    put(&g, 1, 0, 0, 0x25U << 24 | 32U << 16, 0, 1U << 28);
    put(&g, 0x80000008U, 0, 0, 0, 5U << 12 | 15, 0); /* ApicIdSize 5, 16 threads */
    t = decode(&g);
    expect(&t, 1, 0, 5, 0, "CPUID 0x80000008");
}

/* QEMU's -smp 8,sockets=2,cores=2,threads=2 over leaf 0xB: APIC ID = pkg:core:thread bits. */
static void qemu_cpu(struct fake_cpu *f, uint32_t apic)
{
    memset(f, 0, sizeof(*f));
    put(f, 0, 0, 0xd, AUTH, 0, 0);
    put(f, 0xb, 0, 1, 2, LEVEL(1, 0), apic);
    put(f, 0xb, 1, 2, 4, LEVEL(2, 1), apic);
}

static void test_firmware_zeros_same_topology(void **state)
{
    (void)state;
    struct plat_cpu honest[8], zeros[8];
    for (uint32_t apic = 0; apic < 8; apic++) {
        struct fake_cpu f;
        qemu_cpu(&f, apic);
        struct topology t = decode(&f);
        struct topo_firmware right = {true, false, apic >> 2, 0, apic >> 1 & 1, apic & 1};
        struct topo_firmware zero = {true, false, 0, 0, 0, 0};
        topo_fill_cpu(&honest[apic], &t, &right);
        topo_fill_cpu(&zeros[apic], &t, &zero);
        assert_int_equal(zeros[apic].package, honest[apic].package);
        assert_int_equal(zeros[apic].core, honest[apic].core);
        assert_int_equal(zeros[apic].thread, honest[apic].thread);
        assert_false(honest[apic].fw_differs);
        assert_int_equal(zeros[apic].fw_differs, apic != 0); /* recorded, not believed */
    }
    /* Every processor in a place of its own. */
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = i + 1; k < 8; k++)
            assert_false(zeros[i].package == zeros[k].package && zeros[i].core == zeros[k].core &&
                         zeros[i].thread == zeros[k].thread);
    assert_int_equal(zeros[7].package, 1);
    assert_int_equal(zeros[7].core, 1);
    assert_int_equal(zeros[7].thread, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intel_leaf_1f),
        cmocka_unit_test(test_amd_leaf_80000026),
        cmocka_unit_test(test_amd_leaf_b_and_1e),
        cmocka_unit_test(test_legacy),
        cmocka_unit_test(test_firmware_zeros_same_topology),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
