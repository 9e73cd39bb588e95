// SPDX-License-Identifier: MIT
// chase-host: the same kernel code as chase.efi, run as a pinned Linux process.
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "arch/cpu.h"
#include "lib/console.h"
#include "host.h"
#include "host_identity.h"
#if defined(__aarch64__)
#include "host_arm.h"
#endif
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
    /* After pinning: a hybrid CPU's cores differ. The CPU is the one seen as CPUID ran. */
    int before = sched_getcpu();
#if defined(__aarch64__)
    host_arm_cpu_read(&m->cpu, before, ""); /* no CPUID: MIDR_EL1, the PPTT or sysfs */
#else
    cpuinfo_read(&m->cpu, host_cpuid);
    if (m->cpu.simd.os_xsave) /* what Linux enabled: the widths chase-host may use */
        m->cpu.simd.xcr0_os = arch_xgetbv(0);
#endif
    int after = sched_getcpu();
    m->cpuid_cpu = before == after ? before : -1;
    m->cpuid_cpu_how = before == after ? "sched_getcpu() before and after reading CPUID"
                                       : "the process moved between CPUs while reading CPUID";
    cpufacts_read(&m->facts, &m->cpu, host_cpuid, plat_read_msr);
    identity_read_cpu(&m->id, &m->cpu, host_cpuid, plat_read_msr, plat_write_msr);
    host_identity_microcode(&m->id, HOST_CPUINFO, m->cpuid_cpu);
    host_identity_smbios(&m->id, HOST_DMI_DIR);
#if defined(__aarch64__)
    m->facts.prefetch.doc = HOST_ARM_NOT_HERE ": the prefetcher controls are "
                                              "implementation-defined registers";
#endif
    host_memory(&total, &available);
    m->memory_total_bytes = total;
    m->buffer_limit_bytes = available / 2;
    unsigned enabled, failed;
    plat_cpus_total(&enabled, &m->processors, &failed); /* the threads experiments may pin */
    strcpy(m->platform, "linux");
    if (uname(&u) == 0)
        snprintf(m->firmware_vendor, sizeof(m->firmware_vendor), "Linux %s", u.release);
}

/* What the command line asks for. */
struct host_args {
    const char *out_dir, *config_path;
    int cpu; /* -1: the CPU chase-host started on */
    bool want_help;
    char options[4096]; /* the key=value settings, each followed by a space */
    size_t options_len;
};

/* Append one key=value setting to a->options; false when they no longer fit. */
static bool add_setting(struct host_args *a, const char *setting)
{
    size_t n = strlen(setting);
    if (a->options_len + n + 2 > sizeof(a->options))
        return false;
    memcpy(a->options + a->options_len, setting, n);
    a->options_len += n;
    a->options[a->options_len++] = ' ';
    a->options[a->options_len] = 0;
    return true;
}

static bool takes_value(const char *arg)
{
    return !strcmp(arg, "--out") || !strcmp(arg, "--config") || !strcmp(arg, "--cpu");
}

/* Read the command line into a; returns 0, or the exit status after saying what is wrong. */
static int parse_args(int argc, char **argv, struct host_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (takes_value(arg) && i + 1 >= argc) {
            fprintf(stderr, "chase-host: %s needs a value\n", arg);
            return 2;
        }
        if (!strcmp(arg, "--out")) {
            a->out_dir = argv[++i];
        } else if (!strcmp(arg, "--config")) {
            a->config_path = argv[++i];
        } else if (!strcmp(arg, "--cpu")) {
            char *end;
            a->cpu = (int)strtol(argv[++i], &end, 10);
            if (*end || a->cpu < 0) {
                fprintf(stderr, "chase-host: --cpu needs a CPU number, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(arg, "--help") || !strcmp(arg, "-h") || !strcmp(arg, "help")) {
            a->want_help = true;
        } else if (arg[0] == '-') {
            fprintf(stderr, "chase-host: unknown option '%s'\n", arg);
            usage(stderr);
            return 2;
        } else if (!add_setting(a, arg)) {
            fprintf(stderr, "chase-host: too many settings\n");
            return 2;
        }
    }
    return 0;
}

/* The run's inputs: the configuration file (if any), the settings and the start time. */
static int gather_inputs(const struct host_args *a, struct run_inputs *in, char **text)
{
    if (a->config_path) {
        *text = read_file(a->config_path, &in->config_len);
        if (!*text) {
            fprintf(stderr, "chase-host: cannot read %s: %s\n", a->config_path, strerror(errno));
            return 2;
        }
        in->config_text = *text;
        in->config_name = a->config_path;
    }
    in->options = a->options;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    in->start_time_unix = (uint64_t)now;
    strftime(in->start_time, sizeof(in->start_time), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return 0;
}

/* Pin to a CPU and make the run folder; returns 0, or the exit status after saying why not. */
static int prepare_process(const struct host_args *a)
{
    host_mp_affinity_save(); /* the CPUs it may use, before pinning narrows them to one */
    int pinned = pin_cpu(a->cpu);
    if (pinned < 0) {
        fprintf(stderr, "chase-host: cannot pin to CPU %d: %s\n", a->cpu, strerror(errno));
        return 2;
    }
    if (host_make_run_dir(a->out_dir) != 0) {
        fprintf(stderr, "chase-host: cannot create a run folder in %s: %s\n", a->out_dir,
                strerror(errno));
        return 2;
    }
    printf("chase-host: pinned to CPU %d\n", pinned);
    return 0;
}

int main(int argc, char **argv)
{
    static struct host_args args = {.out_dir = "runs", .cpu = -1};
    int status = parse_args(argc, argv, &args);
    if (status)
        return status;
    struct machine m;
    if (args.want_help) {
        describe_machine(&m);
        usage(stdout);
        chase_print_help(&m);
        free((void *)m.id.smbios);
        return 0;
    }
    struct run_inputs in = {0};
    char *text = NULL;
    status = gather_inputs(&args, &in, &text);
    if (!status)
        status = prepare_process(&args);
    if (status) {
        free(text);
        return status;
    }
    describe_machine(&m); /* CPUID on the CPU the run is pinned to */
    enum on_exit on_exit;
    enum run_outcome outcome = chase_main(&m, &in, &on_exit);
    free(text);
    free((void *)m.id.smbios);
    con_log_reset();
    return run_exit_status(outcome);
}
