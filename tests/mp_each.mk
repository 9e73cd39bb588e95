# SPDX-License-Identifier: MIT
# Tests of issue 50's work on every processor (a fragment of the Makefile): the mailbox an AP
# serves an experiment's jobs from (a real thread serves it).

UNIT_TESTS += efi/test_mp_loop
test_mp_loop_SRCS := efi/mp_loop.c
$(BUILD)/tests/efi/test_mp_loop: TEST_LIBS += -lpthread

# An experiment's cpus key (all, p, e, a count, a list): parsed, written back, and what it
# chooses on a hybrid table of 8 P-cores with SMT and 16 E-cores.
UNIT_TESTS += machine/test_cpu_choice
test_cpu_choice_SRCS = kernel/machine/cpu_select.c $(CONFIG_UNIT_SRCS)

# The pairs c2c measures: all up to a count, beyond it a sample with every place in it.
UNIT_TESTS += procs/test_pairs
test_pairs_SRCS := kernel/procs/pairs.c kernel/lib/rng.c tests/unit/stubs/stub_platform.c
