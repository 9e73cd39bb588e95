// SPDX-License-Identifier: MIT
// The run's fleet identity (machine name, run id), its manifest and the results = serial stream.
#include "run/ship.h"

#include "arch/cpu.h"
#include "lib/base64.h"
#include "lib/console.h"
#include "lib/crc32.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/kstring.h"
#include "lib/sha256.h"
#include "lib/slog.h"
#include "machine/smbios.h"
#include "platform.h"
#include "run/results.h"

#define START_DIGITS 14 /* YYYYMMDDhhmmss */

static bool name_char(char c)
{
    return kisdigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
           c == '_' || c == '-';
}

bool ship_name_ok(const char *name)
{
    if (!name[0] || kstrcmp(name, ".") == 0 || kstrcmp(name, "..") == 0)
        return false;
    for (const char *p = name; *p; p++)
        if (!name_char(*p))
            return false;
    return true;
}

bool ship_serial_placeholder(const char *s)
{
    return !s[0] || smbios_is_placeholder(s);
}

void ship_machine_name(char *out, size_t cap, const char *serial, const char *uuid,
                       const uint8_t *mac, const char **from)
{
    if (serial && !ship_serial_placeholder(serial)) {
        kstrlcpy(out, serial, cap);
        *from = "serial";
    } else if (uuid && uuid[0]) {
        kstrlcpy(out, uuid, cap);
        *from = "uuid";
    } else if (mac) {
        ksnprintf(out, cap, "%02x-%02x-%02x-%02x-%02x-%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
                  mac[5]);
        *from = "mac";
    } else {
        kstrlcpy(out, "unknown", cap);
        *from = "none";
    }
    for (char *p = out; *p; p++)
        if (!name_char(*p))
            *p = '_';
    if (kstrcmp(out, ".") == 0 || kstrcmp(out, "..") == 0)
        out[0] = '_';
}

void ship_run_id(char *out, size_t cap, const char *start_time, const char *uuid,
                 const uint8_t *mac, uint64_t tsc)
{
    char digits[START_DIGITS + 1];
    unsigned n = 0;
    for (const char *p = start_time; p && *p && n < START_DIGITS; p++)
        if (kisdigit(*p))
            digits[n++] = *p;
    if (n < START_DIGITS)
        n = 0; /* no time, or not a whole one: zeros rather than a shorter id */
    while (n < START_DIGITS)
        digits[n++] = '0';
    digits[n] = 0;
    uint32_t who = 0;
    if (uuid && uuid[0])
        who = crc32_ieee(uuid, kstrlen(uuid));
    else if (mac)
        who = crc32_ieee(mac, SHIP_MAC_BYTES);
    ksnprintf(out, cap, "%s-%08x-%08x", digits, (unsigned)who, (unsigned)(tsc & 0xffffffffu));
}

/* What named the machine, for the console. */
static const char *ship_from_text(const char *from)
{
    if (kstrcmp(from, "serial") == 0)
        return "the SMBIOS serial number";
    if (kstrcmp(from, "uuid") == 0)
        return "the SMBIOS UUID: no usable serial number";
    if (kstrcmp(from, "mac") == 0)
        return "the boot NIC's MAC: no SMBIOS serial or UUID";
    return "no SMBIOS serial, UUID or MAC known";
}

void ship_begin(struct run_record *rec, const struct run_inputs *in, const struct chase_config *cfg)
{
    static struct run_fleet own; /* chase-host and chase-sim: one run per process */
    struct run_fleet *f = in->fleet ? in->fleet : &own;
    const struct smbios_info *s = rec->m->id.smbios;
    const char *serial = s && s->found ? s->system_serial : NULL;
    const char *uuid = s && s->found ? s->system_uuid : NULL;
    const uint8_t *mac = f->mac_known ? f->mac : NULL;
    ship_machine_name(f->machine, sizeof(f->machine), serial, uuid, mac, &f->machine_from);
    ship_run_id(f->run_id, sizeof(f->run_id), in->start_time, uuid, mac, arch_tsc_fenced());
    kstrlcpy(f->results, cfg->global.results, sizeof(f->results));
    kstrlcpy(f->token, cfg->global.results_token, sizeof(f->token));
    f->retries = (unsigned)cfg->global.results_retries;
    rec->fleet = f;
    con_printf("  run        %s, machine %s (%s)%s%s\n", f->run_id, f->machine,
               ship_from_text(f->machine_from), f->boot ? "; booted from " : "",
               f->boot ? f->boot : "");
    if (f->mac_known)
        con_printf("  boot NIC   %02x:%02x:%02x:%02x:%02x:%02x\n", f->mac[0], f->mac[1], f->mac[2],
                   f->mac[3], f->mac[4], f->mac[5]);
    if (kstrcmp(f->results, "serial") == 0)
        con_printf("  results    streamed over the serial port after the run\n");
    else if (f->results[0])
        con_printf("  results    %s after the run (%u retries a file, waits %u s doubling up to %u "
                   "s)\n",
                   f->results, f->retries, SHIP_BACKOFF_FIRST_S, SHIP_BACKOFF_MAX_S);
    slog_begin(cfg->global.serial_log != 0, f->run_id, in->start_time, CHASE_VERSION,
               rec->m->platform);
}

