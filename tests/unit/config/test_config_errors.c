// SPDX-License-Identifier: MIT
// Unit tests of every configuration error class, for all experiments' keys, and auto values.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cfg_values.h" /* before cfg_errors.h: its functions take a cfg of their own */
#include "cfg_errors.h"
#include "lib/json.h"

/* A machine with a three-level hierarchy and 4 GiB of buffer room. */
static int setup(void **state)
{
    (void)state;
    memset(&machine, 0, sizeof(machine));
    strcpy(machine.platform, "linux");
    machine.cpu.ncaches = 3;
    machine.cpu.caches[0] = (struct cache_info){.level = 1,
                                                .type = CACHE_DATA,
                                                .size_bytes = 32 << 10,
                                                .ways = 8,
                                                .line_bytes = 64,
                                                .sets = 64};
    machine.cpu.caches[1] = (struct cache_info){.level = 2,
                                                .type = CACHE_UNIFIED,
                                                .size_bytes = 1 << 20,
                                                .ways = 16,
                                                .line_bytes = 64,
                                                .sets = 1024};
    machine.cpu.caches[2] = (struct cache_info){.level = 3,
                                                .type = CACHE_UNIFIED,
                                                .size_bytes = 32 << 20,
                                                .ways = 16,
                                                .line_bytes = 64,
                                                .sets = 32768};
    machine.memory_total_bytes = 16ull << 30;
    machine.buffer_limit_bytes = 4ull << 30;
    cfg_errors_begin();
    return 0;
}

/* With no settings every experiment's defaults are consistent and fit. */
static void test_defaults_of_all_experiments_resolve(void **state)
{
    (void)state;
    assert_true(resolve(NULL, NULL));
    /* All of the table, in its order (how many is the table's business, never a test's). */
    assert_true(experiment_count > 0 && experiment_count <= EXPERIMENTS_MAX);
    assert_int_equal(cfg.global.n_experiments, experiment_count);
    for (unsigned i = 0; i < cfg.global.n_experiments; i++)
        assert_int_equal(cfg.global.experiments[i], i);
    assert_int_equal(cfg_u64(&cfg, "cores.cpus"), 0); /* every processor */
    assert_int_equal(cfg_list_value(&cfg, "loaded.delays")->n, 7);
    assert_int_equal(cfg_list_value(&cfg, "loaded.delays")->v[6], 0); /* flat out last */
    assert_int_equal(cfg_u64(&cfg, "loaded.size"), 128ull << 20);     /* 4x the 32M LLC */
    assert_int_equal(cfg_u64(&cfg, "loaded.traffic"), 128ull << 20);
    assert_true(cfg_u64(&cfg, "random.max") >= 4 * (32ull << 20));
    assert_int_equal(cfg_list_value(&cfg, "ring.strides")->n, 7);
    assert_true(cfg_list_value(&cfg, "tlb.pages")->n >= 2);
    assert_true(cfg_auto_value(&cfg, "dual.lag")->is_auto);
    assert_int_equal(cfg_auto_value(&cfg, "dual.lag")->value,
                     2 * (1 << 20) / 64); /* twice L2, in slots */
    assert_true(cfg_auto_value(&cfg, "offset.size")->is_auto);
    assert_int_equal(cfg_u64(&cfg, "offset.stride"), 32768 * 64); /* LLC sets x line */
    /* 4 x ways (16) x slices (1: no sharing reported) slots, one stride apart */
    assert_int_equal(cfg_auto_value(&cfg, "offset.size")->value, 4 * 16 * 32768 * 64);
    /* numa: far beyond the LLC like random's largest size, lowered to the nodes at run time */
    assert_true(cfg_auto_value(&cfg, "numa.size")->is_auto);
    assert_int_equal(cfg_auto_value(&cfg, "numa.size")->value, cfg_u64(&cfg, "random.max"));
    assert_int_equal(cfg_u64(&cfg, "numa.stride"), 64);
}

/* loaded's chase: 4x the LLC, but at least 64M and at most 1G, and with the traffic region
   beside it within the buffer room. */
