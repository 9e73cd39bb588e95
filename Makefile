# SPDX-License-Identifier: MIT
# chase: one top-level build for the firmware application, the disk image, host tools and tests.

VERSION := 0.1.0
BUILD   := build
V       ?= 0
Q       := $(if $(filter 1,$(V)),,@)
MAKEFLAGS += --no-builtin-rules

CC      := gcc
CLANG   := clang
OBJCOPY := objcopy
LD      ?= ld

WARN    := -Wall -Wextra -Wshadow -Wvla -Wstrict-prototypes -Werror
COMMON   = -std=gnu11 $(WARN) -MMD -MP -Ikernel -DCHASE_VERSION=\"$(VERSION)\" \
	-DCHASE_EXPERIMENTS=$(words $(EXPERIMENTS))

# ---- sources --------------------------------------------------------------------------------

# The experiments, in no particular order: each is kernel/experiments/<name>.c (what it
# measures) and kernel/analysis/<name>.c (how its results read), with a row in each of the two
# table.c files (docs/adding-an-experiment.md); tools/check-experiments.sh checks this list
# against the tables. The source lists below take the files from here.
EXPERIMENTS := random linear fused dual scan ring offset parallel tlb cores c2c loaded numa bandwidth bw_cores tail atomics
EXPERIMENT_SRCS := $(EXPERIMENTS:%=kernel/experiments/%.c) kernel/experiments/numa_msc.c
EXPERIMENT_ANALYSIS_SRCS := $(EXPERIMENTS:%=kernel/analysis/%.c)
# Every per-experiment array is as long as this list (CHASE_EXPERIMENTS in COMMON), so the room
# grows with the table. make cannot see a flag change: when the count differs from the one the
# objects were built with (build/experiments.count), they are built again.
ifneq ($(words $(EXPERIMENTS)),$(shell cat $(BUILD)/experiments.count 2>/dev/null))
$(shell find $(BUILD) -name '*.[cS].o' -delete 2>/dev/null; mkdir -p $(BUILD) && \
	echo $(words $(EXPERIMENTS)) >$(BUILD)/experiments.count)
endif

# What every experiment's point goes through: its context, plan, measurement, passes and rows.
POINT_SRCS := kernel/point/sizes.c kernel/point/plan.c kernel/point/passes.c kernel/point/rows.c \
	kernel/point/refresh.c kernel/point/tail_stats.c kernel/point/stall_record.c

# The bandwidth engine: time a stream over a buffer, as kernel/chase/ times a chase; a team of
# processors streaming at once; each node's read bandwidth.
STREAM_SRCS := kernel/stream/bw_plan.c kernel/stream/bw_measure.c kernel/stream/bw_passes.c \
	kernel/stream/bw_team.c kernel/stream/node_bw.c kernel/stream/bw_levels.c

# Processors at work: started and given work, windows cut and resumed, traffic generators.
PROCS_SRCS := kernel/procs/mp.c kernel/procs/traffic.c kernel/procs/win_slice.c kernel/procs/pairs.c \
	kernel/procs/bounce.c kernel/procs/linestate.c kernel/procs/linepair.c kernel/procs/contend.c

# The run's interpretation (levels, verdicts, the summary), shared with chase-report.
KERNEL_ANALYSIS_SRCS := $(EXPERIMENT_ANALYSIS_SRCS) \
	kernel/analysis/curves.c \
	kernel/analysis/interpret.c kernel/analysis/judge.c \
	kernel/analysis/level_kind.c \
	kernel/analysis/levels.c \
	kernel/analysis/levels_model.c \
	kernel/analysis/levels_prep.c \
	kernel/analysis/levels_notes.c \
	kernel/analysis/refresh_expect.c \
	kernel/analysis/summary_text.c \
	kernel/analysis/table.c \
	kernel/analysis/tlb_steps.c kernel/lib/msc.c \
	kernel/analysis/verdict.c

