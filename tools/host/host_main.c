// SPDX-License-Identifier: MIT
// chase-host: the same kernel code as chase.efi, run as a pinned Linux process.
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "arch/x86_64/cpu.h"
#include "lib/console.h"
#include "host.h"
#include "run/run.h"

static void host_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    arch_cpuid(leaf, subleaf, out);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: chase-host [--out DIR] [--config FILE] [--cpu N] [key=value ...]\n"
               "       chase-host --help\n"
               "Runs chase's experiments as a Linux process pinned to one CPU and writes a\n"
               "result folder DIR/NNNN (default DIR: ./runs) in the format chase.efi writes.\n");
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static int pin_cpu(int cpu)
{
    if (cpu < 0)
        cpu = sched_getcpu();
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0)
        return -1;
    return cpu;
}

static void describe_machine(struct machine *m)
{
    struct utsname u;
    uint64_t total, available;
    memset(m, 0, sizeof(*m));
    cpuinfo_read(&m->cpu, host_cpuid);
    host_memory(&total, &available);
    m->memory_total_bytes = total;
    m->buffer_limit_bytes = available / 2;
    strcpy(m->platform, "linux");
    if (uname(&u) == 0)
        snprintf(m->firmware_vendor, sizeof(m->firmware_vendor), "Linux %s", u.release);
}

int main(int argc, char **argv)
{
    const char *out_dir = "runs", *config_path = NULL;
    int cpu = -1;
    static char options[4096];
    size_t olen = 0;
    int want_help = 0;
    for (int i = 1; i < argc; i++) {
        if ((!strcmp(argv[i], "--out") || !strcmp(argv[i], "--config") ||
             !strcmp(argv[i], "--cpu")) && i + 1 >= argc) {
            fprintf(stderr, "chase-host: %s needs a value\n", argv[i]);
            return 2;
        }
        if (!strcmp(argv[i], "--out")) {
            out_dir = argv[++i];
        } else if (!strcmp(argv[i], "--config")) {
            config_path = argv[++i];
        } else if (!strcmp(argv[i], "--cpu")) {
            char *end;
            cpu = (int)strtol(argv[++i], &end, 10);
            if (*end || cpu < 0) {
                fprintf(stderr, "chase-host: --cpu needs a CPU number, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") ||
                   !strcmp(argv[i], "help")) {
            want_help = 1;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "chase-host: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            size_t n = strlen(argv[i]);
            if (olen + n + 2 > sizeof(options)) {
                fprintf(stderr, "chase-host: too many settings\n");
                return 2;
            }
            memcpy(options + olen, argv[i], n);
            olen += n;
            options[olen++] = ' ';
            options[olen] = 0;
        }
    }
    struct machine m;
    describe_machine(&m);
    if (want_help) {
        usage(stdout);
        chase_print_help(&m);
        return 0;
    }
    struct run_inputs in = {0};
    char *text = NULL;
    if (config_path) {
        text = read_file(config_path, &in.config_len);
        if (!text) {
            fprintf(stderr, "chase-host: cannot read %s: %s\n", config_path, strerror(errno));
            return 2;
        }
        in.config_text = text;
        in.config_name = config_path;
    }
    in.options = options;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    in.start_time_unix = (uint64_t)now;
    strftime(in.start_time, sizeof(in.start_time), "%Y-%m-%dT%H:%M:%SZ", &tm);
    int pinned = pin_cpu(cpu);
    if (pinned < 0) {
        fprintf(stderr, "chase-host: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
        return 2;
    }
    if (host_make_run_dir(out_dir) != 0) {
        fprintf(stderr, "chase-host: cannot create a run folder in %s: %s\n", out_dir,
                strerror(errno));
        return 2;
    }
    printf("chase-host: pinned to CPU %d\n", pinned);
    enum on_exit on_exit;
    enum run_outcome outcome = chase_main(&m, &in, &on_exit);
    free(text);
    con_log_reset();
    return run_exit_status(outcome);
}