static void test_loaded_size_bounds(void **state)
{
    (void)state;
    machine.cpu.caches[2].size_bytes = 480u << 20; /* a large L3: 4x would be 2G */
    assert_true(resolve(NULL, NULL));
    assert_int_equal(cfg_u64(&cfg, "loaded.size"), 1ull << 30);
    machine.cpu.caches[2].size_bytes = 4u << 20; /* a small one: 16M, raised to 64M */
    assert_true(resolve(NULL, NULL));
    assert_int_equal(cfg_u64(&cfg, "loaded.size"), 64ull << 20);
    machine.cpu.caches[2].size_bytes = 32u << 20;
    machine.buffer_limit_bytes = 128ull << 20; /* room for 2 x 64M only */
    assert_true(resolve(NULL, NULL));
    assert_int_equal(cfg_u64(&cfg, "loaded.size"), 64ull << 20);
    assert_int_equal(cfg_u64(&cfg, "loaded.traffic"), 64ull << 20);
    assert_false(resolve(NULL, "loaded.traffic=100000 loaded.mode=write"));
    assert_error("100000 is not a multiple of a generator's block (1024)");
    assert_error("loaded.mode");
}

static void test_quick_profile_resolves(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "profile=quick"));
    assert_true(cfg_u64(&cfg, "random.max") <= 4 << 20);
    assert_true(cfg_u64(&cfg, "scan.huge") <= 8 << 20);
    assert_int_equal(cfg_auto_value(&cfg, "numa.size")->value, 4 << 20);
}

/* The processor experiments' contradictions: one processor, sizes off the line. */
static void test_processor_experiment_errors(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "cores.cpus=1 c2c.cpus=1 loaded.size=100000"));
    assert_error("cores.cpus");
    assert_error("1 processor is no comparison; expected 0 (all) or 2 to 64");
    assert_error("1 processor makes no pair; expected 0 (all) or 2 to 64");
    assert_error("100000 is not a multiple of the line (64)");
}

/* tail's defaults (full: beyond the 32M LLC, a quarter million batches; quick: small) and its
   one contradiction, a window longer than the batches. */
static void test_tail_keys(void **state)
{
    (void)state;
    assert_true(resolve(NULL, NULL));
    assert_true(cfg_u64(&cfg, "tail.max") >= 4 * (32ull << 20));
    assert_int_equal(cfg_u64(&cfg, "tail.batches"), 262144);
    assert_int_equal(cfg_u64(&cfg, "tail.hops"), 4);
    assert_true(resolve(NULL, "profile=quick"));
    assert_true(cfg_u64(&cfg, "tail.max") <= 4 << 20);
    assert_int_equal(cfg_u64(&cfg, "tail.batches"), 16384);
    assert_false(resolve(NULL, "tail.batches=1000 tail.window=2000"));
    assert_error("key 'tail.window': window (2000) is larger than batches (1000)");
}

/* tail's page sizes: 4K and 2M in quick (1G too where the CPU has it, but in quick); each a
   page size, once. */
static void test_tail_pages(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "profile=quick"));
    assert_int_equal(cfg_list_value(&cfg, "tail.pages")->n, 2);
    assert_int_equal(cfg_list_value(&cfg, "tail.pages")->v[0], 4096);
    assert_int_equal(cfg_list_value(&cfg, "tail.pages")->v[1], 2 << 20);
    assert_false(resolve(NULL, "tail.pages=4K,2M,4K"));
    assert_error("key 'tail.pages': 4096 is listed twice; expected each page size once");
    assert_false(resolve(NULL, "tail.pages=64K"));
    assert_error("key 'tail.pages': 65536 is not a page size; expected 4K, 2M or 1G");
}

/* numa's contradictions (each resolve in a test sees the entries before it, so one each) */
static void test_numa_size_below_stride(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "numa.size=4K numa.stride=8K"));
    assert_error("key 'numa.size': size (4096) is smaller than one stride (8192)");
}

static void test_numa_stride_and_size(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "numa.stride=100"));
    assert_error("key 'numa.stride': 100 is not a multiple of 8");
}

