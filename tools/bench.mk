# SPDX-License-Identifier: MIT
# make bench, and the static chase-host that tools/bench_device.sh carries to other machines.

bench: all
	$(Q)tools/bench.sh $(BUILD)/chase-host
	$(Q)tools/bench_bw.sh $(BUILD)/chase-host
	$(Q)for b in $(BENCH_SCRIPTS); do $$b || exit 1; done

# chase-host linked statically: it runs on a Linux machine whatever its C library
# (tools/bench_device.sh --prepare) and in the initramfs of tests/host/test_host_numa.sh.
$(BUILD)/chase-host-static: $(HOST_OBJS)
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(CC) -static -o $@ $(HOST_OBJS)
