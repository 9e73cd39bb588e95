// SPDX-License-Identifier: MIT
// chase-sim's hierarchy descriptions: what parses, what it means, and errors at their field.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim_policy.h"
#include "sim_spec.h"

static struct sim_spec spec;

static void parse_ok(const char *text)
{
    struct sim_parse_error err;
    if (!sim_spec_parse(text, &spec, &err))
        fail_msg("'%s' should parse: %s (at %zu)", text, err.msg, err.pos);
}

/* text must fail at `field` (first seen at or after `from`; "": the end), saying why. */
static void parse_bad(const char *text, const char *field, size_t from, const char *why)
{
    struct sim_parse_error err;
    if (sim_spec_parse(text, &spec, &err))
        fail_msg("'%s' should not parse", text);
    const char *at = *field ? strstr(text + from, field) : NULL;
    size_t pos = at ? (size_t)(at - text) : strlen(text); /* "": the end of the text */
    if (err.pos != pos || (*field && err.len != strlen(field)))
        fail_msg("'%s': error at %zu+%zu, expected %zu+%zu ('%s'): %s", text, err.pos, err.len, pos,
                 strlen(field), field, err.msg);
    if (!strstr(err.msg, why))
        fail_msg("'%s': message '%s' does not say '%s'", text, err.msg, why);
}

static void test_issue_example(void **state)
{
    (void)state;
    parse_ok("L1:32K:8w:4c:lru,L2:256K:8w:12c:plru,L3:6M:12w:40c:drrip:slices=4,DRAM:200c");
    assert_int_equal(spec.nlevels, 3);
    assert_int_equal(spec.ntlbs, 0);
    assert_string_equal(spec.level[2].name, "L3");
    assert_int_equal(spec.level[0].size_bytes, 32 << 10);
    assert_int_equal(spec.level[1].policy, SIM_PLRU);
    assert_int_equal(spec.level[2].size_bytes, 6 << 20);
    assert_int_equal(spec.level[2].ways, 12);
    assert_int_equal(spec.level[2].latency_cycles, 40);
    assert_int_equal(spec.level[2].slices, 4);
    assert_int_equal(spec.level[2].hash, SIM_HASH_XOR);
    assert_int_equal(spec.level[2].incl, SIM_NINE);
    assert_int_equal(spec.level[2].line_bytes, 64);
    assert_int_equal(spec.level[2].eps, SIM_DEFAULT_EPS);
    assert_int_equal(spec.level[2].leaders, 32);
    assert_int_equal(spec.level[2].psel_bits, 10);
    assert_int_equal(spec.dram_cycles, 200);
    assert_int_equal(spec.mlp, SIM_DEFAULT_MLP);
}

static void test_options(void **state)
{
    (void)state;
    parse_ok("L1:32K:8w:4c:lru, L2:1M:8w:14c:bip:incl:eps=64, "
             "L3:30M:12w:60c:dip:excl:slices=10:hash=mix:leaders=16:psel=8:line=64, "
             "DTLB:64:4w:7c, STLB:1536:12w:20c:random, dram:300C:mlp=4");
    assert_int_equal(spec.level[1].incl, SIM_INCL);
    assert_int_equal(spec.level[1].eps, 64);
    assert_int_equal(spec.level[2].incl, SIM_EXCL);
    assert_int_equal(spec.level[2].slices, 10);
    assert_int_equal(spec.level[2].hash, SIM_HASH_MIX);
    assert_int_equal(spec.level[2].leaders, 16);
    assert_int_equal(spec.level[2].psel_bits, 8);
    assert_int_equal(spec.ntlbs, 2);
    assert_int_equal(spec.tlb[1].size_bytes, 1536);
    assert_int_equal(spec.tlb[1].policy, SIM_RANDOM);
    assert_int_equal(spec.dram_cycles, 300);
    assert_int_equal(spec.mlp, 4);
}

/* A file: one item a line (or several with commas), blank lines and '#' comments. */
static void test_file_syntax(void **state)
{
    (void)state;
    parse_ok("# a made-up machine\n"
             "L1:32K:8w:4c:lru     # first level, lru\n"
             "L2:256K:8w:12c:plru,\n"
             "\n"
             "  L3:2M:16w:30c:srrip, # comment, with a comma\n"
             "DRAM:200c\n");
    assert_int_equal(spec.nlevels, 3);
    assert_int_equal(spec.level[2].policy, SIM_SRRIP);
}

/* The canonical form parses back to itself. */
static void test_format_round_trip(void **state)
{
    (void)state;
    char a[1024], b[1024];
    parse_ok("L1:48K:12w:5c:lru,L2:1280K:10w:15c:bip:incl,L3:30M:12w:65c:drrip:slices=10,"
             "TLB:64:4w:9c,DRAM:400c:mlp=12");
    sim_spec_format(&spec, a, sizeof(a));
    assert_string_equal(a, "L1:48K:12w:5c:lru,L2:1280K:10w:15c:bip:incl:eps=32,"
                           "L3:30M:12w:65c:drrip:nine:slices=10:hash=mix:eps=32:leaders=32:"
                           "psel=10,TLB:64:4w:9c:lru,DRAM:400c:mlp=12");
    parse_ok(a);
    sim_spec_format(&spec, b, sizeof(b));
    assert_string_equal(a, b);
}

