// SPDX-License-Identifier: MIT
// x86-64 instructions the kernel uses (CPUID, TSC, flags); the only home of inline assembly.
#ifndef CHASE_ARCH_CPU_H
#define CHASE_ARCH_CPU_H

#include <stdint.h>

#define BIT(n) (1ULL << (n))

#define RFLAGS_IF BIT(9) /* interrupt enable flag */

/* Execute CPUID with the given leaf and subleaf; out = {eax, ebx, ecx, edx}. */
static inline void arch_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    __asm__ volatile("cpuid"
                     : "=a"(out[0]), "=b"(out[1]), "=c"(out[2]), "=d"(out[3])
                     : "a"(leaf), "c"(subleaf));
}

/* Serialized TSC read: lfence; rdtsc; lfence (no earlier or later work overlaps it). */
static inline uint64_t arch_tsc_fenced(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
}

/* The TSC with no fence: for waits and deadlines that must not drain the loads in flight
   (loaded's generators between blocks), never to time anything. */
static inline uint64_t arch_tsc_unfenced(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/* Read RFLAGS and disable interrupts; returns the RFLAGS value from before. */
static inline uint64_t arch_irq_save(void)
{
    uint64_t flags;
    __asm__ volatile("pushfq\n\tpopq %0\n\tcli" : "=r"(flags)::"memory");
    return flags;
}

/* Restore the interrupt flag as it was in flags (from arch_irq_save). */
static inline void arch_irq_restore(uint64_t flags)
{
    if (flags & RFLAGS_IF)
        __asm__ volatile("sti" ::: "memory");
}

#define CR4_PGE BIT(7)      /* global pages */
#define CR4_OSXSAVE BIT(18) /* XSAVE and the extended states XCR0 enables (XGETBV/XSETBV) */

/* Read extended control register n (XGETBV); #UD unless CR4.OSXSAVE is set. */
static inline uint64_t arch_xgetbv(uint32_t n)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(n));
    return ((uint64_t)hi << 32) | lo;
}

/* Write extended control register n (XSETBV, ring 0 only); #GP for a value the CPU refuses. */
static inline void arch_xsetbv(uint32_t n, uint64_t v)
{
    __asm__ volatile("xsetbv" ::"c"(n), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

static inline uint64_t arch_read_cr0(void)
{
    uint64_t v;
    __asm__ volatile("mov %%cr0, %0" : "=r"(v));
    return v;
}

static inline uint64_t arch_read_cr2(void)
{
    uint64_t v;
    __asm__ volatile("mov %%cr2, %0" : "=r"(v));
    return v;
}

static inline uint64_t arch_read_cr3(void)
{
    uint64_t v;
    __asm__ volatile("mov %%cr3, %0" : "=r"(v));
    return v;
}

static inline void arch_write_cr3(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr3" ::"r"(v) : "memory");
}

static inline uint64_t arch_read_cr4(void)
{
    uint64_t v;
    __asm__ volatile("mov %%cr4, %0" : "=r"(v));
    return v;
}

static inline void arch_write_cr4(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr4" ::"r"(v) : "memory");
}

/* A GDTR/IDTR image. */
struct descriptor_ptr {
    uint16_t limit;
    uint64_t base;
} __attribute__((packed));

static inline void arch_sidt(struct descriptor_ptr *p)
{
    __asm__ volatile("sidt %0" : "=m"(*p));
}

static inline void arch_lidt(const struct descriptor_ptr *p)
{
    __asm__ volatile("lidt %0" ::"m"(*p) : "memory");
}

static inline void arch_sgdt(struct descriptor_ptr *p)
{
    __asm__ volatile("sgdt %0" : "=m"(*p));
}

static inline uint16_t arch_read_cs(void)
{
    uint16_t cs;
    __asm__ volatile("mov %%cs, %0" : "=r"(cs));
    return cs;
}

/* Read an I/O port (32 bits). */
static inline uint32_t arch_inl(uint16_t port)
{
    uint32_t v;
    __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

/* Read an I/O port (8 bits). */
static inline uint8_t arch_inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

/* Write an I/O port (8 bits). */
static inline void arch_outb(uint16_t port, uint8_t v)
{
    __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port));
}

/* The core clock read around each repetition where chase is in ring 0 (run.json, the CSVs'
   clock column): APERF over MPERF. */
#define ARCH_CORE_COUNTER "aperf"
#define ARCH_CORE_COUNTER_TEXT "APERF/MPERF"

/* Read an MSR; raises #GP when it does not exist (use inside a window only). */
static inline uint64_t arch_rdmsr(uint32_t msr)
{
    uint32_t lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
    return ((uint64_t)hi << 32) | lo;
}

/* Write an MSR; raises #GP when it does not exist or refuses the value (in a window only). */
static inline void arch_wrmsr(uint32_t msr, uint64_t value)
{
    __asm__ volatile("wrmsr" ::"c"(msr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
                     : "memory");
}

static inline void arch_pause(void)
{
    __asm__ volatile("pause");
}

/* Write back and drop the line holding p from every cache of the machine (CLFLUSH, in every
   x86-64), then wait until it is gone (MFENCE orders CLFLUSH with later loads). */
static inline void arch_line_flush(const volatile void *p)
{
    __asm__ volatile("clflush %0\n\tmfence" ::"m"(*(const volatile char *)p) : "memory");
}

/* Which instruction arch_atomic_add_ones uses here: asked once (AArch64 reads an ID register,
   which Linux emulates at EL0 at a trap's cost), passed to each call. x86-64 has one. */
static inline unsigned arch_atomic_variant(void)
{
    return 0;
}

/* How arch_atomic_add_ones increments a shared line with that variant (the rows name it). */
static inline const char *arch_atomic_method(unsigned variant)
{
    (void)variant;
    return "lock add";
}

/* n locked increments of *p, one after another (LOCK ADD: a full barrier each). */
static inline void arch_atomic_add_ones(volatile uint64_t *p, uint64_t n, unsigned variant)
{
    (void)variant;
    for (uint64_t i = 0; i < n; i++)
        __asm__ volatile("lock addq $1, %0" : "+m"(*p)::"memory", "cc");
}

/* Stop this processor for good: interrupts off and halted (after an NMI, halted again). */
static inline __attribute__((noreturn)) void arch_halt_forever(void)
{
    for (;;)
        __asm__ volatile("cli; hlt" ::: "memory");
}

#endif
