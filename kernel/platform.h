// SPDX-License-Identifier: MIT
// What the kernel needs from the platform it runs on (efi/ on firmware, tools/host/ on Linux).
#ifndef CHASE_PLATFORM_H
#define CHASE_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Allocate n bytes of zeroed general memory (never called inside a window); NULL on failure. */
void *plat_alloc(size_t n);
/* Release memory from plat_alloc; NULL is ignored. */
void plat_free(void *p);

/* Write NUL-terminated ASCII text to the console (LF line ends; the platform converts). */
void plat_console_write(const char *s);

#define PLAT_WRITE_FAILED -1    /* this file could not be written (nothing of it is left) */
#define PLAT_WRITE_NO_FOLDER -2 /* there is no result folder; the platform said why, once */

/*
 * Write a whole file named `name` (e.g. "run.json") into this run's result folder,
 * replacing an earlier version of it. A failed write leaves no partial file.
 * Returns 0, PLAT_WRITE_FAILED or PLAT_WRITE_NO_FOLDER.
 */
int plat_file_write(const char *name, const void *data, size_t len);

/*
 * Write NUL-terminated ASCII text straight to the serial port, besides the console (which the
 * firmware may also mirror there): the machine-readable log (lib/slog.h). False when there is
 * no serial port (chase-host, a firmware without one) or the write failed.
 */
bool plat_serial_write(const char *s);

/* Where the run's files go, for people ("\chase\runs\0003" or "./runs/0003"). */
const char *plat_result_path(void);

/* A clock the TSC is calibrated against. */
struct tsc_reference {
    const char *name; /* "pm_timer", "hpet", "stall", "clock_monotonic_raw" */
    /*
     * One calibration: TSC ticks counted while the reference measured *ref_ns
     * nanoseconds. Returns false when the reference failed.
     */
    bool (*sample)(uint64_t *ticks, uint64_t *ref_ns);
};

/* The platform's reference clocks, most trustworthy first; *refs gets the array. */
unsigned plat_tsc_references(const struct tsc_reference **refs);

/*
 * Read an MSR that may not exist: true with *value, or false when reading it faults
 * (or the platform cannot read MSRs at all, as on Linux without /dev/cpu/N/msr).
 */
bool plat_read_msr(uint32_t msr, uint64_t *value);

/*
 * Write an MSR: true when the write did not fault, false when it did or the platform cannot
 * write MSRs (chase-host never does). Callers read it back to see whether it held.
 */
bool plat_write_msr(uint32_t msr, uint64_t value);

/*
 * A CPU exception that interrupted a measurement window. On AArch64 (aarch64 set) the fields
 * hold their counterparts: vector the exception class ESR_ELx.EC (FAULT_A64_INTERRUPT for an IRQ
 * or FIQ entry), error_code ESR_ELx, rip ELR_ELx, cr2 FAR_ELx, cr3 TTBR0_ELx.
 */
struct fault_info {
    bool faulted;
    bool aarch64;
    unsigned vector;     /* 0..31 */
    uint64_t error_code; /* 0 when the vector pushes none */
    uint64_t rip;
    uint64_t cr2; /* the faulting address, for page faults */
    uint64_t cr3; /* the page tables in use */
};

/*
 * Run fn(arg) inside a measurement window: on the bare machine, interrupts off,
 * chase's own page tables and IDT loaded, all restored afterwards; no firmware call
 * may happen inside. Returns 0, or -1 when a CPU exception stopped fn, with fault
 * filled in (the window is left cleanly either way). On Linux fn simply runs.
 */
int plat_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault);

/*
 * From now on, measurement windows (here and on other processors) have these XCR0 state
 * components enabled (AVX, AVX-512 registers): on the bare machine each window sets
 * CR4.OSXSAVE and them, and puts both back exactly as found when it leaves; on Linux the
 * OS decides, and this only says whether it has enabled them. 0: windows leave the state
 * alone. Returns false when they cannot be had.
 */
bool plat_window_xstate(uint64_t xcr0);

