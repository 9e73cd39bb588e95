# SPDX-License-Identifier: MIT
# Tests of the bandwidth sweep's interleaved passes, bw_cores' run and numa's bandwidth matrix
# (a fragment of the Makefile).

# The passes' order, plans and merged repetitions, with a fake measurement (deferred with `=`:
# the driver's sources are listed after the fragments).
UNIT_TESTS += stream/test_bw_passes
test_bw_passes_SRCS = $(test_driver_SRCS) kernel/stream/bw_passes.c

# The experiments that run teams of processors (bw_team), on fake processors (threads,
# tests/unit/stubs/stub_platform.c): bw_cores' run with fake kernels (where each processor
# streams, what the console and the rows say), and what numa's read bandwidth matrix reads
# against the last caches of a node's processors (several L3 instances on a node of AMD CCXs).
BW_TEAM_TEST_SRCS = $(test_driver_SRCS) kernel/stream/bw_team.c \
	kernel/stream/bw_passes.c kernel/stream/bw_plan.c kernel/procs/mp.c \
	kernel/procs/win_slice.c kernel/machine/cpu_select.c kernel/machine/simd.c
UNIT_TESTS += experiments/test_bw_cores stream/test_node_bw
test_bw_cores_SRCS = $(BW_TEAM_TEST_SRCS) kernel/experiments/bw_cores.c kernel/stream/bw_levels.c
test_node_bw_SRCS = $(BW_TEAM_TEST_SRCS) kernel/stream/node_bw.c kernel/machine/numa_table.c
