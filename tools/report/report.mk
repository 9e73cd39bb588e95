# SPDX-License-Identifier: MIT
# chase-report: cache levels, the latency model (GSL), gnuplot plots and report.md from runs.

REPORT_SRCS := \
	tools/report/analysis/analysis.c \
	tools/report/inputs/csv.c \
	tools/report/analysis/fit.c \
	tools/report/analysis/fit_check.c \
	tools/report/inputs/input_lmbench.c \
	tools/report/inputs/input_run.c \
	tools/report/inputs/input_tinymem.c \
	tools/report/analysis/levels.c \
	tools/report/analysis/levels_prep.c \
	tools/report/analysis/levels_segment.c \
	tools/report/main.c \
	tools/report/analysis/model.c \
	tools/report/outputs/plot.c \
	tools/report/outputs/plot_exp.c \
	tools/report/outputs/report_json.c \
	tools/report/outputs/report_md.c \
	tools/report/outputs/report_md_run.c \
	tools/report/outputs/report_platform.c \
	tools/report/inputs/rjson.c \
	tools/report/inputs/rtext.c \
	tools/report/inputs/source.c \
	tools/report/analysis/tlb.c \
	tools/report/analysis/verdict_policy.c \
	tools/report/analysis/verdict_prefetch.c

# The kernel's portable JSON writer and what it stands on.
REPORT_KERNEL_SRCS := kernel/lib/json.c kernel/lib/strbuf.c kernel/lib/fmt.c kernel/lib/kstring.c
REPORT_LIBS := -lgsl -lgslcblas -lm

REPORT_OBJS := $(patsubst %,$(BUILD)/host/%.o,$(REPORT_SRCS) $(REPORT_KERNEL_SRCS))

$(BUILD)/chase-report: $(REPORT_OBJS)
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(CC) -o $@ $(REPORT_OBJS) $(REPORT_LIBS)

ALL_TARGETS += $(BUILD)/chase-report

# ---- tests ----
# Units under test for the analysis tests: everything but main, plots and report writers.
REPORT_LEVELS_SRCS := tools/report/analysis/levels.c tools/report/analysis/levels_prep.c \
	tools/report/analysis/levels_segment.c tools/report/analysis/model.c
REPORT_CORE_SRCS := $(REPORT_LEVELS_SRCS) tools/report/analysis/analysis.c tools/report/inputs/csv.c \
	tools/report/analysis/fit.c tools/report/analysis/fit_check.c tools/report/inputs/input_lmbench.c \
	tools/report/inputs/input_run.c tools/report/inputs/input_tinymem.c tools/report/inputs/rjson.c \
	tools/report/inputs/rtext.c tools/report/inputs/source.c tools/report/analysis/tlb.c \
	tools/report/analysis/verdict_policy.c tools/report/analysis/verdict_prefetch.c

# report: level detection, the fit, the readers, the inputs, the analysis (tests/unit/report/).
UNIT_TESTS += report/test_levels report/test_fit report/test_readers report/test_inputs \
	report/test_analysis
test_levels_SRCS   := $(REPORT_LEVELS_SRCS)
test_fit_SRCS      := $(REPORT_LEVELS_SRCS) tools/report/analysis/fit.c \
	tools/report/analysis/fit_check.c tools/report/inputs/rtext.c
test_readers_SRCS  := tools/report/inputs/csv.c tools/report/inputs/rjson.c \
	tools/report/inputs/rtext.c
test_inputs_SRCS   := tools/report/inputs/csv.c tools/report/inputs/input_lmbench.c \
	tools/report/inputs/input_run.c tools/report/inputs/input_tinymem.c \
	tools/report/inputs/rjson.c tools/report/inputs/rtext.c tools/report/inputs/source.c
test_analysis_SRCS := $(REPORT_CORE_SRCS)

$(BUILD)/tests/report/%: TEST_LIBS += $(REPORT_LIBS)
$(BUILD)/test/tests/unit/report/%.c.o: TEST_CFLAGS += -Itools/report
# gcc's -fsanitize=undefined leaves out double-to-integer overflow, a class the fuzzers found.
$(BUILD)/test/tools/report/%.c.o: TEST_CFLAGS += -fsanitize=float-cast-overflow

SCRIPT_TESTS += tests/report/test_formats.sh tests/report/test_run_folder.sh

# ---- fuzzing: the readers on hostile input (tests/fuzz/fuzz_report_*.c) ----
REPORT_READER_SRCS := tools/report/inputs/csv.c tools/report/inputs/input_lmbench.c tools/report/inputs/input_run.c \
	tools/report/inputs/input_tinymem.c tools/report/inputs/rjson.c tools/report/inputs/rtext.c tools/report/inputs/source.c
FUZZ_TARGETS += fuzz_report_run fuzz_report_text
fuzz_report_run_SRCS := $(REPORT_READER_SRCS)
fuzz_report_text_SRCS := $(REPORT_READER_SRCS)
$(BUILD)/fuzzobj/tests/fuzz/fuzz_report_%.c.o: FUZZ_CFLAGS += -Itools/report

# The report's includes are rooted at its folder ("inputs/csv.h", "analysis/levels.h").
$(BUILD)/host/tools/report/%.c.o: HOST_CFLAGS += -Itools/report
$(BUILD)/test/tools/report/%.c.o: TEST_CFLAGS += -Itools/report
$(BUILD)/fuzzobj/tools/report/%.c.o: FUZZ_CFLAGS += -Itools/report