/* What the measurement windows saw and what was set up for them (run.json "windows"). */
struct window_report {
    uint64_t windows;        /* windows run so far */
    uint64_t longest_ticks;  /* the longest (interrupts off on the firmware), TSC ticks */
    uint64_t nmis;           /* NMIs taken (in windows or between them); 0 on Linux */
    uint64_t nmi_windows;    /* windows an NMI came into: their results were dropped */
    uint64_t machine_checks; /* machine checks inside windows */
    const char *lfence;      /* LFENCE serialization: what was found and done (AMD DE_CFG) */
    bool lfence_unsure;      /* LFENCE may not serialize: DE_CFG[1] needed, not known set */
    bool de_cfg_read;        /* DE_CFG could be read; de_cfg is its value as found */
    uint64_t de_cfg;
    const char *paging; /* the paging mode windows run under, and why that is safe */
    const char *sve;    /* AArch64 firmware: SVE enabled in windows, or why not (NULL: not asked) */
    const char *core_counter; /* AArch64: the PMU cycle counter in windows, or why not (NULL:
                                 not asked, or x86's APERF/MPERF, which need no enabling) */
};

/* Fill r with what the measurement windows saw so far. */
void plat_window_report(struct window_report *r);

#define PLAT_BUFFER_RUNS_LISTED 16 /* physical runs of the buffer listed in run.json */

/* A physically contiguous piece of the chase buffer. */
struct plat_phys_run {
    uint64_t phys;  /* physical address of its first byte */
    uint64_t bytes; /* its length */
};

/* The chase buffer the platform provides. */
struct plat_buffer {
    uint8_t *virt;
    uint64_t phys;
    uint64_t size_bytes;
    uint64_t page_bytes;     /* page size it is mapped with */
    const char *page_source; /* how that page size was obtained */
    uint64_t table_pages;    /* 4 KiB pages of chase's own page tables (0: none built) */
    uint64_t identity_top;   /* chase's tables identity-map [0, identity_top) */
    uint64_t align_bytes;    /* the buffer's physical alignment */
    const char *mem_type;    /* effective memory type of every page over it ("WB"); NULL: unknown */
    const char *placement;   /* how the place was chosen (memory types), NULL: not said */
    bool contiguity_known;   /* host, from /proc/self/pagemap: the two fields below hold */
    double contiguous_share; /* of 4 KiB pages, those physically right after the one before */
    uint64_t contiguous_runs; /* physically contiguous runs the buffer is made of */
    struct plat_phys_run runs[PLAT_BUFFER_RUNS_LISTED]; /* the first of them, in buffer order */
    unsigned runs_listed;                               /* how many of runs[] hold one */
    bool node_known; /* node holds the memory node the buffer lies in (plat_numa index) */
    unsigned node;
    char node_note[200];   /* how the node was chosen when not the boot processor's ("") */
    bool table_node_known; /* table_node holds the node of chase's page tables */
    unsigned table_node;
};

/*
 * Allocate the chase buffer: at least size_bytes, aligned to align_bytes.
 * Returns 0, or -1 with a reason in why (capacity why_cap).
 */
int plat_buffer_alloc(uint64_t size_bytes, uint64_t align_bytes, struct plat_buffer *b, char *why,
                      size_t why_cap);
/*
 * Map the chase buffer with pages of page_bytes (4K, 2M or 1G) from now on.
 * Returns 0, or -1 with the reason in why (the CPU or OS cannot give that size).
 */
int plat_buffer_set_pages(struct plat_buffer *b, uint64_t page_bytes, char *why, size_t why_cap);
/* Give the chase buffer back. */
void plat_buffer_free(struct plat_buffer *b);

/* ---- Other processors (cores, c2c, loaded, numa) ---------------------------------------- */

#define PLAT_CPUS_MAX                                                                              \
    64                        /* processors one experiment uses at most (mp_cpus chooses a         \
                                 subset spread over the machine when it has more) */
#define PLAT_CPU_TIMEOUT (-2) /* a processor did not come back in time; it is left out */

