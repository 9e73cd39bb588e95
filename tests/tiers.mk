# SPDX-License-Identifier: MIT
# Tests of the memory tiers: the HMAT reader (unit test and fuzz target), special-purpose memory
# as a tier target, and the QEMU boot with hmat=on (a fragment of the Makefile).

UNIT_TESTS += machine/test_hmat
test_hmat_SRCS := kernel/machine/hmat.c kernel/machine/acpi.c kernel/lib/fmt.c \
	kernel/lib/kstring.c kernel/lib/kmath.c

# The memory-side cache sweep's span and step (numa.msc.csv).
UNIT_TESTS += lib/test_msc
test_msc_SRCS := kernel/lib/msc.c kernel/lib/stats.c kernel/lib/fmt.c kernel/lib/kstring.c \
	kernel/lib/kmath.c tests/unit/stubs/stub_platform.c

FUZZ_TARGETS += fuzz_hmat
fuzz_hmat_SRCS := kernel/machine/hmat.c kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c

# chase-host reads the HMAT Linux shows (host_numa.c): its unit test links the reader.
test_host_numa_SRCS += kernel/machine/hmat.c kernel/lib/fmt.c kernel/lib/kmath.c

# QEMU q35 with hmat=on: a node with processors, a CPU-less node, HMAT's figures beside numa's.
SCRIPT_TESTS += tests/qemu/test_hmat.sh

# chase-host on Debian's kernel in QEMU with hmat=on: a CPU-less node bound with mbind, the HMAT
# read from sysfs (tests/host/test_host_numa.sh's way: numa_init and the static chase-host).
SCRIPT_TESTS += tests/host/test_host_tiers.sh
