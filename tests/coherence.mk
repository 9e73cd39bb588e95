# SPDX-License-Identifier: MIT
# Tests of issue 53's coherence work (a fragment of the Makefile): c2c's line states (their set-up
# and timed walk on real threads, the home node away from a pair, the shared state's helper) and
# the atomics experiment's contended increments.

UNIT_TESTS += procs/test_linestate
test_linestate_SRCS := kernel/procs/linestate.c kernel/procs/contend.c kernel/procs/win_slice.c \
	kernel/lib/rng.c
$(BUILD)/tests/procs/test_linestate: TEST_LIBS += -lpthread
