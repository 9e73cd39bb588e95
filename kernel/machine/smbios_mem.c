// SPDX-License-Identifier: MIT
// What the SMBIOS memory devices add up to: channels, theoretical DRAM bandwidth, the names of
// memory types and form factors, and the one-phrase summary the banner prints.
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/smbios.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)
#define MTS_TO_TRANSFERS_PER_S 1000000ull
#define SUMMARY_GROUPS_MAX 4 /* groups of equal devices named; more are "+ ..." */

/* DSP0134 7.18.2, Memory Device - Type. */
static const char *const memtype_names[] = {
    [0x01] = "Other",  [0x02] = "Unknown", [0x03] = "DRAM",   [0x04] = "EDRAM",
    [0x05] = "VRAM",   [0x06] = "SRAM",    [0x07] = "RAM",    [0x08] = "ROM",
    [0x09] = "Flash",  [0x0a] = "EEPROM",  [0x0b] = "FEPROM", [0x0c] = "EPROM",
    [0x0d] = "CDRAM",  [0x0e] = "3DRAM",   [0x0f] = "SDRAM",  [0x10] = "SGRAM",
    [0x11] = "RDRAM",  [0x12] = "DDR",     [0x13] = "DDR2",   [0x14] = "DDR2 FB-DIMM",
    [0x18] = "DDR3",   [0x19] = "FBD2",    [0x1a] = "DDR4",   [0x1b] = "LPDDR",
    [0x1c] = "LPDDR2", [0x1d] = "LPDDR3",  [0x1e] = "LPDDR4", [0x1f] = "Logical non-volatile",
    [0x20] = "HBM",    [0x21] = "HBM2",    [0x22] = "DDR5",   [0x23] = "LPDDR5",
    [0x24] = "HBM3",
};

/* DSP0134 7.18.1, Memory Device - Form Factor. */
static const char *const form_names[] = {
    [0x01] = "Other",  [0x02] = "Unknown", [0x03] = "SIMM",         [0x04] = "SIP",
    [0x05] = "Chip",   [0x06] = "DIP",     [0x07] = "ZIP",          [0x08] = "Proprietary Card",
    [0x09] = "DIMM",   [0x0a] = "TSOP",    [0x0b] = "Row of chips", [0x0c] = "RIMM",
    [0x0d] = "SODIMM", [0x0e] = "SRIMM",   [0x0f] = "FB-DIMM",      [0x10] = "Die",
    [0x11] = "CAMM",
};

const char *smbios_memtype_name(uint8_t type)
{
    if (type < sizeof(memtype_names) / sizeof(memtype_names[0]) && memtype_names[type])
        return memtype_names[type];
    return "unknown";
}

const char *smbios_form_factor_name(uint8_t form_factor)
{
    if (form_factor < sizeof(form_names) / sizeof(form_names[0]) && form_names[form_factor])
        return form_names[form_factor];
    return "unknown";
}

/* Where "channel" starts in s (any case), or NULL. */
static const char *find_channel_word(const char *s)
{
    static const char word[] = "channel";
    for (; *s; s++) {
        size_t i = 0;
        while (word[i] && s[i] && ktolower(s[i]) == word[i])
            i++;
        if (!word[i])
            return s;
    }
    return NULL;
}

static bool is_letter(int c)
{
    return ktolower(c) >= 'a' && ktolower(c) <= 'z';
}

/* The text of s up to the end of the token after "channel" into out; false without one. */
static bool channel_from(const char *s, char *out, size_t cap)
{
    const char *w = find_channel_word(s);
    if (!w)
        return false;
    const char *q = w + 7;
    while (*q == ' ' || *q == '_' || *q == '-')
        q++;
    if (kisdigit(*q)) {
        while (kisdigit(*q))
            q++; /* "Channel12", "P0_Node0_Channel0_Dimm0" */
    } else if (is_letter(*q)) {
        q++; /* one letter: "ChannelA-DIMM0", "P0 CHANNEL A", "ChannelBDIMM1" */
    } else {
        return false;
    }
    size_t n = (size_t)(q - s);
    if (n + 1 > cap)
        n = cap - 1;
    kmemcpy(out, s, n);
    out[n] = '\0';
    return true;
}

/* The transfer rate a device runs at: configured, else rated; MT/s, 0 when unknown. */
static uint32_t device_mts(const struct smbios_memdev *d)
{
    return d->configured_mts ? d->configured_mts : d->speed_mts;
}

static uint64_t device_bus_bytes(const struct smbios_memdev *d)
{
    return d->data_width_bits >= 8 ? d->data_width_bits / 8u : SMBIOS_DRAM_BUS_BYTES;
}

