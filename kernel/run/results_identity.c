// SPDX-License-Identifier: MIT
// run.json's "machine_identity": the SMBIOS tables as read (firmware, system with its inventory
// fields, board, chassis asset tag, processor sockets, every memory device, channels and
// theoretical DRAM bandwidth), the microcode revision and the DRAM encryption state.
#include "lib/fmt.h"
#include "lib/json.h"
#include "machine/smbios.h"
#include "run/results.h"

static void json_text(struct json *j, const char *key, const char *v)
{
    json_string(j, key, v && *v ? v : NULL);
}

/* An inventory field: its text as the table has it, and KEY_placeholder: true when it is one of
 * the board maker's placeholders (smbios_is_placeholder) rather than a value. */
static void json_ident(struct json *j, const char *key, const char *v)
{
    json_text(j, key, v);
    if (smbios_is_placeholder(v)) {
        char flag[64];
        ksnprintf(flag, sizeof(flag), "%s_placeholder", key);
        json_bool(j, flag, true);
    }
}

static void json_nonzero(struct json *j, const char *key, uint64_t v)
{
    if (v)
        json_u64(j, key, v);
    else
        json_string(j, key, NULL); /* the table says it does not know */
}

static void processors_json(struct json *j, const struct smbios_info *s)
{
    json_u64(j, "processors_listed", s->processors_total);
    json_array_begin(j, "processors");
    for (unsigned i = 0; i < s->nprocessors; i++) {
        const struct smbios_processor *p = &s->processor[i];
        json_object_begin(j, NULL);
        json_text(j, "socket", p->socket);
        json_text(j, "manufacturer", p->manufacturer);
        json_text(j, "version", p->version);
        json_bool(j, "populated", p->populated);
        json_nonzero(j, "current_mhz", p->current_mhz);
        json_nonzero(j, "max_mhz", p->max_mhz);
        json_nonzero(j, "core_count", p->cores);
        json_nonzero(j, "thread_count", p->threads);
        json_object_end(j);
    }
    json_array_end(j);
}

static void device_json(struct json *j, const struct smbios_memdev *d)
{
    json_object_begin(j, NULL);
    json_text(j, "locator", d->locator);
    json_text(j, "bank", d->bank);
    json_bool(j, "installed", d->size_bytes != 0);
    if (d->size_unknown)
        json_string(j, "size_bytes", NULL);
    else
        json_u64(j, "size_bytes", d->size_bytes);
    json_string(j, "type", smbios_memtype_name(d->type));
    json_string(j, "form_factor", smbios_form_factor_name(d->form_factor));
    json_nonzero(j, "speed_mts", d->speed_mts);
    json_nonzero(j, "configured_speed_mts", d->configured_mts);
    json_nonzero(j, "data_width_bits", d->data_width_bits);
    json_nonzero(j, "total_width_bits", d->total_width_bits);
    json_nonzero(j, "rank", d->rank);
    json_text(j, "manufacturer", d->manufacturer);
    json_text(j, "part_number", d->part);
    json_ident(j, "serial_number", d->serial);
    json_ident(j, "asset_tag", d->asset_tag);
    json_text(j, "channel", d->channel);
    json_object_end(j);
}

static void memory_json(struct json *j, const struct smbios_info *s)
{
    char summary[200];
    json_string(j, "memory_summary", smbios_memory_summary(s, summary, sizeof(summary)));
    json_u64(j, "memory_slots", s->devices_total);
    json_u64(j, "memory_installed", s->populated);
    json_u64(j, "memory_bytes", s->memory_bytes);
    json_u64(j, "channels", s->channels);
    json_string(j, "channels_counted",
                s->channels_named
                    ? "by the channel the slot's locator or bank names (\"ChannelA\", "
                      "\"P0 CHANNEL A\")"
                    : "one per installed module: some slots name no channel");
    json_nonzero(j, "dram_bandwidth_bytes_per_s", s->bandwidth_bytes_per_s);
    json_string(j, "dram_bandwidth_method",
                "per channel: the slowest module's configured (else rated) MT/s x its data "
                "width in bytes (8 when not given), summed over channels");
    json_array_begin(j, "memory_devices");
    for (unsigned i = 0; i < s->ndevices; i++)
        device_json(j, &s->device[i]);
    json_array_end(j);
}

/* SMBIOS type 38: the BMC, or null when the table lists none. */
static void watchdog_json(struct json *j, const struct ipmi_watchdog *w)
{
    if (!w->read && !w->why[0]) {
        json_string(j, "watchdog", NULL); /* not asked (no KCS path on this platform) */
        return;
    }
    char text[120];
    json_object_begin(j, "watchdog");
    json_bool(j, "read", w->read);
    json_string(j, "why", w->read ? NULL : w->why);
    json_bool(j, "running", w->running);
    json_u64(j, "timer_use", w->use);
    json_u64(j, "timeout_action", w->action);
    json_double(j, "initial_s", (double)w->initial_100ms / 10, 1);
    json_double(j, "present_s", (double)w->present_100ms / 10, 1);
    json_string(j, "text", ipmi_watchdog_describe(w, text, sizeof(text)));
    json_object_end(j);
}

