// SPDX-License-Identifier: MIT
// Machine-check banks (x86 MCA, AMD's SMCA): errors the hardware logged, read through a
// replaceable MSR reader, decoded by the classes of Intel's SDM vol. 3B ch. 16-17 and AMD's
// PPR/APM, and told apart as logged before the run or during an experiment.
#ifndef CHASE_MCA_H
#define CHASE_MCA_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/cpufacts.h"
#include "machine/cpuinfo.h"

/* Architectural MSRs (SDM vol. 4 table 2-2; AMD APM vol. 2 9.3; AMD PPR, SMCA registers). */
#define MSR_MCG_CAP 0x179u       /* IA32_MCG_CAP: bits 7:0 the bank count */
#define MSR_MC0_CTL 0x400u       /* IA32_MCi_CTL; STATUS, ADDR, MISC follow, 4 per bank */
#define MSR_MC_LEGACY_STRIDE 4u  /* registers per bank in the legacy range */
#define MCA_LEGACY_BANKS_MAX 29u /* MC28_MISC is 0x473: 0x480 on is IA32_VMX_BASIC */
#define MSR_SMCA_MC0_CTL                                                                           \
    0xc0002000u               /* AMD SMCA: MCA_CTL; STATUS +1, ADDR +2, MISC0 +3, IPID +5          \
                               */
#define MSR_SMCA_STRIDE 0x10u /* registers per bank in the SMCA range */
#define MCG_CAP_COUNT_MASK 0xffu

/* MCi_STATUS bits (the same on SMCA's MCA_STATUS). */
#define MCI_STATUS_VAL (1ULL << 63)   /* the bank holds an error */
#define MCI_STATUS_OVER (1ULL << 62)  /* an error came while one was held */
#define MCI_STATUS_UC (1ULL << 61)    /* uncorrected */
#define MCI_STATUS_EN (1ULL << 60)    /* signalled as a machine-check exception */
#define MCI_STATUS_MISCV (1ULL << 59) /* MCi_MISC holds more about it */
#define MCI_STATUS_ADDRV (1ULL << 58) /* MCi_ADDR holds its address */
#define MCI_STATUS_PCC (1ULL << 57)   /* processor context corrupt */
#define MCI_STATUS_MCACOD_MASK 0xffffu

/*
 * Banks read at most: 64, the most the SMCA register range holds (0xc0002000..0xc00023ff);
 * Intel's legacy range holds MCA_LEGACY_BANKS_MAX. More banks than that are counted only.
 */
#define MCA_BANKS_MAX 64
#define MCA_ERRORS_MAX 32 /* errors kept with their registers; more are counted only */

/* The class of an error by its MCACOD (SDM vol. 3B 16.9: simple and compound codes). */
enum mca_class {
    MCA_CLASS_NONE,   /* MCACOD 0: no error code */
    MCA_CLASS_SIMPLE, /* one of the simple codes (unclassified, microcode ROM, timer ...) */
    MCA_CLASS_CACHE,  /* generic cache hierarchy, or cache hierarchy 0001 RRRR TTLL */
    MCA_CLASS_TLB,    /* 0000 0001 TTLL */
    MCA_CLASS_MEMORY, /* memory controller 0000 1MMM CCCC */
    MCA_CLASS_BUS,    /* bus and interconnect 1PPT RRRR IILL */
    MCA_CLASS_UNKNOWN /* a code neither form describes (model-specific) */
};

/* One logged error: a bank's registers at the read that found it. */
struct mca_error {
    unsigned bank;
    uint64_t status, addr, misc, ipid;
    bool addr_valid, misc_valid, ipid_valid;
    bool uncorrected; /* MCI_STATUS_UC */
    bool memory;      /* a memory-controller error (class MEMORY, an SMCA UMC bank, or an
                         AMD northbridge bus error to memory) */
    enum mca_class cls;
    const char *block; /* SMCA: the bank's block by MCA_IPID ("UMC", "L3" ...); NULL else */
    char what[72];     /* the decoded code ("memory controller: read, channel 2") */
    char when[40];     /* "before the run" or the experiment it was found after */
};

/* The banks of the processor chase runs on, read at the run's start and after each part. */
struct mca_log {
    bool supported;      /* CPUID says MCE and MCA and IA32_MCG_CAP was read */
    bool smca;           /* AMD's scalable MCA (CPUID 0x80000007 EBX bit 3): SMCA registers */
    bool amd;            /* AuthenticAMD or HygonGenuine: bank 4 is the northbridge (legacy) */
    unsigned nbanks;     /* MCG_CAP's count */
    unsigned banks_read; /* of them, banks whose status was read */
    char note[160];      /* why not supported, or banks left out ("" when none) */
    uint64_t seen_status[MCA_BANKS_MAX], seen_addr[MCA_BANKS_MAX]; /* the last read */
    unsigned nerrors;                                              /* kept in error[] */
    unsigned errors_total;      /* logged errors found, kept or not */
    unsigned before_run;        /* of them, found at the first read (before the run) */
    bool started;               /* the first read is done: what mca_check finds is during the run */
    unsigned memory_during_run; /* memory-controller errors found after the first read */
    struct mca_error error[MCA_ERRORS_MAX];
};

/*
 * Decode e->status of bank e->bank (and on SMCA e->ipid, where e->ipid_valid) into e's class,
 * uncorrected and memory flags, block and text; l says which MCA (smca, amd) the machine has.
 */
void mca_decode(const struct mca_log *l, struct mca_error *e);

/* The CPUID part of mca_begin (l cleared first): MCE and MCA present, AMD, SMCA. False with
 * l->note when CPUID says there is no machine-check architecture. */
bool mca_probe(struct mca_log *l, const struct cpu_info *ci, cpuid_fn fn);

/* The status MSR of bank (SMCA's or the legacy range's, as l->smca says). */
uint32_t mca_status_msr(const struct mca_log *l, unsigned bank);

/* Of nbanks (MCG_CAP's count), how many this MSR range lets chase read. */
unsigned mca_banks_readable(const struct mca_log *l, unsigned nbanks);

/*
 * The first read (before the run): whether the processor has MCA (CPUID 1 EDX bits 7 and 14
 * through fn; SMCA through 0x80000007), the bank count, and every error already logged,
 * recorded as "before the run". rdmsr must survive an MSR that is not there (false). l is
 * cleared first; without MCA, l->supported is false and l->note says why.
 */
void mca_begin(struct mca_log *l, const struct cpu_info *ci, cpuid_fn fn, msr_read_fn rdmsr);

/*
 * Read every bank again: a bank holding an error (VAL) whose status or address differs from
 * the last read is a new error, recorded with when. Returns the count of new errors.
 */
unsigned mca_check(struct mca_log *l, const char *when, msr_read_fn rdmsr);

/* The class's name ("memory controller", "cache" ...). */
const char *mca_class_name(enum mca_class c);

#endif
