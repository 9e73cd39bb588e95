// SPDX-License-Identifier: MIT
// chase-sim's command line: options, the hierarchy (preset, description or file), its errors.
#include "sim_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "lib/fmt.h"
#include "sim_policy.h"

void sim_cli_usage(FILE *f)
{
    fprintf(f,
            "usage: chase-sim --hierarchy PRESET|DESCRIPTION|FILE [--out DIR] [--config FILE]\n"
            "                 [--prefetch STREAMS[:...]] [--ghz F] [--seed N] [key=value ...]\n"
            "       chase-sim --hierarchy ... --describe | --bench\n"
            "       chase-sim --list-presets | --help\n"
            "Runs chase's experiments on a modelled cache hierarchy and writes a result folder\n"
            "DIR/NNNN (default DIR: ./runs) in chase's format, marked simulated.\n"
            "A description lists levels, innermost first, then DRAM:\n"
            "  NAME:SIZE:WAYSw:LATENCYc:POLICY[:incl|:excl|:nine][:slices=N][:hash=H][:line=B]\n"
            "       [:eps=N][:leaders=N][:psel=BITS]\n"
            "  NAMETLB:ENTRIES:WAYSw:MISSc[:POLICY]   (optional TLBs, a name ending in TLB)\n"
            "  PF:STREAMS[:distance=N][:degree=N][:into=LEVEL][:region=SIZE]\n"
            "       (optional stride prefetcher; default distance 4, degree 1, into the first\n"
            "       level, region 4K)\n"
            "  DRAM:LATENCYc[:mlp=N]\n"
            "  e.g. L1:32K:8w:4c:lru,L2:256K:8w:12c:plru,L3:6M:12w:40c:drrip:slices=4,DRAM:200c\n"
            "Policies: lru plru fifo random nru bip dip srrip brrip drrip. Hashes: intel xor mix "
            "mod.\n"
            "--prefetch: add (or replace) the hierarchy's PF item, e.g. --prefetch 16:into=L2.\n"
            "--ghz: simulated core clock for ns (default 1); --seed: the model's random\n"
            "choices (default 1). The TLBs see chase's page key: page=4K, 2M or 1G (auto: 1G).\n");
}

void sim_cli_list_presets(FILE *f)
{
    for (size_t i = 0; i < sim_preset_count; i++)
        fprintf(f, "%-12s %s\n%12s %s\n", sim_presets[i].name, sim_presets[i].machine, "",
                sim_presets[i].spec);
}

static const char *const incl_words[] = {"non-inclusive", "inclusive", "exclusive (victim)"};

void sim_cli_describe(FILE *f, const struct sim_spec *spec, const char *name)
{
    char line[1024];
    fprintf(f, "%s\n", name);
    for (unsigned i = 0; i < spec->nlevels; i++) {
        const struct sim_level_spec *l = &spec->level[i];
        uint64_t sets = l->size_bytes / ((uint64_t)l->ways * l->line_bytes);
        fmt_size(line, sizeof(line), (double)l->size_bytes);
        fprintf(f, "  %-6s %8s %2u-way %4u B lines %7llu sets %4u cycles %-6s %s", l->name, line,
                l->ways, l->line_bytes, (unsigned long long)sets, l->latency_cycles,
                sim_policy_name(l->policy), i ? incl_words[l->incl] : "");
        if (l->slices > 1)
            fprintf(f, ", %u slices", l->slices);
        fprintf(f, "\n");
    }
    for (unsigned i = 0; i < spec->ntlbs; i++)
        fprintf(f, "  %-6s %5llu entries %2u-way, miss +%u cycles\n", spec->tlb[i].name,
                (unsigned long long)spec->tlb[i].size_bytes, spec->tlb[i].ways,
                spec->tlb[i].latency_cycles);
    if (spec->pf.streams)
        fprintf(f,
                "  PF     %u streams, %u strides ahead, %u lines each, into %s, %llu-byte "
                "regions\n",
                spec->pf.streams, spec->pf.distance, spec->pf.degree,
                spec->level[spec->pf.level].name, (unsigned long long)spec->pf.region_bytes);
    fprintf(f, "  DRAM   %u cycles, %u loads overlap\n", spec->dram_cycles, spec->mlp);
    if (spec->refresh.period_ns > 0)
        fprintf(f, "         refresh every %.6g ns, %.6g ns\n", spec->refresh.period_ns,
                spec->refresh.stall_ns);
    if (spec->smi.period_ns > 0)
        fprintf(f, "  SMI    every %.6g ns, %.6g ns\n", spec->smi.period_ns, spec->smi.stall_ns);
    sim_spec_format(spec, line, sizeof(line));
    fprintf(f, "%s\n", line);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, r;
    char *buf = malloc(cap + 1);
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *nb = realloc(buf, (cap *= 2) + 1);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    *len = n;
    return buf;
}