/* A cache group of the processor's own (nothing says it shares): its ID with this bit. */
#define PLAT_GROUP_OWN 0x80000000u

/* Where a processor is: the platform's number and its place in the machine. */
struct plat_cpu {
    unsigned id;                    /* what plat_cpu_run and plat_cpus_start take */
    uint32_t apic_id;               /* initial (x2)APIC ID; 0 when unknown */
    unsigned package, core, thread; /* location: package, core in it, thread in the core */
    unsigned die;                   /* die in the package (0 when the CPU names none) */
    unsigned core_type;             /* CPUID 0x1A EAX[31:24] on hybrid parts (0x20 Atom, 0x40
                                       Core); AArch64: the core's MIDR_EL1 (big.LITTLE and
                                       DynamIQ cores differ in part); 0 elsewhere, unknown */
    const char *topology;           /* where the location came from ("CPUID 0xB", "firmware") */
    bool fw_known;                  /* the firmware's location (MP services) is below */
    unsigned fw_package, fw_die, fw_core, fw_thread;
    bool fw_differs; /* ... and it differs from CPUID's */
    unsigned node;   /* memory node (plat_numa index; 0 with one node) */
    bool node_known; /* node holds the node a table places it in (run.json: null when not) */
    bool cache_groups_known;     /* AArch64: the two below are the PPTT's (x86: CPUID's probe) */
    uint32_t l2_group, l3_group; /* ... processors with the same value share that cache */
    bool bsp;                    /* the processor chase_main runs on */
    bool lost;                   /* did not come back within a timeout: left out */
};

/*
 * The processors, the one running chase_main included, sorted by id (the first cap of them:
 * pass plat_cpus_total's held count for all). Returns how many; 0 with the reason in why when
 * other processors cannot be used here (no MP services, one processor only, a simulated
 * machine).
 */
unsigned plat_cpus(struct plat_cpu *cpus, unsigned cap, char *why, size_t why_cap);

/*
 * The processors the firmware (or OS) reports: returns the total; *enabled of them enabled,
 * *held of those that plat_cpus lists (all on the firmware), *cpuid_failed whose place is the
 * firmware's word because CPUID could not run there. 0 when none are known.
 */
unsigned plat_cpus_total(unsigned *enabled, unsigned *held, unsigned *cpuid_failed);

/*
 * Run fn(arg) on processor id, in a measurement window there (interrupts off, chase's page
 * tables and IDT of its own on the bare machine), waiting at most timeout_us. fn calls no
 * platform function. Returns 0, -1 when id cannot run it (unknown, lost, the caller's own),
 * or PLAT_CPU_TIMEOUT (the processor is marked lost).
 */
int plat_cpu_run(unsigned id, void (*fn)(void *arg), void *arg, uint64_t timeout_us);

/*
 * Start step(args[i]) on processor ids[i], i < n, all at once and without waiting, each in a
 * window of its own; the caller's own processor is not among them. step does one window's share
 * of the work (at most window_max_ms: it looks at the clock itself) and returns true while more
 * remains: the platform then runs it again in a new window, the processor's interrupts let in
 * between (on the firmware: RFLAGS as the firmware had them). timeout_us: past it the firmware
 * may reset a processor still running (each job also checks a deadline of its own). Returns 0,
 * or -1 when one cannot be started (then none is). plat_cpus_wait must follow.
 */
int plat_cpus_start(const unsigned *ids, unsigned n, bool (*step)(void *arg), void *const *args,
                    uint64_t timeout_us);

/*
 * Wait at most timeout_us for the processors plat_cpus_start started; done[i] says which came
 * back. Returns 0 when all did, else PLAT_CPU_TIMEOUT (those that did not are marked lost).
 */
int plat_cpus_wait(bool *done, unsigned n, uint64_t timeout_us);

/*
 * The experiment is over: processors that the platform keeps in chase's own loop between jobs
 * (x86 firmware: one EFI MP start each per experiment) go back to the firmware. Idle
 * processors only; a lost one stays lost. Nothing where processors are not held so.
 */
void plat_cpus_release(void);

