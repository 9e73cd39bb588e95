# SPDX-License-Identifier: MIT
# chaseaa64.efi: chase for AArch64 UEFI, built with Debian's cross compiler and GNU-EFI's arm64
# package unpacked into the build tree (it cannot be installed beside the amd64 one).

AARCH64_LD      := aarch64-linux-gnu-ld
AARCH64_OBJCOPY := aarch64-linux-gnu-objcopy
# GNU-EFI for arm64: the .deb (tools/deps.sh fetches it; the rule below does too when it can),
# unpacked with dpkg-deb -x. The stamp is its crt0.
A64_GNUEFI_DEB := $(BUILD)/deps/gnu-efi_arm64.deb
A64_GNUEFI     := $(BUILD)/gnu-efi-aarch64/usr
A64_EFI_CRT0   := $(A64_GNUEFI)/lib/crt0-efi-aarch64.o

$(A64_GNUEFI_DEB):
	$(Q)tools/deps.sh --gnu-efi-arm64 $@

$(A64_EFI_CRT0): $(A64_GNUEFI_DEB)
	@$(if $(Q),echo "  UNPACK   $<")
	$(Q)rm -rf $(BUILD)/gnu-efi-aarch64 && dpkg-deb -x $< $(BUILD)/gnu-efi-aarch64 && touch $@

# Floating point and Advanced SIMD are on under UEFI on AArch64 (UEFI 2.10, 2.3.6.4), so the
# kernel's doubles need no -mgeneral-regs-only.
A64_EFI_CFLAGS := $(COMMON) -O2 -g0 -isystem $(A64_GNUEFI)/include/efi \
	-isystem $(A64_GNUEFI)/include/efi/aarch64 -Iefi -DCHASE_EFI -ffreestanding -fno-stack-protector \
	-fno-stack-check -fpic -fshort-wchar -fno-builtin
# GNU-EFI 3.0.15's arm64 crt0 carries its own PE header: the image is linked with its script
# and copied out as a flat binary (its Make.defaults does the same without efi-app-aarch64).
A64_EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic -T $(A64_GNUEFI)/lib/elf_aarch64_efi.lds \
	--defsym=EFI_SUBSYSTEM=0xa --no-warn-rwx-segments

# The front end on AArch64: efi/'s portable files and efi/aarch64/ (windows, registers,
# translation tables, processors, reference clocks).
A64_EFI_SRCS := $(EFI_SRCS) efi/aarch64/a64_machine.c efi/aarch64/a64_mp.c \
	efi/aarch64/a64_paging.c efi/aarch64/a64_tables_build.c efi/aarch64/a64_timers.c \
	efi/aarch64/a64_window.c
A64_EFI_KERNEL_SRCS := $(KERNEL_SRCS)
# The exception vectors exist only in the firmware build (chase-host takes no exceptions).
A64_EFI_ARCH_SRCS := $(AARCH64_ARCH_SRCS) kernel/arch/aarch64/vectors.S \
	kernel/arch/aarch64/secondary.S
A64_EFI_OBJS := $(patsubst %,$(BUILD)/efi-aarch64/%.o,$(A64_EFI_KERNEL_SRCS) $(A64_EFI_ARCH_SRCS) \
	$(A64_EFI_SRCS))

$(BUILD)/efi-aarch64/%.c.o: %.c | $(A64_EFI_CRT0)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC(a64e) $<")
	$(Q)$(AARCH64_CC) $(A64_EFI_CFLAGS) -c $< -o $@

$(BUILD)/efi-aarch64/%.S.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS(a64e) $<")
	$(Q)$(AARCH64_CC) $(A64_EFI_CFLAGS) -c $< -o $@

$(BUILD)/chaseaa64.so: $(A64_EFI_OBJS) $(A64_EFI_CRT0)
	@$(if $(Q),echo "  LD       $@")
	$(Q)$(AARCH64_LD) $(A64_EFI_LDFLAGS) $(A64_EFI_CRT0) $(A64_EFI_OBJS) -o $@ -L$(A64_GNUEFI)/lib \
		-lefi -lgnuefi $$($(AARCH64_CC) -print-libgcc-file-name)

# NX_COMPAT is set in the header crt0 carries (tools/pe/pe.mk).
$(BUILD)/chaseaa64.efi: $(BUILD)/chaseaa64.so $(BUILD)/pe-nxcompat
	@$(if $(Q),echo "  OBJCOPY  $@")
	$(Q)$(AARCH64_OBJCOPY) -j .text -j .sdata -j .data -j .dynamic -j .rodata -j .rel -j .rela \
		-j .rel.* -j .rela.* -j .reloc -j .dynsym -O binary $< $@.tmp && \
		$(BUILD)/pe-nxcompat $@.tmp && mv $@.tmp $@

ALL_TARGETS += $(BUILD)/chaseaa64.efi
SCRIPT_TESTS += tests/qemu/test_aarch64.sh tests/qemu/test_aarch64_mp.sh \
	tests/qemu/test_aarch64_vectors.sh

# make run ARCH=aarch64 (or arm64): boot chase.img's BOOTAA64.EFI in qemu-system-aarch64 -M virt
# with AAVMF; anything else (an ARCH=x86_64 or amd64 from the environment too) boots BOOTX64.EFI.
RUN_ARCH := $(if $(filter aarch64 arm64,$(ARCH)),aarch64,x86_64)

# probeaa64.efi: the AArch64 probe for the return-to-the-shell test.
A64_PROBE_OBJS := $(BUILD)/efi-aarch64/efi/aarch64/a64_probe.c.o

$(BUILD)/probeaa64.so: $(A64_PROBE_OBJS) $(A64_EFI_CRT0)
	@$(if $(Q),echo "  LD       $@")
	$(Q)$(AARCH64_LD) $(A64_EFI_LDFLAGS) $(A64_EFI_CRT0) $(A64_PROBE_OBJS) -o $@ \
		-L$(A64_GNUEFI)/lib -lefi -lgnuefi

$(BUILD)/probeaa64.efi: $(BUILD)/probeaa64.so
	@$(if $(Q),echo "  OBJCOPY  $@")
	$(Q)$(AARCH64_OBJCOPY) -j .text -j .sdata -j .data -j .dynamic -j .rodata -j .rel -j .rela \
		-j .rel.* -j .rela.* -j .reloc -j .dynsym -O binary $< $@

ALL_TARGETS += $(BUILD)/probeaa64.efi