unsigned ship_backoff_s(unsigned attempt)
{
    unsigned s = SHIP_BACKOFF_FIRST_S;
    for (unsigned i = 1; i < attempt && s < SHIP_BACKOFF_MAX_S; i++)
        s *= 2;
    return s < SHIP_BACKOFF_MAX_S ? s : SHIP_BACKOFF_MAX_S;
}

void ship_manifest(struct strbuf *out, const struct run_fleet *f, const struct ship_file *files,
                   unsigned n)
{
    struct json j;
    strbuf_reset(out);
    json_init(&j, out);
    json_object_begin(&j, NULL);
    json_string(&j, "format", "chase-manifest");
    json_u64(&j, "version", 1);
    json_string(&j, "machine", f->machine);
    json_string(&j, "run_id", f->run_id);
    json_array_begin(&j, "files");
    for (unsigned i = 0; i < n; i++) {
        char hex[SHA256_HEX_CHARS + 1];
        if (kstrcmp(files[i].name, "manifest.json") == 0)
            continue;
        sha256_hex(files[i].data, files[i].len, hex);
        json_object_begin(&j, NULL);
        json_string(&j, "name", files[i].name);
        json_u64(&j, "size", files[i].len);
        json_string(&j, "sha256", hex);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    strbuf_puts(out, "\n");
}

/* Send line (CR LF added) to the serial port; false when it failed. */
static bool serial_line(struct strbuf *line)
{
    strbuf_puts(line, "\r\n");
    bool ok = !line->failed && plat_serial_write(strbuf_str(line));
    strbuf_reset(line);
    return ok;
}

/* One file: begin, its data lines, end. */
static bool serial_file(const struct run_fleet *f, const struct ship_file *x, struct strbuf *line)
{
    char hex[SHA256_HEX_CHARS + 1], b64[SHIP_CHUNK_BYTES / 3 * 4 + 8];
    const uint8_t *p = x->data;
    sha256_hex(x->data, x->len, hex);
    strbuf_printf(line, "%s run=%s kind=begin name=%s size=%llu sha256=%s", SHIP_PREFIX, f->run_id,
                  x->name, (unsigned long long)x->len, hex);
    bool ok = serial_line(line);
    size_t seq = 0;
    for (size_t at = 0; ok && at < x->len; at += SHIP_CHUNK_BYTES, seq++) {
        size_t n = x->len - at < SHIP_CHUNK_BYTES ? x->len - at : SHIP_CHUNK_BYTES;
        base64_encode(p + at, n, b64, sizeof(b64));
        strbuf_printf(line, "%s run=%s kind=data name=%s seq=%llu crc32=%08x b64=%s", SHIP_PREFIX,
                      f->run_id, x->name, (unsigned long long)seq, (unsigned)crc32_ieee(p + at, n),
                      b64);
        ok = serial_line(line);
    }
    strbuf_printf(line, "%s run=%s kind=end name=%s chunks=%llu", SHIP_PREFIX, f->run_id, x->name,
                  (unsigned long long)seq);
    return ok && serial_line(line);
}

bool ship_serial(const struct run_fleet *f, const struct ship_file *files, unsigned n,
                 const struct ship_file *manifest)
{
    struct strbuf line = {0};
    unsigned count = 1; /* the manifest */
    for (unsigned i = 0; i < n; i++)
        count += kstrcmp(files[i].name, "manifest.json") != 0;
    strbuf_printf(&line, "%s run=%s kind=run machine=%s files=%u", SHIP_PREFIX, f->run_id,
                  f->machine, count);
    bool ok = serial_line(&line);
    for (unsigned i = 0; ok && i < n; i++)
        if (kstrcmp(files[i].name, "manifest.json") != 0)
            ok = serial_file(f, &files[i], &line);
    ok = ok && serial_file(f, manifest, &line);
    strbuf_printf(&line, "%s run=%s kind=done files=%u", SHIP_PREFIX, f->run_id, count);
    ok = ok && serial_line(&line);
    strbuf_release(&line);
    return ok;
}

void ship_json(struct json *j, const struct run_fleet *f)
{
    if (!f)
        return; /* the configuration did not resolve: no run id was made */
    json_string(j, "run_id", f->run_id);
    json_string(j, "machine", f->machine);
    json_string(j, "machine_from", f->machine_from);
    json_string(j, "boot", f->boot);
    json_string(j, "config_from", f->config_from[0] ? f->config_from : NULL);
    json_object_begin(j, "boot_nic");
    if (f->mac_known) {
        char mac[24];
        ksnprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", f->mac[0], f->mac[1],
                  f->mac[2], f->mac[3], f->mac[4], f->mac[5]);
        json_string(j, "mac", mac);
    } else {
        json_string(j, "mac", NULL);
    }
    json_object_end(j);
}
