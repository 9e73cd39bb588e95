// SPDX-License-Identifier: MIT
// What the files of efi/ share: firmware handles and conversions at the boundary.
#ifndef CHASE_EFI_INTERNAL_H
#define CHASE_EFI_INTERNAL_H

#include <stddef.h>

#include <efi.h>
#include <efilib.h>

#include "machine/machine.h"
#include "machine/memmap.h"
#include "platform.h"
#include "run/run.h"

/* Open the volume chase was loaded from; false when it has no file system. */
BOOLEAN efi_files_init(EFI_HANDLE image);
/*
 * Read a whole file (path like L"\\chase\\chase.cfg") into a NUL-terminated buffer from
 * plat_alloc, its length in *len; NULL (*len 0) when absent or out of memory. Free it with
 * plat_free, not FreePool: plat_free keeps the pool count efi_memory_held reports.
 */
char *efi_read_file(const CHAR16 *path, UINTN *len);
/* Close the run folder and the volume (before returning to the firmware). */
void efi_files_close(void);
/* Create \chase\runs\NNNN (the next free number); FALSE with a reason printed when it cannot. */
BOOLEAN efi_make_run_dir(void);

/* The firmware memory map as the kernel's sorted, merged regions; count in *n. */
struct mem_region *efi_memory_regions(unsigned *n);
/* AllocatePages/FreePages (EfiLoaderData), counted so chase can show it gave all back. */
EFI_STATUS efi_pages_alloc(EFI_ALLOCATE_TYPE type, UINTN pages, EFI_PHYSICAL_ADDRESS *pa);
/* AllocatePages of size bytes at exactly addr: 0, or -1 with why (the address, size, status). */
int efi_pages_alloc_at(uint64_t addr, uint64_t size, char *why, size_t why_cap);
void efi_pages_free(EFI_PHYSICAL_ADDRESS pa, UINTN pages);
/* Pool allocations and pages chase holds right now. */
void efi_memory_held(unsigned long *pools, uint64_t *pages);
/* Pool allocations and pages not given back because a processor was lost (kept to the reset). */
void efi_memory_kept(unsigned long *pools, uint64_t *pages);

/* Fill the memory facts of m from the memory map; placement uses m's memory types from now. */
void efi_describe_memory(struct machine *m);
/* Read the MTRRs, PAT, CR0 and the prefetch, SMT and boost facts into m (windows set up). */
void efi_describe_registers(struct machine *m);
/*
 * Read the SMBIOS tables the configuration table points to into id (id->smbios from plat_alloc,
 * kept for the whole run), or say in id->smbios_why why there are none.
 */
void efi_describe_smbios(struct machine_identity *id);
/* x86-64: the BMC watchdog's state over KCS at SMBIOS type 38's I/O port (id->bmc_watchdog). */
void efi_bmc_watchdog(struct machine_identity *id);
/* Give back what efi_describe_smbios allocated (before returning to the firmware). */
void efi_smbios_release(struct machine_identity *id);
/* The memory types efi_describe_memory was given (NULL before). */
const struct memtype_regs *efi_memtypes(void);

/* Copy a CHAR16 string into ASCII (non-ASCII becomes '?'); always NUL-terminated. */
void efi_to_ascii(char *dst, size_t cap, const CHAR16 *src, size_t max_chars);

/* Wait for a key; with timeout_s > 0 give up after that many seconds. TRUE if a key came. */
BOOLEAN efi_wait_key(UINTN timeout_s);

/*
 * Registers the firmware must find as chase found them, with their names: CR3, IDTR, GDTR and
 * the interrupt flag on x86-64 (efi/x86_64/x64_platform.c); TTBR0, MAIR, TCR, SCTLR, VBAR of the
 * current exception level and DAIF on AArch64 (efi/aarch64/a64_window.c).
 */
#define EFI_CPU_STATE_MAX 8
struct efi_cpu_state {
    unsigned n;
    const char *name[EFI_CPU_STATE_MAX];
    uint64_t value[EFI_CPU_STATE_MAX];
};
void efi_cpu_state_read(struct efi_cpu_state *s);

/*
 * The boot processor's measurement windows (efi/x86_64/x64_platform.c, efi/aarch64/a64_window.c).
 * Set them up: chase's IDT or exception level (before anything is measured).
 */
void efi_window_init(void);
/*
 * Check what windows rest on, before the first timed one: false with a message in why when
 * chase cannot run here (5-level paging); else make LFENCE serializing where the CPU needs
 * DE_CFG[1] for it (restored by efi_window_restore).
 */
bool efi_window_check(char *why, size_t why_cap);
/* Put back what efi_window_check changed (DE_CFG), before returning to the firmware. */
void efi_window_restore(void);
/* Run fn(arg) in a window on this processor: plat_window_run's answer when it runs here. */
int efi_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault);
/* Fill r with what the windows rest on and what this processor's windows did so far. */
void efi_window_report(struct window_report *r);