# Portable kernel code: built for the firmware and for the host.
KERNEL_SRCS := \
	kernel/machine/acpi.c \
	kernel/run/banner.c \
	kernel/run/banner_identity.c \
	kernel/chase/batches.c \
	kernel/chase/chain.c \
	kernel/chase/chain_points.c \
	kernel/chase/chain_shapes.c \
	kernel/config/config.c \
	kernel/config/config_parse.c \
	kernel/config/config_resolve.c \
	kernel/config/config_values.c kernel/lib/url.c \
	kernel/lib/console.c \
	kernel/machine/cpuinfo.c \
	kernel/machine/simd.c \
	kernel/machine/simd_peak.c \
	$(POINT_SRCS) \
	kernel/experiments/driver.c \
	$(EXPERIMENT_SRCS) \
	$(STREAM_SRCS) \
	$(PROCS_SRCS) \
	kernel/experiments/table.c \
	kernel/machine/fault.c \
	kernel/lib/fmt.c \
	kernel/run/help.c \
	kernel/lib/json.c \
	kernel/lib/kmath.c \
	kernel/lib/kstring.c \
	kernel/chase/measure.c \
	kernel/machine/cpufacts.c \
	kernel/machine/prefetch_models.c \
	kernel/chase/measure_merge.c \
	kernel/chase/measure_hops.c \
	kernel/machine/memmap.c \
	kernel/machine/memtype.c \
	kernel/machine/srat.c kernel/machine/hmat.c kernel/machine/tiers.c \
	kernel/machine/numa_table.c \
	kernel/machine/identity.c \
	kernel/machine/smbios.c \
	kernel/machine/smbios_mem.c kernel/machine/smbios_ipmi.c \
	kernel/machine/placement.c \
	kernel/machine/topology.c \
	kernel/machine/cpu_select.c \
	kernel/machine/window_rules.c \
	kernel/machine/ap_msr.c \
	kernel/chase/refclock.c \
	kernel/chase/reps.c \
	kernel/run/prefetch.c \
	kernel/run/results.c \
	kernel/run/results_machine.c \
	kernel/run/results_arm.c kernel/machine/arm_id.c kernel/machine/arm_cpu.c kernel/machine/arm_smp.c \
	kernel/machine/arm_pptt.c kernel/machine/arm_tables.c \
	kernel/run/results_identity.c \
	kernel/run/results_nodes.c \
	kernel/lib/rng.c \
	kernel/lib/slog.c kernel/lib/sha256.c kernel/lib/crc32.c kernel/lib/base64.c \
	kernel/lib/rng_gauss.c \
	kernel/run/run.c kernel/run/buffer_plan.c kernel/run/machine_checks.c kernel/machine/mca.c \
	kernel/machine/ipmi_kcs.c kernel/run/ship.c \
	kernel/lib/stats.c \
	kernel/lib/strbuf.c \
	kernel/run/summary.c \
	kernel/chase/sweep.c \
	kernel/chase/time_split.c \
	kernel/chase/timing.c \
	kernel/lib/csv.c \
	$(KERNEL_ANALYSIS_SRCS)

# x86-64 code shared by both builds (the timed loops).
ARCH_SRCS := kernel/arch/x86_64/chase_loop.S kernel/arch/x86_64/bw_kernels.S

# The firmware front end's portable files, built for both architectures; each architecture's
# own are in efi/<arch>/, built by efi/<arch>/efi.mk (chase.efi and probe.efi, chaseaa64.efi and
# probeaa64.efi). mp_ctl.c, mp_held.c and mp_loop.c are plain C (no GNU-EFI), unit-tested on
# the host.
EFI_SRCS := \
	efi/efi_acpi.c \
	efi/efi_buffer.c \
	efi/efi_clocks.c efi/efi_console.c \
	efi/efi_files.c efi/efi_runfiles.c efi/efi_netboot.c efi/efi_http.c efi/efi_ship.c \
	efi/efi_main.c \
	efi/efi_mem.c \
	efi/efi_mp_plat.c efi/mp_ctl.c efi/mp_held.c efi/mp_loop.c \
	efi/efi_numa.c \
	efi/efi_serial.c \
	efi/efi_smbios.c

