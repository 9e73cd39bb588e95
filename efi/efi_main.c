// SPDX-License-Identifier: MIT
// The UEFI entry point: gather what the firmware knows, run chase, then do what on_exit says.
#include "arch/cpu.h"
#include "lib/console.h"
#include "efi_net.h"
#include "machine/smbios.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform.h"
#include "run/run.h"

#define CONFIG_PATH L"\\chase\\chase.cfg"
#define CONFIG_NAME "\\chase\\chase.cfg"
#define CONFIG_ERROR_WAIT_S 30

static void efi_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    arch_cpuid(leaf, subleaf, out);
}

/* The number MP services give the boot processor, which chase runs on; -1 when not known. */
static int boot_cpu_number(void)
{
    char why[160];
    unsigned enabled, held, failed;
    plat_cpus_total(&enabled, &held, &failed);
    struct plat_cpu *cpus = plat_alloc((held ? held : 1) * sizeof(*cpus));
    unsigned n = cpus ? plat_cpus(cpus, held, why, sizeof(why)) : 0;
    int id = -1;
    for (unsigned i = 0; i < n; i++)
        if (cpus[i].bsp)
            id = (int)cpus[i].id;
    plat_free(cpus);
    return id;
}

static void describe_machine(struct machine *m)
{
    kmemset(m, 0, sizeof(*m));
    cpuinfo_read(&m->cpu, efi_cpuid);
    m->cpuid_cpu = boot_cpu_number();
    m->cpuid_cpu_how = "the boot processor, which runs chase (its EFI MP services number)";
    unsigned enabled, failed;
    plat_cpus_total(&enabled, &m->processors, &failed);
    efi_describe_registers(m);
    efi_describe_memory(m);
    kstrlcpy(m->platform, "uefi", sizeof(m->platform));
    efi_to_ascii(m->firmware_vendor, sizeof(m->firmware_vendor), ST->FirmwareVendor, 95);
    m->firmware_revision = ST->FirmwareRevision;
    m->ring0 = true;
}

/* The load options as ASCII; NULL when there are none or they are not text. */
static char *load_options(EFI_HANDLE image)
{
    EFI_LOADED_IMAGE *li = NULL;
    if (uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li) !=
            EFI_SUCCESS ||
        !li->LoadOptions || li->LoadOptionsSize < sizeof(CHAR16))
        return NULL;
    UINTN chars = li->LoadOptionsSize / sizeof(CHAR16);
    const CHAR16 *w = li->LoadOptions;
    char *s = plat_alloc(chars + 1);
    if (!s)
        return NULL;
    for (UINTN i = 0; i < chars && w[i]; i++) {
        if (w[i] >= 0x7f || (w[i] < 0x20 && w[i] != L'\t')) {
            plat_free(s); /* boot-manager binary data, not a command line */
            return NULL;
        }
        s[i] = (char)w[i];
    }
    return s;
}

static void finish(enum on_exit on_exit, enum run_outcome outcome)
{
    if (outcome == RUN_HELP && on_exit == ON_EXIT_WAIT)
        return; /* help from the shell: back to the prompt, nothing to read twice */
    switch (on_exit) {
    case ON_EXIT_SHUTDOWN:
        con_printf("chase: shutting down\n");
        uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0, NULL);
        break;
    case ON_EXIT_REBOOT:
        con_printf("chase: rebooting\n");
        uefi_call_wrapper(RT->ResetSystem, 4, EfiResetCold, EFI_SUCCESS, 0, NULL);
        break;
    case ON_EXIT_WAIT:
        if (outcome == RUN_CONFIG_ERROR) {
            plat_console_write("press a key (or wait 30 s) to return to the firmware\n");
            efi_wait_key(CONFIG_ERROR_WAIT_S);
        } else {
            plat_console_write("press a key to return to the firmware\n");
            efi_wait_key(0);
        }
        break;
    case ON_EXIT_RETURN:
        break;
    }
}

/* After a lost processor: what chase kept allocated for it until the reset (efi_mem.c). */
static void report_kept(void)
{
    unsigned long pools;
    uint64_t pages;
    char msg[200];
    efi_memory_kept(&pools, &pages);
    ksnprintf(msg, sizeof(msg),
              "chase: kept for the lost processor until the reset: %llu pages (the buffer, page "
              "tables) and %lu pool allocations, not given back to the firmware\n",
              (unsigned long long)pages, pools);
    plat_console_write(msg);
}

