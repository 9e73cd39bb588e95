// SPDX-License-Identifier: MIT
// chase-sim: chase's experiments run on a modelled cache hierarchy, results in chase's format.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/console.h"
#include "host.h"
#include "platform.h"
#include "run/run.h"
#include "sim_buffer.h"
#include "sim_cli.h"
#include "sim_leaders.h"
#include "sim_measure.h"
#include "sim_spec.h"

#ifndef CHASE_VERSION
#define CHASE_VERSION "unknown"
#endif

static void describe_machine(struct machine *m, const struct sim_spec *spec, const char *name)
{
    uint64_t total, available;
    memset(m, 0, sizeof(*m));
    sim_spec_caches(spec, &m->cpu);
    snprintf(m->cpu.vendor, sizeof(m->cpu.vendor), "chase-sim");
    snprintf(m->cpu.brand, sizeof(m->cpu.brand), "simulated %s", name);
    m->cpu.invariant_tsc = true;
    m->cpu.has_rdtscp = true;
    m->cpu.has_1g_pages = true;
    host_memory(&total, &available);
    m->memory_total_bytes = total ? total : 4ULL << 30;
    m->buffer_limit_bytes = available ? available / 2 : 1ULL << 30;
    snprintf(m->platform, sizeof(m->platform), "sim");
    snprintf(m->firmware_vendor, sizeof(m->firmware_vendor), "chase-sim %s", CHASE_VERSION);
}

/* The clocks of the simulated machine: one tick is one core cycle, nothing to subtract. */
static void simulated_timing(struct timing *t, double ghz)
{
    memset(t, 0, sizeof(*t));
    t->tsc_hz = (uint64_t)(ghz * 1e9 + 0.5);
    t->tsc_method = "simulated";
    t->invariant = true;
    t->rdtscp = true;
    t->overhead_ticks = 0;
    t->core_per_tick = 1.0;
    t->core_method = "simulated";
}

static void start_time(struct run_inputs *in)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    in->start_time_unix = (uint64_t)now;
    strftime(in->start_time, sizeof(in->start_time), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Run chase_main on the model; the per-point hit rates go to sim_levels.csv. */
static int simulate(const struct sim_cli *cli, const struct sim_spec *spec, const char *name)
{
    struct machine m;
    struct timing timing;
    struct sim_hier h;
    struct sim_backend backend;
    char canonical[1024];
    describe_machine(&m, spec, name);
    if (cli->want_help) {
        sim_cli_usage(stdout);
        chase_print_help(&m);
        return 0;
    }
    simulated_timing(&timing, cli->ghz);
    sim_spec_format(spec, canonical, sizeof(canonical));
    sim_buffer_set_default_page(cli->page_bytes);
    if (sim_hier_init(&h, spec, cli->page_bytes, cli->seed) != 0) {
        fprintf(stderr, "chase-sim: out of memory for the model\n");
        return 3;
    }
    sim_hier_set_clock(&h, cli->ghz);
    if (host_make_dirs(cli->out_dir) != 0 || host_make_run_dir(cli->out_dir) != 0) {
        fprintf(stderr, "chase-sim: cannot create a run folder in %s: %s\n", cli->out_dir,
                strerror(errno));
        sim_hier_free(&h);
        return 2;
    }
    struct run_inputs in = {0};
    in.config_text = cli->config_text;
    in.config_len = cli->config_len;
    in.config_name = cli->config_path;
    in.options = cli->options;
    in.measure = sim_measure;
    in.batches = sim_batch_window;
    in.timing = &timing;
    in.simulated = canonical;
    in.json_extra = sim_leaders_json;
    in.json_extra_ctx = &h;
    start_time(&in);
    sim_backend_bind(&backend, &h, sim_buffer_current());
    printf("chase-sim: %s\n", canonical);
    enum on_exit on_exit;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    enum run_outcome outcome = chase_main(&m, &in, &on_exit);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (h.loads)
        printf("chase-sim: %llu loads simulated in %.1f s (%.1f M loads/s with the chain "
               "builders and file output)\n",
               (unsigned long long)h.loads, seconds, (double)h.loads / seconds / 1e6);
    if (backend.points &&
        plat_file_write("sim_levels.csv", strbuf_str(&backend.stats), backend.stats.len) != 0)
        fprintf(stderr, "chase-sim: could not write sim_levels.csv\n");
    sim_backend_release(&backend);
    sim_hier_free(&h);
    con_log_reset();
    return run_exit_status(outcome);
}

int main(int argc, char **argv)
{
    struct sim_cli cli;
    struct sim_spec spec;
    int rc = sim_cli_parse(&cli, argc, argv);
    if (rc >= 0)
        return rc;
    if (cli.list_presets) {
        sim_cli_list_presets(stdout);
        return 0;
    }
    const char *name = NULL;
    rc = sim_cli_hierarchy(&cli, &spec, &name);
    if (rc == 0 && cli.describe)
        sim_cli_describe(stdout, &spec, name);
    else if (rc == 0 && cli.bench)
        rc = sim_bench(&spec, name, &cli);
    else if (rc == 0)
        rc = simulate(&cli, &spec, name);
    sim_cli_release(&cli);
    return rc;
}
