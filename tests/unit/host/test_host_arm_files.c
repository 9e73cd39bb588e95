// SPDX-License-Identifier: MIT
// Unit tests of chase-host's AArch64 file readers over fake trees written here: the PPTT (laid
// out as ACPI 6.5 5.2.30 says) with the CPUs' ACPI UIDs, sysfs's caches when the PPTT cannot be
// used (absent, malformed, no UID), and /proc/cpuinfo's MIDR fields of a big.LITTLE machine.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fake_tree.h"
#include "host_arm_files.h"
#include "machine/arm_pptt.h"
#include "pptt_build.h"

#define KiB 1024u
#define MiB (1024u * KiB)
#define UNIFIED_ATTR (2u << PPTT_ATTR_TYPE_SHIFT | 3u)
#define DATA_ATTR 3u
#define INSTRUCTION_ATTR (1u << PPTT_ATTR_TYPE_SHIFT | 1u)

static struct cpu_info ci;

/* One cluster of two cores (ACPI UIDs 0x100 and 0x101): private 64K L1 data and instruction
   caches and a 1M L2 each, an 8M L3 the cluster shares. */
static void build_pptt(void)
{
    pb_begin(2);
    uint32_t l3 = pb_cache(8 * MiB, 8192, 16, UNIFIED_ATTR, 0, 0);
    uint32_t pkg = pb_node(PPTT_PHYSICAL_PACKAGE, 0, 0, 1, &l3);
    for (uint32_t uid = 0x100; uid <= 0x101; uid++) {
        uint32_t l2 = pb_cache(1 * MiB, 2048, 8, UNIFIED_ATTR, 0, 0);
        uint32_t l1[2] = {pb_cache(64 * KiB, 256, 4, DATA_ATTR, l2, 0),
                          pb_cache(64 * KiB, 256, 4, INSTRUCTION_ATTR, l2, 0)};
        pb_node(PPTT_ACPI_ID_VALID | PPTT_IS_LEAF, pkg, uid, 2, l1);
    }
    pb_seal();
}

/* sysfs's description of cpu: a 32K L1 data cache and a 512K L2 (what Linux would say). */
static void put_sysfs_caches(int cpu)
{
    static const char *const idx[][5] = {{"Data", "1", "32K", "4", "0"},
                                         {"Unified", "2", "512K", "8", "0-3"}};
    for (unsigned i = 0; i < 2; i++) {
        char base[128], name[192];
        snprintf(base, sizeof(base), "/sys/devices/system/cpu/cpu%d/cache/index%u", cpu, i);
        static const char *const files[] = {"type", "level", "size", "ways_of_associativity",
                                            "shared_cpu_list"};
        for (unsigned f = 0; f < 5; f++) {
            snprintf(name, sizeof(name), "%s/%s", base, files[f]);
            ft_put_text(name, idx[i][f]);
        }
        snprintf(name, sizeof(name), "%s/coherency_line_size", base);
        ft_put_text(name, "64");
    }
}

static int setup(void **state)
{
    (void)state;
    ft_make("/tmp/chase-host-arm.XXXXXX");
    memset(&ci, 0, sizeof(ci));
    build_pptt();
    ft_put_text("/sys/devices/system/cpu/cpu0/firmware_node/uid", "256\n");
    ft_put_text("/sys/devices/system/cpu/cpu1/firmware_node/uid", "257\n");
    for (int c = 0; c < 3; c++)
        put_sysfs_caches(c);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ft_remove();
    return 0;
}

