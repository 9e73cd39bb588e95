# SPDX-License-Identifier: MIT
# Tests of the errors a fleet meets (issue 50): machine-check banks, the BMC's SMBIOS record
# (type 38), prefetch control per model (a fragment of the Makefile).

UNIT_TESTS += machine/test_mca
test_mca_SRCS := kernel/machine/mca.c kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c
