/* SPDX-License-Identifier: MIT */
/* The bandwidth kernels for AArch64: read, write, copy and non-temporal streams in NEON and SVE. */
/*
 * Every kernel: uint64_t fn(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps)
 * (AAPCS64: x0 dst, x1 src, x2 bytes, x3 laps; x0 returned). It walks [src, src + bytes)
 * and/or [dst, dst + bytes) from the start, laps times; bytes is a multiple of BW_BLOCK_BYTES
 * (512) and both pointers are 64-byte aligned. Each inner iteration moves eight vectors
 * through eight registers, so no operation waits on another. read folds every loaded vector
 * into eight accumulators with one add each (their sum is returned, so no load can be
 * dropped); write and nt_write store all-ones (never zeros, which some cores can drop as
 * silent stores or turn into line zeroing); copy and nt_copy load eight vectors and store them.
 * The non-temporal kernels store with STNP (NEON) or STNT1D (SVE), a hint every AArch64 core
 * takes, and end with DMB ISHST, x86's SFENCE here: their stores are ordered before any later
 * store (the "done" flag of bw_cores). Only caller-saved vector registers are used (v0-v7,
 * v16-v23, z0-z7, z16-z23, p0-p1): AAPCS64 keeps d8-d15 for the caller.
 */

    .text

.macro FUNC name
    .globl  \name
    .type   \name, %function
    .p2align 6
\name:
.endm

.macro ENDF name
    .size   \name, . - \name
.endm

/* ---- NEON (Advanced SIMD): 16-byte vectors, 128 bytes per iteration ------------------------ */

    .arch   armv8-a

/* x3 = laps left; per lap x9 walks src, x10 walks dst, x11 is where src ends. */
.macro LAP_BEGIN
1:  mov     x9, x1
    mov     x10, x0
    add     x11, x1, x2
    .p2align 5
2:
.endm

.macro LAP_END step
    add     x9, x9, #\step
    add     x10, x10, #\step
    cmp     x9, x11
    b.lo    2b
    subs    x3, x3, #1
    b.ne    1b
.endm

