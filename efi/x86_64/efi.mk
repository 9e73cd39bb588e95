# SPDX-License-Identifier: MIT
# chase.efi and probe.efi: chase for x86-64 UEFI, built with the host's gcc and GNU-EFI
# (Debian's gnu-efi package).

EFI_INC      := /usr/include/efi
EFI_LIB      := /usr/lib
EFI_CRT0     := $(EFI_LIB)/crt0-efi-x86_64.o
EFI_CFLAGS   := $(COMMON) -O2 -g0 -isystem $(EFI_INC) -isystem $(EFI_INC)/x86_64 -Iefi \
		-DCHASE_EFI -ffreestanding -fno-stack-protector -fno-stack-check -fpic -fshort-wchar \
		-mno-red-zone -maccumulate-outgoing-args -fno-builtin
EFI_LDFLAGS  := -nostdlib -znocombreloc -shared -Bsymbolic -T linker/chase-efi.lds

# The front end on x86-64: efi/'s portable files and efi/x86_64/ (windows and their records,
# registers, page tables and their builder, processors, reference clocks). x64_window.c and x64_window_stats.c are
# plain C over the exception entries of kernel/arch/x86_64/window.S, which only the bare machine
# runs (ring 0).
X64_EFI_SRCS := $(EFI_SRCS) efi/x86_64/x64_bmc.c efi/x86_64/x64_machine.c efi/x86_64/x64_mp.c \
	efi/x86_64/x64_paging.c efi/x86_64/x64_page_tables.c efi/x86_64/x64_platform.c \
	efi/x86_64/x64_timers.c efi/x86_64/x64_window.c efi/x86_64/x64_window_stats.c
X64_EFI_ARCH_SRCS := $(ARCH_SRCS) kernel/arch/x86_64/window.S

EFI_OBJS := $(patsubst %,$(BUILD)/efi/%.o,$(KERNEL_SRCS) $(X64_EFI_ARCH_SRCS) $(X64_EFI_SRCS))

$(BUILD)/efi/%.c.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC(efi)  $<")
	$(Q)$(CC) $(EFI_CFLAGS) -c $< -o $@

$(BUILD)/efi/%.S.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS(efi)  $<")
	$(Q)$(CC) $(EFI_CFLAGS) -c $< -o $@

$(BUILD)/chase.so: $(EFI_OBJS) linker/chase-efi.lds
	@$(if $(Q),echo "  LD       $@")
	$(Q)$(LD) $(EFI_LDFLAGS) $(EFI_CRT0) $(EFI_OBJS) -o $@ -L$(EFI_LIB) -lefi -lgnuefi \
		$$($(CC) -print-libgcc-file-name)

# An ELF shared object becomes a PE32+ EFI application (subsystem 10), marked NX_COMPAT
# (tools/pe/pe.mk) once no section is both writable and executable.
$(BUILD)/%.efi: $(BUILD)/%.so $(BUILD)/pe-nxcompat
	@$(if $(Q),echo "  OBJCOPY  $@")
	$(Q)$(OBJCOPY) -j .text -j .sdata -j .data -j .rodata -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 \
		--subsystem=10 $< $@.tmp && $(BUILD)/pe-nxcompat $@.tmp && mv $@.tmp $@

# probe.efi: a second EFI program for the tests (what the firmware looks like after chase).
PROBE_OBJS := $(BUILD)/efi/efi/x86_64/x64_probe.c.o

$(BUILD)/probe.so: $(PROBE_OBJS) linker/chase-efi.lds
	@$(if $(Q),echo "  LD       $@")
	$(Q)$(LD) $(EFI_LDFLAGS) $(EFI_CRT0) $(PROBE_OBJS) -o $@ -L$(EFI_LIB) -lefi -lgnuefi
