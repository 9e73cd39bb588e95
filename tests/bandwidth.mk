# SPDX-License-Identifier: MIT
# Tests of the bandwidth sweep's interleaved passes (a fragment of the Makefile).

# The passes' order, plans and merged repetitions, with a fake measurement (deferred with `=`:
# the driver's sources are listed after the fragments).
UNIT_TESTS += experiments/test_bw_passes
test_bw_passes_SRCS = $(test_driver_SRCS) kernel/experiments/bw_passes.c