/*
 * Run chase_main with the architecture's guard against exceptions outside windows (x86-64:
 * chase's IDT between windows, an exception there ends the run with run_panic; AArch64: none).
 */
enum run_outcome efi_run_guarded(struct machine *m, const struct run_inputs *in,
                                 enum on_exit *on_exit);

/*
 * The processors this build holds (efi/x86_64/x64_mp.c, efi/aarch64/a64_mp.c), for
 * efi_mp_plat.c, which calls efi_mp_probe once, when a call first needs them: it finds them (on
 * AArch64 it starts them too) and fills efi_mp_held(), or says in its why that there are none
 * to use.
 */
struct mp_held;
struct mp_held *efi_mp_held(void);
void efi_mp_probe(void);

/*
 * Before chase returns: wait for every processor still busy to be back with the firmware and
 * give the processor table back. True when one was lost (it may still run chase's code or use
 * its memory): the tables are kept and the caller must reset the machine.
 */
bool efi_mp_release(void);

/*
 * Run a window on the processor plat_window_cpu chose: 1 when that is this one (efi_window_run
 * runs it here), else plat_window_run's result.
 */
int efi_mp_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault);
/* Add what the other processors' windows did (each kept by its own processor) into r. */
void efi_mp_window_report(struct window_report *r);

/* The ACPI RSDP from the EFI configuration table (2.0 preferred), or NULL. */
const void *efi_find_rsdp(void);
/*
 * The ID of the processor this runs on, as memory nodes list processors: the initial (x2)APIC
 * ID on x86-64 (efi/x86_64/x64_machine.c), arm_mpidr_id(MPIDR_EL1) on AArch64.
 */
uint32_t efi_arch_processor_id(void);
/*
 * Make t's processor names those IDs: x86-64's SRAT names APIC IDs already; AArch64's GICC
 * affinity names ACPI processor UIDs, found in the MADT of rsdp's tables.
 */
void efi_arch_numa_ids(struct plat_numa *t, const void *rsdp);
/* The memory node (index in plat_numa's list) of the processor with this ID; -1: unknown. */
int efi_numa_node_of_apic(uint32_t apic_id);
/* The memory nodes from SRAT and SLIT as read (processors not matched), or NULL without SRAT. */
const struct plat_numa *efi_numa_tables(void);
/* The node (index in efi_numa_tables) of the processor running chase; 0 when unknown. */
unsigned efi_numa_home(void);
/*
 * The usable memory map inside nd's ranges that may take a buffer asked for in that node
 * (special-purpose and hot-pluggable memory included: a tier target), from
 * plat_alloc into *out (NULL when none: free it with plat_free); returns how many regions.
 */
struct plat_node;
unsigned efi_numa_node_regions(const struct plat_node *nd, struct mem_region **out);
/*
 * Claim bytes (a multiple of 4 KiB) of write-back memory for chase's page tables in the boot
 * processor's node (the nearest with room, without SRAT anywhere): 0 with *pa and *node (-1:
 * no nodes known), or -1.
 */
int efi_pages_alloc_home(uint64_t bytes, EFI_PHYSICAL_ADDRESS *pa, int *node);
/* The size of the page chase's tables map phys with (0: not mapped, no tables). */
uint64_t efi_paging_page_at(uint64_t phys);

/* Find the ACPI PM timer and HPET for TSC calibration (after efi_window_init). */
void efi_timers_init(void);

/* efi_clocks.c: the reference clocks plat_tsc_references gives, added most trustworthy first
   (past three, one more is dropped); the Stall service as one; a register read in a window. */
void efi_references_clear(void);
void efi_reference_add(const char *name, bool (*sample)(uint64_t *ticks, uint64_t *ref_ns));
/* One calibration against Stall: TSC ticks over 10 ms of Stall; false when Stall failed. */
bool efi_stall_sample(uint64_t *ticks, uint64_t *ref_ns);
/* arch_rdmsr(msr) in a measurement window: true with *value, false when the read faulted. */
bool efi_window_rdmsr(uint32_t msr, uint64_t *value);

/* Tell the page-table code whether the CPU has 1 GiB pages. */
void efi_paging_init(BOOLEAN has_1g_pages);
/* Build chase's page tables (largest page everywhere) now that buffer b exists. */
struct plat_buffer;
int efi_paging_map_buffer(struct plat_buffer *b, char *why, size_t why_cap);
/* Free chase's page tables; windows use the firmware's again. */
void efi_paging_release(void);

/* The current time as ISO 8601 ("" when the RTC cannot be read). */
void efi_time_iso(char *buf, size_t cap);

#endif