/* Say whether chase left the machine as it found it, and what differs if not. */
static void report_left_as_found(const struct efi_cpu_state *before)
{
    struct efi_cpu_state after;
    unsigned long pools;
    uint64_t pages;
    efi_cpu_state_read(&after);
    efi_memory_held(&pools, &pages);
    char names[160] = "", diff[320] = "";
    for (unsigned i = 0; i < before->n; i++) {
        size_t at = kstrlen(names), d = kstrlen(diff);
        ksnprintf(names + at, sizeof(names) - at, "%s%s", i ? ", " : "", before->name[i]);
        if (after.value[i] != before->value[i])
            ksnprintf(diff + d, sizeof(diff) - d, "%s 0x%llx (was 0x%llx), ", before->name[i],
                      (unsigned long long)after.value[i], (unsigned long long)before->value[i]);
    }
    char msg[480];
    if (!diff[0] && !pools && !pages) {
        ksnprintf(msg, sizeof(msg),
                  "chase: leaving the machine as it was: %s restored, every page and pool "
                  "allocation returned\n",
                  names);
        plat_console_write(msg);
        return;
    }
    ksnprintf(msg, sizeof(msg),
              "chase: WARNING: the machine is not as chase found it: %s%lu pool allocations and "
              "%llu pages still held\n",
              diff, pools, (unsigned long long)pages);
    plat_console_write(msg);
}

/*
 * The configuration: from the server a network boot came from (efi_netboot.c), else
 * \chase\chase.cfg on the boot volume. *cfg_text gets the text to free.
 */
static void read_configuration(EFI_HANDLE image, const struct machine *m, struct run_inputs *in,
                               struct run_fleet *fleet, char **cfg_text)
{
    static char uri[EFI_NET_URL_MAX];
    UINTN len = 0;
    efi_netboot_detect(image, fleet, uri, sizeof(uri));
    BOOLEAN fs = efi_files_init(image);
    in->config_name = CONFIG_NAME;
    if (kstrcmp(fleet->boot, "disk") != 0) {
        const struct smbios_info *s = m->id.smbios;
        *cfg_text =
            efi_netboot_config(image, s && s->found ? s->system_uuid : NULL, fleet, uri, &len);
        in->config_name = fleet->config_from;
    } else if (fs) {
        *cfg_text = efi_read_file(CONFIG_PATH, &len);
        if (*cfg_text)
            kstrlcpy(fleet->config_from, CONFIG_NAME, sizeof(fleet->config_from));
    } else {
        plat_console_write("chase: no file system on the boot volume: no configuration file; "
                           "the run's files are kept in memory\n");
    }
    in->config_text = *cfg_text;
    in->config_len = len;
    in->fleet = fleet;
}

static enum on_exit exit_action = ON_EXIT_WAIT;

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
    InitializeLib(image, systab);
    struct efi_cpu_state entry;
    efi_cpu_state_read(&entry);
    uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL);
    efi_window_init();
    char why[320];
    if (!efi_window_check(why, sizeof(why))) {
        plat_console_write("chase: cannot run on this machine: ");
        plat_console_write(why);
        plat_console_write("\n");
        finish(ON_EXIT_WAIT, RUN_CONFIG_ERROR);
        return EFI_UNSUPPORTED;
    }
    efi_timers_init();

    struct machine m;
    describe_machine(&m);
    efi_paging_init(m.cpu.has_1g_pages);
    struct run_inputs in;
    static struct run_fleet fleet;
    kmemset(&in, 0, sizeof(in));
    char *cfg_text = NULL;
    read_configuration(image, &m, &in, &fleet, &cfg_text);
    char *options = load_options(image);
    in.options = options;
    efi_time_iso(in.start_time, sizeof(in.start_time));

    enum run_outcome outcome = efi_run_guarded(&m, &in, &exit_action);
    efi_window_restore();
    efi_ship_run(image, &fleet);
    efi_runfiles_release();
    plat_free(options);
    plat_free(cfg_text);
    efi_smbios_release(&m.id);
    con_log_reset();
    efi_files_close();
    bool lost = efi_mp_release();
    if (lost)
        report_kept();
    if (lost && exit_action != ON_EXIT_REBOOT) {
        plat_console_write("chase: a processor did not come back to the firmware: rebooting "
                           "instead of returning with it running\n");
        exit_action = ON_EXIT_REBOOT;
    }
    if (exit_action == ON_EXIT_RETURN || exit_action == ON_EXIT_WAIT)
        report_left_as_found(&entry);
    finish(exit_action, outcome);
    return outcome == RUN_OK || outcome == RUN_HELP ? EFI_SUCCESS : EFI_ABORTED;
}