static bool add_option(struct sim_cli *cli, const char *word)
{
    size_t olen = strlen(cli->options), n = strlen(word);
    if (olen + n + 2 > sizeof(cli->options))
        return false;
    memcpy(cli->options + olen, word, n);
    cli->options[olen + n] = ' ';
    cli->options[olen + n + 1] = 0;
    return true;
}

/* One option that takes a value; returns false (after printing why) when it is bad. */
static bool value_option(struct sim_cli *cli, const char *opt, const char *v)
{
    char *end;
    if (!strcmp(opt, "--out")) {
        cli->out_dir = v;
    } else if (!strcmp(opt, "--config")) {
        cli->config_path = v;
    } else if (!strcmp(opt, "--hierarchy")) {
        cli->hierarchy = v;
    } else if (!strcmp(opt, "--prefetch")) {
        cli->prefetch = v;
    } else if (!strcmp(opt, "--ghz")) {
        cli->ghz = strtod(v, &end);
        if (*end || !(cli->ghz >= 0.01 && cli->ghz <= 100)) {
            fprintf(stderr, "chase-sim: --ghz needs a clock in GHz (0.01 to 100), got '%s'\n", v);
            return false;
        }
    } else {
        cli->seed = strtoull(v, &end, 0);
        if (*end || !*v) {
            fprintf(stderr, "chase-sim: --seed needs a number, got '%s'\n", v);
            return false;
        }
    }
    return true;
}

static bool takes_value(const char *a)
{
    static const char *const names[] = {"--out",      "--config", "--hierarchy",
                                        "--prefetch", "--ghz",    "--seed"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(a, names[i]))
            return true;
    return false;
}

int sim_cli_parse(struct sim_cli *cli, int argc, char **argv)
{
    memset(cli, 0, sizeof(*cli));
    cli->out_dir = "runs";
    cli->ghz = 1.0;
    cli->page_bytes = 1ULL << 30;
    cli->seed = 1;
    /* The model is deterministic: interleaved passes would only repeat the same loads.
       A passes=N given on the command line comes later and wins. */
    add_option(cli, "passes=1");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (takes_value(a)) {
            if (i + 1 >= argc) {
                fprintf(stderr, "chase-sim: %s needs a value\n", a);
                return 2;
            }
            if (!value_option(cli, a, argv[++i]))
                return 2;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help")) {
            cli->want_help = true;
        } else if (!strcmp(a, "--list-presets")) {
            cli->list_presets = true;
        } else if (!strcmp(a, "--describe")) {
            cli->describe = true;
        } else if (!strcmp(a, "--bench")) {
            cli->bench = true;
        } else if (a[0] == '-') {
            fprintf(stderr, "chase-sim: unknown option '%s'\n", a);
            sim_cli_usage(stderr);
            return 2;
        } else if (!add_option(cli, a)) {
            fprintf(stderr, "chase-sim: too many settings\n");
            return 2;
        }
    }
    if (cli->config_path) {
        cli->config_text = read_file(cli->config_path, &cli->config_len);
        if (!cli->config_text) {
            fprintf(stderr, "chase-sim: cannot read %s: %s\n", cli->config_path, strerror(errno));
            return 2;
        }
    }
    return -1;
}