static void test_numa_size_set(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "numa.size=1G numa.stride=256"));
    assert_false(cfg_auto_value(&cfg, "numa.size")->is_auto);
    assert_int_equal(cfg_auto_value(&cfg, "numa.size")->value, 1ull << 30);
}

/* "auto" written out: the full profile's size (the resolve hook has no profile), still auto. */
static void test_numa_auto_written_out(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "profile=quick numa.size=auto"));
    assert_true(cfg_auto_value(&cfg, "numa.size")->is_auto);
    assert_true(cfg_auto_value(&cfg, "numa.size")->value >= 4 * (32ull << 20));
}

/* ... and what they accept. */
static void test_processor_experiment_values(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "cores.cpus=2 c2c.cpus=0 loaded.size=64M loaded.delays=8,0"));
    assert_int_equal(cfg_list_value(&cfg, "loaded.delays")->n, 2);
    assert_true(resolve(NULL, "loaded.mode=readwrite loaded.traffic=1M"));
    assert_int_equal(cfg_u64(&cfg, "loaded.mode"), 2); /* mixes, read, readwrite */
}

/* loaded's family by default; the mixes key names its curves, nt for non-temporal stores. */
static void test_loaded_mixes(void **state)
{
    (void)state;
    assert_true(resolve(NULL, NULL));
    assert_int_equal(cfg_u64(&cfg, "loaded.mode"), 0);
    assert_int_equal(cfg_list_value(&cfg, "loaded.mixes")->n, 7);
    assert_true(resolve(NULL, "loaded.mixes=100:0,25:75nt,readwrite"));
    const struct cfg_list *m = cfg_list_value(&cfg, "loaded.mixes");
    assert_int_equal(m->n, 3);
    assert_int_equal(m->v[0], 0);
    assert_int_equal(m->v[1], 7);
    assert_int_equal(m->v[2], 9);
    assert_false(resolve(NULL, "loaded.mixes=60:40"));
}

/* Unknown keys name the source and suggest the nearest known key. */
static void test_unknown_keys(void **state)
{
    (void)state;
    assert_false(resolve("[ring]\nstride = 64\n[tlb]\npage = 4K\n",
                         "fused.max_fuze=4 parallel.chains=2 stride=64"));
    assert_error(CFG_NAME ":2: unknown key 'ring.stride' (did you mean 'ring.strides'?)");
    assert_error(CFG_NAME ":4: unknown key 'tlb.page' (did you mean 'tlb.pages'?)");
    assert_error("load options:1: unknown key 'fused.max_fuze' (did you mean 'fused.max_fuse'?)");
    assert_error("load options:2: unknown key 'parallel.chains' (did you mean "
                 "'parallel.max_chains'?)");
    assert_error("load options:3: unknown key 'stride': it is an experiment's key; write "
                 "'random.stride'");
    assert_int_equal(errs.count, 5);
}

/* Malformed numbers, lists and auto values: the source, the key and what is accepted. */
static void test_malformed_values(void **state)
{
    (void)state;
    assert_false(resolve("linear.size = 12X\nring.strides = 16,,64\ndual.lag = sometimes\n"
                         "offset.size = 4/3\n",
                         "random.locality=lots tlb.pages=4K,2M,huge"));
    assert_error(CFG_NAME ":1: key 'linear.size': bad value '12X'; expected a size in bytes");
    assert_error(CFG_NAME ":2: key 'ring.strides': bad value '16,,64'; expected a "
                          "comma-separated list of 1 to 8 sizes in bytes");
    assert_error(CFG_NAME ":3: key 'dual.lag': bad value 'sometimes'; expected 'auto' or an "
                          "integer");
    assert_error(CFG_NAME ":4: key 'offset.size': bad value '4/3'; expected 'auto' or a size");
    assert_error("load options:1: key 'random.locality': bad value 'lots'");
    assert_error("load options:2: key 'tlb.pages': bad value '4K,2M,huge'");
    assert_int_equal(errs.count, 6);
}