/* The PPTT, where readable, gives the caches with their levels and sharers: it wins. */
static void test_pptt_first(void **state)
{
    (void)state;
    ft_put(HOST_ARM_PPTT_PATH, pb_tab, pb_len);
    host_arm_caches(&ci, 1, ft_root);
    assert_string_equal(ci.cache_source, "PPTT");
    assert_int_equal(ci.ncaches, 4);
    assert_int_equal(ci.caches[0].level, 1);
    assert_int_equal(ci.caches[0].type, CACHE_DATA);
    assert_int_equal(ci.caches[0].size_bytes, 64 * KiB);
    assert_int_equal(ci.caches[0].ways, 4);
    assert_int_equal(ci.caches[0].line_bytes, 64);
    assert_int_equal(ci.caches[0].shared_by, 1);
    assert_int_equal(ci.caches[1].type, CACHE_INSTRUCTION);
    assert_int_equal(ci.caches[2].level, 2);
    assert_int_equal(ci.caches[2].size_bytes, 1 * MiB);
    assert_int_equal(ci.caches[3].level, 3);
    assert_int_equal(ci.caches[3].type, CACHE_UNIFIED);
    assert_int_equal(ci.caches[3].size_bytes, 8 * MiB);
    assert_int_equal(ci.caches[3].shared_by, 2);
}

/* No PPTT (not ACPI, or not root: the file is mode 0400): sysfs, saying why. */
static void test_sysfs_without_pptt(void **state)
{
    (void)state;
    host_arm_caches(&ci, 0, ft_root);
    assert_string_equal(ci.cache_source,
                        "sysfs; PPTT: /sys/firmware/acpi/tables/PPTT not readable");
    assert_int_equal(ci.ncaches, 2);
    assert_int_equal(ci.caches[0].size_bytes, 32 * KiB);
    assert_int_equal(ci.caches[1].level, 2);
    assert_int_equal(ci.caches[1].size_bytes, 512 * KiB);
    assert_int_equal(ci.caches[1].shared_by, 4);
}

/* A PPTT that does not name the CPU (no firmware node UID), or one that is malformed. */
static void test_sysfs_when_the_pptt_cannot_be_used(void **state)
{
    (void)state;
    ft_put(HOST_ARM_PPTT_PATH, pb_tab, pb_len);
    host_arm_caches(&ci, 2, ft_root);
    assert_string_equal(ci.cache_source, "sysfs; PPTT: no ACPI processor UID for cpu2 "
                                         "(/sys/devices/system/cpu/cpu2/firmware_node/uid)");
    assert_int_equal(ci.ncaches, 2);
    ft_put(HOST_ARM_PPTT_PATH, pb_tab, PPTT_FIRST_STRUCT + 10); /* cut inside the first structure */
    host_arm_caches(&ci, 0, ft_root);
    assert_true(strncmp(ci.cache_source, "sysfs; PPTT: ", 13) == 0);
    assert_int_equal(ci.caches[0].size_bytes, 32 * KiB);
    host_arm_caches(&ci, 5, ft_root); /* no PPTT use and no sysfs folder either */
    assert_true(strncmp(ci.cache_source, "none; PPTT: ", 12) == 0);
    assert_int_equal(ci.ncaches, 0);
}

/* A DynamIQ machine: four Cortex-A55 (r2p0) then four Cortex-A76 (r4p1), as Linux lists them. */
static void test_cpuinfo_midr_per_core(void **state)
{
    (void)state;
    char text[2048] = "";
    for (int c = 0; c < 8; c++) {
        bool big = c >= 4;
        char block[256];
        snprintf(block, sizeof(block),
                 "processor\t: %d\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd evtstrm\n"
                 "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: %s\n"
                 "CPU part\t: %s\nCPU revision\t: %s\n\n",
                 c, big ? "0x4" : "0x2", big ? "0xd0b" : "0xd05", big ? "1" : "0");
        strcat(text, block);
    }
    ft_put_text(HOST_ARM_CPUINFO_PATH, text);
    assert_int_equal(host_arm_cpuinfo_midr(ft_root, 0), 0x412fd050);
    assert_int_equal(host_arm_cpuinfo_midr(ft_root, 3), 0x412fd050);
    assert_int_equal(host_arm_cpuinfo_midr(ft_root, 4), 0x414fd0b1);
    assert_int_equal(host_arm_cpuinfo_midr(ft_root, 7), 0x414fd0b1);
    assert_int_equal(host_arm_cpuinfo_midr(ft_root, 8), 0); /* no such processor */
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_pptt_first),
        T(test_sysfs_without_pptt),
        T(test_sysfs_when_the_pptt_cannot_be_used),
        T(test_cpuinfo_midr_per_core),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
