// SPDX-License-Identifier: MIT
// Unit tests of the exception descriptions: x86 vectors, and AArch64's syndrome (ESR_ELx) as
// chase.efi's vectors record it, with the values the fault_test loads produce.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/fault.h"

/* An x86 page fault keeps its old wording (tests/qemu/test_machine.sh greps it). */
static void test_x86_page_fault(void **state)
{
    (void)state;
    struct fault_info f = {
        .faulted = true, .vector = 14, .error_code = 4, .rip = 0x1000, .cr2 = 0x7f0000000000ULL};
    char buf[200];
    fault_describe(buf, sizeof(buf), &f);
    assert_string_equal(buf, "page fault (#PF, vector 14) at RIP 0x1000, error code 0x4, "
                             "CR2 0x7f0000000000");
    assert_true(!fault_is_interruption(&f));
}

/*
 * A load from an unmapped address at EL1: ESR 0x96000006 is EC 0x25 (data abort, same EL),
 * IL set, ISV clear, DFSC 0b000110 (translation fault, level 2) (Arm ARM D23.2.41, ISS
 * encoding for a Data Abort).
 */
static void test_a64_data_abort(void **state)
{
    (void)state;
    struct fault_info f = {.faulted = true,
                           .aarch64 = true,
                           .vector = 0x25,
                           .error_code = 0x96000006ULL,
                           .rip = 0x5f123456ULL,
                           .cr2 = 0x7f0000000000ULL};
    char buf[200];
    fault_describe(buf, sizeof(buf), &f);
    assert_string_equal(buf, "data abort (EC 0x25, ESR 0x96000006) at ELR 0x5f123456, "
                             "FAR 0x7f0000000000");
}

/* EC 0x12 (HVC from AArch32) and 0x02 are x86's machine check and NMI numbers: on AArch64 no
   exception class is taken for an interruption that only costs a window. */
static void test_a64_never_interruption(void **state)
{
    (void)state;
    struct fault_info f = {.faulted = true, .aarch64 = true, .vector = FAULT_VECTOR_MACHINE_CHECK};
    assert_true(!fault_is_interruption(&f));
    f.vector = FAULT_VECTOR_NMI;
    assert_true(!fault_is_interruption(&f));
    f.aarch64 = false;
    assert_true(fault_is_interruption(&f));
}

static void test_a64_class_names(void **state)
{
    (void)state;
    assert_string_equal(fault_a64_class_name(0x18), "system register access trap");
    assert_string_equal(fault_a64_class_name(0x19), "SVE access trap");
    assert_string_equal(fault_a64_class_name(FAULT_A64_INTERRUPT),
                        "interrupt (IRQ or FIQ) with DAIF masked");
    assert_string_equal(fault_a64_class_name(0x3f), "exception");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x86_page_fault),
        cmocka_unit_test(test_a64_data_abort),
        cmocka_unit_test(test_a64_never_interruption),
        cmocka_unit_test(test_a64_class_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