/* Bandwidth of the channel named d->channel: its slowest device times its bus; 0: unknown. */
static uint64_t channel_bandwidth(const struct smbios_info *s, const struct smbios_memdev *first)
{
    uint32_t mts = 0;
    for (unsigned i = 0; i < s->ndevices; i++) {
        const struct smbios_memdev *d = &s->device[i];
        if (!d->size_bytes || kstrcmp(d->channel, first->channel) != 0)
            continue;
        if (!device_mts(d))
            return 0;
        if (!mts || device_mts(d) < mts)
            mts = device_mts(d);
    }
    return (uint64_t)mts * MTS_TO_TRANSFERS_PER_S * device_bus_bytes(first);
}

/* Name the channel of populated device i (its own when its names say none). */
static void channel_name(struct smbios_info *s, unsigned i)
{
    struct smbios_memdev *d = &s->device[i];
    if (channel_from(d->locator, d->channel, sizeof(d->channel)) ||
        channel_from(d->bank, d->channel, sizeof(d->channel)))
        return;
    s->channels_named = false;
    ksnprintf(d->channel, sizeof(d->channel), "device %u", i);
}

void smbios_count_channels(struct smbios_info *s)
{
    s->channels = 0;
    s->channels_named = true;
    s->populated = 0;
    s->memory_bytes = 0;
    s->bandwidth_bytes_per_s = 0;
    for (unsigned i = 0; i < s->ndevices; i++) {
        s->device[i].channel[0] = '\0';
        if (s->device[i].size_bytes) {
            s->populated++;
            s->memory_bytes += s->device[i].size_bytes;
            channel_name(s, i);
        }
    }
    bool known = true;
    for (unsigned i = 0; i < s->ndevices; i++) {
        const struct smbios_memdev *d = &s->device[i];
        bool seen = !d->size_bytes;
        for (unsigned k = 0; k < i && !seen; k++)
            seen = s->device[k].size_bytes && kstrcmp(s->device[k].channel, d->channel) == 0;
        if (seen)
            continue;
        s->channels++;
        uint64_t bw = channel_bandwidth(s, d);
        known = known && bw;
        s->bandwidth_bytes_per_s += bw;
    }
    if (!known)
        s->bandwidth_bytes_per_s = 0; /* a channel of unknown speed: no total to give */
}

static void size_text(char *out, size_t cap, uint64_t bytes)
{
    if (bytes % GIB == 0)
        ksnprintf(out, cap, "%llu GB", (unsigned long long)(bytes / GIB));
    else
        ksnprintf(out, cap, "%llu MB", (unsigned long long)(bytes / MIB));
}

static bool same_group(const struct smbios_memdev *a, const struct smbios_memdev *b)
{
    return a->size_bytes == b->size_bytes && a->type == b->type && device_mts(a) == device_mts(b);
}

char *smbios_memory_summary(const struct smbios_info *s, char *out, size_t cap)
{
    size_t n = 0;
    unsigned groups = 0;
    out[0] = '\0';
    if (!s->devices_total) {
        ksnprintf(out, cap, "no memory devices listed");
        return out;
    }
    for (unsigned i = 0; i < s->ndevices; i++) {
        const struct smbios_memdev *d = &s->device[i];
        bool first = d->size_bytes != 0;
        for (unsigned k = 0; k < i && first; k++)
            first = !(s->device[k].size_bytes && same_group(&s->device[k], d));
        if (!first)
            continue;
        unsigned count = 0;
        for (unsigned k = i; k < s->ndevices; k++)
            count += s->device[k].size_bytes && same_group(&s->device[k], d);
        if (++groups > SUMMARY_GROUPS_MAX) {
            n += (size_t)ksnprintf(out + n, n < cap ? cap - n : 0, " + ...");
            break;
        }
        char size[24], speed[16] = "";
        size_text(size, sizeof(size), d->size_bytes);
        if (device_mts(d))
            ksnprintf(speed, sizeof(speed), "-%u", device_mts(d));
        n += (size_t)ksnprintf(out + n, n < cap ? cap - n : 0, "%s%u x %s %s%s",
                               groups > 1 ? " + " : "", count, size, smbios_memtype_name(d->type),
                               speed);
    }
    if (!groups)
        n += (size_t)ksnprintf(out + n, n < cap ? cap - n : 0, "no memory device installed");
    ksnprintf(out + n, n < cap ? cap - n : 0, ", %u of %u slots", s->populated, s->devices_total);
    return out;
}

const char *smbios_dram_type(const struct smbios_info *s)
{
    const char *type = NULL;
    if (!s || !s->found)
        return "none";
    for (unsigned i = 0; i < s->ndevices; i++) {
        const struct smbios_memdev *d = &s->device[i];
        if (!d->size_bytes && !d->size_unknown)
            continue; /* an empty slot */
        const char *t = smbios_memtype_name(d->type);
        if (type && kstrcmp(type, t) != 0)
            return "mixed";
        type = t;
    }
    return type ? type : "unknown";
}
