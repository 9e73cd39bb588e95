// SPDX-License-Identifier: MIT
// Unit tests of the SMBIOS reader over entry points and structure tables written as DSP0134
// 3.x lays them out (types 0, 1, 2, 3, 4, 17, 127), malformed ones included, and of what the
// memory devices add up to: channels, theoretical bandwidth, the summary phrase.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/smbios.h"
#include "smbios_build.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)

static struct sb_table tab;
static struct smbios_info info;
static uint8_t ep[0x20];
static char why[160];

/* The UUID 00112233-4455-6677-8899-aabbccddeeff as SMBIOS 2.6+ stores it: the first three
 * fields little-endian (DSP0134 7.2.1). */
static const uint8_t uuid_bytes[16] = {0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66,
                                       0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};

static void firmware_system_board(struct sb_table *t)
{
    uint8_t *b = sb_add(t, 0, 0x1a, "Vendor Firm", "1.23.4", "07/15/2026", (const char *)NULL);
    b[4] = 1;
    b[5] = 2;
    b[8] = 3;
    uint8_t *s = sb_add(t, 1, 0x1b, "Maker Sys", "Product Sys", "v2", "SN-0042", "SKU-7",
                        "Family F", (const char *)NULL);
    s[4] = 1;
    s[5] = 2;
    s[6] = 3;
    s[7] = 4;
    memcpy(s + 8, uuid_bytes, sizeof(uuid_bytes));
    s[0x19] = 5;
    s[0x1a] = 6;
    uint8_t *c = sb_add(t, 3, 0x15, "Chassis Co", "To Be Filled By O.E.M.", (const char *)NULL);
    c[4] = 1;
    c[5] = 0x17; /* rack mount chassis */
    c[8] = 2;    /* asset tag: a placeholder, kept as it is */
    uint8_t *m = sb_add(t, 2, 0x0f, "Board Co  ", "BRD-9", "rev B", (const char *)NULL);
    m[4] = 1;
    m[5] = 2;
    m[6] = 3;
}

/* Type 4 (3.0 layout, 0x30 bytes): counts of 0xFF send the reader to the 16-bit fields. */
static void processor(struct sb_table *t, const char *socket, uint16_t cores, uint16_t threads)
{
    uint8_t *p = sb_add(t, 4, 0x30, socket, "Intel(R)", "Xeon Test 9000", (const char *)NULL);
    p[0x04] = 1;
    p[0x07] = 2;
    p[0x10] = 3;
    sb_put16(p + 0x14, 4000); /* max speed, MHz */
    sb_put16(p + 0x16, 2100); /* current speed */
    p[0x18] = 0x41;           /* populated, enabled */
    p[0x23] = cores > 254 ? 0xff : (uint8_t)cores;
    p[0x25] = threads > 254 ? 0xff : (uint8_t)threads;
    sb_put16(p + 0x2a, cores);
    sb_put16(p + 0x2e, threads);
}

/* A server-like table: two DDR5 modules of 32 GiB (extended size) on two channels, two empty. */
static void server_table(void)
{
    memset(&tab, 0, sizeof(tab));
    firmware_system_board(&tab);
    processor(&tab, "CPU0", 300, 600);
    uint8_t *d = sb_memdev(&tab, "CPU0_DIMM_A1", "P0 CHANNEL A", "Samsung", "M321R4GA3BB6", 0x7fff,
                           0x22, 5600, 4800);
    sb_put32(d + 0x1c, 32768); /* extended size: MiB */
    sb_memdev(&tab, "CPU0_DIMM_A2", "P0 CHANNEL A", "NO DIMM", "NO DIMM", 0, 0x02, 0, 0);
    d = sb_memdev(&tab, "CPU0_DIMM_B1", "P0 CHANNEL B", "Samsung", "M321R4GA3BB6", 0x7fff, 0x22,
                  5600, 4800);
    sb_put32(d + 0x1c, 32768);
    sb_memdev(&tab, "CPU0_DIMM_B2", "P0 CHANNEL B", "NO DIMM", "NO DIMM", 0, 0x02, 0, 0);
    sb_end(&tab);
}