HOST_SRCS := \
	tools/host/host_buffer.c \
	tools/host/host_identity.c \
	tools/host/host_main.c \
	tools/host/host_mp.c tools/host/host_cpus.c \
	tools/host/host_numa.c \
	tools/host/host_platform.c

# ---- the firmware application -----------------------------------------------------------------

# chase.efi and probe.efi for x86-64 UEFI (chaseaa64.efi: efi/aarch64/efi.mk, with AArch64 below).
include efi/x86_64/efi.mk

# One stick for both kinds of machine: \EFI\BOOT\BOOTX64.EFI and \EFI\BOOT\BOOTAA64.EFI.
$(BUILD)/chase.img: $(BUILD)/chase.efi $(BUILD)/chaseaa64.efi tools/mkimage.sh \
		tools/chase.cfg.example
	@$(if $(Q),echo "  IMAGE    $@")
	$(Q)tools/mkimage.sh --aa64 $(BUILD)/chaseaa64.efi $@ $(BUILD)/chase.efi tools/chase.cfg.example

# ---- the host runner --------------------------------------------------------------------------

HOST_CFLAGS := $(COMMON) -O2 -g -D_GNU_SOURCE -Itools/host
HOST_OBJS   := $(patsubst %,$(BUILD)/host/%.o,$(KERNEL_SRCS) $(ARCH_SRCS) $(HOST_SRCS))

