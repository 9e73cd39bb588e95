// SPDX-License-Identifier: MIT
// Unit tests of chase-host's identity reading: Linux's SMBIOS files (entry point and DMI table)
// written here as DSP0134 lays them out, absent or not valid, and /proc/cpuinfo's microcode line.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_tree.h"
#include "host_identity.h"
#include "machine/smbios.h"
#include "smbios_build.h"

static struct machine_identity id;

static int setup(void **state)
{
    (void)state;
    ft_make("/tmp/chase-host-identity.XXXXXX");
    memset(&id, 0, sizeof(id));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ft_remove();
    free((void *)id.smbios);
    id.smbios = NULL;
    return 0;
}

static void test_tables_read(void **state)
{
    (void)state;
    static struct sb_table t;
    memset(&t, 0, sizeof(t));
    uint8_t *b = sb_add(&t, 2, 0x0f, "HostBoardCo", "HB-1", (const char *)NULL);
    b[4] = 1;
    b[5] = 2;
    uint8_t *d =
        sb_memdev(&t, "DIMM_A1", "P0 CHANNEL A", "Micron", "MTA18", 0x4000, 0x1a, 3200, 2933);
    (void)d;
    sb_end(&t);
    uint8_t ep[0x18];
    sb_ep3(ep, 3, 2, (uint32_t)t.n, 0xdead0000);
    ft_put("smbios_entry_point", ep, sizeof(ep));
    ft_put("DMI", t.b, t.n);
    host_identity_smbios(&id, ft_root);
    assert_non_null(id.smbios);
    assert_string_equal(id.smbios_why, "");
    assert_non_null(strstr(id.smbios_source, ft_root));
    assert_string_equal(id.smbios->board_maker, "HostBoardCo");
    assert_int_equal(id.smbios->device[0].size_bytes, 16ull << 30);
    assert_int_equal(id.smbios->device[0].configured_mts, 2933);
    assert_int_equal(id.smbios->bandwidth_bytes_per_s, 2933ull * 1000000 * 8);
}

static void test_absent_or_invalid(void **state)
{
    (void)state;
    host_identity_smbios(&id, ft_root);
    assert_null(id.smbios);
    assert_non_null(strstr(id.smbios_why, "could not read"));
    assert_non_null(strstr(id.smbios_why, "smbios_entry_point"));
    ft_put("smbios_entry_point", "_SM3_ not a real entry point", 28);
    host_identity_smbios(&id, ft_root);
    assert_non_null(strstr(id.smbios_why, "DMI")); /* the table is missing */
    ft_put("DMI", "\x7f\x04\x00\x00\x00\x00", 6);
    host_identity_smbios(&id, ft_root);
    assert_null(id.smbios);
    assert_non_null(strstr(id.smbios_why, "length not valid"));
    uint8_t ep[0x18];
    sb_ep3(ep, 3, 0, 6, 0);
    ep[9] ^= 0xff; /* the checksum no longer sums to 0 */
    ft_put("smbios_entry_point", ep, sizeof(ep));
    host_identity_smbios(&id, ft_root);
    assert_null(id.smbios);
    assert_non_null(strstr(id.smbios_why, "checksum"));
}

static void test_microcode_line(void **state)
{
    (void)state;
    static const char cpuinfo[] = "processor\t: 0\nmicrocode\t: 0x2b000590\n\nprocessor\t: 1\n"
                                  "microcode\t: 0x2b000591\n";
    ft_put("cpuinfo", cpuinfo, strlen(cpuinfo));
    char path[128];
    snprintf(path, sizeof(path), "%s/cpuinfo", ft_root);
    host_identity_microcode(&id, path, 1);
    assert_true(id.microcode_read);
    assert_int_equal(id.microcode, 0x2b000591);
    assert_non_null(strstr(id.microcode_how, "processor 1"));
    id.microcode = 7; /* an MSR read already: the file is not consulted */
    host_identity_microcode(&id, path, 0);
    assert_int_equal(id.microcode, 7);
    memset(&id, 0, sizeof(id));
    host_identity_microcode(&id, "/nonexistent/cpuinfo", 0);
    assert_false(id.microcode_read);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tables_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_absent_or_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_microcode_line, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
