# SPDX-License-Identifier: MIT
# chase-host for AArch64 Linux, cross-built with Debian's gcc-aarch64-linux-gnu, and its test;
# the AArch64 decoders' unit tests (chaseaa64.efi: efi/aarch64/efi.mk).

# The ID register (MIDR, MPIDR, CLIDR, CCSIDR, CTR), PPTT, MADT and translation-table decoders.
UNIT_TESTS += machine/test_arm_id machine/test_arm_pptt
test_arm_id_SRCS := kernel/machine/arm_id.c kernel/lib/kstring.c
test_arm_pptt_SRCS := kernel/machine/arm_pptt.c kernel/lib/fmt.c kernel/lib/kstring.c
UNIT_TESTS += machine/test_arm_smp
test_arm_smp_SRCS := kernel/machine/arm_smp.c kernel/machine/arm_id.c kernel/lib/kstring.c
# The exception descriptions, AArch64's ESR reading with x86's vectors.
UNIT_TESTS += machine/test_fault
test_fault_SRCS := kernel/machine/fault.c kernel/lib/console.c kernel/lib/strbuf.c \
	kernel/lib/fmt.c kernel/lib/kstring.c tests/unit/stubs/stub_platform.c
UNIT_TESTS += machine/test_arm_tables machine/test_arm_cpu
$(BUILD)/test/tests/unit/machine/test_arm_tables.c.o: TEST_CFLAGS += -Iefi
test_arm_tables_SRCS := kernel/machine/arm_tables.c efi/aarch64/a64_tables_build.c \
	kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c
test_arm_cpu_SRCS := kernel/machine/arm_cpu.c kernel/machine/arm_smp.c kernel/machine/arm_id.c kernel/machine/arm_pptt.c \
	kernel/machine/cpuinfo.c kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c

AARCH64_CC := aarch64-linux-gnu-gcc
# The portable kernel includes "arch/NAME.h", which picks kernel/arch/aarch64/NAME.h here.
AARCH64_HOST_CFLAGS := $(HOST_CFLAGS)
AARCH64_ARCH_SRCS := kernel/arch/aarch64/chase_loop.S kernel/arch/aarch64/bw_kernels.S
# What chase-host reads on AArch64 instead of CPUID: the PPTT or sysfs's caches, /proc/cpuinfo's
# MIDR (the decoders themselves are in KERNEL_SRCS).
AARCH64_HOST_SRCS := tools/host/host_arm.c tools/host/host_arm_files.c
AARCH64_HOST_OBJS := $(patsubst %,$(BUILD)/host-aarch64/%.o,$(KERNEL_SRCS) $(AARCH64_ARCH_SRCS) \
	$(HOST_SRCS) $(AARCH64_HOST_SRCS))

$(BUILD)/host-aarch64/%.c.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC(a64)  $<")
	$(Q)$(AARCH64_CC) $(AARCH64_HOST_CFLAGS) -c $< -o $@

$(BUILD)/host-aarch64/%.S.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS(a64)  $<")
	$(Q)$(AARCH64_CC) $(AARCH64_HOST_CFLAGS) -c $< -o $@

# Static, so that it runs under qemu-aarch64 and on any AArch64 Linux without a sysroot.
$(BUILD)/chase-host-aarch64: $(AARCH64_HOST_OBJS)
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(AARCH64_CC) -static -o $@ $(AARCH64_HOST_OBJS)

ALL_TARGETS  += $(BUILD)/chase-host-aarch64
SCRIPT_TESTS += tests/host/test_host_aarch64.sh

# The PPTT reader under libFuzzer (tests/fuzz/test_fuzz.sh runs it with the others).
FUZZ_TARGETS += fuzz_pptt
fuzz_pptt_SRCS := kernel/machine/arm_pptt.c kernel/lib/fmt.c kernel/lib/kstring.c

# A check of the AArch64 loops themselves (where each chase ends), run by the script test.
$(BUILD)/check_loops_aarch64: tests/host/check_loops_aarch64.c kernel/arch/aarch64/chase_loop.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(AARCH64_CC) $(COMMON) -O1 -static -o $@ $^
ALL_TARGETS += $(BUILD)/check_loops_aarch64

# A check of the AArch64 bandwidth kernels (the bytes each reads and writes), run by the test.
$(BUILD)/check_bw_aarch64: tests/host/check_bw_aarch64.c kernel/arch/aarch64/bw_kernels.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(AARCH64_CC) $(COMMON) -O1 -static -o $@ $^
ALL_TARGETS += $(BUILD)/check_bw_aarch64

# chase-host's AArch64 file readers (PPTT, sysfs, /proc/cpuinfo) over fake trees.
UNIT_TESTS += host/test_host_arm_files
test_host_arm_files_SRCS := tools/host/host_arm_files.c kernel/machine/arm_pptt.c \
	kernel/lib/fmt.c kernel/lib/kstring.c
$(BUILD)/test/tests/unit/host/test_host_arm_files.c.o: TEST_CFLAGS += -Itools/host -Itests/unit/machine
