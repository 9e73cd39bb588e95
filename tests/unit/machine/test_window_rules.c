// SPDX-License-Identifier: MIT
// Unit tests of the window rules over CPUID and CR4 values of real machine types: whether
// LFENCE needs DE_CFG[1] (AMD Zen 1/2/3/4, older AMD, Hygon, Intel), what to do about the MSR,
// and the refusal of 5-level paging.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/window_rules.h"

/* Other leaf 0x80000021 EAX bits the APM defines: NoNestedDataBp (0), NullSelectClearsBase (6). */
#define EXT21_OTHER_BITS ((1u << 0) | (1u << 6))

/*
 * Display family and the extended-leaf facts per machine type (AMD PPRs: Zen 1 is family 17h
 * models 00h-0Fh, Zen 2 17h 30h-7Fh, Zen 3 19h 00h-0Fh (Milan) and 20h-5Fh, Zen 4 19h
 * 10h-1Fh and 60h-7Fh; leaf 0x80000021 exists from Zen 3 on, its EAX[2] LfenceAlwaysSerializing
 * on Zen 4 and Milan).
 */
static void test_lfence_rule(void **state)
{
    (void)state;
    static const struct {
        const char *what;
        struct lfence_cpuid c;
        enum lfence_rule want;
    } cases[] = {
        {"Intel Skylake", {"GenuineIntel", 6, 0x80000008, 0}, LFENCE_SERIALIZING},
        {"Intel Sapphire Rapids", {"GenuineIntel", 6, 0x80000008, 0}, LFENCE_SERIALIZING},
        {"AMD K8", {"AuthenticAMD", 0x0f, 0x80000018, 0}, LFENCE_SERIALIZING},
        {"AMD family 11h", {"AuthenticAMD", 0x11, 0x8000001a, 0}, LFENCE_SERIALIZING},
        {"AMD family 10h", {"AuthenticAMD", 0x10, 0x8000001b, 0}, LFENCE_NEEDS_DE_CFG},
        {"AMD Bulldozer 15h", {"AuthenticAMD", 0x15, 0x8000001e, 0}, LFENCE_NEEDS_DE_CFG},
        {"AMD Zen 1 17h", {"AuthenticAMD", 0x17, 0x8000001f, 0}, LFENCE_NEEDS_DE_CFG},
        {"AMD Zen 2 17h", {"AuthenticAMD", 0x17, 0x80000020, 0}, LFENCE_NEEDS_DE_CFG},
        {"AMD Zen 3 19h client",
         {"AuthenticAMD", 0x19, 0x80000021, EXT21_OTHER_BITS},
         LFENCE_NEEDS_DE_CFG},
        {"AMD Zen 3 19h Milan",
         {"AuthenticAMD", 0x19, 0x80000021, EXT21_OTHER_BITS | EXT21_EAX_LFENCE_ALWAYS},
         LFENCE_SERIALIZING},
        {"AMD Zen 4 19h",
         {"AuthenticAMD", 0x19, 0x80000028, EXT21_OTHER_BITS | EXT21_EAX_LFENCE_ALWAYS},
         LFENCE_SERIALIZING},
        /* A value in EAX for a leaf the CPU does not have is not to be trusted. */
        {"AMD Zen 2, stale leaf",
         {"AuthenticAMD", 0x17, 0x80000020, EXT21_EAX_LFENCE_ALWAYS},
         LFENCE_NEEDS_DE_CFG},
        {"Hygon Dhyana 18h", {"HygonGenuine", 0x18, 0x8000001f, 0}, LFENCE_NEEDS_DE_CFG},
        {"VIA", {"CentaurHauls", 6, 0x80000008, 0}, LFENCE_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        enum lfence_rule got = lfence_rule_of(&cases[i].c);
        if (got != cases[i].want)
            fail_msg("%s: rule %d, want %d", cases[i].what, got, cases[i].want);
    }
}

/* Found set: leave it; found clear: set it for the run; unreadable: say so; else nothing. */
static void test_lfence_action(void **state)
{
    (void)state;
    uint64_t zen2_default = 0x0; /* firmware that never set the bit */
    assert_int_equal(lfence_action_of(LFENCE_NEEDS_DE_CFG, true, zen2_default), LFENCE_SET_FOR_RUN);
    assert_int_equal(lfence_action_of(LFENCE_NEEDS_DE_CFG, true, DE_CFG_LFENCE_SERIALIZE | 0x200),
                     LFENCE_ALREADY_SET);
    assert_int_equal(lfence_action_of(LFENCE_NEEDS_DE_CFG, true, 0x200), LFENCE_SET_FOR_RUN);
    assert_int_equal(lfence_action_of(LFENCE_NEEDS_DE_CFG, false, 0), LFENCE_UNREADABLE);
    assert_int_equal(lfence_action_of(LFENCE_SERIALIZING, false, 0), LFENCE_NOTHING_TO_DO);
    assert_int_equal(lfence_action_of(LFENCE_SERIALIZING, true, 0), LFENCE_NOTHING_TO_DO);
    assert_int_equal(lfence_action_of(LFENCE_UNKNOWN, true, 0), LFENCE_NOTHING_TO_DO);
    assert_non_null(strstr(lfence_action_text(LFENCE_SET_FOR_RUN), "restored"));
    assert_non_null(strstr(lfence_action_text(LFENCE_UNREADABLE), "rdtscp"));
}

/*
 * The add chain's end over whole machines: CPUID, what DE_CFG read, whether setting bit 1
 * stuck, and RDTSCP (CPUID 0x80000001 EDX[27], on every AMD part here and Intel since
 * Nehalem). rdtscp wherever LFENCE is left unsure; fenced rdtsc where it serializes.
 */
static void test_timed_end(void **state)
{
    (void)state;
    static const struct {
        const char *what;
        struct lfence_cpuid c;
        bool readable;
        uint64_t de_cfg;
        bool stuck; /* a write of bit 1 read back set */
        bool rdtscp;
        enum timed_end want;
    } cases[] = {
        {"Intel Sapphire Rapids",
         {"GenuineIntel", 6, 0x80000008, 0},
         false,
         0,
         false,
         true,
         TIMED_END_LFENCE},
        {"Zen 2, firmware left it clear, set for the run",
         {"AuthenticAMD", 0x17, 0x80000020, 0},
         true,
         0x0,
         true,
         true,
         TIMED_END_LFENCE},
        {"Zen 2, Linux or firmware set it",
         {"AuthenticAMD", 0x17, 0x80000020, 0},
         true,
         DE_CFG_LFENCE_SERIALIZE,
         false,
         true,
         TIMED_END_LFENCE},
        {"Zen 1 (QEMU -cpu EPYC under TCG): the write does not stick",
         {"AuthenticAMD", 0x17, 0x8000001f, 0},
         true,
         0x0,
         false,
         true,
         TIMED_END_RDTSCP},
        {"Zen 3 client, DE_CFG unreadable",
         {"AuthenticAMD", 0x19, 0x80000021, 0},
         false,
         0,
         false,
         true,
         TIMED_END_RDTSCP},
        {"family 10h without RDTSCP, write refused",
         {"AuthenticAMD", 0x10, 0x8000001b, 0},
         true,
         0x0,
         false,
         false,
         TIMED_END_UNSURE},
        {"Zen 4: LfenceAlwaysSerializing, DE_CFG never read",
         {"AuthenticAMD", 0x19, 0x80000028, EXT21_EAX_LFENCE_ALWAYS},
         false,
         0,
         false,
         true,
         TIMED_END_LFENCE},
        {"Hygon, unreadable",
         {"HygonGenuine", 0x18, 0x8000001f, 0},
         false,
         0,
         false,
         true,
         TIMED_END_RDTSCP},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        enum lfence_action a =
            lfence_action_of(lfence_rule_of(&cases[i].c), cases[i].readable, cases[i].de_cfg);
        a = lfence_after_set(a, cases[i].stuck);
        enum timed_end got = timed_end_of(lfence_unsure(a), cases[i].rdtscp);
        if (got != cases[i].want)
            fail_msg("%s: end %d (%s), want %d", cases[i].what, got, timed_end_fence(got),
                     cases[i].want);
    }
    assert_string_equal(timed_end_fence(TIMED_END_RDTSCP), "rdtscp; lfence");
    assert_string_equal(timed_end_fence(TIMED_END_LFENCE), "lfence; rdtsc; lfence");
    assert_non_null(strstr(timed_end_why(TIMED_END_UNSURE), "no RDTSCP"));
    /* a bit that stuck is not a failure; one that did not is, only when it had to be set */
    assert_int_equal(lfence_after_set(LFENCE_SET_FOR_RUN, true), LFENCE_SET_FOR_RUN);
    assert_int_equal(lfence_after_set(LFENCE_SET_FOR_RUN, false), LFENCE_SET_FAILED);
    assert_int_equal(lfence_after_set(LFENCE_ALREADY_SET, false), LFENCE_ALREADY_SET);
}

/* 4-level paging runs; CR4.LA57 (bit 12) stops chase with a message saying what to do. */
static void test_paging_mode(void **state)
{
    (void)state;
    char why[400] = "";
    uint64_t ovmf_cr4 = 0x668; /* DE, PAE, MCE, OSFXSR, OSXMMEXCPT: 4-level */
    assert_true(paging_mode_supported(ovmf_cr4, why, sizeof(why)));
    assert_string_equal(why, "");
    assert_true(paging_mode_supported(0x20, why, sizeof(why))); /* PAE only */
    assert_false(paging_mode_supported(0x20 | CR4_LA57_BIT, why, sizeof(why)));
    assert_non_null(strstr(why, "5-level paging"));
    assert_non_null(strstr(why, "CR4.LA57"));
    assert_non_null(strstr(why, "0x1020"));
    assert_false(paging_mode_supported(ovmf_cr4 | CR4_LA57_BIT, why, sizeof(why)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lfence_rule),
        cmocka_unit_test(test_lfence_action),
        cmocka_unit_test(test_timed_end),
        cmocka_unit_test(test_paging_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
