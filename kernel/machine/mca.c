// SPDX-License-Identifier: MIT
// Machine-check banks: the bank count from IA32_MCG_CAP, each bank's status, address, misc
// (and SMCA's MCA_IPID), and the error codes decoded by Intel's SDM vol. 3B 16.9 and AMD's PPR.
#include "machine/mca.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

#define CPUID_1_EDX_MCE (1u << 7)         /* machine-check exception */
#define CPUID_1_EDX_MCA (1u << 14)        /* machine-check architecture (MCG_CAP, banks) */
#define CPUID_EXT_RAS_LEAF 0x80000007u    /* AMD: RAS capabilities in EBX */
#define CPUID_80000007_EBX_SMCA (1u << 3) /* ScalableMca */
#define AMD_NORTHBRIDGE_BANK 4            /* AMD before SMCA: bank 4 is the northbridge */
#define SMCA_IPID_HWID(ipid) ((unsigned)((ipid) >> 32) & 0xfffu) /* HardwareID, bits 43:32 */
#define SMCA_IPID_TYPE(ipid) ((unsigned)((ipid) >> 48))          /* McaType, bits 63:48 */
#define SMCA_HWID_UMC 0x96u /* unified memory controller, every McaType */

/* MCACOD fields; bit 12 (F, corrected-error filtering) is left out before matching. */
#define MCACOD_FILTER (1u << 12)
#define MCACOD_LL(c) ((c)&3u)
#define MCACOD_TT(c) (((c) >> 2) & 3u)
#define MCACOD_RRRR(c) (((c) >> 4) & 0xfu)
#define MCACOD_MMM(c) (((c) >> 4) & 7u)
#define MCACOD_CCCC(c) ((c)&0xfu)
#define MCACOD_II(c) (((c) >> 2) & 3u)
#define MCACOD_CHANNEL_UNKNOWN 0xfu
#define MCACOD_BUS_II_MEMORY 0u

/* SMCA bank types (AMD PPR for families 17h and 19h, MCA_IPID HardwareID and McaType). */
static const struct {
    uint16_t hwid, type;
    const char *name;
} smca_blocks[] = {
    {0xb0, 0x0, "LS (load-store)"},
    {0xb0, 0x1, "IF (instruction fetch)"},
    {0xb0, 0x2, "L2 cache"},
    {0xb0, 0x3, "DE (decode)"},
    {0xb0, 0x5, "EX (execution)"},
    {0xb0, 0x6, "FP (floating point)"},
    {0xb0, 0x7, "L3 cache"},
    {0x2e, 0x0, "CS (coherent slave)"},
    {0x2e, 0x1, "PIE (power, interrupts)"},
    {0x05, 0x0, "PB (parameter block)"},
    {0xff, 0x0, "PSP (security processor)"},
    {0x01, 0x0, "SMU (system management)"},
    {0x18, 0x0, "NBIO (I/O hub)"},
    {0x46, 0x0, "PCIe"},
};

static const char *const level_names[] = {"L0", "L1", "L2", "generic level"};
static const char *const tt_names[] = {"instruction", "data", "generic", "?"};
static const char *const request_names[16] = {"generic error", "read",       "write",
                                              "data read",     "data write", "instruction fetch",
                                              "prefetch",      "eviction",   "snoop"};
static const char *const memory_requests[8] = {"generic request", "read", "write",
                                               "address/command", "scrubbing"};

