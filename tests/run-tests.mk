# SPDX-License-Identifier: MIT
# How make test runs the script tests (a fragment of the Makefile, included after every list of
# SCRIPT_TESTS): which run alone, and in which order the others start, two at a time.

# The runner's own test: pooled scripts side by side, reported in order, the slowest listed.
SCRIPT_TESTS += tests/tools/test_run_tests.sh
# loaded's family of read:write mixes on chase-host, and chase-report over that run folder.
SCRIPT_TESTS += tests/host/test_host_loaded.sh
# Ten memory nodes, two of them memory only; AArch64 nodes from GICC affinity; AArch64 -smp 66
# (issue 50: the last takes 5 to 9 minutes under TCG on two cores).
SCRIPT_TESTS += tests/qemu/test_numa_nodes.sh tests/qemu/test_aarch64_numa.sh \
	tests/qemu/test_aarch64_many_cpus.sh

# Scripts that run alone, one at a time: chase-host measuring this machine pinned to its cores
# (a boot beside it would be measured too, and some checks follow from timing: passes, windows
# split by window_max_ms, the fastest width kept, a hang found by a 10 s wait) or reserving its
# huge pages; the guide's test, which runs test_quick.sh in its copy of the tree.
SCRIPT_TESTS_ALONE := $(addprefix tests/host/,test_host_random.sh test_quick.sh \
	test_host_layout.sh test_host_cores.sh test_host_hugealign.sh test_host_cpuid_cpu.sh \
	test_host_passes.sh) tests/tools/test_guide.sh

# The others (QEMU boots, chase-sim, chase-report, the fuzzers' bounded runs, the tree's checks)
# run two at a time (run-tests.sh --script-parallel). These start first, the longest first, so
# that both lanes end together (as measured on two quiet cores); the rest follow in SCRIPT_TESTS'
# order.
SCRIPT_TESTS_LONG := $(addprefix tests/qemu/,test_aarch64_many_cpus.sh test_fleet_boot.sh test_machine.sh \
	test_aarch64.sh \
	test_aarch64_mp.sh test_config.sh test_bandwidth.sh test_cores.sh test_hostile.sh \
	test_aarch64_vectors.sh test_secureboot.sh test_media.sh test_smbios.sh test_numa.sh \
	test_server.sh test_prefetch.sh) tests/report/test_verdicts_sim.sh \
	tests/qemu/test_many_cpus.sh tests/qemu/test_fleet_collect.sh tests/qemu/test_numa_nodes.sh tests/qemu/test_memtype.sh

# run-tests.sh's arguments for the scripts (a script named in no list above runs two at a time).
SCRIPT_TEST_ARGS = --script $(filter $(SCRIPT_TESTS_ALONE),$(SCRIPT_TESTS)) --script-parallel \
	$(foreach t,$(SCRIPT_TESTS_LONG),$(filter $(t),$(SCRIPT_TESTS))) \
	$(filter-out $(SCRIPT_TESTS_LONG) $(SCRIPT_TESTS_ALONE),$(SCRIPT_TESTS))
