/* SPDX-License-Identifier: MIT */
/* The bandwidth kernels: read, write, copy and non-temporal streams in SSE2, AVX2, AVX-512. */
/*
 * Every kernel: uint64_t fn(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps)
 * (SysV ABI). It walks [src, src + bytes) and/or [dst, dst + bytes) from the start, laps times;
 * bytes is a multiple of BW_BLOCK_BYTES (512) and both pointers are 64-byte aligned. Each inner
 * iteration moves eight vectors through eight registers, so no operation waits on another.
 * read folds every loaded vector into accumulators, so that every byte reaches the returned
 * value: SSE2 and AVX2 add each vector into one of eight accumulators and return the quadwords'
 * sum; AVX-512 loads two vectors per fold and joins both into one of four accumulators with one
 * three-input XOR (vpternlogq) and returns the quadwords' XOR. One vector operation per two
 * loads: on Golden Cove an add per load held the read to 75-99 of the 128 bytes per cycle its
 * two 64-byte loads allow, this form reached 118-124 (docs/bench.md). write and nt_write store
 * all-ones (never zeros, which some CPUs can drop as silent stores); copy and nt_copy load
 * eight vectors and store them.
 * Stores use base + displacement addresses only (no index register), which the store-address
 * units of every x86-64 core can take. Non-temporal kernels end with sfence.
 */

    .text

/* r8 = laps left; per lap rax walks src, r10 walks dst, r9 is where src ends. */
.macro LAP_BEGIN
    movq    %rcx, %r8
1:  movq    %rsi, %rax
    movq    %rdi, %r10
    leaq    (%rsi,%rdx), %r9
    .p2align 5
2:
.endm

.macro LAP_END step
    addq    $\step, %rax
    addq    $\step, %r10
    cmpq    %r9, %rax
    jb      2b
    decq    %r8
    jnz     1b
.endm

.macro FUNC name
    .globl  \name
    .type   \name, @function
    .p2align 6
\name:
.endm

.macro ENDF name
    .size   \name, . - \name
.endm

/*
 * Each width's pieces, named after its register file (xmm: SSE2, ymm: AVX2, zmm: AVX-512F):
 * ZERO_r k and ONES_r (register 0 all-ones) set registers up, ADD_r k, off (SSE2, AVX2) adds the
 * vector at rax + off into accumulator k, READ_r vb folds one iteration's eight vectors of vb
 * bytes from rax, LOAD_r, STORE_r and NTSTORE_r k, off move vector k from rax + off or to
 * r10 + off, FOLD_r folds the accumulators' quadwords into rax, and EPI_r ends the kernel's
 * vector use (vzeroupper after VEX or EVEX code, so that later SSE code pays no transition
 * penalty). KERNELS then writes the five kernels of a width from them.
 */

.macro ZERO_xmm k
    pxor    %xmm\k, %xmm\k
.endm
.macro ONES_xmm
    pcmpeqd %xmm0, %xmm0
.endm
.macro ADD_xmm k, off
    paddq   \off(%rax), %xmm\k
.endm
.macro READ_xmm vb
    .irp k,0,1,2,3,4,5,6,7
    ADD_xmm \k, \k*\vb
    .endr
.endm
.macro LOAD_xmm k, off
    movdqa  \off(%rax), %xmm\k
.endm
.macro STORE_xmm k, off
    movdqa  %xmm\k, \off(%r10)
.endm
.macro NTSTORE_xmm k, off
    movntdq %xmm\k, \off(%r10)
.endm
.macro FOLD_xmm
    paddq   %xmm1, %xmm0
    paddq   %xmm3, %xmm2
    paddq   %xmm5, %xmm4
    paddq   %xmm7, %xmm6
    paddq   %xmm2, %xmm0
    paddq   %xmm6, %xmm4
    paddq   %xmm4, %xmm0
    pshufd  $0x4e, %xmm0, %xmm1
    paddq   %xmm1, %xmm0
    movq    %xmm0, %rax
.endm
.macro EPI_xmm
.endm

.macro ZERO_ymm k
    vpxor   %ymm\k, %ymm\k, %ymm\k
.endm
.macro ONES_ymm
    vpcmpeqd %ymm0, %ymm0, %ymm0
.endm
.macro ADD_ymm k, off
    vpaddq  \off(%rax), %ymm\k, %ymm\k
.endm
.macro READ_ymm vb
    .irp k,0,1,2,3,4,5,6,7
    ADD_ymm \k, \k*\vb
    .endr
.endm
.macro LOAD_ymm k, off
    vmovdqa \off(%rax), %ymm\k
.endm
.macro STORE_ymm k, off
    vmovdqa %ymm\k, \off(%r10)
.endm
.macro NTSTORE_ymm k, off
    vmovntdq %ymm\k, \off(%r10)
.endm
.macro FOLD_ymm
    vpaddq  %ymm1, %ymm0, %ymm0
    vpaddq  %ymm3, %ymm2, %ymm2
    vpaddq  %ymm5, %ymm4, %ymm4
    vpaddq  %ymm7, %ymm6, %ymm6
    vpaddq  %ymm2, %ymm0, %ymm0
    vpaddq  %ymm6, %ymm4, %ymm4
    vpaddq  %ymm4, %ymm0, %ymm0
    vextracti128 $1, %ymm0, %xmm1
    vpaddq  %xmm1, %xmm0, %xmm0
    vpshufd $0x4e, %xmm0, %xmm1
    vpaddq  %xmm1, %xmm0, %xmm0
    vmovq   %xmm0, %rax