/*
 * From now on, run measurement windows (plat_window_run) on processor id instead of the
 * caller's (id == the caller's, or PLAT_WINDOW_HERE: on the caller's again). A window on
 * another processor that does not return within timeout_us fails with fault->faulted unset
 * and the processor marked lost. Returns 0, or -1 when id cannot run windows.
 */
#define PLAT_WINDOW_HERE (~0u)
int plat_window_cpu(unsigned id, uint64_t timeout_us);

/* ---- Memory nodes (numa) ------------------------------------------------------------------ */

#define PLAT_DISTANCE_LOCAL 10 /* SLIT's distance of a node to itself */

/* One memory range of a node (ACPI SRAT memory affinity; Linux: none listed). */
struct plat_mem_range {
    uint64_t base, size_bytes;
    bool hotplug;     /* hot-pluggable: chase places no buffer there */
    bool nonvolatile; /* non-volatile memory */
};

/* A memory node: its memory and its processors (arrays sized from the tables' counts). */
struct plat_node {
    uint32_t domain;        /* ACPI proximity domain (Linux: the node number) */
    uint64_t mem_bytes;     /* its memory (enabled SRAT ranges; Linux: MemTotal) */
    uint64_t free_bytes;    /* the largest buffer it can hold now (0: it has no free memory) */
    uint64_t special_bytes; /* special-purpose memory in it (the memory map's specific-purpose
                               or hot-pluggable attribute: CXL, HBM): a tier target, never the main
                               buffer */
    unsigned nranges;
    struct plat_mem_range *range;
    unsigned ncpus;
    uint32_t *apic_id; /* its processors by initial (x2)APIC ID (AArch64: MPIDR affinity) */
    int *cpu;          /* ... and their plat_cpu id (-1: not a usable processor) */
};

/*
 * The machine's memory nodes, ascending by domain, and the distances between them. Every array
 * lives in one allocation (storage), sized from the tables: machine/numa_table.h copies and
 * frees it.
 */
struct plat_numa {
    unsigned nnodes;
    struct plat_node *node;
    bool slit;         /* distance holds the firmware's SLIT (Linux: the node distances) */
    uint8_t *distance; /* nnodes x nnodes, row by row: [from node][to node], 10: local */
    char source[64];   /* where this came from ("ACPI SRAT, SLIT", "/sys/devices/system/node") */
    char note[160];    /* what was left out or malformed ("" when nothing) */
    void *storage;     /* the one allocation behind node, their arrays and distance */
};

/* SLIT's distance from node from to node to (both < t->nnodes; meaningful when t->slit). */
static inline unsigned plat_numa_distance(const struct plat_numa *t, unsigned from, unsigned to)
{
    return t->distance[from * t->nnodes + to];
}

/*
 * The memory nodes, in storage of t's own (node_table_free gives it back; nothing to give back
 * when 0 is returned). Returns how many (1 on a machine with one), or 0 with the reason in why
 * when the platform cannot tell (no SRAT, no sysfs, a simulated machine).
 */
unsigned plat_numa(struct plat_numa *t, char *why, size_t why_cap);

/*
 * Allocate a chase buffer of at least size_bytes, aligned to align_bytes, in the memory of
 * node (an index into plat_numa's nodes): on the bare machine a write-back span inside the
 * node's SRAT ranges, mapped by chase's page tables; on Linux memory bound to the node.
 * Returns 0, or -1 with the reason in why (the largest size that would fit, when that is it).
 */
int plat_node_buffer_alloc(unsigned node, uint64_t size_bytes, uint64_t align_bytes,
                           struct plat_buffer *b, char *why, size_t why_cap);
/* Give a buffer from plat_node_buffer_alloc back. */
void plat_node_buffer_free(struct plat_buffer *b);

/*
 * The firmware's HMAT as read once (machine/hmat.h: advertised latency and bandwidth per
 * initiator-target pair, memory-side caches), or NULL with the reason in why (no HMAT, a
 * malformed one, on Linux not readable).
 */
struct hmat;
const struct hmat *plat_hmat(char *why, size_t why_cap);

#endif