const char *mca_class_name(enum mca_class c)
{
    static const char *const names[] = {
        [MCA_CLASS_NONE] = "no error code",         [MCA_CLASS_SIMPLE] = "simple error code",
        [MCA_CLASS_CACHE] = "cache hierarchy",      [MCA_CLASS_TLB] = "TLB",
        [MCA_CLASS_MEMORY] = "memory controller",   [MCA_CLASS_BUS] = "bus and interconnect",
        [MCA_CLASS_UNKNOWN] = "model-specific code"};
    return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

static const char *request_name(unsigned r)
{
    return request_names[r] ? request_names[r] : "request ?";
}

/* The simple codes (SDM vol. 3B table 16-7 "IA32_MCi_Status [15:0] Simple Error Code"). */
static bool simple_code(unsigned c, char *what, size_t cap)
{
    static const char *const simple[] = {
        [1] = "unclassified",           [2] = "microcode ROM parity",
        [3] = "external error (BINIT)", [4] = "FRC error",
        [5] = "internal parity",        [6] = "SMM handler code access violation"};
    if (c >= 1 && c <= 6) {
        ksnprintf(what, cap, "%s", simple[c]);
        return true;
    }
    if (c == 0x400 || (c & 0xfc00u) == 0x0400u) {
        ksnprintf(what, cap, "%s", c == 0x400 ? "internal timer error" : "internal unclassified");
        return true;
    }
    return false;
}

/* The compound codes (SDM vol. 3B table 16-8 and 16.9.2's sub-fields). */
static enum mca_class compound_code(unsigned c, char *what, size_t cap)
{
    if ((c & 0xfffcu) == 0x000cu) {
        ksnprintf(what, cap, "generic cache hierarchy, %s", level_names[MCACOD_LL(c)]);
        return MCA_CLASS_CACHE;
    }
    if ((c & 0xfff0u) == 0x0010u) {
        ksnprintf(what, cap, "TLB, %s %s", tt_names[MCACOD_TT(c)], level_names[MCACOD_LL(c)]);
        return MCA_CLASS_TLB;
    }
    if ((c & 0xff80u) == 0x0080u) {
        const char *req = memory_requests[MCACOD_MMM(c)];
        if (MCACOD_CCCC(c) == MCACOD_CHANNEL_UNKNOWN)
            ksnprintf(what, cap, "memory controller: %s, channel not said", req ? req : "?");
        else
            ksnprintf(what, cap, "memory controller: %s, channel %u", req ? req : "?",
                      MCACOD_CCCC(c));
        return MCA_CLASS_MEMORY;
    }
    if ((c & 0xff00u) == 0x0100u) {
        ksnprintf(what, cap, "cache hierarchy: %s, %s %s", request_name(MCACOD_RRRR(c)),
                  tt_names[MCACOD_TT(c)], level_names[MCACOD_LL(c)]);
        return MCA_CLASS_CACHE;
    }
    if ((c & 0xe800u) == 0x0800u) {
        static const char *const ii[] = {"memory", "reserved", "I/O", "other"};
        ksnprintf(what, cap, "bus and interconnect: %s to %s%s", request_name(MCACOD_RRRR(c)),
                  ii[MCACOD_II(c)], (c & (1u << 8)) ? ", timeout" : "");
        return MCA_CLASS_BUS;
    }
    ksnprintf(what, cap, "model-specific code 0x%04x", c);
    return MCA_CLASS_UNKNOWN;
}

static const char *smca_block(uint64_t ipid)
{
    if (SMCA_IPID_HWID(ipid) == SMCA_HWID_UMC)
        return "UMC (memory controller)";
    for (size_t i = 0; i < sizeof(smca_blocks) / sizeof(smca_blocks[0]); i++)
        if (smca_blocks[i].hwid == SMCA_IPID_HWID(ipid) &&
            smca_blocks[i].type == SMCA_IPID_TYPE(ipid))
            return smca_blocks[i].name;
    return NULL;
}

void mca_decode(const struct mca_log *l, struct mca_error *e)
{
    unsigned c = (unsigned)(e->status & MCI_STATUS_MCACOD_MASK) & ~MCACOD_FILTER;
    uint64_t ipid = e->ipid;
    e->uncorrected = (e->status & MCI_STATUS_UC) != 0;
    e->block = l->smca && e->ipid_valid ? smca_block(ipid) : NULL;
    if (c == 0) {
        e->cls = MCA_CLASS_NONE;
        ksnprintf(e->what, sizeof(e->what), "no error code");
    } else if (simple_code(c, e->what, sizeof(e->what))) {
        e->cls = MCA_CLASS_SIMPLE;
    } else {
        e->cls = compound_code(c, e->what, sizeof(e->what));
    }
    bool umc = l->smca && e->ipid_valid && SMCA_IPID_HWID(ipid) == SMCA_HWID_UMC;
    bool amd_nb_memory = l->amd && !l->smca && e->bank == AMD_NORTHBRIDGE_BANK &&
                         e->cls == MCA_CLASS_BUS && MCACOD_II(c) == MCACOD_BUS_II_MEMORY;
    e->memory = e->cls == MCA_CLASS_MEMORY || umc || amd_nb_memory;
}

static uint32_t bank_msr(const struct mca_log *l, unsigned bank, unsigned reg)
{
    return l->smca ? MSR_SMCA_MC0_CTL + MSR_SMCA_STRIDE * bank + reg
                   : MSR_MC0_CTL + MSR_MC_LEGACY_STRIDE * bank + reg;
}

#define MCA_REG_STATUS 1u
#define MCA_REG_ADDR 2u
#define MCA_REG_MISC 3u
#define SMCA_REG_IPID 5u

/* Bank b holds an error: its registers, decoded, kept while there is room. True when it is a
 * memory-controller error. */
static bool record(struct mca_log *l, unsigned b, uint64_t status, const char *when,
                   msr_read_fn rdmsr)
{
    struct mca_error e;
    kmemset(&e, 0, sizeof(e));
    e.bank = b;
    e.status = status;
    e.addr_valid = (status & MCI_STATUS_ADDRV) && rdmsr(bank_msr(l, b, MCA_REG_ADDR), &e.addr);
    e.misc_valid = (status & MCI_STATUS_MISCV) && rdmsr(bank_msr(l, b, MCA_REG_MISC), &e.misc);
    e.ipid_valid = l->smca && rdmsr(bank_msr(l, b, SMCA_REG_IPID), &e.ipid);
    mca_decode(l, &e);
    kstrlcpy(e.when, when, sizeof(e.when));
    l->errors_total++;
    if (l->nerrors < MCA_ERRORS_MAX)
        l->error[l->nerrors++] = e;
    return e.memory;
}

unsigned mca_check(struct mca_log *l, const char *when, msr_read_fn rdmsr)
{
    unsigned found = 0;
    unsigned nbanks = mca_banks_readable(l, l->nbanks);
    l->banks_read = 0;
    for (unsigned b = 0; l->supported && b < nbanks; b++) {
        uint64_t status, addr = 0;
        if (!rdmsr(bank_msr(l, b, MCA_REG_STATUS), &status))
            continue;
        l->banks_read++;
        if ((status & MCI_STATUS_ADDRV) && !rdmsr(bank_msr(l, b, MCA_REG_ADDR), &addr))
            addr = 0;
        bool fresh = status != l->seen_status[b] || addr != l->seen_addr[b];
        l->seen_status[b] = status;
        l->seen_addr[b] = addr;
        if (!(status & MCI_STATUS_VAL) || !fresh)
            continue;
        if (record(l, b, status, when, rdmsr) && l->started)
            l->memory_during_run++;
        found++;
    }
    return found;
}

bool mca_probe(struct mca_log *l, const struct cpu_info *ci, cpuid_fn fn)
{
    uint32_t r[4] = {0};
    kmemset(l, 0, sizeof(*l));
    if (ci->max_leaf >= 1)
        fn(1, 0, r);
    if ((r[3] & (CPUID_1_EDX_MCE | CPUID_1_EDX_MCA)) != (CPUID_1_EDX_MCE | CPUID_1_EDX_MCA)) {
        ksnprintf(l->note, sizeof(l->note), "CPUID says no machine-check architecture");
        return false;
    }
    l->amd = kstrcmp(ci->vendor, "AuthenticAMD") == 0 || kstrcmp(ci->vendor, "HygonGenuine") == 0;
    if (l->amd && ci->max_ext_leaf >= CPUID_EXT_RAS_LEAF) {
        fn(CPUID_EXT_RAS_LEAF, 0, r);
        l->smca = (r[1] & CPUID_80000007_EBX_SMCA) != 0;
    }
    return true;
}

uint32_t mca_status_msr(const struct mca_log *l, unsigned bank)
{
    return bank_msr(l, bank, MCA_REG_STATUS);
}

unsigned mca_banks_readable(const struct mca_log *l, unsigned nbanks)
{
    unsigned most = l->smca ? MCA_BANKS_MAX : MCA_LEGACY_BANKS_MAX;
    return nbanks < most ? nbanks : most;
}

void mca_begin(struct mca_log *l, const struct cpu_info *ci, cpuid_fn fn, msr_read_fn rdmsr)
{
    uint64_t cap;
    if (!mca_probe(l, ci, fn))
        return;
    if (!rdmsr(MSR_MCG_CAP, &cap)) {
        ksnprintf(l->note, sizeof(l->note), "IA32_MCG_CAP (0x179) not readable here");
        return;
    }
    l->supported = true;
    l->nbanks = (unsigned)(cap & MCG_CAP_COUNT_MASK);
    unsigned most = l->smca ? MCA_BANKS_MAX : MCA_LEGACY_BANKS_MAX;
    if (l->nbanks > most)
        ksnprintf(l->note, sizeof(l->note), "%u banks: the first %u read (%s)", l->nbanks, most,
                  l->smca ? "the SMCA range's" : "the legacy MSR range's");
    mca_check(l, "before the run", rdmsr);
    l->before_run = l->errors_total;
    l->started = true;
}