static void test_v3_table_read_whole(void **state)
{
    (void)state;
    server_table();
    sb_ep3(ep, 3, 3, (uint32_t)tab.n, 0x7f000000);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_true(info.found && info.entry.is64);
    assert_int_equal(info.entry.major, 3);
    assert_int_equal(info.entry.minor, 3);
    assert_int_equal(info.entry.table_addr, 0x7f000000);
    assert_string_equal(info.bios_vendor, "Vendor Firm");
    assert_string_equal(info.bios_version, "1.23.4");
    assert_string_equal(info.bios_date, "07/15/2026");
    assert_string_equal(info.system_maker, "Maker Sys");
    assert_string_equal(info.system_product, "Product Sys");
    assert_string_equal(info.system_version, "v2");
    assert_string_equal(info.system_serial, "SN-0042");
    assert_string_equal(info.system_sku, "SKU-7");
    assert_string_equal(info.system_family, "Family F");
    assert_string_equal(info.chassis_asset_tag, "To Be Filled By O.E.M.");
    assert_true(smbios_is_placeholder(info.chassis_asset_tag));
    assert_false(smbios_is_placeholder(info.system_serial));
    char uuid[SMBIOS_UUID_CHARS + 1];
    assert_string_equal(smbios_uuid_text(&info, uuid, sizeof(uuid)),
                        "00112233-4455-6677-8899-aabbccddeeff");
    assert_false(smbios_uuid_unset(&info));
    assert_string_equal(info.system_uuid, "00112233-4455-6677-8899-aabbccddeeff");
    assert_string_equal(info.board_maker, "Board Co"); /* trailing blanks dropped */
    assert_string_equal(info.board_product, "BRD-9");
    assert_string_equal(info.board_version, "rev B");
    assert_int_equal(info.nprocessors, 1);
    const struct smbios_processor *p = &info.processor[0];
    assert_string_equal(p->socket, "CPU0");
    assert_string_equal(p->version, "Xeon Test 9000");
    assert_true(p->populated);
    assert_int_equal(p->max_mhz, 4000);
    assert_int_equal(p->current_mhz, 2100);
    assert_int_equal(p->cores, 300);   /* Core Count 2 */
    assert_int_equal(p->threads, 600); /* Thread Count 2 */
    assert_string_equal(info.note, "");
}

