# SPDX-License-Identifier: MIT
# Tests of the bandwidth sweep's interleaved passes and bw_cores' run (a fragment of the Makefile).

# The passes' order, plans and merged repetitions, with a fake measurement (deferred with `=`:
# the driver's sources are listed after the fragments).
UNIT_TESTS += experiments/test_bw_passes
test_bw_passes_SRCS = $(test_driver_SRCS) kernel/experiments/bw_passes.c

# bw_cores' run on fake processors (threads, tests/unit/stubs/stub_platform.c) and fake kernels:
# where each processor streams, what the console and the rows say.
UNIT_TESTS += experiments/test_bw_cores
test_bw_cores_SRCS = $(test_driver_SRCS) kernel/experiments/bw_cores.c \
	kernel/experiments/bw_team.c kernel/experiments/bw_passes.c kernel/experiments/bw_plan.c \
	kernel/experiments/mp.c kernel/experiments/win_slice.c kernel/machine/cpu_select.c \
	kernel/machine/simd.c
