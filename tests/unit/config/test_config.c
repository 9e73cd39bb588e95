// SPDX-License-Identifier: MIT
// Unit tests of configuration reading: file syntax, load options, overrides, basic errors.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "cfg_values.h"
#include "experiments/experiment.h"

static struct machine machine;
static struct cfg_entries *entries;
static struct cfg_errors errs;
static struct chase_config cfg;

static int setup(void **state)
{
    (void)state;
    memset(&machine, 0, sizeof(machine));
    machine.cpu.ncaches = 1;
    machine.cpu.caches[0] = (struct cache_info){
        .level = 1, .type = CACHE_DATA, .size_bytes = 32768, .ways = 8, .line_bytes = 64};
    machine.memory_total_bytes = 4ull << 30;
    machine.buffer_limit_bytes = 2ull << 30;
    entries = calloc(1, sizeof(*entries));
    memset(&errs, 0, sizeof(errs));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(entries);
    strbuf_release(&errs.text);
    return 0;
}

static bool resolve_text(const char *file, const char *options)
{
    if (file)
        cfg_read_file(entries, &experiment_cfg_table, file, strlen(file), "\\chase\\chase.cfg",
                      &errs);
    if (options)
        cfg_read_options(entries, options, &errs);
    cfg_resolve(&cfg, &experiment_cfg_table, entries, &machine, &errs);
    return errs.count == 0;
}

/* Resolve and expect no error; on failure, show the errors. */
#define assert_resolves(file, options)                                                             \
    do {                                                                                           \
        if (!resolve_text(file, options))                                                          \
            fail_msg("unexpected configuration errors:\n%s", strbuf_str(&errs.text));              \
    } while (0)

static void assert_error_contains(const char *needle)
{
    const char *text = strbuf_str(&errs.text);
    if (!strstr(text, needle))
        fail_msg("expected an error containing \"%s\", got:\n%s", needle, text);
}

static void test_defaults(void **state)
{
    (void)state;
    assert_resolves(NULL, NULL);
    assert_int_equal(cfg.global.profile, PROFILE_FULL);
    assert_int_equal(cfg.global.on_exit, ON_EXIT_WAIT);
    assert_int_equal(cfg.global.reps, 5);
    assert_int_equal(cfg.global.n_experiments, experiment_count);
    assert_int_equal(cfg_u64(&cfg, "random.stride"), 64);
    assert_int_equal(cfg_u64(&cfg, "random.points_per_octave"), 4);
    assert_true(cfg_u64(&cfg, "random.max") >= 64ull << 20);
}

static void test_file_syntax(void **state)
{
    (void)state;
    const char *file = "# a comment\n"
                       "\n"
                       "reps = 7   # trailing comment\n"
                       "seed=0x10\n"
                       "random.stride = 128\n"
                       "[random]\n"
                       "  min = 8K\n"
                       "max = 2M\r\n"
                       "points_per_octave = 3\n";
    assert_resolves(file, NULL);
    assert_int_equal(cfg.global.reps, 7);
    assert_int_equal(cfg.global.seed, 16);
    assert_int_equal(cfg_u64(&cfg, "random.stride"), 128);
    assert_int_equal(cfg_u64(&cfg, "random.min"), 8192);
    assert_int_equal(cfg_u64(&cfg, "random.max"), 2 << 20);
    assert_int_equal(cfg_u64(&cfg, "random.points_per_octave"), 3);
}

static void test_options_override_file(void **state)
{
    (void)state;
    assert_resolves("reps = 7\nprofile = full\n",
                    "\\EFI\\BOOT\\chase.efi reps=9 profile = quick on_exit=shutdown");
    assert_int_equal(cfg.global.reps, 9);
    assert_int_equal(cfg.global.profile, PROFILE_QUICK);
    assert_int_equal(cfg.global.on_exit, ON_EXIT_SHUTDOWN);
    /* the quick profile's defaults */
    assert_int_equal(cfg_u64(&cfg, "random.points_per_octave"), 2);
    assert_int_equal(cfg_u64(&cfg, "random.max"), 4 << 20);
}

static void test_help_option(void **state)
{
    (void)state;
    assert_resolves(NULL, "chase.efi help");
    assert_true(entries->want_help);
}

static void test_experiment_list(void **state)
{
    (void)state;
    assert_resolves("experiments = random\n", NULL);
    assert_int_equal(cfg.global.n_experiments, 1);
    assert_int_equal(cfg.global.experiments[0],
                     (unsigned)cfg_table_find(&experiment_cfg_table, "random"));
}

static void test_unknown_key_suggests(void **state)
{
    (void)state;
    assert_false(resolve_text("[random]\nmn = 4K\n", NULL));
    assert_error_contains("\\chase\\chase.cfg:2: unknown key 'random.mn' (did you mean "
                          "'random.min'?)");
}

static void test_unknown_option_named(void **state)
{
    (void)state;
    assert_false(resolve_text(NULL, "reps=3 frobnicate=1"));
    assert_error_contains("load options:2: unknown key 'frobnicate'");
}

static void test_malformed_values(void **state)
{
    (void)state;
    assert_false(resolve_text("reps = many\nrandom.min = 4Q\nprofile = fast\n"
                              "experiments = random, nosuch\nreps\n",
                              NULL));
    assert_int_equal(errs.count, 5);
    assert_error_contains(":1: key 'reps': bad value 'many'; expected an integer from 1 to 1000");
    assert_error_contains(":2: key 'random.min': bad value '4Q'; expected a size in bytes");
    assert_error_contains(":3: key 'profile': bad value 'fast'; expected one of full, quick");
    assert_error_contains(":4: key 'experiments'");
    assert_error_contains(":5: expected 'key = value'");
}

