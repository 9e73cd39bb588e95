// SPDX-License-Identifier: MIT
// The run's machine checks: mca.c's reads at the run's edges and between experiments, and what
// the console, the summary and run.json say about them.
#include "run/machine_checks.h"

#include "arch/cpu.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/kstring.h"
#include "platform.h"

#if !defined(__aarch64__)
static void cpuid_here(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    arch_cpuid(leaf, subleaf, out);
}
#endif

static const char *severity(const struct mca_error *e)
{
    return e->uncorrected ? "uncorrected" : "corrected";
}

/* One error in one line: bank, block, class, status, address where valid. */
static void error_print(const char *lead, const struct mca_error *e)
{
    char addr[40] = "";
    if (e->addr_valid)
        ksnprintf(addr, sizeof(addr), ", address 0x%llx", (unsigned long long)e->addr);
    con_printf("%sbank %u%s%s: %s %s (status 0x%016llx%s), %s\n", lead, e->bank,
               e->block ? " " : "", e->block ? e->block : "", severity(e), e->what,
               (unsigned long long)e->status, addr, e->when);
}

void mcheck_begin(struct mca_log *l, const struct machine *m)
{
    kmemset(l, 0, sizeof(*l));
    if (!m->facts.read)
        return; /* chase-sim: a modelled machine has no banks */
#if defined(__aarch64__)
    kstrlcpy(l->note,
             "not on this architecture (machine-check banks are x86's; Arm's RAS "
             "error records are not read)",
             sizeof(l->note));
#else
    mca_begin(l, &m->cpu, cpuid_here, plat_read_msr);
#endif
    if (!l->supported) {
        con_printf("  mca        not read: %s\n", l->note);
        return;
    }
    con_printf("  mca        %u bank%s (%s) read on the boot processor; %u error%s logged "
               "before the run%s%s\n",
               l->banks_read, l->banks_read == 1 ? "" : "s", l->smca ? "AMD SMCA" : "MCi",
               l->errors_total, l->errors_total == 1 ? "" : "s", l->note[0] ? "; " : "", l->note);
    for (unsigned i = 0; i < l->nerrors; i++)
        error_print("  mca        ", &l->error[i]);
}

void mcheck_after(struct mca_log *l, const char *when)
{
    unsigned before = l->errors_total, kept = l->nerrors;
    unsigned memory = l->memory_during_run;
    if (!l->supported || mca_check(l, when, plat_read_msr) == 0)
        return;
    unsigned shown = 0;
    for (unsigned i = kept; i < l->nerrors; i++, shown++)
        error_print("machine check: ", &l->error[i]);
    if (l->errors_total - before > shown)
        con_printf("machine check: %u more not kept\n", l->errors_total - before - shown);
    if (l->memory_during_run > memory)
        con_printf("machine check: a memory controller logged an error during %s: this run's "
                   "DRAM figures are suspect\n",
                   when);
}

const char *mcheck_summary(const struct mca_log *l, char *out, size_t cap)
{
    unsigned during = l->errors_total - l->before_run;
    out[0] = '\0';
    if (!l->supported || l->errors_total == 0)
        return out;
    ksnprintf(out, cap,
              "machine checks: %u error%s logged during the run (%u by a memory controller), %u "
              "before it%s\n",
              during, during == 1 ? "" : "s", l->memory_during_run, l->before_run,
              l->memory_during_run ? "; DRAM figures are SUSPECT (run.json machine_checks)" : "");
    return out;
}

static void error_json(struct json *j, const struct mca_error *e)
{
    char hex[24];
    json_object_begin(j, NULL);
    json_u64(j, "bank", e->bank);
    ksnprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)e->status);
    json_string(j, "status", hex);
    ksnprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)e->addr);
    json_string(j, "address", e->addr_valid ? hex : NULL);
    ksnprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)e->misc);
    json_string(j, "misc", e->misc_valid ? hex : NULL);
    ksnprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)e->ipid);
    json_string(j, "ipid", e->ipid_valid ? hex : NULL);
    json_string(j, "block", e->block);
    json_string(j, "class", mca_class_name(e->cls));
    json_string(j, "decoded", e->what);
    json_bool(j, "uncorrected", e->uncorrected);
    json_bool(j, "memory_controller", e->memory);
    json_string(j, "when", e->when);
    json_object_end(j);
}

void mcheck_json(struct json *j, const struct mca_log *l)
{
    json_object_begin(j, "machine_checks");
    json_bool(j, "read", l->supported);
    json_string(j, "note", l->note[0] ? l->note : NULL);
    json_string(j, "registers", !l->supported ? NULL : l->smca ? "AMD SMCA" : "IA32_MCi");
    json_string(j, "processor", l->supported ? "boot processor" : NULL);
    json_u64(j, "banks", l->nbanks);
    json_u64(j, "banks_read", l->banks_read);
    json_u64(j, "errors", l->errors_total);
    json_u64(j, "errors_before_run", l->before_run);
    json_u64(j, "errors_during_run", l->errors_total - l->before_run);
    json_u64(j, "memory_controller_errors_during_run", l->memory_during_run);
    json_bool(j, "dram_suspect", l->memory_during_run > 0);
    json_array_begin(j, "logged");
    for (unsigned i = 0; i < l->nerrors; i++)
        error_json(j, &l->error[i]);
    json_array_end(j);
    json_object_end(j);
}
