# SPDX-License-Identifier: MIT
# chase-sim: the cache-hierarchy simulator, its unit and script tests and its benchmark.

# The model: caches, policies, hierarchy, descriptions (no kernel code needed).
SIM_MODEL_SRCS := \
	tools/sim/sim_access.c \
	tools/sim/sim_cache.c \
	tools/sim/sim_hier.c \
	tools/sim/sim_hier_load.c \
	tools/sim/sim_hier_v3.c \
	tools/sim/sim_policy.c \
	tools/sim/sim_prefetch.c \
	tools/sim/sim_presets.c \
	tools/sim/sim_spec.c \
	tools/sim/sim_spec_format.c \
	tools/sim/sim_stalls.c

# The program: the model, the measurement backend, the buffer, the command line.
SIM_SRCS := $(SIM_MODEL_SRCS) \
	tools/sim/sim_bench.c \
	tools/sim/sim_buffer.c \
	tools/sim/sim_cli.c \
	tools/sim/sim_leaders.c \
	tools/sim/sim_main.c \
	tools/sim/sim_measure.c \
	tools/sim/sim_stream.c

# The same kernel as chase.efi and chase-host; the host platform minus its buffer and main.
SIM_OBJS := $(patsubst %,$(BUILD)/host/%.o,$(KERNEL_SRCS) $(ARCH_SRCS) \
	tools/host/host_platform.c tools/host/host_mp.c tools/host/host_cpus.c tools/host/host_numa.c \
	$(SIM_SRCS))

$(BUILD)/chase-sim: $(SIM_OBJS)
	@$(if $(Q),echo "  LINK     $@")
	$(Q)$(CC) -o $@ $(SIM_OBJS)

ALL_TARGETS += $(BUILD)/chase-sim

# sim: policies, their compact rows, descriptions, the hierarchy, batches, measurement
# (tests/unit/sim/).
UNIT_TESTS += sim/test_sim_policy sim/test_sim_rows sim/test_sim_spec sim/test_sim_hier \
	sim/test_sim_batch sim/test_sim_measure sim/test_sim_prefetch sim/test_sim_stalls
test_sim_stalls_SRCS  := $(SIM_MODEL_SRCS) kernel/point/refresh.c kernel/point/tail_stats.c \
	kernel/lib/kmath.c kernel/lib/stats.c \
	tests/unit/stubs/stub_platform.c
test_sim_policy_SRCS  := $(SIM_MODEL_SRCS)
test_sim_prefetch_SRCS := $(SIM_MODEL_SRCS)
test_sim_rows_SRCS    := $(SIM_MODEL_SRCS)
test_sim_batch_SRCS   := $(SIM_MODEL_SRCS)
test_sim_spec_SRCS    := $(SIM_MODEL_SRCS)
test_sim_hier_SRCS    := $(SIM_MODEL_SRCS)
test_sim_measure_SRCS := $(SIM_MODEL_SRCS) tools/sim/sim_measure.c tools/sim/sim_stream.c \
	kernel/chase/chain.c kernel/chase/chain_shapes.c kernel/lib/rng.c kernel/lib/stats.c \
	kernel/lib/strbuf.c kernel/lib/fmt.c kernel/lib/kstring.c tests/unit/stubs/stub_platform.c

$(BUILD)/test/tests/unit/sim/%.c.o: TEST_CFLAGS += -Itools/sim

# The x86-64-v3 loop is specialized for the policy kinds and relation of 3-level hierarchies
# (54 loops): too large for -g's variable tracking. The unit tests' build (ASan, UBSan) keeps
# six of them, every kind at every level and each relation, so that it compiles in seconds
# rather than minutes.
$(BUILD)/host/tools/sim/sim_hier_v3.c.o: HOST_CFLAGS += -fno-var-tracking-assignments
$(BUILD)/test/tools/sim/sim_hier_v3.c.o: TEST_CFLAGS += -fno-var-tracking-assignments \
	-DSIM_FEW_SHAPES

SCRIPT_TESTS += tests/sim/test_sim_cli.sh tests/sim/test_sim_random.sh \
	tests/sim/test_sim_experiments.sh tests/sim/test_sim_tail.sh

BENCH_SCRIPTS += tools/sim/bench.sh
