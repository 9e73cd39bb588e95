// SPDX-License-Identifier: MIT
// The banner's lines on the machine's identity: board, firmware and memory in one line, then
// the system, its inventory fields (serial, UUID, SKU, family, chassis asset tag), sockets, every
// installed memory device, DRAM channels and bandwidth, the microcode revision and whether DRAM is
// encrypted.
#include "lib/console.h"
#include "lib/fmt.h"
#include "machine/smbios.h"
#include "run/banner.h"

#define BYTES_PER_GB 1e9 /* bandwidth in decimal GB/s, as memory bandwidth is quoted */

static const char *text(const char *s)
{
    return s && *s ? s : "?";
}

/* An inventory field's text, with " (placeholder)" after one the maker left in. */
static void ident_text(char *out, size_t cap, const char *v)
{
    ksnprintf(out, cap, "%s%s", text(v), smbios_is_placeholder(v) ? " (placeholder)" : "");
}

/* Serial, UUID, SKU, family and the chassis asset tag: what an inventory knows the machine by. */
static void inventory_print(const struct smbios_info *s)
{
    char serial[SMBIOS_TEXT + 16], sku[SMBIOS_TEXT + 16], family[SMBIOS_TEXT + 16];
    char asset[SMBIOS_TEXT + 16], uuid[SMBIOS_UUID_CHARS + 1];
    ident_text(serial, sizeof(serial), s->system_serial);
    ident_text(sku, sizeof(sku), s->system_sku);
    ident_text(family, sizeof(family), s->system_family);
    ident_text(asset, sizeof(asset), s->chassis_asset_tag);
    smbios_uuid_text(s, uuid, sizeof(uuid));
    con_printf("  inventory  serial %s, uuid %s%s, sku %s, family %s, chassis asset tag %s\n",
               serial, text(uuid), smbios_uuid_unset(s) ? " (not set)" : "", sku, family, asset);
}

static void sockets_print(const struct smbios_info *s)
{
    for (unsigned i = 0; i < s->nprocessors; i++) {
        const struct smbios_processor *p = &s->processor[i];
        con_printf("  socket     %s: %s %s, %u MHz (max %u MHz), %u cores, %u threads%s\n",
                   text(p->socket), text(p->manufacturer), text(p->version), p->current_mhz,
                   p->max_mhz, p->cores, p->threads, p->populated ? "" : " (not populated)");
    }
}

/* One installed memory device's line; what the table leaves unknown is left out. */
static void device_print(const struct smbios_memdev *d)
{
    char line[420];
    size_t n = 0;
    uint64_t gib = d->size_bytes >> 30, mib = d->size_bytes >> 20;
    n += (size_t)ksnprintf(line + n, sizeof(line) - n, "%s (%s): %llu %s %s %s", text(d->locator),
                           text(d->bank),
                           (unsigned long long)(gib << 30 == d->size_bytes ? gib : mib),
                           gib << 30 == d->size_bytes ? "GB" : "MB", smbios_memtype_name(d->type),
                           smbios_form_factor_name(d->form_factor));
    if (d->speed_mts && n < sizeof(line))
        n += (size_t)ksnprintf(line + n, sizeof(line) - n, ", %u MT/s", d->speed_mts);
    if (d->configured_mts && n < sizeof(line))
        n += (size_t)ksnprintf(line + n, sizeof(line) - n, ", runs at %u MT/s", d->configured_mts);
    if (d->data_width_bits && n < sizeof(line))
        n += (size_t)ksnprintf(line + n, sizeof(line) - n, ", %u of %u bits", d->data_width_bits,
                               d->total_width_bits);
    if (d->rank && n < sizeof(line))
        n += (size_t)ksnprintf(line + n, sizeof(line) - n, ", rank %u", d->rank);
    if (n < sizeof(line))
        n += (size_t)ksnprintf(line + n, sizeof(line) - n, ", %s %s", text(d->manufacturer),
                               text(d->part));
    char serial[SMBIOS_TEXT + 16], asset[SMBIOS_TEXT + 16];
    ident_text(serial, sizeof(serial), d->serial);
    ident_text(asset, sizeof(asset), d->asset_tag);
    if (n < sizeof(line))
        ksnprintf(line + n, sizeof(line) - n, ", serial %s, asset tag %s", serial, asset);
    con_printf("  dimm       %s\n", line);
}

static void devices_print(const struct smbios_info *s)
{
    for (unsigned i = 0; i < s->ndevices; i++)
        if (s->device[i].size_bytes)
            device_print(&s->device[i]);
}

static void smbios_print(const struct machine_identity *id)
{
    const struct smbios_info *s = id->smbios;
    if (!s) {
        con_printf("  machine    no SMBIOS: %s\n", text(id->smbios_why));
        return;
    }
    char mem[160], board[3 * SMBIOS_TEXT + 8] = "not listed";
    if (s->board_maker[0] || s->board_product[0])
        ksnprintf(board, sizeof(board), "%s %s %s", text(s->board_maker), text(s->board_product),
                  text(s->board_version));
    con_printf("  machine    board %s, firmware %s %s (%s), memory %s\n", board,
               text(s->bios_vendor), text(s->bios_version), text(s->bios_date),
               smbios_memory_summary(s, mem, sizeof(mem)));
    con_printf("  system     %s %s %s (SMBIOS %u.%u, %s)\n", text(s->system_maker),
               text(s->system_product), text(s->system_version), s->entry.major, s->entry.minor,
               id->smbios_source);
    inventory_print(s);
    sockets_print(s);
    devices_print(s);
    if (s->populated)
        con_printf("  dram       %u channel%s (%s), theoretical %.1f GB/s\n", s->channels,
                   s->channels == 1 ? "" : "s",
                   s->channels_named ? "named by the slots" : "one per module, assumed",
                   (double)s->bandwidth_bytes_per_s / BYTES_PER_GB);
    if (s->note[0])
        con_printf("  smbios     %s\n", s->note);
    if (s->ipmi.present) {
        char bmc[120];
        con_printf("  bmc        %s (SMBIOS type 38)\n",
                   smbios_ipmi_describe(&s->ipmi, bmc, sizeof(bmc)));
        con_printf("  watchdog   %s\n", smbios_ipmi_watchdog_advice);
        if (id->bmc_watchdog.read || id->bmc_watchdog.why[0])
            con_printf("  watchdog   state (IPMI Get Watchdog Timer over KCS): %s\n",
                       ipmi_watchdog_describe(&id->bmc_watchdog, bmc, sizeof(bmc)));
    }
}

void banner_identity_print(const struct machine *m)
{
    const struct machine_identity *id = &m->id;
    if (!m->facts.read)
        return; /* chase-sim: a modelled machine, nothing to identify */
    smbios_print(id);
    if (id->microcode_read)
        con_printf("  microcode  0x%x (%s)\n", id->microcode, id->microcode_how);
    else
        con_printf("  microcode  unknown: %s\n", text(id->microcode_how));
    con_printf("  encryption %s%s%s (%s)%s\n", id->encryption_kind ? id->encryption_kind : "",
               id->encryption_kind ? ": " : "", identity_encryption_name(id->encryption),
               text(id->encryption_note),
               id->encryption == MEM_ENCRYPTION_ON ? "; encryption adds DRAM latency" : "");
}
