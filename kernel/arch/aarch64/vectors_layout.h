/* SPDX-License-Identifier: MIT */
/* Where vectors.S finds and fills the window's trap record (struct a64_trap, vectors.h). */
#ifndef CHASE_ARCH_AARCH64_VECTORS_LAYOUT_H
#define CHASE_ARCH_AARCH64_VECTORS_LAYOUT_H

/* Marks a live struct a64_trap, so that a stray TPIDR_ELx value is never taken for one. */
#define A64_TRAP_MAGIC 0x7472617063686173
/* Byte offsets in struct a64_trap (a64_window.c checks them against the struct). */
#define A64_TRAP_MAGIC_OFFSET 0
#define A64_TRAP_TAKEN_OFFSET 8
#define A64_TRAP_ESR_OFFSET 16
#define A64_TRAP_ELR_OFFSET 24
#define A64_TRAP_FAR_OFFSET 32
#define A64_TRAP_ENTRY_OFFSET 40
#define A64_TRAP_RESUME_OFFSET 48
/* VBAR_ELx ignores bits [10:0]: the table is 2 KiB aligned, 16 entries of 128 bytes. */
#define A64_VECTOR_TABLE_ALIGN 2048

#endif
