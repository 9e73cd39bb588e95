# SPDX-License-Identifier: MIT
# Tests of issue 50's work on every processor (a fragment of the Makefile): the mailbox an AP
# serves an experiment's jobs from (a real thread serves it).

UNIT_TESTS += efi/test_mp_loop
test_mp_loop_SRCS := efi/mp_loop.c
$(BUILD)/tests/efi/test_mp_loop: TEST_LIBS += -lpthread
