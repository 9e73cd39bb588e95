/* SPDX-License-Identifier: MIT */
/* The bandwidth kernels: read, write, copy and non-temporal streams in SSE2, AVX2, AVX-512. */
/*
 * Every kernel: uint64_t fn(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps)
 * (SysV ABI). It walks [src, src + bytes) and/or [dst, dst + bytes) from the start, laps times;
 * bytes is a multiple of BW_BLOCK_BYTES (512) and both pointers are 64-byte aligned. Each inner
 * iteration moves eight vectors through eight registers, so no operation waits on another.
 * read folds every loaded vector into eight accumulators with one add each (the adds cannot
 * be dropped: their sum is returned); write and nt_write store all-ones (never zeros, which
 * some CPUs can drop as silent stores); copy and nt_copy load eight vectors and store them.
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

/* ---- SSE2: 16-byte vectors, 128 bytes per iteration ---------------------------------------- */

/* rax = the sum of the eight xmm accumulators' quadwords */
.macro FOLD_XMM
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

FUNC bw_read_sse2
    .irp k,0,1,2,3,4,5,6,7
    pxor    %xmm\k, %xmm\k
    .endr
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    paddq   \k*16(%rax), %xmm\k
    .endr
    LAP_END 128
    FOLD_XMM
    ret
ENDF bw_read_sse2

FUNC bw_write_sse2
    pcmpeqd %xmm0, %xmm0
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    movdqa  %xmm0, \k*16(%r10)
    .endr
    LAP_END 128
    xorl    %eax, %eax
    ret
ENDF bw_write_sse2

FUNC bw_copy_sse2
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    movdqa  \k*16(%rax), %xmm\k
    .endr
    .irp k,0,1,2,3,4,5,6,7
    movdqa  %xmm\k, \k*16(%r10)
    .endr
    LAP_END 128
    xorl    %eax, %eax
    ret
ENDF bw_copy_sse2

FUNC bw_nt_write_sse2
    pcmpeqd %xmm0, %xmm0
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    movntdq %xmm0, \k*16(%r10)
    .endr
    LAP_END 128
    sfence
    xorl    %eax, %eax
    ret
ENDF bw_nt_write_sse2

FUNC bw_nt_copy_sse2
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    movdqa  \k*16(%rax), %xmm\k
    .endr
    .irp k,0,1,2,3,4,5,6,7
    movntdq %xmm\k, \k*16(%r10)
    .endr
    LAP_END 128
    sfence
    xorl    %eax, %eax
    ret
ENDF bw_nt_copy_sse2

/* ---- AVX2: 32-byte vectors, 256 bytes per iteration ----------------------------------------- */

.macro FOLD_YMM
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

FUNC bw_read_avx2
    .irp k,0,1,2,3,4,5,6,7
    vpxor   %ymm\k, %ymm\k, %ymm\k
    .endr
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vpaddq  \k*32(%rax), %ymm\k, %ymm\k
    .endr
    LAP_END 256
    FOLD_YMM
    vzeroupper
    ret
ENDF bw_read_avx2

FUNC bw_write_avx2
    vpcmpeqd %ymm0, %ymm0, %ymm0
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vmovdqa %ymm0, \k*32(%r10)
    .endr
    LAP_END 256
    vzeroupper
    xorl    %eax, %eax
    ret
ENDF bw_write_avx2

FUNC bw_copy_avx2
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vmovdqa \k*32(%rax), %ymm\k
    .endr
    .irp k,0,1,2,3,4,5,6,7
    vmovdqa %ymm\k, \k*32(%r10)
    .endr
    LAP_END 256
    vzeroupper
    xorl    %eax, %eax
    ret
ENDF bw_copy_avx2

FUNC bw_nt_write_avx2
    vpcmpeqd %ymm0, %ymm0, %ymm0
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vmovntdq %ymm0, \k*32(%r10)
    .endr
    LAP_END 256
    sfence
    vzeroupper
    xorl    %eax, %eax
    ret
ENDF bw_nt_write_avx2

FUNC bw_nt_copy_avx2
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vmovdqa \k*32(%rax), %ymm\k
    .endr
    .irp k,0,1,2,3,4,5,6,7
    vmovntdq %ymm\k, \k*32(%r10)
    .endr
    LAP_END 256
    sfence
    vzeroupper
    xorl    %eax, %eax
    ret
ENDF bw_nt_copy_avx2

/* ---- AVX-512 (F): 64-byte vectors, 512 bytes per iteration ---------------------------------- */

.macro FOLD_ZMM
    vpaddq  %zmm1, %zmm0, %zmm0
    vpaddq  %zmm3, %zmm2, %zmm2
    vpaddq  %zmm5, %zmm4, %zmm4
    vpaddq  %zmm7, %zmm6, %zmm6
    vpaddq  %zmm2, %zmm0, %zmm0
    vpaddq  %zmm6, %zmm4, %zmm4
    vpaddq  %zmm4, %zmm0, %zmm0
    vextracti64x4 $1, %zmm0, %ymm1
    vpaddq  %ymm1, %ymm0, %ymm0
    vextracti128 $1, %ymm0, %xmm1
    vpaddq  %xmm1, %xmm0, %xmm0
    vpshufd $0x4e, %xmm0, %xmm1
    vpaddq  %xmm1, %xmm0, %xmm0
    vmovq   %xmm0, %rax
.endm

FUNC bw_read_avx512
    .irp k,0,1,2,3,4,5,6,7
    vpxorq  %zmm\k, %zmm\k, %zmm\k
    .endr
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vpaddq  \k*64(%rax), %zmm\k, %zmm\k
    .endr
    LAP_END 512
    FOLD_ZMM
    vzeroupper
    ret
ENDF bw_read_avx512

FUNC bw_write_avx512
    vpternlogd $0xff, %zmm0, %zmm0, %zmm0
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vmovdqa64 %zmm0, \k*64(%r10)
    .endr
    LAP_END 512
    vzeroupper
    xorl    %eax, %eax
    ret
ENDF bw_write_avx512

FUNC bw_copy_avx512
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vmovdqa64 \k*64(%rax), %zmm\k
    .endr
    .irp k,0,1,2,3,4,5,6,7
    vmovdqa64 %zmm\k, \k*64(%r10)
    .endr
    LAP_END 512
    vzeroupper
    xorl    %eax, %eax
    ret
ENDF bw_copy_avx512

FUNC bw_nt_write_avx512
    vpternlogd $0xff, %zmm0, %zmm0, %zmm0
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vmovntdq %zmm0, \k*64(%r10)
    .endr
    LAP_END 512
    sfence
    vzeroupper
    xorl    %eax, %eax
    ret
ENDF bw_nt_write_avx512

FUNC bw_nt_copy_avx512
    LAP_BEGIN
    .irp k,0,1,2,3,4,5,6,7
    vmovdqa64 \k*64(%rax), %zmm\k
    .endr
    .irp k,0,1,2,3,4,5,6,7
    vmovntdq %zmm\k, \k*64(%r10)
    .endr
    LAP_END 512
    sfence
    vzeroupper
    xorl    %eax, %eax
    ret
ENDF bw_nt_copy_avx512

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

    .section .note.GNU-stack, "", @progbits
