// SPDX-License-Identifier: MIT
// The help text, generated from the key tables and the experiment table.
#include "config/config.h"
#include "experiments/experiment.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "run/run.h"

static void print_key(const char *prefix, const struct key_desc *k, const void *params)
{
    char value[64], name[64];
    cfg_format_value(value, sizeof(value), k, params);
    ksnprintf(name, sizeof(name), "%s%s", prefix, k->name);
    con_printf("  %-28s %-12s %-6s %s\n", name, value, k->unit, k->help);
}

void chase_print_help(const struct machine *m)
{
    struct chase_config cfg;
    struct cfg_errors errs = {{0}, 0};
    static struct cfg_entries empty; /* large: keep it off the firmware's small stack */
    cfg_resolve(&cfg, &experiment_cfg_table, &empty, m, &errs);
    strbuf_release(&errs.text);
    con_printf("\nusage: key=value ... (load options override \\chase\\chase.cfg)\n");
    con_printf("config file: 'key = value', 'experiment.key = value', '[experiment]' sections, "
               "'#' comments\n");
    con_printf("sizes take K, M, G (binary: 1K = 1024); lists are comma-separated\n\n");
    con_printf("  %-28s %-12s %-6s %s\n", "key", "default", "unit", "meaning");
    for (size_t i = 0; i < global_key_count; i++)
        print_key("", &global_keys[i], &cfg.global);
    for (size_t x = 0; x < experiment_count; x++) {
        const struct experiment *e = experiment_table[x];
        char prefix[40];
        con_printf("\n%s: %s\n  (%s)\n", e->cfg.name, e->describe, e->why);
        ksnprintf(prefix, sizeof(prefix), "%s.", e->cfg.name);
        for (size_t i = 0; i < e->cfg.nkeys; i++)
            print_key(prefix, &e->cfg.keys[i], cfg_params_const(&cfg, x));
    }
    con_printf("\ndefaults shown for profile=full on this machine; profile=quick makes every "
               "experiment small\n");
}
