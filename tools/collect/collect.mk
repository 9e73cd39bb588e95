# SPDX-License-Identifier: MIT
# chase-collect: the collector (libmicrohttpd, SQLite), its unit tests, fuzzer and script tests.

COLLECT_SRCS := \
	tools/collect/collect_main.c \
	tools/collect/index.c \
	tools/collect/index_schema.c \
	tools/collect/manifest.c \
	tools/collect/names.c \
	tools/collect/report_run.c \
	tools/collect/serial.c \
	tools/collect/serial_codec.c \
	tools/collect/server.c \
	tools/collect/server_put.c \
	tools/collect/staging.c \
	tools/report/inputs/rjson.c \
	kernel/lib/sha256.c kernel/lib/crc32.c kernel/lib/kstring.c
COLLECT_LIBS := -lmicrohttpd -lsqlite3 -lm
COLLECT_OBJS := $(patsubst %,$(BUILD)/host/%.o,$(COLLECT_SRCS))
$(BUILD)/host/tools/collect/%.c.o: HOST_CFLAGS += -Itools/report

$(BUILD)/chase-collect: $(COLLECT_OBJS)
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(CC) -o $@ $(COLLECT_OBJS) $(COLLECT_LIBS)

ALL_TARGETS += $(BUILD)/chase-collect

# ---- tests ----
# A real chase-collect on 127.0.0.1 and curl: uploads, the index, a kill during an upload,
# --index (test_collect.sh); refusals (test_collect_hostile.sh); nginx as the target and --index
# on its folder (test_collect_nginx.sh); --serial on an encoded log (test_collect_serial.sh).
SCRIPT_TESTS += tests/collect/test_collect.sh tests/collect/test_collect_hostile.sh \
	tests/collect/test_collect_nginx.sh tests/collect/test_collect_serial.sh
# Three diskless QEMU machines PXE-booted, uploading to one chase-collect; results = serial
# rebuilt by --serial (about a minute on two cores).
SCRIPT_TESTS += tests/qemu/test_fleet_collect.sh

# The fuzzer: the request-path parser and the manifest reader (tests/fuzz/fuzz_collect.c).
FUZZ_TARGETS += fuzz_collect
fuzz_collect_SRCS := tools/collect/names.c tools/collect/manifest.c tools/report/inputs/rjson.c
$(BUILD)/fuzzobj/tests/fuzz/fuzz_collect.c.o: FUZZ_CFLAGS += -Itools/collect -Itools/report
$(BUILD)/fuzzobj/tools/collect/%.c.o: FUZZ_CFLAGS += -Itools/report

# collect: base64 decoding, the names and the path parser, under the sanitizers (SHA-256 and
# CRC-32 are kernel/lib's, tested by lib/test_sha256 and lib/test_crc32_base64).
UNIT_TESTS += collect/test_collect_codecs
test_collect_codecs_SRCS := tools/collect/serial_codec.c tools/collect/names.c
$(BUILD)/test/tests/unit/collect/%.c.o: TEST_CFLAGS += -Itools/collect
