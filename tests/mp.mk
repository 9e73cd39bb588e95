# SPDX-License-Identifier: MIT
# Tests of the work on several processors: windows cut to window_max_ms on every processor,
# window records kept per processor, more than 64 processors (a fragment of the Makefile).

UNIT_TESTS += procs/test_win_slice efi/x86_64/test_window_stats
test_win_slice_SRCS := kernel/procs/win_slice.c
test_window_stats_SRCS := efi/x86_64/x64_window_stats.c

# chase-host's processor table over a sysfs tree the test writes (2 x 96 threads).
UNIT_TESTS += host/test_host_cpus
test_host_cpus_SRCS := tools/host/host_cpus.c kernel/machine/cpu_select.c \
	tests/unit/stubs/stub_platform.c
$(BUILD)/test/tests/unit/host/test_host_cpus.c.o: TEST_CFLAGS += -Itools/host

# More than 64 processors in QEMU (-smp 96 as two packages).
SCRIPT_TESTS += tests/qemu/test_many_cpus.sh

# chase-host's memory nodes over a sysfs tree the test writes, and on two nodes: Debian's kernel
# (make deps) boots in QEMU an initramfs of the static chase-host and this init, which runs it
# and prints its files (tests/host/test_host_numa.sh).
UNIT_TESTS += host/test_host_numa
test_host_numa_SRCS := tools/host/host_numa.c kernel/machine/numa_table.c kernel/lib/kstring.c \
	tests/unit/stubs/stub_platform.c
$(BUILD)/test/tests/unit/host/test_host_numa.c.o: TEST_CFLAGS += -Itools/host
$(BUILD)/numa_init: tests/host/numa_init.c
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(CC) -std=gnu11 $(WARN) -O2 -D_GNU_SOURCE -static -o $@ $<
ALL_TARGETS += $(BUILD)/numa_init $(BUILD)/chase-host-static