.endm
.macro EPI_ymm
    vzeroupper
.endm

.macro ZERO_zmm k
    vpxorq  %zmm\k, %zmm\k, %zmm\k
.endm
.macro ONES_zmm
    vpternlogd $0xff, %zmm0, %zmm0, %zmm0
.endm
/* Accumulator k ^= the vectors at rax + 2k x vb and rax + (2k + 1) x vb (0x96: a ^ b ^ c). */
.macro READ_zmm vb
    vmovdqa64 0*\vb(%rax), %zmm8
    vmovdqa64 2*\vb(%rax), %zmm9
    vmovdqa64 4*\vb(%rax), %zmm10
    vmovdqa64 6*\vb(%rax), %zmm11
    vpternlogq $0x96, 1*\vb(%rax), %zmm8, %zmm0
    vpternlogq $0x96, 3*\vb(%rax), %zmm9, %zmm1
    vpternlogq $0x96, 5*\vb(%rax), %zmm10, %zmm2
    vpternlogq $0x96, 7*\vb(%rax), %zmm11, %zmm3
.endm
.macro LOAD_zmm k, off
    vmovdqa64 \off(%rax), %zmm\k
.endm
.macro STORE_zmm k, off
    vmovdqa64 %zmm\k, \off(%r10)
.endm
.macro NTSTORE_zmm k, off
    vmovntdq %zmm\k, \off(%r10)
.endm
.macro FOLD_zmm
    vpxorq  %zmm1, %zmm0, %zmm0
    vpxorq  %zmm3, %zmm2, %zmm2
    vpxorq  %zmm2, %zmm0, %zmm0
    vextracti64x4 $1, %zmm0, %ymm1
    vpxor   %ymm1, %ymm0, %ymm0
    vextracti128 $1, %ymm0, %xmm1
    vpxor   %xmm1, %xmm0, %xmm0
    vpshufd $0x4e, %xmm0, %xmm1
    vpxor   %xmm1, %xmm0, %xmm0
    vmovq   %xmm0, %rax
.endm
.macro EPI_zmm
    vzeroupper
.endm

/* The five kernels of one width: reg its register file, vb its vector bytes, w the name's end. */
.macro KERNELS reg, vb, w
FUNC bw_read_\w
    .irp k,0,1,2,3,4,5,6,7
    ZERO_\reg \k
    .endr
    LAP_BEGIN
    READ_\reg \vb
    LAP_END 8*\vb
    FOLD_\reg
    EPI_\reg
    ret
ENDF bw_read_\w

FUNC bw_write_\w
    ONES_\reg
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    STORE_\reg 0, \k*\vb
    .endr
    LAP_END 8*\vb
    EPI_\reg
    xorl    %eax, %eax
    ret
ENDF bw_write_\w

FUNC bw_copy_\w
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    LOAD_\reg \k, \k*\vb
    .endr
    .irp k,0,1,2,3,4,5,6,7
    STORE_\reg \k, \k*\vb
    .endr
    LAP_END 8*\vb
    EPI_\reg
    xorl    %eax, %eax
    ret
ENDF bw_copy_\w

FUNC bw_nt_write_\w
    ONES_\reg
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    NTSTORE_\reg 0, \k*\vb
    .endr
    LAP_END 8*\vb
    sfence
    EPI_\reg
    xorl    %eax, %eax
    ret
ENDF bw_nt_write_\w

FUNC bw_nt_copy_\w
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    LOAD_\reg \k, \k*\vb
    .endr
    .irp k,0,1,2,3,4,5,6,7
    NTSTORE_\reg \k, \k*\vb
    .endr
    LAP_END 8*\vb
    sfence
    EPI_\reg
    xorl    %eax, %eax
    ret
ENDF bw_nt_copy_\w
.endm

/* SSE2: 16-byte vectors, 128 bytes per iteration; AVX2: 32 and 256; AVX-512 (F): 64 and 512. */
    KERNELS xmm, 16, sse2
    KERNELS ymm, 32, avx2
    KERNELS zmm, 64, avx512

/* ---- The CPU's own string instructions (any width: the microcode picks) --------------------- */

FUNC bw_rep_movsb
    cld
    movq    %rcx, %r8
    movq    %rdi, %r9
    movq    %rsi, %r10
    movq    %rdx, %r11
1:  movq    %r9, %rdi
    movq    %r10, %rsi
    movq    %r11, %rcx
    rep movsb
    decq    %r8
    jnz     1b
    xorl    %eax, %eax
    ret
ENDF bw_rep_movsb

FUNC bw_rep_stosb
    cld
    movq    %rcx, %r8
    movq    %rdi, %r9
    movq    %rdx, %r11
    movl    $0xff, %eax
1:  movq    %r9, %rdi
    movq    %r11, %rcx
    rep stosb
    decq    %r8
    jnz     1b
    xorl    %eax, %eax
    ret
ENDF bw_rep_stosb

/* ---- Non-temporal line stores for loaded's traffic generators (kernel/procs/traffic.c) ----- */

/* rdi = dst (64-byte aligned), rsi = lines, rdx = the word stored: eight MOVNTIs per line. */
FUNC bw_nt_fill_lines
    testq   %rsi, %rsi
    jz      2f
1:  .irp off,0,8,16,24,32,40,48,56
    movnti  %rdx, \off(%rdi)
    .endr
    addq    $64, %rdi
    decq    %rsi
    jnz     1b
2:  ret
ENDF bw_nt_fill_lines

FUNC bw_store_fence
    sfence
    ret
ENDF bw_store_fence

    .section .note.GNU-stack, "", @progbits