static void test_out_of_range_and_contradictions(void **state)
{
    (void)state;
    assert_false(resolve_text("reps = 0\n[random]\nmin = 1M\nmax = 64K\nstride = 12\n", NULL));
    assert_error_contains(":1: key 'reps': bad value '0'");
    assert_error_contains("key 'random.min': min (1048576) is larger than max (65536)");
    assert_error_contains(":5: key 'random.stride': 12 is not a multiple of 8");
}

static void test_unknown_section(void **state)
{
    (void)state;
    assert_false(resolve_text("[nosuch]\nx = 1\n", NULL));
    assert_error_contains(":1: unknown section '[nosuch]'");
}

static void test_size_parser(void **state)
{
    (void)state;
    uint64_t v;
    assert_true(cfg_parse_size("4K", &v) && v == 4096);
    assert_true(cfg_parse_size("2m", &v) && v == 2 << 20);
    assert_true(cfg_parse_size("1GiB", &v) && v == 1 << 30);
    assert_true(cfg_parse_size("0x40", &v) && v == 64);
    assert_false(cfg_parse_size("", &v));
    assert_false(cfg_parse_size("K", &v));
    assert_false(cfg_parse_size("4KX", &v));
    assert_false(cfg_parse_size("99999999999999999999", &v));
    assert_false(cfg_parse_size("17179869184G", &v));
}

static void test_prefetch_global_and_per_experiment(void **state)
{
    (void)state;
    size_t linear = (size_t)cfg_table_find(&experiment_cfg_table, "linear");
    size_t random = (size_t)cfg_table_find(&experiment_cfg_table, "random");
    size_t fused = (size_t)cfg_table_find(&experiment_cfg_table, "fused");
    strcpy(machine.platform, "uefi");
    assert_resolves(NULL, NULL);
    assert_int_equal(cfg_prefetch(&cfg, linear), PREFETCH_AS_IS);
    assert_resolves("prefetch = off\n[random]\nprefetch = as-is\n", "fused.prefetch=global");
    assert_int_equal(cfg.global.prefetch, PREFETCH_OFF);
    assert_int_equal(cfg_prefetch(&cfg, linear), PREFETCH_OFF);
    assert_int_equal(cfg_prefetch(&cfg, random), PREFETCH_AS_IS);
    assert_int_equal(cfg_prefetch(&cfg, fused), PREFETCH_OFF);
    assert_false(resolve_text(NULL, "linear.prefetch=on"));
    assert_error_contains(
        "key 'linear.prefetch': bad value 'on'; expected one of global, as-is, off");
}

static void test_prefetch_refused_on_linux(void **state)
{
    (void)state;
    strcpy(machine.platform, "linux");
    assert_resolves(NULL, "prefetch=as-is linear.prefetch=as-is");
    assert_false(resolve_text(NULL, "linear.prefetch=off"));
    assert_error_contains("key 'linear.prefetch': chase-host cannot turn the hardware prefetchers "
                          "off");
    assert_false(resolve_text(NULL, "memtype_test=uc_first"));
    assert_error_contains("key 'memtype_test': only chase.efi");
}

/* chase.efi on AArch64 (machine.arm.read): prefetch=off names why it cannot be done there. */
static void test_prefetch_refused_on_aarch64(void **state)
{
    (void)state;
    strcpy(machine.platform, "uefi");
    machine.arm.read = true;
    assert_resolves(NULL, "prefetch=as-is");
    assert_false(resolve_text(NULL, "prefetch=off"));
    assert_error_contains("key 'prefetch': not on this architecture: AArch64's prefetcher "
                          "controls are implementation-defined registers");
    assert_false(resolve_text(NULL, "random.prefetch=off"));
    assert_error_contains("key 'random.prefetch': not on this architecture");
    machine.arm.read = false;
}

/* chase.efi on AArch64 catches the data aborts fault_test's first two kinds make (its vectors
   are loaded inside windows); the others it cannot provoke or catch, and says so. */
static void test_fault_test_on_aarch64(void **state)
{
    (void)state;
    strcpy(machine.platform, "uefi");
    machine.arm.read = true;
    assert_resolves(NULL, "fault_test=page_fault");
    assert_resolves(NULL, "fault_test=general_protection");
    assert_false(resolve_text(NULL, "fault_test=outside_window"));
    assert_error_contains("key 'fault_test': chase.efi on AArch64 loads its exception vectors "
                          "only inside windows");
    assert_false(resolve_text(NULL, "fault_test=nmi"));
    assert_error_contains("no NMI or machine-check entry");
    machine.arm.read = false;
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_defaults),
        T(test_file_syntax),
        T(test_options_override_file),
        T(test_help_option),
        T(test_experiment_list),
        T(test_unknown_key_suggests),
        T(test_unknown_option_named),
        T(test_malformed_values),
        T(test_out_of_range_and_contradictions),
        T(test_unknown_section),
        T(test_size_parser),
        T(test_prefetch_global_and_per_experiment),
        T(test_prefetch_refused_on_linux),
        T(test_prefetch_refused_on_aarch64),
        T(test_fault_test_on_aarch64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