/* Values outside a key's range say so, and give the range. */
static void test_out_of_range(void **state)
{
    (void)state;
    assert_false(resolve("reps = 0\nparallel.max_chains = 99\nfused.max_fuse = 0\n"
                         "ring.strides = 64, 2G\n",
                         "tlb.pages=8K random.points_per_octave=33"));
    assert_error(CFG_NAME ":1: key 'reps': bad value '0' (out of range); expected an integer "
                          "from 1 to 1000");
    assert_error(CFG_NAME ":2: key 'parallel.max_chains': bad value '99' (out of range); "
                          "expected an integer from 1 to 14");
    assert_error(CFG_NAME ":3: key 'fused.max_fuse': bad value '0' (out of range)");
    assert_error(CFG_NAME
                 ":4: key 'ring.strides': bad value '64, 2G' (out of range); "
                 "expected a comma-separated list of 1 to 8 sizes in bytes, each from 8 to 1G");
    assert_error("load options:2: key 'random.points_per_octave': bad value '33' (out of range)");
    /* 8K parses as a size in range: it is the check that knows page sizes */
    assert_error("load options:1: key 'tlb.pages': 8192 is not a page size; expected 4K, 2M or 1G");
}

static void test_too_many_list_items(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "ring.strides=8,16,24,32,40,48,56,64,72 tlb.pages=4K,2M,4K"));
    assert_error("load options:1: key 'ring.strides': bad value");
    assert_error("1 to 8 sizes");
    assert_error("load options:2: key 'tlb.pages': 4096 is listed twice; expected each page size "
                 "once");
}

/* min > max in every experiment that has a range, named at the line that set it. */
static void test_min_above_max(void **state)
{
    (void)state;
    assert_false(resolve("[random]\nmin = 1M\nmax = 64K\n[linear]\nmin_stride = 256\n"
                         "max_stride = 128\n[scan]\nsmall_min = 8M\nsmall_max = 1M\n",
                         "dual.min=2M dual.max=1M ring.min=1G ring.max=1M tlb.min=8M tlb.max=1M "
                         "fused.min_stride=512 fused.max_stride=64"));
    assert_error(CFG_NAME ":2: key 'random.min': min (1048576) is larger than max (65536)");
    assert_error(CFG_NAME ":5: key 'linear.min_stride': min_stride (256) is larger than "
                          "max_stride (128)");
    assert_error(CFG_NAME ":8: key 'scan.small_min': small_min (8388608) is larger than "
                          "small_max (1048576)");
    assert_error("load options:1: key 'dual.min': min (2097152) is larger than max (1048576)");
    assert_error("load options:3: key 'ring.min': min (1073741824) is larger than max");
    assert_error("load options:5: key 'tlb.min': min (8388608) is larger than max");
    assert_error("load options:7: key 'fused.min_stride': min_stride (512) is larger than "
                 "max_stride (64)");
}

/* A slot holds a pointer: every stride a multiple of 8. */
static void test_strides_multiple_of_8(void **state)
{
    (void)state;
    assert_false(resolve("random.stride = 12\nring.strides = 64, 100\nlinear.step = 12\n",
                         "dual.stride=20 scan.stride=36 parallel.stride=60 offset.stride=4100 "
                         "linear.min_stride=12"));
    assert_error(CFG_NAME ":1: key 'random.stride': 12 is not a multiple of 8");
    assert_error(CFG_NAME ":2: key 'ring.strides': stride 100 is not a multiple of 8");
    assert_error(CFG_NAME ":3: key 'linear.step': 12 is not a multiple of 8");
    assert_error("load options:1: key 'dual.stride': 20 is not a multiple of 8");
    assert_error("load options:2: key 'scan.stride': 36 is not a multiple of 8");
    assert_error("load options:3: key 'parallel.stride': 60 is not a multiple of 8");
    assert_error("load options:4: key 'offset.stride': 4100 is not a multiple of 8");
    assert_error("load options:5: key 'linear.min_stride': 12 is not a multiple of 8");
}