$(BUILD)/host/%.c.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC(host) $<")
	$(Q)$(CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/host/%.S.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS(host) $<")
	$(Q)$(CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/chase-host: $(HOST_OBJS)
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(CC) -o $@ $(HOST_OBJS)

# ---- parts with their own fragment -----------------------------------------------------------
# Each fragment lists its sources explicitly and appends to:
#   ALL_TARGETS (built by `make`), UNIT_TESTS (FOLDER/test_NAME, + test_NAME_SRCS),
#   SCRIPT_TESTS, BENCH_SCRIPTS.
ALL_TARGETS   := $(BUILD)/chase.efi $(BUILD)/chase.img $(BUILD)/chase-host $(BUILD)/probe.efi
SCRIPT_TESTS  :=
BENCH_SCRIPTS :=
UNIT_TESTS    :=
FRAGMENTS     := $(wildcard tools/report/report.mk tools/sim/sim.mk tests/mp.mk tests/bandwidth.mk \
	tools/pe/pe.mk tests/errors.mk tools/collect/collect.mk tests/fleet.mk tests/mp_each.mk \
	tests/tiers.mk tests/tail.mk tests/coherence.mk)
include $(FRAGMENTS)

# ---- unit tests (cmocka, under ASan and UBSan) -------------------------------------------------
# tests/unit mirrors the tree: tests/unit/FOLDER/test_MODULE.c tests FOLDER's MODULE and builds
# into build/tests/FOLDER/test_MODULE. UNIT_TESTS lists FOLDER/test_MODULE, a group per folder
# (report and sim in their fragments); test_MODULE_SRCS lists that test's units under test and
# stubs (tests/unit/stubs/), so test names are unique across folders.

# gcc's -fsanitize=undefined leaves out double-to-integer overflow (float-cast-overflow), the
# class of the fuzzers' findings: it is asked for by name, for every unit under test.
TEST_CFLAGS := $(COMMON) -O1 -g -D_GNU_SOURCE -fsanitize=address,undefined,float-cast-overflow \
		-fno-omit-frame-pointer -fno-sanitize-recover=all -Itests/unit
TEST_LIBS   := -lcmocka -fsanitize=address,undefined,float-cast-overflow

# Units that several tests link: the configuration, and the configuration with the real
# experiment rows (their measurement side stubbed: it must not run).
CONFIG_UNIT_SRCS := kernel/config/config.c kernel/config/config_parse.c \
	kernel/config/config_resolve.c kernel/config/config_values.c kernel/lib/fmt.c kernel/lib/url.c \
	kernel/lib/kstring.c kernel/lib/kmath.c kernel/lib/strbuf.c kernel/lib/json.c \
	tests/unit/stubs/stub_platform.c
EXPERIMENT_ROWS_SRCS := $(CONFIG_UNIT_SRCS) kernel/experiments/table.c $(EXPERIMENT_SRCS) \
	kernel/procs/mp.c kernel/procs/traffic.c kernel/machine/cpu_select.c kernel/machine/numa_table.c \
	kernel/machine/tiers.c kernel/machine/hmat.c kernel/lib/msc.c \
	kernel/procs/pairs.c kernel/procs/bounce.c kernel/procs/linestate.c kernel/procs/linepair.c \
	kernel/procs/contend.c kernel/lib/rng.c \
	kernel/stream/bw_plan.c kernel/stream/bw_team.c kernel/stream/node_bw.c kernel/stream/bw_levels.c \
	kernel/stream/bw_passes.c kernel/machine/simd.c kernel/machine/simd_peak.c kernel/lib/stats.c kernel/procs/win_slice.c \
	$(POINT_SRCS) kernel/experiments/driver.c kernel/chase/sweep.c \
	kernel/machine/cpuinfo.c kernel/lib/console.c kernel/lib/slog.c tests/unit/stubs/stub_exp_run.c kernel/machine/smbios_mem.c
# lib: formatting, strings, JSON, statistics, the console's progress line.
UNIT_TESTS += lib/test_fmt lib/test_json lib/test_stats lib/test_strbuf lib/test_console lib/test_rng \
	lib/test_kmath lib/test_slog
test_slog_SRCS := kernel/lib/slog.c kernel/lib/strbuf.c kernel/lib/fmt.c kernel/lib/kstring.c \
	kernel/lib/kmath.c kernel/lib/csv.c kernel/lib/console.c tests/unit/stubs/stub_platform.c
test_rng_SRCS     := kernel/lib/rng.c kernel/lib/rng_gauss.c kernel/lib/kmath.c
$(BUILD)/tests/lib/test_rng: TEST_LIBS += -lm
test_kmath_SRCS   := kernel/lib/kmath.c
$(BUILD)/tests/lib/test_kmath: TEST_LIBS += -lm
test_fmt_SRCS     := kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c
test_json_SRCS    := kernel/lib/json.c kernel/lib/strbuf.c kernel/lib/fmt.c kernel/lib/kstring.c \
	tests/unit/stubs/stub_platform.c
test_stats_SRCS   := kernel/lib/stats.c tests/unit/stubs/stub_platform.c
test_strbuf_SRCS  := kernel/lib/strbuf.c kernel/lib/fmt.c kernel/lib/kstring.c \
	tests/unit/stubs/stub_platform.c
test_console_SRCS := kernel/lib/console.c kernel/lib/strbuf.c kernel/lib/fmt.c \
	kernel/lib/kstring.c tests/unit/stubs/stub_platform.c

# machine: ACPI tables, CPUID, the memory map, page tables.
UNIT_TESTS += machine/test_acpi machine/test_cpuinfo machine/test_memmap machine/test_memtype \
	machine/test_cpufacts
UNIT_TESTS += machine/test_window_rules machine/test_ap_msr machine/test_srat machine/test_simd
test_simd_SRCS := kernel/machine/simd.c kernel/machine/simd_peak.c kernel/machine/cpuinfo.c \
	kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c
UNIT_TESTS += machine/test_smbios machine/test_identity
test_identity_SRCS := kernel/machine/identity.c kernel/lib/fmt.c kernel/lib/kstring.c \
	kernel/lib/kmath.c
test_smbios_SRCS := kernel/machine/smbios.c kernel/machine/smbios_mem.c kernel/machine/smbios_ipmi.c kernel/lib/fmt.c \
	kernel/lib/kstring.c kernel/lib/kmath.c
UNIT_TESTS += machine/test_placement machine/test_topology machine/test_cpu_select
test_topology_SRCS := kernel/machine/topology.c
test_cpu_select_SRCS := kernel/machine/cpu_select.c tests/unit/stubs/stub_platform.c
test_placement_SRCS := kernel/machine/placement.c kernel/machine/memmap.c kernel/machine/memtype.c \
	kernel/machine/tiers.c kernel/machine/hmat.c kernel/machine/numa_table.c kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c tests/unit/stubs/stub_platform.c
test_srat_SRCS := kernel/machine/srat.c kernel/machine/acpi.c kernel/lib/fmt.c kernel/lib/kstring.c \
	kernel/lib/kmath.c kernel/machine/numa_table.c kernel/machine/arm_smp.c kernel/machine/arm_id.c \
	tests/unit/stubs/stub_platform.c
test_ap_msr_SRCS := kernel/machine/ap_msr.c kernel/lib/fmt.c kernel/lib/kstring.c \
	kernel/lib/kmath.c
test_window_rules_SRCS := kernel/machine/window_rules.c kernel/lib/fmt.c kernel/lib/kstring.c \
	kernel/lib/kmath.c
test_acpi_SRCS    := kernel/machine/acpi.c kernel/chase/refclock.c kernel/lib/kstring.c
test_cpuinfo_SRCS := kernel/machine/cpuinfo.c kernel/lib/kstring.c
test_memmap_SRCS  := kernel/machine/memmap.c kernel/machine/memtype.c
test_memtype_SRCS := kernel/machine/memtype.c efi/x86_64/x64_page_tables.c kernel/lib/kstring.c
$(BUILD)/test/tests/unit/machine/test_memtype.c.o: TEST_CFLAGS += -Iefi
test_cpufacts_SRCS := kernel/machine/cpufacts.c kernel/machine/prefetch_models.c \
	kernel/lib/kstring.c

# efi: the firmware front end's plain C (the processors it holds, windows' records), on the host.
UNIT_TESTS += efi/test_mp_ctl efi/test_mp_held efi/x86_64/test_page_tables
test_page_tables_SRCS := efi/x86_64/x64_page_tables.c kernel/machine/memtype.c kernel/lib/kstring.c
test_mp_ctl_SRCS := efi/mp_ctl.c
test_mp_held_SRCS := efi/mp_held.c efi/mp_ctl.c kernel/lib/kstring.c
$(BUILD)/test/tests/unit/efi/%.c.o: TEST_CFLAGS += -Iefi

# chase: chains, the chase loops, repetitions and the time split, sweep sizes.
UNIT_TESTS += chase/test_chain chase/test_chain_shapes chase/test_chain_lockstep chase/test_reps \
	chase/test_measure_reps chase/test_measure_windows chase/test_sweep
test_chain_SRCS          := kernel/chase/chain.c kernel/lib/rng.c kernel/lib/kstring.c
test_chain_shapes_SRCS   := kernel/chase/chain.c kernel/chase/chain_shapes.c \
	kernel/chase/chain_points.c kernel/lib/rng.c kernel/lib/kstring.c
test_chain_lockstep_SRCS := kernel/chase/chain.c kernel/chase/chain_shapes.c kernel/lib/rng.c \
	kernel/chase/measure.c kernel/chase/measure_merge.c kernel/chase/measure_hops.c kernel/chase/reps.c kernel/chase/time_split.c kernel/chase/timing.c \
	kernel/lib/stats.c kernel/lib/kstring.c kernel/lib/kmath.c tests/unit/stubs/stub_platform.c \
	$(ARCH_SRCS)
test_reps_SRCS           := kernel/chase/reps.c kernel/lib/stats.c kernel/chase/time_split.c \
	kernel/lib/kmath.c \
	kernel/lib/kstring.c tests/unit/stubs/stub_platform.c
test_measure_reps_SRCS   := kernel/chase/measure.c kernel/chase/measure_merge.c kernel/chase/measure_hops.c kernel/chase/reps.c \
	kernel/chase/time_split.c kernel/chase/timing.c kernel/chase/chain.c kernel/lib/stats.c \
	kernel/lib/rng.c $(ARCH_SRCS) $(CONFIG_UNIT_SRCS)
test_measure_windows_SRCS := $(test_measure_reps_SRCS) kernel/chase/chain_shapes.c
test_sweep_SRCS          := kernel/chase/sweep.c kernel/lib/kmath.c

# config: reading the configuration, every error class.
CONFIG_TESTS := test_config test_config_errors test_config_bandwidth test_config_bw_cores
UNIT_TESTS += $(addprefix config/,$(CONFIG_TESTS))
$(foreach t,$(CONFIG_TESTS),$(eval $(t)_SRCS := $(EXPERIMENT_ROWS_SRCS)))

# experiments: the sweep driver, with a fake measurement.
UNIT_TESTS += experiments/test_driver procs/test_traffic procs/test_traffic_mix stream/test_bw_plan
UNIT_TESTS += arch/test_bw_kernels # the bandwidth kernels' machine code, each width this CPU has
test_bw_kernels_SRCS := kernel/arch/x86_64/bw_kernels.S
test_traffic_SRCS := kernel/procs/traffic.c kernel/procs/win_slice.c $(ARCH_SRCS)
test_traffic_mix_SRCS := $(test_traffic_SRCS)
test_bw_plan_SRCS := kernel/stream/bw_plan.c kernel/machine/simd.c $(CONFIG_UNIT_SRCS)
test_driver_SRCS := kernel/experiments/driver.c $(POINT_SRCS) kernel/chase/sweep.c \
	kernel/chase/measure.c kernel/chase/measure_merge.c kernel/chase/measure_hops.c kernel/chase/reps.c kernel/chase/time_split.c kernel/chase/timing.c \
	kernel/chase/chain.c kernel/machine/cpuinfo.c kernel/machine/fault.c $(CONFIG_UNIT_SRCS) \
	kernel/lib/console.c kernel/lib/slog.c kernel/lib/stats.c kernel/lib/rng.c $(ARCH_SRCS) \
	tests/unit/stubs/stub_buffer.c

# analysis: the shared interpretation (the CSV reader and kmath it stands on, level detection).
ANALYSIS_UNIT_SRCS := $(KERNEL_ANALYSIS_SRCS) kernel/lib/csv.c kernel/lib/strbuf.c kernel/lib/fmt.c \
	kernel/lib/kstring.c kernel/lib/kmath.c kernel/lib/stats.c kernel/lib/rng.c kernel/lib/rng_gauss.c \
	tests/unit/stubs/stub_platform.c
UNIT_TESTS += analysis/test_interpret analysis/test_levels analysis/test_numa_verdict \
	analysis/test_mp_verdicts analysis/test_levels_sparse analysis/test_levels_dense \
	analysis/test_level_kinds analysis/test_llc_verdicts analysis/test_bw_verdicts
test_llc_verdicts_SRCS := $(ANALYSIS_UNIT_SRCS)
test_bw_verdicts_SRCS := $(ANALYSIS_UNIT_SRCS)
test_levels_sparse_SRCS := $(ANALYSIS_UNIT_SRCS)
test_mp_verdicts_SRCS := $(ANALYSIS_UNIT_SRCS)
test_interpret_SRCS := $(ANALYSIS_UNIT_SRCS)
test_level_kinds_SRCS := $(ANALYSIS_UNIT_SRCS)
test_numa_verdict_SRCS := $(ANALYSIS_UNIT_SRCS)
test_levels_SRCS    := $(ANALYSIS_UNIT_SRCS) tools/report/fit/model.c
test_levels_dense_SRCS := $(ANALYSIS_UNIT_SRCS) tools/report/fit/model.c
$(BUILD)/test/tests/unit/analysis/test_levels.c.o: TEST_CFLAGS += -Itools/report
$(BUILD)/test/tests/unit/analysis/test_levels_dense.c.o: TEST_CFLAGS += -Itools/report
$(BUILD)/tests/analysis/%: TEST_LIBS += -lm

# run: the end-of-run summary over a run's CSV text.
UNIT_TESTS += run/test_summary run/test_prefetch
test_prefetch_SRCS := kernel/run/prefetch.c kernel/machine/ap_msr.c \
	kernel/machine/prefetch_models.c kernel/lib/fmt.c \
	kernel/lib/kstring.c kernel/lib/kmath.c
test_summary_SRCS := kernel/run/summary.c kernel/lib/console.c kernel/lib/slog.c \
	kernel/machine/cpuinfo.c $(ANALYSIS_UNIT_SRCS)
$(BUILD)/tests/run/test_summary: TEST_LIBS += -lm

# host: chase-host's node discovery over sysfs trees the test writes.
UNIT_TESTS += host/test_host_identity
test_host_identity_SRCS := tools/host/host_identity.c kernel/machine/smbios.c \
	kernel/machine/smbios_mem.c kernel/machine/smbios_ipmi.c kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c
$(BUILD)/test/tests/unit/host/test_host_identity.c.o: TEST_CFLAGS += -Itools/host -Itests/unit/machine

# AArch64 (issue 42): its decoders' unit tests and chase-host-aarch64; chaseaa64.efi.
include kernel/arch/aarch64/aarch64.mk
include efi/aarch64/efi.mk

UNIT_DUPLICATES = $(strip $(foreach n,$(sort $(notdir $(UNIT_TESTS))), \
	$(if $(word 2,$(filter %/$(n),$(UNIT_TESTS))),$(n))))
$(if $(UNIT_DUPLICATES),$(error unit test names used in two folders: $(UNIT_DUPLICATES)))

$(BUILD)/test/%.c.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC(test) $<")
	$(Q)$(CC) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/test/%.S.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS(test) $<")
	$(Q)$(CC) $(TEST_CFLAGS) -c $< -o $@

define unit_test_rule
$(BUILD)/tests/$(1): $(patsubst %,$(BUILD)/test/%.o,tests/unit/$(1).c $($(notdir $(1))_SRCS))
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LINK     $$@")
	$$(Q)$$(CC) -o $$@ $$^ $$(TEST_LIBS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_test_rule,$(t))))