static void bmc_json(struct json *j, const struct smbios_ipmi *b, const struct ipmi_watchdog *w)
{
    if (!b->present) {
        json_string(j, "bmc", NULL);
        return;
    }
    char text[120];
    json_object_begin(j, "bmc");
    json_string(j, "interface", smbios_ipmi_interface_name(b->interface));
    ksnprintf(text, sizeof(text), "%u.%u", b->spec_major, b->spec_minor);
    json_string(j, "ipmi_version", text);
    json_string(j, "address_space",
                b->interface == IPMI_IF_SSIF ? "smbus"
                : b->io_space                ? "io"
                                             : "memory");
    json_u64(j, "address", b->address);
    json_u64(j, "register_spacing_bytes", b->spacing_bytes);
    json_u64(j, "i2c_target", b->i2c_target);
    json_u64(j, "records", b->count);
    json_string(j, "watchdog_note", smbios_ipmi_watchdog_advice);
    watchdog_json(j, w);
    json_object_end(j);
}

static void smbios_json(struct json *j, const struct machine_identity *id)
{
    const struct smbios_info *s = id->smbios;
    json_object_begin(j, "smbios");
    json_bool(j, "found", s != NULL);
    if (!s) {
        json_text(j, "why", id->smbios_why);
        json_object_end(j);
        return;
    }
    char version[16];
    ksnprintf(version, sizeof(version), "%u.%u", s->entry.major, s->entry.minor);
    json_string(j, "version", version);
    json_string(j, "entry_point", s->entry.is64 ? "64-bit (SMBIOS 3)" : "32-bit (SMBIOS 2.x)");
    json_text(j, "source", id->smbios_source);
    json_u64(j, "structures", s->structures);
    json_text(j, "note", s->note);
    json_object_begin(j, "firmware");
    json_text(j, "vendor", s->bios_vendor);
    json_text(j, "version", s->bios_version);
    json_text(j, "date", s->bios_date);
    json_object_end(j);
    json_object_begin(j, "system");
    json_text(j, "manufacturer", s->system_maker);
    json_text(j, "product", s->system_product);
    json_text(j, "version", s->system_version);
    json_ident(j, "serial_number", s->system_serial);
    char uuid[SMBIOS_UUID_CHARS + 1];
    json_text(j, "uuid", smbios_uuid_text(s, uuid, sizeof(uuid))); /* an unset one too */
    if (smbios_uuid_unset(s))
        json_bool(j, "uuid_placeholder", true); /* all 00h or all FFh: not set */
    json_ident(j, "sku_number", s->system_sku);
    json_ident(j, "family", s->system_family);
    json_object_end(j);
    json_object_begin(j, "chassis");
    json_ident(j, "asset_tag", s->chassis_asset_tag);
    json_object_end(j);
    json_object_begin(j, "board");
    json_text(j, "manufacturer", s->board_maker);
    json_text(j, "product", s->board_product);
    json_text(j, "version", s->board_version);
    json_object_end(j);
    processors_json(j, s);
    memory_json(j, s);
    bmc_json(j, &s->ipmi, &id->bmc_watchdog);
    json_object_end(j);
}

static void cpu_identity_json(struct json *j, const struct machine_identity *id)
{
    json_object_begin(j, "microcode");
    json_bool(j, "read", id->microcode_read);
    if (id->microcode_read) {
        char rev[16];
        ksnprintf(rev, sizeof(rev), "0x%x", id->microcode);
        json_string(j, "revision", rev);
    }
    json_text(j, "how", id->microcode_how);
    json_object_end(j);
    json_object_begin(j, "memory_encryption");
    json_string(j, "state", identity_encryption_name(id->encryption));
    json_text(j, "kind", id->encryption_kind);
    if (id->encryption_msr) {
        char v[24];
        ksnprintf(v, sizeof(v), "0x%x", id->encryption_msr);
        json_string(j, "msr", v);
        ksnprintf(v, sizeof(v), "0x%llx", (unsigned long long)id->encryption_msr_value);
        json_string(j, "msr_value", id->encryption_msr_read ? v : NULL);
    }
    json_text(j, "detail", id->encryption_note);
    json_string(j, "note",
                "memory encryption (AMD SME/TSME, Intel TME) adds latency to every "
                "DRAM access: compare DRAM latencies only between runs in one state");
    json_object_end(j);
}

void results_identity_json(struct json *j, const struct run_record *r)
{
    if (r->simulated)
        return; /* chase-sim: a modelled machine */
    json_object_begin(j, "machine_identity");
    smbios_json(j, &r->m->id);
    cpu_identity_json(j, &r->m->id);
    json_object_end(j);
}
