/* SPDX-License-Identifier: MIT */
/* Where window.S's NMI entry finds its processor's record in the window_env its IDT is. */
#ifndef CHASE_ARCH_WINDOW_LAYOUT_H
#define CHASE_ARCH_WINDOW_LAYOUT_H

/* Marks a window_env, so that a processor's loaded IDT tells which window it is in. */
#define WINDOW_ENV_MAGIC 0x776e646f77656e76
/* Byte offsets in struct window_env (efi/x86_64/x64_window.c checks them against the struct). */
#define WINDOW_ENV_MAGIC_OFFSET 640 /* .magic */
#define WINDOW_ENV_NMIS_OFFSET 664  /* .stats.nmis */

#endif
