# SPDX-License-Identifier: MIT
# chase-report: cache levels, the latency model (GSL), gnuplot plots and report.md from runs.

REPORT_SRCS := \
	tools/report/fit/analysis.c \
	tools/report/fit/fit.c \
	tools/report/fit/fit_check.c \
	tools/report/inputs/input_lmbench.c \
	tools/report/inputs/input_memlat.c \
	tools/report/inputs/input_ramlat.c \
	tools/report/inputs/input_run.c \
	tools/report/inputs/input_side.c \
	tools/report/inputs/input_sbcbench.c \
	tools/report/inputs/input_tinymem.c \
	tools/report/inputs/load.c \
	tools/report/inputs/readers.c \
	tools/report/main.c \
	tools/report/fit/model.c \
	tools/report/outputs/dist.c \
	tools/report/outputs/plot.c \
	tools/report/outputs/plot_dist.c \
	tools/report/outputs/plot_exp.c \
	tools/report/outputs/plot_heatmap.c \
	tools/report/outputs/plot_bars.c \
	tools/report/outputs/plot_dram.c \
	tools/report/outputs/report_json.c \
	tools/report/outputs/report_md.c \
	tools/report/outputs/report_md_dist.c \
	tools/report/outputs/report_md_run.c \
	tools/report/outputs/report_platform.c \
	tools/report/outputs/report_verdict.c \
	tools/report/inputs/rbounds.c \
	tools/report/inputs/rjson.c \
	tools/report/inputs/rtext.c \
	tools/report/inputs/source.c

# The kernel's interpretation of a run (kernel/analysis: levels, verdicts, the summary), its
# CSV reader and JSON writer, and what they stand on.
REPORT_KERNEL_SRCS := $(KERNEL_ANALYSIS_SRCS) kernel/lib/csv.c kernel/lib/json.c \
	kernel/lib/strbuf.c kernel/lib/fmt.c kernel/lib/kstring.c kernel/lib/kmath.c kernel/lib/stats.c \
	kernel/lib/rng.c kernel/lib/rng_gauss.c
REPORT_LIBS := -lgsl -lgslcblas -lm
include tools/report/fleet/fleet.mk

REPORT_OBJS := $(patsubst %,$(BUILD)/host/%.o,$(REPORT_SRCS) $(REPORT_KERNEL_SRCS))

$(BUILD)/chase-report: $(REPORT_OBJS)
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(CC) -o $@ $(REPORT_OBJS) $(REPORT_LIBS)

ALL_TARGETS += $(BUILD)/chase-report

# ---- tests ----
# Units under test for the analysis tests: everything but main, plots and report writers.
REPORT_LEVELS_SRCS := $(KERNEL_ANALYSIS_SRCS) kernel/lib/csv.c kernel/lib/strbuf.c kernel/lib/fmt.c \
	kernel/lib/kstring.c kernel/lib/kmath.c kernel/lib/stats.c kernel/lib/rng.c kernel/lib/rng_gauss.c \
	tools/report/outputs/report_platform.c \
	tools/report/fit/model.c
REPORT_READER_SRCS := $(REPORT_LEVELS_SRCS) tools/report/inputs/input_lmbench.c \
	tools/report/inputs/input_memlat.c tools/report/inputs/input_ramlat.c \
	tools/report/inputs/input_run.c tools/report/inputs/input_side.c \
	tools/report/inputs/input_sbcbench.c \
	tools/report/inputs/input_tinymem.c \
	tools/report/inputs/load.c tools/report/inputs/readers.c \
	tools/report/inputs/rbounds.c tools/report/inputs/rjson.c tools/report/inputs/rtext.c \
	tools/report/inputs/source.c
REPORT_CORE_SRCS := $(REPORT_READER_SRCS) tools/report/fit/analysis.c \
	tools/report/fit/fit.c tools/report/fit/fit_check.c

# report: the fit, the readers, the inputs, the analysis (tests/unit/report/).
UNIT_TESTS += report/test_fit report/test_readers report/test_inputs report/test_analysis
# report/test_pasted: lat_mem_rd as pasted, lmbench results files, MemoryLatency (issue 51).
UNIT_TESTS += report/test_pasted
test_pasted_SRCS   := $(REPORT_READER_SRCS)
# report/test_ramlat: ramlat tables and whole sbc-bench logs (issue 51).
UNIT_TESTS += report/test_ramlat
test_ramlat_SRCS   := $(REPORT_READER_SRCS)
test_fit_SRCS      := $(REPORT_LEVELS_SRCS) tools/report/fit/fit.c \
	tools/report/fit/fit_check.c tools/report/inputs/rtext.c
test_readers_SRCS  := $(REPORT_LEVELS_SRCS) tools/report/inputs/rjson.c \
	tools/report/inputs/rtext.c
test_inputs_SRCS   := $(REPORT_READER_SRCS)
test_analysis_SRCS := $(REPORT_CORE_SRCS)
# report/test_hostile: absurd numbers in every field of a run folder (issue 38).
UNIT_TESTS += report/test_hostile
test_hostile_SRCS  := $(REPORT_CORE_SRCS) tools/report/outputs/report_json.c \
	tools/report/outputs/report_verdict.c kernel/lib/json.c
UNIT_TESTS += report/test_heatmap report/test_verdict
test_verdict_SRCS  := tools/report/outputs/report_verdict.c kernel/lib/json.c \
	$(REPORT_LEVELS_SRCS)
test_heatmap_SRCS  := tools/report/outputs/plot_heatmap.c tools/report/outputs/plot_bars.c \
	tools/report/outputs/plot.c \
	tools/report/inputs/rtext.c $(REPORT_LEVELS_SRCS)

$(BUILD)/tests/report/%: TEST_LIBS += $(REPORT_LIBS)
$(BUILD)/test/tests/unit/report/%.c.o: TEST_CFLAGS += -Itools/report

SCRIPT_TESTS += tests/report/test_formats.sh tests/report/test_run_folder.sh \
	tests/report/test_summary_agree.sh tests/report/test_verdicts_sim.sh \
	tests/report/test_real_readers.sh
# The tail's plots, table, refresh line and runs side by side (issue 52).
SCRIPT_TESTS += tests/report/test_tail_report.sh

# ---- fuzzing: the readers on hostile input (tests/fuzz/fuzz_report_*.c) ----
FUZZ_TARGETS += fuzz_report_run fuzz_report_text
fuzz_report_run_SRCS := $(REPORT_READER_SRCS)
fuzz_report_text_SRCS := $(REPORT_READER_SRCS)
$(BUILD)/fuzzobj/tests/fuzz/fuzz_report_%.c.o: FUZZ_CFLAGS += -Itools/report

# The report's includes are rooted at its folder ("inputs/csv.h", "analysis/levels.h").
$(BUILD)/host/tools/report/%.c.o: HOST_CFLAGS += -Itools/report
$(BUILD)/test/tools/report/%.c.o: TEST_CFLAGS += -Itools/report
$(BUILD)/fuzzobj/tools/report/%.c.o: FUZZ_CFLAGS += -Itools/report
