# SPDX-License-Identifier: MIT
# Tests of the tail experiment (issue 52): the timed batches, the period finder, the percentiles
# and what the DIMMs imply (a fragment of the Makefile).

UNIT_TESTS += arch/test_chase_batches # the tail's timed batches on this CPU
test_chase_batches_SRCS := kernel/arch/x86_64/chase_loop.S
UNIT_TESTS += chase/test_batches
test_batches_SRCS := kernel/chase/batches.c kernel/arch/x86_64/chase_loop.S \
	tests/unit/stubs/stub_platform.c

UNIT_TESTS += analysis/test_refresh analysis/test_tail_stats analysis/test_refresh_expect
test_refresh_expect_SRCS := kernel/analysis/refresh_expect.c kernel/lib/fmt.c kernel/lib/kstring.c \
	kernel/lib/kmath.c
test_refresh_SRCS := kernel/point/refresh.c kernel/lib/rng.c kernel/lib/rng_gauss.c kernel/lib/kmath.c
test_tail_stats_SRCS := kernel/point/tail_stats.c kernel/lib/kmath.c kernel/lib/stats.c \
	tests/unit/stubs/stub_platform.c

# One quick boot with the tail experiment: its files, columns and summary line.
SCRIPT_TESTS += tests/qemu/test_tail.sh

# The tail experiment's run with fake batches (its sizes, windows, bookkeeping, dropped windows,
# SMIs, stalls, a refused page size, the DIMMs' type), its own buffer stubs (deferred with `=`:
# the driver's sources are listed after the fragments).
UNIT_TESTS += experiments/test_tail
test_tail_SRCS = $(filter-out tests/unit/stubs/stub_buffer.c,$(test_driver_SRCS)) \
	kernel/experiments/tail.c kernel/chase/chain_points.c kernel/chase/chain_shapes.c \
	kernel/chase/batches.c \
	kernel/machine/smbios_mem.c kernel/lib/csv.c

# The tail verdict: the refresh line beside the DIMMs' type, the page walks' share of the tail.
UNIT_TESTS += analysis/test_tail_verdict
test_tail_verdict_SRCS = $(ANALYSIS_UNIT_SRCS)