UNIT_BINS := $(addprefix $(BUILD)/tests/,$(UNIT_TESTS))
# The seeded families of the level detector and the hostile-number sweep of chase-report's
# readers (pure computation, nothing timed; about a second together now): make test runs them
# side by side on the cores.
UNIT_PARALLEL_BINS := $(addprefix $(BUILD)/tests/analysis/,test_levels test_levels_sparse) \
	$(BUILD)/tests/report/test_hostile

# ---- fuzzing (libFuzzer, clang) ---------------------------------------------------------------
# Each target: tests/fuzz/NAME.c with LLVMFuzzerTestOneInput, NAME_SRCS the units under test,
# seeds in tests/fuzz/corpus/NAME/, past findings in tests/fuzz/regressions/NAME/.

FUZZ_CFLAGS := -std=gnu11 $(WARN) -g -O1 -D_GNU_SOURCE -Ikernel -Itests/unit \
		-DCHASE_EXPERIMENTS=$(words $(EXPERIMENTS)) \
		-DCHASE_VERSION=\"$(VERSION)\" -fsanitize=fuzzer-no-link,address,undefined \
		-fno-sanitize-recover=all -MMD -MP
FUZZ_TARGETS += fuzz_config
fuzz_config_SRCS := $(EXPERIMENT_ROWS_SRCS)
FUZZ_TARGETS += fuzz_smbios
fuzz_smbios_SRCS := kernel/machine/smbios.c kernel/machine/smbios_mem.c kernel/machine/smbios_ipmi.c kernel/lib/fmt.c \
	kernel/lib/kstring.c kernel/lib/kmath.c

