// SPDX-License-Identifier: MIT
// run.json's "aarch64" object: what chase.efi read of an AArch64 processor, the counterpart of
// the x86 memory-type record (MAIR and TCR instead of MTRRs and PAT).
#include "lib/fmt.h"
#include "lib/json.h"
#include "machine/arm_cpu.h"
#include "machine/arm_tables.h"
#include "run/results.h"

static void hex(struct json *j, const char *key, uint64_t v)
{
    char text[24];
    ksnprintf(text, sizeof(text), "0x%llx", (unsigned long long)v);
    json_string(j, key, text);
}

static void cache_levels_json(struct json *j, const struct arm_regs *a)
{
    struct arm_clidr cl;
    arm_clidr_decode(a->clidr, &cl);
    bool ccidx = ((a->mmfr2 >> A64_MMFR2_CCIDX_SHIFT) & A64_MMFR2_CCIDX_MASK) != 0;
    json_bool(j, "ccidx", ccidx);
    json_array_begin(j, "cache_levels");
    for (unsigned i = 0; i < cl.levels; i++) {
        json_object_begin(j, NULL);
        json_u64(j, "level", i + 1);
        json_string(j, "ctype", arm_ctype_name(cl.ctype[i]));
        for (unsigned side = 0; side < 2; side++) {
            bool instr = side == 1;
            bool has =
                instr ? (cl.ctype[i] == ARM_CTYPE_INSTRUCTION || cl.ctype[i] == ARM_CTYPE_SEPARATE)
                      : cl.ctype[i] != ARM_CTYPE_INSTRUCTION;
            if (!has)
                continue;
            struct arm_ccsidr c;
            arm_ccsidr_decode(a->ccsidr[i][side], ccidx, &c);
            json_object_begin(j, instr ? "instruction" : "data_or_unified");
            hex(j, "ccsidr", a->ccsidr[i][side]);
            json_u64(j, "line_bytes", c.line_bytes);
            json_u64(j, "ways", c.ways);
            json_u64(j, "sets", c.sets);
            json_u64(j, "size_bytes", c.size_bytes);
            json_object_end(j);
        }
        json_object_end(j);
    }
    json_array_end(j);
}

static void translation_json(struct json *j, const struct arm_regs *a)
{
    json_object_begin(j, "translation");
    hex(j, "mair", a->mair);
    hex(j, "tcr", a->tcr);
    hex(j, "ttbr0", a->ttbr0);
    hex(j, "sctlr", a->sctlr);
    json_array_begin(j, "mair_attributes");
    for (unsigned i = 0; i < 8; i++) {
        char text[40];
        unsigned attr = a64_mair_attr(a->mair, i);
        ksnprintf(text, sizeof(text), "0x%02x %s", attr, a64_attr_name(attr));
        json_string(j, NULL, text);
    }
    json_array_end(j);
    json_object_end(j);
}

void results_arm_json(struct json *j, const struct arm_regs *a)
{
    if (!a->read)
        return;
    json_object_begin(j, "aarch64");
    json_u64(j, "exception_level", a->el);
    hex(j, "midr", a->midr);
    hex(j, "mpidr", a->mpidr);
    hex(j, "clidr", a->clidr);
    hex(j, "ctr", a->ctr);
    hex(j, "id_aa64mmfr0", a->mmfr0);
    hex(j, "id_aa64mmfr2", a->mmfr2);
    hex(j, "id_aa64dfr0", a->dfr0);
    json_u64(j, "pmu_version", (a->dfr0 >> A64_DFR0_PMUVER_SHIFT) & A64_DFR0_PMUVER_MASK);
    json_string(j, "core_clock",
                "see core_clock: PMCCNTR_EL0 where chase.efi's windows could "
                "enable it (core_counter says), else the add chain");
    cache_levels_json(j, a);
    json_bool(j, "pptt", a->pptt_found);
    json_bool(j, "pptt_caches", a->pptt_caches);
    json_string(j, "pptt_note", a->pptt_note[0] ? a->pptt_note : NULL);
    json_u64(j, "timer_hz", a->timer_hz);
    json_double(j, "timer_tick_ns", a->timer_hz ? 1e9 / (double)a->timer_hz : 0, 3);
    translation_json(j, a);
    json_object_end(j);
}