static void test_presets(void **state)
{
    (void)state;
    assert_true(sim_preset_count >= 3);
    for (size_t i = 0; i < sim_preset_count; i++) {
        parse_ok(sim_presets[i].spec);
        assert_true(spec.nlevels >= 2);
        assert_ptr_equal(sim_preset_find(sim_presets[i].name), &sim_presets[i]);
    }
    assert_null(sim_preset_find("pentium"));
    /* An Intel client core with a 12-way sliced L3. */
    parse_ok(sim_preset_find("ivybridge")->spec);
    assert_int_equal(spec.level[2].ways, 12);
    assert_int_equal(spec.level[2].slices, 4);
    /* This machine's AMD EPYC generation. */
    parse_ok(sim_preset_find("epyc-zen4")->spec);
    assert_int_equal(spec.level[0].size_bytes, 32 << 10);
    assert_int_equal(spec.level[0].ways, 8);
    assert_int_equal(spec.level[1].size_bytes, 1 << 20);
    assert_int_equal(spec.level[1].ways, 8);
    assert_int_equal(spec.level[2].size_bytes, 32 << 20);
    assert_int_equal(spec.level[2].ways, 16);
    assert_int_equal(spec.level[2].incl, SIM_EXCL);
    /* An Arm core. */
    assert_non_null(sim_preset_find("neoverse-n1"));
}

/* The hierarchy seen as CPUID would report it, so experiment defaults follow the model. */
static void test_caches(void **state)
{
    (void)state;
    struct cpu_info ci;
    memset(&ci, 0, sizeof(ci));
    parse_ok(sim_preset_find("ivybridge")->spec);
    sim_spec_caches(&spec, &ci);
    assert_int_equal(ci.ncaches, 3);
    assert_int_equal(ci.caches[0].level, 1);
    assert_int_equal(ci.caches[0].type, CACHE_DATA);
    assert_int_equal(ci.caches[2].type, CACHE_UNIFIED);
    assert_int_equal(ci.caches[2].size_bytes, 6 << 20);
    assert_int_equal(ci.caches[2].sets, 8192);
    assert_int_equal(ci.caches[2].line_bytes, 64);
    assert_string_equal(ci.cache_source, "simulated");
}

static void test_errors_point_at_field(void **state)
{
    (void)state;
    parse_bad("L1:32K:8x:4c:lru,DRAM:200c", "8x", 0, "ways");
    parse_bad("L1:32Q:8w:4c:lru,DRAM:200c", "32Q", 0, "size");
    parse_bad("L1:32K:8w:4:lru,DRAM:200c", "4", 10, "latency");
    parse_bad("L1:32K:8w:4c:lru,L2:256K:8w:12c:plrx,DRAM:200c", "plrx", 0, "unknown policy");
    parse_bad("L1:32K:8w:4c:lru", "", 0, "must end with DRAM");
    parse_bad("L1:32K:8w:4c:lru,DRAM:200c,L3:1M:8w:30c:lru", "L3:1M:8w:30c:lru", 0,
              "nothing may follow DRAM");
    parse_bad("L1:48K:8w:4c:lru,DRAM:200c", "48K", 0, "power of two");
    parse_bad("L1:1000:8w:4c:lru,DRAM:200c", "1000", 0, "whole number of sets");
    parse_bad("L1:48K:12w:5c:plru,DRAM:200c", "12w", 0, "power-of-two number of ways");
    parse_bad("L1:32K:8w:4c:lru:excl,DRAM:200c", "excl", 0, "first level");
    parse_bad("L1:32K:8w:4c:lru:eps=8,DRAM:200c", "eps=8", 0, "eps= is for");
    parse_bad("L1:32K:8w:4c:lru,L3:32M:16w:40c:lru:slices=16:hash=intel,DRAM:200c", "hash=intel", 0,
              "2, 4 and 8 slices");
    parse_bad("L1:32K:8w:4c:lru,L3:6M:12w:40c:lru:slices=3:hash=xor,DRAM:200c", "slices=3", 0,
              "power-of-two slice count");
    parse_bad("L1:32K:8w:4c:lru:bogus,DRAM:200c", "bogus", 0, "unknown option");
    parse_bad("L1:32K:8w:4c:lru,L2:256K:8w:12c:lru:incl:line=128,DRAM:200c", "incl", 0,
              "line size");
    parse_bad("L1:32K:8w:4c:lru,DRAM:0c", "0c", 0, "DRAM latency");
    parse_bad("L 1:32K:8w:4c:lru,DRAM:200c", "L 1", 0, "name");
    parse_bad("L1:32K:8w:4c:dip:leaders=3,DRAM:200c", "leaders=3", 0, "power of two");
    parse_bad("L1:32K:8w:4c:lru:slices=99,DRAM:200c", "99", 0, "slices must be");
    parse_bad("L1:32K:8w:4c,DRAM:200c", "4c", 0, "NAME:SIZE:WAYSw:LATENCYc:POLICY");
    parse_bad("L1:32K:8w:4c:lru,DTLB:60:8w:7c,DRAM:200c", "8w", 10, "power of two");
    parse_bad("L1:32K:8w:4c:lru,DRAM:200c:mlp=0", "0", 27, "mlp must be");
    parse_bad("DRAM:200c", "DRAM", 0, "no cache level");
}

/* In a file the error's position is in the whole text, so the caller can name the line. */
static void test_error_in_file(void **state)
{
    (void)state;
    const char *text = "# comment\nL1:32K:8w:4c:lru\nL2:256K:8w:12c:lfu\nDRAM:200c\n";
    parse_bad(text, "lfu", 0, "unknown policy");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue_example),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_file_syntax),
        cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_caches),
        cmocka_unit_test(test_errors_point_at_field),
        cmocka_unit_test(test_error_in_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