static void test_memory_devices(void **state)
{
    (void)state;
    server_table();
    sb_ep3(ep, 3, 3, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_int_equal(info.devices_total, 4);
    assert_int_equal(info.populated, 2);
    const struct smbios_memdev *d = &info.device[0];
    assert_string_equal(d->locator, "CPU0_DIMM_A1");
    assert_string_equal(d->bank, "P0 CHANNEL A");
    assert_string_equal(d->manufacturer, "Samsung");
    assert_string_equal(d->part, "M321R4GA3BB6");
    assert_int_equal(d->size_bytes, 32 * GIB);
    assert_int_equal(d->type, 0x22);
    assert_string_equal(smbios_memtype_name(d->type), "DDR5");
    assert_string_equal(smbios_form_factor_name(d->form_factor), "DIMM");
    assert_int_equal(d->speed_mts, 5600);
    assert_int_equal(d->configured_mts, 4800);
    assert_int_equal(d->data_width_bits, 64);
    assert_int_equal(d->total_width_bits, 72);
    assert_int_equal(d->rank, 2);
    assert_string_equal(d->serial, "SER1");
    assert_string_equal(d->asset_tag, "ASSET1");
    assert_int_equal(info.device[1].size_bytes, 0);
    assert_int_equal(info.channels, 2);
    assert_true(info.channels_named);
    assert_string_equal(info.device[0].channel, "P0 CHANNEL A");
    assert_string_equal(info.device[2].channel, "P0 CHANNEL B");
    assert_int_equal(info.memory_bytes, 64 * GIB);
    /* 2 channels x 4800 MT/s (configured) x 8 bytes */
    assert_int_equal(info.bandwidth_bytes_per_s, 2ull * 4800000000ull * 8);
    char text[160];
    assert_string_equal(smbios_memory_summary(&info, text, sizeof(text)),
                        "2 x 32 GB DDR5-4800, 2 of 4 slots");
}

static void test_size_codes_and_extended_speed(void **state)
{
    (void)state;
    memset(&tab, 0, sizeof(tab));
    sb_memdev(&tab, "DIMM 0", "BANK 0", "M", "P", 0x8000 | 512, 0x1a, 0, 0); /* 512 KiB */
    sb_memdev(&tab, "DIMM 1", "BANK 1", "M", "P", 0xffff, 0x1a, 3200, 3200); /* unknown */
    uint8_t *d = sb_memdev(&tab, "DIMM 2", "BANK 2", "M", "P", 16384, 0x22, 0xffff, 0xffff);
    sb_put32(d + 0x54, 70000); /* extended speed, MT/s */
    sb_put32(d + 0x58, 68000);
    /* 0x7FFF in a 2.3-length structure: no Extended Size field to follow */
    d = sb_add(&tab, 17, 0x1b, "DIMM 3", (const char *)NULL);
    sb_put16(d + 0x0c, 0x7fff);
    d[0x10] = 1;
    sb_end(&tab);
    sb_ep3(ep, 3, 3, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_int_equal(info.devices_total, 4);
    assert_int_equal(info.device[0].size_bytes, 512 * 1024);
    assert_false(info.device[0].size_unknown);
    assert_int_equal(info.device[1].size_bytes, 0);
    assert_true(info.device[1].size_unknown);
    assert_int_equal(info.device[2].size_bytes, 16 * GIB);
    assert_int_equal(info.device[2].speed_mts, 70000);
    assert_int_equal(info.device[2].configured_mts, 68000);
    assert_true(info.device[3].size_unknown);
    assert_string_equal(info.device[3].locator, "DIMM 3");
    assert_string_equal(info.device[3].manufacturer, ""); /* beyond its formatted area */
    /* no channel in the names: each device its own channel, said so */
    assert_false(info.channels_named);
    assert_int_equal(info.channels, 2);
    /* the 512 KiB device has no speed: no total bandwidth */
    assert_int_equal(info.bandwidth_bytes_per_s, 0);
}

static void test_mixed_modules_summary(void **state)
{
    (void)state;
    memset(&tab, 0, sizeof(tab));
    sb_memdev(&tab, "ChannelA-DIMM0", "BANK 0", "Kingston", "K1", 16384, 0x1a, 3200, 3200);
    sb_memdev(&tab, "ChannelA-DIMM1", "BANK 1", "Kingston", "K1", 16384, 0x1a, 3200, 2933);
    sb_memdev(&tab, "ChannelB-DIMM0", "BANK 2", "Crucial", "C8", 8192, 0x1a, 2666, 2666);
    sb_memdev(&tab, "ChannelB-DIMM1", "BANK 3", "NO DIMM", "NO DIMM", 0, 0x02, 0, 0);
    sb_end(&tab);
    sb_ep3(ep, 3, 0, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_int_equal(info.channels, 2);
    assert_string_equal(info.device[1].channel, "ChannelA");
    assert_string_equal(info.device[2].channel, "ChannelB");
    /* channel A runs at its slowest device's 2933, channel B at 2666 */
    assert_int_equal(info.bandwidth_bytes_per_s, (2933ull + 2666ull) * 1000000ull * 8);
    char text[160];
    assert_string_equal(smbios_memory_summary(&info, text, sizeof(text)),
                        "1 x 16 GB DDR4-3200 + 1 x 16 GB DDR4-2933 + 1 x 8 GB DDR4-2666, "
                        "3 of 4 slots");
}

static void test_v2_entry_point(void **state)
{
    (void)state;
    server_table();
    size_t first_two = 0;
    /* the 2.x entry point counts structures: only the first two (types 0 and 1) are read */
    sb_ep2(ep, 2, 8, (uint16_t)tab.n, 0xf0000, 2);
    assert_true(smbios_read(ep, 0x1f, tab.b, tab.n, &info, why, sizeof(why)));
    assert_false(info.entry.is64);
    assert_int_equal(info.entry.major, 2);
    assert_int_equal(info.entry.minor, 8);
    assert_int_equal(info.entry.table_addr, 0xf0000);
    assert_int_equal(info.structures, 2);
    assert_string_equal(info.system_product, "Product Sys");
    assert_string_equal(info.board_product, "");
    (void)first_two;
    ep[0x1c] = 0; /* a corrupted 2.x entry point fails its checksum */
    assert_false(smbios_read(ep, 0x1f, tab.b, tab.n, &info, why, sizeof(why)));
    assert_non_null(strstr(why, "checksum"));
    assert_false(info.found);
}

static void test_bad_entry_points(void **state)
{
    (void)state;
    server_table();
    sb_ep3(ep, 3, 3, (uint32_t)tab.n, 0);
    ep[7] ^= 1;
    assert_false(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_non_null(strstr(why, "checksum"));
    sb_ep3(ep, 3, 3, (uint32_t)tab.n, 0);
    assert_false(smbios_read(ep, 0x10, tab.b, tab.n, &info, why, sizeof(why)));
    assert_non_null(strstr(why, "length not valid"));
    assert_false(smbios_read((const uint8_t *)"_XX_ nothing here", 17, tab.b, tab.n, &info, why,
                             sizeof(why)));
    assert_non_null(strstr(why, "anchor"));
    assert_false(smbios_read(NULL, 0, NULL, 0, &info, why, sizeof(why)));
}

/* The table's stated size bounds the walk; structures that break the rules end it. */
static void test_malformed_tables(void **state)
{
    (void)state;
    server_table();
    size_t whole = tab.n;
    /* stated smaller than the table: a structure runs past the stated size */
    sb_ep3(ep, 3, 3, 67, 0); /* type 0 is 57 bytes; type 1 (27 + strings) then runs past 67 */
    assert_true(smbios_read(ep, 0x18, tab.b, whole, &info, why, sizeof(why)));
    assert_string_equal(info.bios_vendor, "Vendor Firm");
    assert_string_equal(info.system_maker, "");
    assert_non_null(strstr(info.note, "runs past"));
    /* stated larger than the bytes there are: the bytes bound it */
    sb_ep3(ep, 3, 3, 0xffffffffu, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, whole - 1, &info, why, sizeof(why)));
    assert_int_equal(info.devices_total, 4);
    assert_non_null(strstr(info.note, "unterminated")); /* the end structure was cut */
    /* a structure length below its header */
    memset(&tab, 0, sizeof(tab));
    firmware_system_board(&tab);
    size_t bad = tab.n;
    sb_end(&tab);
    tab.b[bad + 1] = 2;
    sb_ep3(ep, 3, 3, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_string_equal(info.board_product, "BRD-9");
    assert_int_equal(info.structures, 4); /* types 0, 1, 3, 2 */
    assert_non_null(strstr(info.note, "too short"));
    /* a string set with no double NUL before the end */
    memset(&tab, 0, sizeof(tab));
    uint8_t *b = sb_add(&tab, 0, 0x1a, "Vendor", (const char *)NULL);
    b[4] = 1;
    tab.n -= 1; /* drop the set's final NUL */
    sb_ep3(ep, 3, 3, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_false(info.found);
    assert_string_equal(info.bios_vendor, "");
    assert_non_null(strstr(info.note, "unterminated"));
}

/* String numbers past the set, zero, and unprintable bytes. */
static void test_strings(void **state)
{
    (void)state;
    memset(&tab, 0, sizeof(tab));
    uint8_t *s = sb_add(&tab, 1, 0x1b, "A\x01\x80Z", (const char *)NULL);
    s[4] = 1; /* maker: string 1 */
    s[5] = 7; /* product: no string 7 */
    s[6] = 0; /* version: none */
    sb_end(&tab);
    sb_ep3(ep, 3, 0, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_string_equal(info.system_maker, "A??Z");
    assert_string_equal(info.system_product, "");
    assert_string_equal(info.system_version, "");
}

static void test_no_devices_and_overflow(void **state)
{
    (void)state;
    memset(&tab, 0, sizeof(tab));
    firmware_system_board(&tab);
    sb_end(&tab);
    sb_ep3(ep, 3, 0, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    char text[160];
    assert_string_equal(smbios_memory_summary(&info, text, sizeof(text)),
                        "no memory devices listed");
    memset(&tab, 0, sizeof(tab));
    for (unsigned i = 0; i < SMBIOS_DEVICES_MAX + 3; i++)
        sb_memdev(&tab, "D", "B", "M", "P", 0, 0x02, 0, 0);
    sb_end(&tab);
    sb_ep3(ep, 3, 0, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_int_equal(info.ndevices, SMBIOS_DEVICES_MAX);
    assert_int_equal(info.devices_total, SMBIOS_DEVICES_MAX + 3);
    assert_non_null(strstr(info.note, "only counted"));
    assert_string_equal(smbios_memory_summary(&info, text, sizeof(text)),
                        "no memory device installed, 0 of 131 slots");
    assert_string_equal(smbios_memtype_name(0x99), "unknown");
    assert_string_equal(smbios_form_factor_name(0x0d), "SODIMM");
}

/* Before 2.6 the UUID's bytes are printed as stored; all 00h and all FFh say it is not set; a
 * type 1 of the 2.0 length (8 bytes) holds none. */
static void test_uuid_versions_and_unset(void **state)
{
    (void)state;
    server_table();
    sb_ep3(ep, 2, 5, (uint32_t)tab.n, 0); /* a 2.5 table in a 3.0 entry point: the order */
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    char uuid[SMBIOS_UUID_CHARS + 1];
    assert_string_equal(smbios_uuid_text(&info, uuid, sizeof(uuid)),
                        "33221100-5544-7766-8899-aabbccddeeff");
    assert_string_equal(info.system_uuid, "33221100-5544-7766-8899-aabbccddeeff");
    memset(info.system_uuid_bytes, 0xff, sizeof(info.system_uuid_bytes));
    assert_true(smbios_uuid_unset(&info));
    memset(info.system_uuid_bytes, 0x00, sizeof(info.system_uuid_bytes));
    assert_true(smbios_uuid_unset(&info));
    assert_string_equal(smbios_uuid_text(&info, uuid, sizeof(uuid)),
                        "00000000-0000-0000-0000-000000000000");
    memset(&tab, 0, sizeof(tab));
    uint8_t *s = sb_add(&tab, 1, 0x08, "Old Maker", (const char *)NULL);
    s[4] = 1;
    sb_end(&tab);
    sb_ep3(ep, 3, 0, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_false(info.system_uuid_listed);
    assert_false(smbios_uuid_unset(&info));
    assert_string_equal(smbios_uuid_text(&info, uuid, sizeof(uuid)), "");
    assert_string_equal(info.system_serial, "");
    assert_string_equal(info.system_uuid, "");
    /* an all-FFh UUID in the table: system_uuid "" (not set), its bytes still printable */
    server_table();
    uint8_t *u = memmem(tab.b, tab.n, uuid_bytes, sizeof(uuid_bytes));
    memset(u, 0xff, 16);
    sb_ep3(ep, 3, 3, (uint32_t)tab.n, 0);
    assert_true(smbios_read(ep, 0x18, tab.b, tab.n, &info, why, sizeof(why)));
    assert_true(smbios_uuid_unset(&info));
    assert_string_equal(info.system_uuid, "");
    assert_string_equal(smbios_uuid_text(&info, uuid, sizeof(uuid)),
                        "ffffffff-ffff-ffff-ffff-ffffffffffff");
}

/* The placeholders firmware leaves in identity fields, in any case; values and absence are not. */
static void test_placeholders(void **state)
{
    (void)state;
    static const char *const yes[] = {
        "To Be Filled By O.E.M.",
        "to be filled by o.e.m.",
        "Default string",
        "System Serial Number",
        "NOT SPECIFIED",
        "0",
        "00000000",
        " ",
        "0 0 ",
    };
    static const char *const no[] = {"",     "ABC123",           "0000A", "Default", "To Be Filled",
                                     "1000", "Not Specified yet"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        assert_true(smbios_is_placeholder(yes[i]));
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        assert_false(smbios_is_placeholder(no[i]));
    assert_false(smbios_is_placeholder(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v3_table_read_whole),
        cmocka_unit_test(test_memory_devices),
        cmocka_unit_test(test_size_codes_and_extended_speed),
        cmocka_unit_test(test_mixed_modules_summary),
        cmocka_unit_test(test_v2_entry_point),
        cmocka_unit_test(test_bad_entry_points),
        cmocka_unit_test(test_malformed_tables),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_no_devices_and_overflow),
        cmocka_unit_test(test_uuid_versions_and_unset),
        cmocka_unit_test(test_placeholders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
