// SPDX-License-Identifier: MIT
// chase-host's view of the machine's identity: Linux's copy of the SMBIOS tables and the
// microcode line of /proc/cpuinfo.
#include "host_identity.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/smbios.h"

/* The whole file (at most max bytes) in a malloc'd buffer; NULL with errno when unreadable. */
static uint8_t *slurp(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = malloc(max);
    size_t n = buf ? fread(buf, 1, max, f) : 0;
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (!buf || err) {
        free(buf);
        errno = err ? err : ENOMEM;
        return NULL;
    }
    *len = n;
    return buf;
}

void host_identity_smbios(struct machine_identity *id, const char *dir)
{
    char ep_path[512], dmi_path[512];
    snprintf(ep_path, sizeof(ep_path), "%s/smbios_entry_point", dir);
    snprintf(dmi_path, sizeof(dmi_path), "%s/DMI", dir);
    size_t ep_len = 0, dmi_len = 0;
    uint8_t *ep = slurp(ep_path, SMBIOS_EP2_BYTES + 1, &ep_len);
    uint8_t *dmi = ep ? slurp(dmi_path, SMBIOS_TABLE_MAX, &dmi_len) : NULL;
    struct smbios_info *s = malloc(sizeof(*s));
    if (!ep || !dmi || !s) {
        snprintf(id->smbios_why, sizeof(id->smbios_why), "could not read %.100s: %.40s",
                 ep ? dmi_path : ep_path, strerror(errno));
        goto out;
    }
    char why[128];
    if (!smbios_read(ep, ep_len, dmi, dmi_len, s, why, sizeof(why))) {
        snprintf(id->smbios_why, sizeof(id->smbios_why), "%.100s: %.50s", ep_path, why);
        goto out;
    }
    snprintf(id->smbios_source, sizeof(id->smbios_source), "%s (smbios_entry_point, DMI)", dir);
    id->smbios_why[0] = '\0';
    id->smbios = s;
    s = NULL;
out:
    free(s);
    free(ep);
    free(dmi);
}

void host_identity_microcode(struct machine_identity *id, const char *cpuinfo, int cpu)
{
    if (id->microcode_read)
        return;
    FILE *f = fopen(cpuinfo, "r");
    if (!f)
        return; /* microcode_how keeps why the MSR could not tell */
    char line[256];
    int processor = -1;
    unsigned long rev;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "processor : %d", &processor) == 1)
            continue;
        if ((cpu < 0 || processor == cpu) && sscanf(line, "microcode : %lx", &rev) == 1) {
            id->microcode = (uint32_t)rev;
            id->microcode_read = true;
            snprintf(id->microcode_how, sizeof(id->microcode_how),
                     "the microcode line of %s (processor %d)", cpuinfo, processor);
            break;
        }
    }
    fclose(f);
}