/* v0-v7 = the eight vectors at [x9, x9 + 128) */
.macro LOAD8_Q
    ldp     q0, q1, [x9, #0]
    ldp     q2, q3, [x9, #32]
    ldp     q4, q5, [x9, #64]
    ldp     q6, q7, [x9, #96]
.endm

/* x0 = the sum of the eight accumulators' doublewords (v16-v23) */
.macro FOLD_V
    add     v16.2d, v16.2d, v17.2d
    add     v18.2d, v18.2d, v19.2d
    add     v20.2d, v20.2d, v21.2d
    add     v22.2d, v22.2d, v23.2d
    add     v16.2d, v16.2d, v18.2d
    add     v20.2d, v20.2d, v22.2d
    add     v16.2d, v16.2d, v20.2d
    addp    d16, v16.2d
    fmov    x0, d16
.endm

FUNC bw_read_neon
    .irp k,16,17,18,19,20,21,22,23
    movi    v\k\().2d, #0
    .endr
    LAP_BEGIN
    LOAD8_Q
    add     v16.2d, v16.2d, v0.2d
    add     v17.2d, v17.2d, v1.2d
    add     v18.2d, v18.2d, v2.2d
    add     v19.2d, v19.2d, v3.2d
    add     v20.2d, v20.2d, v4.2d
    add     v21.2d, v21.2d, v5.2d
    add     v22.2d, v22.2d, v6.2d
    add     v23.2d, v23.2d, v7.2d
    LAP_END 128
    FOLD_V
    ret
ENDF bw_read_neon

FUNC bw_write_neon
    movi    v0.2d, #0xffffffffffffffff
    LAP_BEGIN
    stp     q0, q0, [x10, #0]
    stp     q0, q0, [x10, #32]
    stp     q0, q0, [x10, #64]
    stp     q0, q0, [x10, #96]
    LAP_END 128
    mov     x0, #0
    ret
ENDF bw_write_neon

FUNC bw_copy_neon
    LAP_BEGIN
    LOAD8_Q
    stp     q0, q1, [x10, #0]
    stp     q2, q3, [x10, #32]
    stp     q4, q5, [x10, #64]
    stp     q6, q7, [x10, #96]
    LAP_END 128
    mov     x0, #0
    ret
ENDF bw_copy_neon

FUNC bw_nt_write_neon
    movi    v0.2d, #0xffffffffffffffff
    LAP_BEGIN
    stnp    q0, q0, [x10, #0]
    stnp    q0, q0, [x10, #32]
    stnp    q0, q0, [x10, #64]
    stnp    q0, q0, [x10, #96]
    LAP_END 128
    dmb     ishst
    mov     x0, #0
    ret
ENDF bw_nt_write_neon

FUNC bw_nt_copy_neon
    LAP_BEGIN
    LOAD8_Q
    stnp    q0, q1, [x10, #0]
    stnp    q2, q3, [x10, #32]
    stnp    q4, q5, [x10, #64]
    stnp    q6, q7, [x10, #96]
    LAP_END 128
    dmb     ishst
    mov     x0, #0
    ret
ENDF bw_nt_copy_neon

/* ---- SVE: vector-length agnostic (VL = 16 to 256 bytes), eight vectors per iteration -------- */
/*
 * The main loop moves eight whole vectors (8 x VL bytes) while that many are left; what is
 * left of a lap after it (only where 8 x VL exceeds 512 bytes, VL above 64 bytes) goes one
 * vector at a time under a WHILELO predicate, so any vector length walks exactly the lap.
 */

    .arch   armv8.2-a+sve

/* x12 = 8 x VL bytes, the main loop's step; p0 = all doublewords. */
.macro SVE_SETUP
    ptrue   p0.d
    cntb    x12, all, mul #8
.endm

/* Per lap: x9 walks src, x10 dst, x15 counts the bytes left; the main loop runs the body. */
.macro SVE_LAP_BEGIN
1:  mov     x9, x1
    mov     x10, x0
    mov     x15, x2
    cmp     x15, x12
    b.lo    3f
    .p2align 5
2:
.endm

/* The main loop's end, then the tail: x16 counts doublewords done, x17 doublewords left,
   p1 the tail vector's active ones; the tail macro named works on [x9|x10 + x16*8]. */
.macro SVE_LAP_END tail
    addvl   x9, x9, #8
    addvl   x10, x10, #8
    sub     x15, x15, x12
    cmp     x15, x12
    b.hs    2b
3:  cbz     x15, 5f
    mov     x16, #0
    lsr     x17, x15, #3
4:  whilelo p1.d, x16, x17
    \tail
    incd    x16
    cmp     x16, x17
    b.lo    4b
5:  subs    x3, x3, #1
    b.ne    1b
.endm

/* z0-z7 = the eight vectors at x9 */
.macro LOAD8_Z
    ld1d    z0.d, p0/z, [x9, #0, mul vl]
    ld1d    z1.d, p0/z, [x9, #1, mul vl]
    ld1d    z2.d, p0/z, [x9, #2, mul vl]
    ld1d    z3.d, p0/z, [x9, #3, mul vl]
    ld1d    z4.d, p0/z, [x9, #4, mul vl]
    ld1d    z5.d, p0/z, [x9, #5, mul vl]
    ld1d    z6.d, p0/z, [x9, #6, mul vl]
    ld1d    z7.d, p0/z, [x9, #7, mul vl]
.endm

/* The tail's one vector: z0 at x9 folded into z16, or stored (all-ones or copied) at x10. */
.macro TAIL_READ
    ld1d    z0.d, p1/z, [x9, x16, lsl #3]
    add     z16.d, z16.d, z0.d
.endm
.macro TAIL_WRITE
    st1d    z0.d, p1, [x10, x16, lsl #3]
.endm
.macro TAIL_COPY
    ld1d    z0.d, p1/z, [x9, x16, lsl #3]
    st1d    z0.d, p1, [x10, x16, lsl #3]
.endm
.macro TAIL_NT_WRITE
    stnt1d  z0.d, p1, [x10, x16, lsl #3]
.endm
.macro TAIL_NT_COPY
    ld1d    z0.d, p1/z, [x9, x16, lsl #3]
    stnt1d  z0.d, p1, [x10, x16, lsl #3]
.endm

/* x0 = the sum of the eight accumulators' doublewords (z16-z23) */
.macro FOLD_Z
    add     z16.d, z16.d, z17.d
    add     z18.d, z18.d, z19.d
    add     z20.d, z20.d, z21.d
    add     z22.d, z22.d, z23.d
    add     z16.d, z16.d, z18.d
    add     z20.d, z20.d, z22.d
    add     z16.d, z16.d, z20.d
    uaddv   d16, p0, z16.d
    fmov    x0, d16
.endm

FUNC bw_read_sve
    SVE_SETUP
    .irp k,16,17,18,19,20,21,22,23
    mov     z\k\().d, #0
    .endr
    SVE_LAP_BEGIN
    LOAD8_Z
    add     z16.d, z16.d, z0.d
    add     z17.d, z17.d, z1.d
    add     z18.d, z18.d, z2.d
    add     z19.d, z19.d, z3.d
    add     z20.d, z20.d, z4.d
    add     z21.d, z21.d, z5.d
    add     z22.d, z22.d, z6.d
    add     z23.d, z23.d, z7.d
    SVE_LAP_END TAIL_READ
    FOLD_Z
    ret
ENDF bw_read_sve

FUNC bw_write_sve
    SVE_SETUP
    mov     z0.d, #-1
    SVE_LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    st1d    z0.d, p0, [x10, #\k, mul vl]
    .endr
    SVE_LAP_END TAIL_WRITE
    mov     x0, #0
    ret
ENDF bw_write_sve

FUNC bw_copy_sve
    SVE_SETUP
    SVE_LAP_BEGIN
    LOAD8_Z
    .irp k,0,1,2,3,4,5,6,7
    st1d    z\k\().d, p0, [x10, #\k, mul vl]
    .endr
    SVE_LAP_END TAIL_COPY
    mov     x0, #0
    ret
ENDF bw_copy_sve

FUNC bw_nt_write_sve
    SVE_SETUP
    mov     z0.d, #-1
    SVE_LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    stnt1d  z0.d, p0, [x10, #\k, mul vl]
    .endr
    SVE_LAP_END TAIL_NT_WRITE
    dmb     ishst
    mov     x0, #0
    ret
ENDF bw_nt_write_sve

FUNC bw_nt_copy_sve
    SVE_SETUP
    SVE_LAP_BEGIN
    LOAD8_Z
    .irp k,0,1,2,3,4,5,6,7
    stnt1d  z\k\().d, p0, [x10, #\k, mul vl]
    .endr
    SVE_LAP_END TAIL_NT_COPY
    dmb     ishst
    mov     x0, #0
    ret
ENDF bw_nt_copy_sve

/* ---- Non-temporal line stores for loaded's traffic generators (kernel/procs/traffic.c) ----- */

/* x0 = dst (64-byte aligned), x1 = lines, x2 = the word stored: four STNPs per line. */
FUNC bw_nt_fill_lines
    cbz     x1, 2f
1:  stnp    x2, x2, [x0, #0]
    stnp    x2, x2, [x0, #16]
    stnp    x2, x2, [x0, #32]
    stnp    x2, x2, [x0, #48]
    add     x0, x0, #64
    subs    x1, x1, #1
    b.ne    1b
2:  ret
ENDF bw_nt_fill_lines

FUNC bw_store_fence
    dmb     ishst
    ret
ENDF bw_store_fence

    .section .note.GNU-stack, "", %progbits