/* Print the error as SOURCE:LINE:COLUMN: message, then the line with a caret under the field. */
static void print_error(const char *source, const char *text, const struct sim_parse_error *e)
{
    size_t start = e->pos, end = e->pos, line = 1;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    while (text[end] && text[end] != '\n')
        end++;
    for (size_t i = 0; i < start; i++)
        line += text[i] == '\n';
    fprintf(stderr, "chase-sim: %s:%zu:%zu: bad hierarchy: %s\n", source, line, e->pos - start + 1,
            e->msg);
    fprintf(stderr, "  %.*s\n  ", (int)(end - start), text + start);
    for (size_t i = start; i < e->pos; i++)
        fputc(text[i] == '\t' ? '\t' : ' ', stderr);
    for (size_t i = 0; i < e->len && e->pos + i <= end; i++)
        fputc('^', stderr);
    fputc('\n', stderr);
}

/*
 * --prefetch: the hierarchy written back without its PF item, then "PF:" and the option's
 * fields before DRAM, parsed again; an error points into the option's own text.
 */
static int add_prefetch(const char *fields, struct sim_spec *spec)
{
    char text[2048];
    spec->pf.streams = 0;
    sim_spec_format(spec, text, sizeof(text));
    char *dram = text, *next; /* the last item, DRAM (a level's name may end in DRAM) */
    while ((next = strstr(dram + 1, ",DRAM:")) != NULL)
        dram = next;
    size_t at = (size_t)(dram - text) + (dram != text), n = strlen(fields);
    char tail[64];
    snprintf(tail, sizeof(tail), "%s", text + at);
    if (at + n + strlen(tail) + 5 >= sizeof(text)) {
        fprintf(stderr, "chase-sim: --prefetch '%s' is too long\n", fields);
        return 2;
    }
    snprintf(text + at, sizeof(text) - at, "PF:%s,%s", fields, tail);
    struct sim_parse_error err;
    if (sim_spec_parse(text, spec, &err))
        return 0;
    if (err.pos >= at + 3 && err.pos <= at + 3 + n) {
        err.pos -= at + 3;
        print_error("--prefetch", fields, &err);
    } else {
        print_error("--prefetch", text, &err);
    }
    return 2;
}

int sim_cli_hierarchy(struct sim_cli *cli, struct sim_spec *spec, const char **name)
{
    const char *h = cli->hierarchy, *text, *source;
    if (!h && (cli->want_help || cli->list_presets || cli->bench))
        h = sim_presets[0].name;
    if (!h) {
        fprintf(stderr, "chase-sim: say which hierarchy to simulate with --hierarchy: a preset "
                        "(--list-presets), a description or a file\n");
        return 2;
    }
    const struct sim_preset *preset = sim_preset_find(h);
    if (preset) {
        text = preset->spec;
        source = preset->name;
        *name = preset->name;
    } else if (strchr(h, ':')) {
        text = h;
        source = "--hierarchy";
        *name = "custom hierarchy";
    } else {
        size_t len;
        cli->hierarchy_text = read_file(h, &len);
        if (!cli->hierarchy_text) {
            fprintf(stderr,
                    "chase-sim: '%s' is not a preset (--list-presets), not a "
                    "description (it has no ':') and not a readable file: %s\n",
                    h, strerror(errno));
            return 2;
        }
        text = cli->hierarchy_text;
        source = h;
        *name = h;
    }
    struct sim_parse_error err;
    if (!sim_spec_parse(text, spec, &err)) {
        print_error(source, text, &err);
        return 2;
    }
    return cli->prefetch ? add_prefetch(cli->prefetch, spec) : 0;
}

void sim_cli_release(struct sim_cli *cli)
{
    free(cli->config_text);
    free(cli->hierarchy_text);
    cli->config_text = cli->hierarchy_text = NULL;
}