$(BUILD)/fuzzobj/%.c.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC(fuzz) $<")
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -c $< -o $@

$(BUILD)/fuzzobj/%.S.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS(fuzz) $<")
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -c $< -o $@

define fuzz_rule
$(BUILD)/fuzz/$(1): $(patsubst %,$(BUILD)/fuzzobj/%.o,tests/fuzz/$(1).c $($(1)_SRCS))
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LINK     $$@")
	$$(Q)$$(CLANG) -o $$@ $$^ -fsanitize=fuzzer,address,undefined
endef

# ---- top-level targets ------------------------------------------------------------------------

.PHONY: all deps run test unit qemu-test check-layers bench eval clean sign fuzz fuzzers format
.DEFAULT_GOAL := all

all: $(ALL_TARGETS)

deps:
	$(Q)tools/deps.sh

run: deps all
	$(Q)tools/qemu-run.sh --arch $(RUN_ARCH) --image $(BUILD)/chase.img --out $(BUILD)/runs --show --smp 2 \
		--set profile=quick --set on_exit=shutdown
	$(Q)last=$$(ls -d $(BUILD)/runs/[0-9][0-9][0-9][0-9] | sort | tail -n 1) && \
		$(BUILD)/chase-report "$$last"

unit: $(UNIT_BINS)

