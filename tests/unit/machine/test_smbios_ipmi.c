// SPDX-License-Identifier: MIT
// Unit tests of SMBIOS type 38 (IPMI Device Information) read through the whole table reader,
// with records laid out as DSP0134 7.39 says: KCS in I/O space, BT memory-mapped with 32-bit
// spacing and address bit 0 from the modifier, SSIF, a short (2.x era) record, two records.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/smbios.h"
#include "smbios_build.h"

static struct sb_table tab;
static struct smbios_info info;
static uint8_t ep[0x20];
static char why[160];

/* A type 38 record of len bytes (0x12 in DSP0134 3.x, 0x10 before the interrupt fields). */
static uint8_t *ipmi(uint8_t len, uint8_t interface, uint8_t rev, uint64_t base, uint8_t mod)
{
    uint8_t *p = sb_add(&tab, 38, len, (const char *)NULL);
    p[4] = interface;
    p[5] = rev;
    p[6] = 0x20; /* the BMC's I2C target address */
    p[7] = 0xff; /* no NV storage device */
    sb_put32(p + 8, (uint32_t)base);
    sb_put32(p + 12, (uint32_t)(base >> 32));
    if (len > 0x10)
        p[0x10] = mod;
    return p;
}

static void read_table(void)
{
    sb_end(&tab);
    sb_ep3(ep, 3, 2, (uint32_t)tab.n, 0x7f000000);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
}

static void fresh(void)
{
    memset(&tab, 0, sizeof(tab));
}

/* QEMU's isa-ipmi-kcs: KCS at I/O 0xca2, IPMI 2.0; the base field holds 0xca2 | 1 (I/O). */
static void test_kcs_io(void **state)
{
    (void)state;
    fresh();
    uint8_t *p = ipmi(0x12, 1, 0x20, 0xca3, 0x00);
    p[0x11] = 0;
    read_table();
    const struct smbios_ipmi *b = &info.ipmi;
    assert_true(b->present);
    assert_int_equal(b->count, 1);
    assert_int_equal(b->interface, IPMI_IF_KCS);
    assert_int_equal(b->spec_major, 2);
    assert_int_equal(b->spec_minor, 0);
    assert_true(b->io_space);
    assert_int_equal(b->address, 0xca2);
    assert_int_equal(b->spacing_bytes, 1);
    assert_int_equal(b->i2c_target, 0x20);
    assert_false(b->irq_specified);
    char text[120];
    assert_string_equal(smbios_ipmi_describe(b, text, sizeof(text)),
                        "IPMI 2.0 BMC, KCS at I/O port 0xca2 (registers 1 byte apart)");
    assert_string_equal(info.note, "");
}

/* BT memory-mapped at 0xfed40001: bit 0 of the base is 0 (memory), the modifier's bit 4 gives
 * address bit 0; registers on 32-bit boundaries (bits 7:6 = 01); interrupt 11 given. */
static void test_bt_memory_mapped(void **state)
{
    (void)state;
    fresh();
    uint8_t *p = ipmi(0x12, 3, 0x15, 0xfed40000ULL, 0x40 | 0x10 | 0x08);
    p[0x11] = 11;
    read_table();
    const struct smbios_ipmi *b = &info.ipmi;
    assert_int_equal(b->interface, IPMI_IF_BT);
    assert_int_equal(b->spec_major, 1);
    assert_int_equal(b->spec_minor, 5);
    assert_false(b->io_space);
    assert_int_equal(b->address, 0xfed40001ULL);
    assert_int_equal(b->spacing_bytes, 4);
    assert_true(b->irq_specified);
    assert_int_equal(b->irq, 11);
    char text[120];
    assert_string_equal(
        smbios_ipmi_describe(b, text, sizeof(text)),
        "IPMI 1.5 BMC, BT at physical address 0xfed40001 (registers 4 bytes apart)");
}

/* SSIF: the base address field's byte holds the SMBus address shifted left by one. */
static void test_ssif(void **state)
{
    (void)state;
    fresh();
    ipmi(0x12, 4, 0x20, 0x20, 0x00);
    read_table();
    assert_int_equal(info.ipmi.interface, IPMI_IF_SSIF);
    assert_int_equal(info.ipmi.address, 0x10);
    char text[120];
    assert_string_equal(smbios_ipmi_describe(&info.ipmi, text, sizeof(text)),
                        "IPMI 2.0 BMC, SSIF at SMBus address 0x10");
}

/* A record without the modifier byte (0x10 bytes), then a second record: the first is kept
 * and both are counted; an unlisted interface code is "unknown". */
static void test_short_and_two_records(void **state)
{
    (void)state;
    fresh();
    ipmi(0x10, 1, 0x20, 0xca3, 0);
    ipmi(0x12, 9, 0x20, 0xca9, 0);
    read_table();
    assert_true(info.ipmi.short_record);
    assert_int_equal(info.ipmi.count, 2);
    assert_int_equal(info.ipmi.address, 0xca2);
    assert_int_equal(info.ipmi.spacing_bytes, 1);
    assert_string_equal(smbios_ipmi_interface_name(9), "unknown");
    assert_string_equal(smbios_ipmi_interface_name(IPMI_IF_SMIC), "SMIC");
}

/* No type 38: no BMC. */
static void test_none(void **state)
{
    (void)state;
    fresh();
    sb_add(&tab, 1, 0x1b, "Maker", (const char *)NULL);
    read_table();
    assert_false(info.ipmi.present);
    assert_int_equal(info.ipmi.count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kcs_io), cmocka_unit_test(test_bt_memory_mapped),
        cmocka_unit_test(test_ssif),   cmocka_unit_test(test_short_and_two_records),
        cmocka_unit_test(test_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