/* A plan beyond memory names its size key and the largest value that fits. */
static void test_plan_beyond_memory(void **state)
{
    (void)state;
    assert_false(resolve("[random]\nmax = 64G\n", NULL));
    assert_error(CFG_NAME ":2: key 'random.max': the plan needs a 64G buffer but at most 4G "
                          "fits in memory; the largest random.max that fits is 4G");
}

static void test_plan_beyond_memory_options(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "experiments=scan,parallel scan.huge=6G parallel.size=5G"));
    assert_error("load options:2: key 'scan.huge': the plan needs a");
    assert_error("the largest scan.huge that fits is 3G");
    assert_error("load options:3: key 'parallel.size': the plan needs a 5G buffer but at most "
                 "4G fits in memory; the largest parallel.size that fits is 4G");
}

/* offset's auto size is bounded by memory: as many slots as fit with the sweep's offsets. */
static void test_plan_beyond_memory_defaults(void **state)
{
    (void)state;
    machine.buffer_limit_bytes = 32ull << 20;
    assert_true(resolve(NULL, "experiments=offset"));
    uint64_t size = cfg_auto_value(&cfg, "offset.size")->value;
    uint64_t stride = cfg_u64(&cfg, "offset.stride");
    assert_true(size > 0 && size % stride == 0);
    assert_true(size + stride + cfg_u64(&cfg, "offset.offset_max") <= (32ull << 20));
}

/* Other contradictions: locality and stride, streams and size, lists of page sizes. */
static void test_other_contradictions(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "random.locality=100 fused.size=64 parallel.size=128 "
                               "offset.offset_max=1M offset.offset_step=8"));
    assert_error("key 'random.locality': 100 is not a multiple of the stride (64)");
    assert_error("key 'fused.size': 64 split into 8 streams leaves fewer than two slots");
    assert_error("key 'parallel.size': 128 gives fewer than two slots per chain");
    assert_error("key 'offset.offset_max': the sweep would have 131073 offsets each way");
}

/* With any error, cfg_resolve says so; the errors are one line each. */
static void test_errors_counted_one_line_each(void **state)
{
    (void)state;
    assert_false(resolve("reps = 0\nbogus = 1\n", NULL));
    assert_int_equal(errs.count, 2);
    const char *t = strbuf_str(&errs.text);
    unsigned lines = 0;
    for (; *t; t++)
        lines += *t == '\n';
    assert_int_equal(lines, 2);
}

/* auto values: explicit numbers override; the resolved value is kept with the auto flag. */
static void test_auto_values(void **state)
{
    (void)state;
    assert_true(resolve("dual.lag = 100\noffset.size = auto\n", "dual.stride=128"));
    assert_false(cfg_auto_value(&cfg, "dual.lag")->is_auto);
    assert_int_equal(cfg_auto_value(&cfg, "dual.lag")->value, 100);
    assert_true(cfg_auto_value(&cfg, "offset.size")->is_auto);
    teardown(NULL);
    setup(NULL);
    assert_true(resolve(NULL, "dual.stride=128 dual.lag=auto"));
    assert_int_equal(cfg_auto_value(&cfg, "dual.lag")->value, 2 * (1 << 20) / 128);
    char buf[64];
    const void *params;
    const struct key_desc *lag = cfg_key(&cfg, "dual.lag", &params);
    assert_non_null(lag);
    cfg_format_value(buf, sizeof(buf), lag, params);
    assert_string_equal(buf, "auto (16384)");
}

/* run.json carries the auto value and says it was chosen automatically. */
static void test_auto_values_in_json(void **state)
{
    (void)state;
    assert_true(resolve(NULL, NULL));
    struct strbuf out = {0};
    struct json j;
    json_init(&j, &out);
    json_object_begin(&j, NULL);
    int idx = cfg_table_find(&experiment_cfg_table, "offset");
    assert_true(idx >= 0);
    const struct cfg_section *x = experiment_cfg_table.section((size_t)idx);
    for (size_t i = 0; i < x->nkeys; i++)
        cfg_value_json(&j, &x->keys[i], cfg_params_const(&cfg, (size_t)idx));
    json_object_end(&j);
    assert_non_null(strstr(strbuf_str(&out), "\"size_auto\": true"));
    assert_non_null(strstr(strbuf_str(&out), "\"size\": 134217728"));
    strbuf_release(&out);
}

