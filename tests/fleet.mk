# SPDX-License-Identifier: MIT
# Issue 49's firmware side (a fragment of the Makefile): the run shipped off the machine (SHA-256
# manifest, the results = serial framing, machine name and run id) and its tests.

UNIT_TESTS += lib/test_sha256 lib/test_crc32_base64
test_sha256_SRCS := kernel/lib/sha256.c kernel/lib/kstring.c
test_crc32_base64_SRCS := kernel/lib/crc32.c kernel/lib/base64.c

# The results keys (URL, serial, token, retries) with the real experiment rows.
UNIT_TESTS += config/test_config_results
test_config_results_SRCS = $(EXPERIMENT_ROWS_SRCS)

# The fleet identity, manifest.json and the results = serial stream.
UNIT_TESTS += run/test_ship
test_ship_SRCS := kernel/run/ship.c kernel/machine/smbios.c kernel/machine/smbios_mem.c \
	kernel/machine/smbios_ipmi.c kernel/lib/slog.c kernel/lib/sha256.c kernel/lib/crc32.c \
	kernel/lib/base64.c kernel/lib/json.c kernel/lib/strbuf.c kernel/lib/fmt.c \
	kernel/lib/kstring.c kernel/lib/kmath.c kernel/lib/csv.c kernel/lib/console.c \
	tests/unit/stubs/stub_platform.c

# PXE and HTTP boots with no disk: configuration per machine, upload to nginx, retries, the
# fallback to a disk, a lost run said;
# https with the CA handed to OVMF; results = serial rebuilt byte for byte (eight boots, about
# three minutes on two cores; AArch64 PXE too).
SCRIPT_TESTS += tests/qemu/test_fleet_boot.sh

# SMBIOS type 1's serial number and UUID, which name the machine.
UNIT_TESTS += machine/test_smbios_system
test_smbios_system_SRCS = $(test_smbios_SRCS)