check-layers:
	$(Q)tools/check-layers.sh

# Lay out every C file as .clang-format says (tools/check-format.sh, run by make test, checks).
format:
	$(Q)tools/check-format.sh --fix

SCRIPT_TESTS := tools/check-layers.sh tools/check-sizes.sh tools/check-format.sh \
	tools/check-experiments.sh tools/check-doc-paths.sh tests/tools/test_guide.sh \
	tests/tools/test_checks.sh tests/tools/test_check_experiments.sh tests/tools/test_bench_lib.sh \
	tests/report/test_corpus_score.sh tests/report/test_real_levels.sh \
	tests/host/test_host_random.sh tests/host/test_quick.sh tests/host/test_host_layout.sh \
	tests/host/test_host_cores.sh tests/host/test_host_hugealign.sh \
	tests/host/test_host_cpuid_cpu.sh tests/host/test_host_passes.sh tests/host/test_host_numa.sh \
	$(SCRIPT_TESTS) \
	tests/qemu/test_smoke.sh tests/qemu/test_machine.sh tests/qemu/test_media.sh \
	tests/report/test_sim_curves.sh \
	tests/qemu/test_secureboot.sh tests/qemu/test_hostile.sh tests/qemu/test_config.sh \
	tests/qemu/test_agree.sh tests/qemu/test_memtype.sh tests/qemu/test_prefetch.sh \
	tests/qemu/test_cores.sh tests/qemu/test_numa.sh tests/qemu/test_smbios.sh \
	tests/qemu/test_serial_log.sh tests/qemu/test_server.sh tests/qemu/test_bandwidth.sh \
	tests/fuzz/test_fuzz.sh