/* Lists parse with blanks and suffixes; a later setting replaces the whole list. */
static void test_lists(void **state)
{
    (void)state;
    assert_true(resolve("ring.strides = 16, 1K ,0x40\n", "tlb.pages=2M,4K"));
    assert_int_equal(cfg_list_value(&cfg, "ring.strides")->n, 3);
    assert_int_equal(cfg_list_value(&cfg, "ring.strides")->v[1], 1024);
    assert_int_equal(cfg_list_value(&cfg, "ring.strides")->v[2], 64);
    assert_int_equal(cfg_list_value(&cfg, "tlb.pages")->n, 2);
    assert_int_equal(cfg_list_value(&cfg, "tlb.pages")->v[0], 2 << 20);
}

/* A list is shown as it would be written: sizes with suffixes, ns lists as plain integers. */
static void test_list_format(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "ring.strides=64,1K loaded.delays=1000000,4096,0"));
    char buf[96];
    const void *params;
    const struct key_desc *k = cfg_key(&cfg, "ring.strides", &params);
    cfg_format_value(buf, sizeof(buf), k, params);
    assert_string_equal(buf, "64,1K");
    k = cfg_key(&cfg, "loaded.delays", &params);
    cfg_format_value(buf, sizeof(buf), k, params);
    assert_string_equal(buf, "1000000,4096,0");
}

/* An error names the file: whole up to the room for names, else "..." and the path's end. */
static void test_error_names_long_file(void **state)
{
    (void)state;
    const char *file = "[ring]\nstrides = 64, 100\n";
    char path[300];
    memset(path, 'd', sizeof(path));
    memcpy(path, "/work/some/longer/folder/", 25);
    path[100] = 0; /* a 100-character path: kept whole */
    strcat(path, "/bad.cfg");
    cfg_read_file(entries, &experiment_cfg_table, file, strlen(file), path, &errs);
    cfg_resolve(&cfg, &experiment_cfg_table, entries, &machine, &errs);
    char want[400];
    snprintf(want, sizeof(want), "%s:2: key 'ring.strides'", path);
    assert_error(want);
    strbuf_reset(&errs.text);
    errs.count = 0;
    memset(path + 100, 'e', 180);
    strcpy(path + 280, "/chase.cfg"); /* 290 characters: its end is kept */
    memset(entries, 0, sizeof(*entries));
    cfg_read_file(entries, &experiment_cfg_table, file, strlen(file), path, &errs);
    cfg_resolve(&cfg, &experiment_cfg_table, entries, &machine, &errs);
    const char *text = strbuf_str(&errs.text);
    assert_memory_equal(text, "...", 3);
    snprintf(want, sizeof(want), "eeeeeeee/chase.cfg:2: key 'ring.strides'");
    assert_error(want);
    assert_true(strlen(text) < strlen(path)); /* truncated, at its start */
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_defaults_of_all_experiments_resolve),
        T(test_loaded_size_bounds),
        T(test_quick_profile_resolves),
        T(test_unknown_keys),
        T(test_tail_keys),
        T(test_tail_pages),
        T(test_numa_size_below_stride),
        T(test_numa_stride_and_size),
        T(test_numa_auto_written_out),
        T(test_numa_size_set),
        T(test_processor_experiment_errors),
        T(test_processor_experiment_values),
        T(test_loaded_mixes),
        T(test_malformed_values),
        T(test_out_of_range),
        T(test_too_many_list_items),
        T(test_min_above_max),
        T(test_strides_multiple_of_8),
        T(test_plan_beyond_memory),
        T(test_plan_beyond_memory_options),
        T(test_plan_beyond_memory_defaults),
        T(test_other_contradictions),
        T(test_errors_counted_one_line_each),
        T(test_error_names_long_file),
        T(test_auto_values),
        T(test_auto_values_in_json),
        T(test_lists),
        T(test_list_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
