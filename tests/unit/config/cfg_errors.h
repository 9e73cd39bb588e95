// SPDX-License-Identifier: MIT
// What the configuration error tests share: a machine, the entries read, the errors they gave,
// resolving them and finding an error's text (include cmocka.h first).
#ifndef CHASE_CFG_ERRORS_H
#define CHASE_CFG_ERRORS_H

#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "experiments/experiment.h"
#include "lib/strbuf.h"

#define CFG_NAME "\\chase\\chase.cfg"

static struct machine machine; /* each test file's setup describes it */
static struct cfg_entries *entries;
static struct cfg_errors errs;
static struct chase_config cfg;

/* The machine's vector units: SSE2 and AVX2 without AVX-512, with the register state (XCR0 x87,
   SSE and AVX) that both the CPU offers and the operating system has enabled. */
static inline void cfg_machine_avx2(void)
{
    machine.cpu.simd = (struct simd_caps){.sse2 = true,
                                          .avx = true,
                                          .avx2 = true,
                                          .xsave = true,
                                          .os_xsave = true,
                                          .xcr0_cpu = 0x7,
                                          .xcr0_os = 0x7};
}

/* Fresh entries and no errors (a setup's last step). */
static inline void cfg_errors_begin(void)
{
    entries = calloc(1, sizeof(*entries));
    memset(&errs, 0, sizeof(errs));
}

static int teardown(void **state)
{
    (void)state;
    free(entries);
    strbuf_release(&errs.text);
    return 0;
}

/* Read file (as \chase\chase.cfg) and options when given, resolve: true when no error. */
static inline bool resolve(const char *file, const char *options)
{
    if (file)
        cfg_read_file(entries, &experiment_cfg_table, file, strlen(file), CFG_NAME, &errs);
    if (options)
        cfg_read_options(entries, options, &errs);
    return cfg_resolve(&cfg, &experiment_cfg_table, entries, &machine, &errs) && errs.count == 0;
}

/* Fail unless an error so far contains needle. */
static inline void assert_error(const char *needle)
{
    const char *text = strbuf_str(&errs.text);
    if (!strstr(text, needle))
        fail_msg("expected an error containing \"%s\", got:\n%s", needle, text);
}

#endif
