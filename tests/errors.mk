# SPDX-License-Identifier: MIT
# Tests of the errors a fleet meets (issue 50): machine-check banks, the BMC's SMBIOS record
# (type 38), prefetch control per model (a fragment of the Makefile).

UNIT_TESTS += machine/test_mca
test_mca_SRCS := kernel/machine/mca.c kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c

UNIT_TESTS += machine/test_smbios_ipmi
test_smbios_ipmi_SRCS := kernel/machine/smbios.c kernel/machine/smbios_mem.c \
	kernel/machine/smbios_ipmi.c kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c

# One boot: a BMC (SMBIOS type 38) and a machine check injected through QEMU's monitor.
SCRIPT_TESTS += tests/qemu/test_errors.sh

UNIT_TESTS += machine/test_ipmi_kcs
test_ipmi_kcs_SRCS := kernel/machine/ipmi_kcs.c kernel/lib/fmt.c kernel/lib/kstring.c \
	kernel/lib/kmath.c