# The build waits for deps (which installs the compilers), then uses every core: built one
# file at a time, it was a third of make test's time on CI's two cores.
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(shell nproc 2>/dev/null || echo 2) all unit fuzzers
	$(Q)FUZZ_BINS="$(FUZZ_BINS)" tests/run-tests.sh --unit-parallel $(UNIT_PARALLEL_BINS) \
		--unit $(filter-out $(UNIT_PARALLEL_BINS),$(UNIT_BINS)) $(SCRIPT_TEST_ARGS)

$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rule,$(t))))
FUZZ_BINS := $(addprefix $(BUILD)/fuzz/,$(FUZZ_TARGETS))

fuzzers: $(FUZZ_BINS)

# make fuzz: a long run of every fuzzer (FUZZ_SECONDS each, default 10 minutes).
fuzz: deps fuzzers
	$(Q)FUZZ_SECONDS=$${FUZZ_SECONDS:-600} tests/fuzz/test_fuzz.sh $(FUZZ_BINS)

# make eval: chase-report's level detection scored on real machines' curves (real-score.sh: issue
# 51's rule per format, then the interval figures; real-curves*, real/), then the generated corpus.
eval: $(BUILD)/chase-report $(BUILD)/chase-sim
	$(Q)tests/report/corpus/real-score.sh; tests/report/corpus/eval.sh tune; \
		tests/report/corpus/pool.sh $(BUILD)/eval
	$(Q)VERDICTS=all tests/report/test_verdicts_sim.sh

include tools/bench.mk tests/run-tests.mk

# make sign KEY=db.key CERT=db.pem: a Secure Boot signed chase.efi and an image with it.
sign: $(BUILD)/chase.efi
	@test -n "$(KEY)" -a -n "$(CERT)" || \
		{ echo "usage: make sign KEY=signing-key.pem CERT=signing-cert.pem"; exit 2; }
	$(Q)tools/sign.sh "$(KEY)" "$(CERT)" $(BUILD)/chase.efi $(BUILD)/chase-signed.efi \
		$(BUILD)/chase-signed.img tools/chase.cfg.example

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
