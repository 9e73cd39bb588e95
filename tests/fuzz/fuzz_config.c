// SPDX-License-Identifier: MIT
// libFuzzer target: the configuration file reader, the load-option reader and the resolver.
// The input is a config file's text, then optionally a NUL byte and a load-option line.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "experiments/experiment.h"

#define OPTIONS_MAX 2048

static struct machine machine(const uint8_t *data, size_t size)
{
    struct machine m;
    memset(&m, 0, sizeof(m));
    strcpy(m.platform, size & 1 ? "uefi" : "linux");
    m.cpu.has_1g_pages = (size & 2) != 0;
    m.cpu.ncaches = 3;
    m.cpu.caches[0] = (struct cache_info){1, CACHE_DATA, 48 << 10, 12, 64, 64, 2};
    m.cpu.caches[1] = (struct cache_info){2, CACHE_UNIFIED, 2 << 20, 16, 64, 2048, 2};
    m.cpu.caches[2] = (struct cache_info){3, CACHE_UNIFIED, 32 << 20, 16, 64, 32768, 32};
    /* memory from tiny to large, so the plan-does-not-fit errors are reached too */
    m.memory_total_bytes = (64ULL << 20) << (size ? data[0] % 10 : 0);
    m.buffer_limit_bytes = m.memory_total_bytes / 2;
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t text_len = nul ? (size_t)(nul - data) : size;
    char options[OPTIONS_MAX];
    size_t olen = 0;
    if (nul) {
        olen = size - text_len - 1;
        if (olen >= sizeof(options))
            olen = sizeof(options) - 1;
        memcpy(options, nul + 1, olen);
        /* the platform hands the kernel a NUL-terminated line */
        for (size_t i = 0; i < olen; i++)
            options[i] = options[i] ? options[i] : ' ';
    }
    options[olen] = 0;

    struct cfg_entries *entries = calloc(1, sizeof(*entries));
    struct chase_config *cfg = calloc(1, sizeof(*cfg));
    struct cfg_errors errs;
    memset(&errs, 0, sizeof(errs));
    struct machine m = machine(data, size);
    cfg_read_file(entries, &experiment_cfg_table, (const char *)data, text_len,
                  "\\chase\\chase.cfg", &errs);
    if (nul)
        cfg_read_options(entries, options, &errs);
    cfg_resolve(cfg, &experiment_cfg_table, entries, &m, &errs);
    /* Every error is one line naming where it came from. */
    const char *text = strbuf_str(&errs.text);
    unsigned lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    if (lines != errs.count && !errs.text.failed)
        abort();
    strbuf_release(&errs.text);
    free(cfg);
    free(entries);
    return 0;
}
