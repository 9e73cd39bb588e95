# SPDX-License-Identifier: MIT
# pe-nxcompat: marks chase.efi and chaseaa64.efi NX_COMPAT once their sections are checked (no
# section both writable and executable); efi/<arch>/efi.mk runs it after objcopy, before any
# signing (make sign signs the marked image).

$(BUILD)/pe-nxcompat: tools/pe/pe_nxcompat.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC       $@")
	$(Q)$(CC) $(COMMON) -O2 -o $@ $<

SCRIPT_TESTS += tests/tools/test_nxcompat.sh
