// SPDX-License-Identifier: MIT
// SMBIOS entry points and the structure table walk, with the firmware, system, board,
// processor and memory device structures decoded by the offsets of DSP0134 3.x.
#include "machine/smbios.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

#define SMBIOS_TYPE_BIOS 0
#define SMBIOS_TYPE_SYSTEM 1
#define SMBIOS_TYPE_BOARD 2
#define SMBIOS_TYPE_PROCESSOR 4
#define SMBIOS_TYPE_MEMDEV 17
#define SMBIOS_TYPE_END 127
#define SMBIOS_HEADER_BYTES 4

/* 2.x entry point: "_DMI_" intermediate anchor and its fields (DSP0134 5.2.1). */
#define EP2_INTERMEDIATE 0x10
#define EP2_INTERMEDIATE_BYTES 0x0f
/* Type 4: a count of 0xFF says "see the 16-bit field" (Core Count 2, Thread Count 2). */
#define PROC_COUNT_SEE_WORD 0xff
#define PROC_STATUS_POPULATED 0x40
/* Type 17 size word: 0 none, 0xFFFF unknown, 0x7FFF "see Extended Size", bit 15 set: KiB. */
#define MEMDEV_SIZE_UNKNOWN 0xffffu
#define MEMDEV_SIZE_EXTENDED 0x7fffu
#define MEMDEV_SIZE_KIB 0x8000u
#define MEMDEV_EXT_SIZE_MASK 0x7fffffffu /* Extended Size: MiB in bits 30:0 */
#define MEMDEV_SPEED_EXTENDED 0xffffu    /* see Extended Speed (3.3) */
#define MEMDEV_WIDTH_UNKNOWN 0xffffu
#define MEMDEV_RANK_MASK 0x0fu

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)rd16(p) | ((uint32_t)rd16(p + 2) << 16);
}

static uint8_t sum8(const uint8_t *p, size_t n)
{
    uint8_t s = 0;
    for (size_t i = 0; i < n; i++)
        s = (uint8_t)(s + p[i]);
    return s;
}

static bool entry3_parse(const uint8_t *p, size_t len, struct smbios_entry *e, char *why,
                         size_t cap)
{
    if (len < SMBIOS_EP3_BYTES || p[6] < SMBIOS_EP3_BYTES || p[6] > len) {
        ksnprintf(why, cap, "SMBIOS 3 entry point length not valid (0x%x bytes at least)",
                  SMBIOS_EP3_BYTES);
        return false;
    }
    if (sum8(p, p[6]) != 0) {
        ksnprintf(why, cap, "SMBIOS 3 entry point checksum is wrong");
        return false;
    }
    e->is64 = true;
    e->major = p[7];
    e->minor = p[8];
    e->table_bytes = rd32(p + 12);
    e->table_addr = (uint64_t)rd32(p + 16) | ((uint64_t)rd32(p + 20) << 32);
    return true;
}

static bool entry2_parse(const uint8_t *p, size_t len, struct smbios_entry *e, char *why,
                         size_t cap)
{
    if (len < SMBIOS_EP2_BYTES || p[5] < SMBIOS_EP2_BYTES || p[5] > len) {
        ksnprintf(why, cap, "SMBIOS 2 entry point length not valid (0x%x bytes at least)",
                  SMBIOS_EP2_BYTES);
        return false;
    }
    if (sum8(p, p[5]) != 0 || kmemcmp(p + EP2_INTERMEDIATE, "_DMI_", 5) != 0 ||
        sum8(p + EP2_INTERMEDIATE, EP2_INTERMEDIATE_BYTES) != 0) {
        ksnprintf(why, cap, "SMBIOS 2 entry point checksum or _DMI_ anchor is wrong");
        return false;
    }
    e->is64 = false;
    e->major = p[6];
    e->minor = p[7];
    e->table_bytes = rd16(p + 0x16);
    e->table_addr = rd32(p + 0x18);
    e->structures = rd16(p + 0x1c);
    return true;
}

bool smbios_entry_parse(const uint8_t *p, size_t len, struct smbios_entry *e, char *why,
                        size_t why_cap)
{
    kmemset(e, 0, sizeof(*e));
    if (p && len >= 5 && kmemcmp(p, "_SM3_", 5) == 0)
        return entry3_parse(p, len, e, why, why_cap);
    if (p && len >= 4 && kmemcmp(p, "_SM_", 4) == 0)
        return entry2_parse(p, len, e, why, why_cap);
    ksnprintf(why, why_cap, "no SMBIOS entry point anchor (_SM3_ or _SM_)");
    return false;
}

/* One structure: its formatted area and its string set, both inside the table. */
struct smbios_struct {
    const uint8_t *p;
    unsigned len;           /* formatted area, header included */
    const uint8_t *strings; /* the string set */
    size_t strings_len;     /* up to and including its final double NUL */
};

static bool has(const struct smbios_struct *s, unsigned off, unsigned bytes)
{
    return off + bytes <= s->len;
}

static unsigned byte_at(const struct smbios_struct *s, unsigned off)
{
    return has(s, off, 1) ? s->p[off] : 0;
}

static unsigned word_at(const struct smbios_struct *s, unsigned off)
{
    return has(s, off, 2) ? rd16(s->p + off) : 0;
}

/* String number n of the structure (1-based), printable ASCII kept, into dst ("" if none). */
static void string_at(const struct smbios_struct *s, unsigned off, char *dst, size_t cap)
{
    unsigned n = byte_at(s, off);
    dst[0] = '\0';
    const uint8_t *q = s->strings, *end = s->strings + s->strings_len;
    for (unsigned i = 1; n && q < end && *q; i++) {
        size_t k = 0;
        for (; q < end && *q; q++)
            if (i == n && k + 1 < cap)
                dst[k++] = (*q >= 0x20 && *q < 0x7f) ? (char)*q : '?';
        if (i == n) {
            while (k && dst[k - 1] == ' ')
                k--; /* firmware pads fields with blanks */
            dst[k] = '\0';
            return;
        }
        q++; /* past this string's NUL */
    }
}

static void note_add(struct smbios_info *o, const char *what)
{
    size_t n = kstrlen(o->note);
    ksnprintf(o->note + n, sizeof(o->note) - n, "%s%s", n ? "; " : "", what);
}

/*
 * The structure at t[off]: false (with a note) when its header, formatted area or string
 * set does not fit in len bytes, or its length is below the header's.
 */
static bool struct_at(const uint8_t *t, size_t len, size_t off, struct smbios_struct *s,
                      struct smbios_info *o)
{
    if (len - off < SMBIOS_HEADER_BYTES || t[off + 1] < SMBIOS_HEADER_BYTES ||
        t[off + 1] > len - off) {
        char what[96];
        ksnprintf(what, sizeof(what),
                  "structure at byte %llu runs past the table or is too "
                  "short: table read up to there",
                  (unsigned long long)off);
        note_add(o, what);
        return false;
    }
    s->p = t + off;
    s->len = t[off + 1];
    s->strings = s->p + s->len;
    size_t left = len - off - s->len;
    for (size_t i = 0; i + 1 < left; i++) {
        if (s->strings[i] == 0 && s->strings[i + 1] == 0) {
            s->strings_len = i + 2;
            return true;
        }
    }
    char what[96];
    ksnprintf(what, sizeof(what),
              "structure at byte %llu has an unterminated string set: "
              "table read up to there",
              (unsigned long long)off);
    note_add(o, what);
    return false;
}

static void bios_read(const struct smbios_struct *s, struct smbios_info *o)
{
    string_at(s, 0x04, o->bios_vendor, sizeof(o->bios_vendor));
    string_at(s, 0x05, o->bios_version, sizeof(o->bios_version));
    string_at(s, 0x08, o->bios_date, sizeof(o->bios_date));
}

/*
 * The type 1 UUID (offset 08h, 16 bytes, SMBIOS 2.1 on) as text. From 2.6 on its first three
 * fields are little-endian (7.2.1), as dmidecode shows them; all zeros or all ones: none.
 */
static void system_uuid(const struct smbios_struct *s, struct smbios_info *o)
{
    static const char hex[] = "0123456789abcdef";
    static const unsigned order_le[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
    bool le = o->entry.major > 2 || (o->entry.major == 2 && o->entry.minor >= 6);
    unsigned zeros = 0, ones = 0, n = 0;
    if (!has(s, 0x08, 16))
        return;
    for (unsigned i = 0; i < 16; i++) {
        unsigned b = byte_at(s, 0x08 + (le ? order_le[i] : i));
        zeros += b == 0;
        ones += b == 0xff;
        if (i == 4 || i == 6 || i == 8 || i == 10)
            o->system_uuid[n++] = '-';
        o->system_uuid[n++] = hex[b >> 4];
        o->system_uuid[n++] = hex[b & 15];
    }
    o->system_uuid[n] = 0;
    if (zeros == 16 || ones == 16)
        o->system_uuid[0] = 0;
}

static void system_read(const struct smbios_struct *s, struct smbios_info *o)
{
    string_at(s, 0x04, o->system_maker, sizeof(o->system_maker));
    string_at(s, 0x05, o->system_product, sizeof(o->system_product));
    string_at(s, 0x06, o->system_version, sizeof(o->system_version));
    string_at(s, 0x07, o->system_serial, sizeof(o->system_serial));
    system_uuid(s, o);
}

static void board_read(const struct smbios_struct *s, struct smbios_info *o)
{
    string_at(s, 0x04, o->board_maker, sizeof(o->board_maker));
    string_at(s, 0x05, o->board_product, sizeof(o->board_product));
    string_at(s, 0x06, o->board_version, sizeof(o->board_version));
}

/* A type 4 count: the byte, or its 16-bit successor where the byte says 0xFF (3.0). */
static uint16_t proc_count(const struct smbios_struct *s, unsigned byte_off, unsigned word_off)
{
    unsigned v = byte_at(s, byte_off);
    if (v == PROC_COUNT_SEE_WORD && has(s, word_off, 2))
        v = word_at(s, word_off);
    return (uint16_t)v;
}

static void processor_read(const struct smbios_struct *s, struct smbios_info *o)
{
    if (o->processors_total++ >= SMBIOS_PROCESSORS_MAX)
        return;
    struct smbios_processor *p = &o->processor[o->nprocessors++];
    string_at(s, 0x04, p->socket, sizeof(p->socket));
    string_at(s, 0x07, p->manufacturer, sizeof(p->manufacturer));
    string_at(s, 0x10, p->version, sizeof(p->version));
    p->max_mhz = (uint16_t)word_at(s, 0x14);
    p->current_mhz = (uint16_t)word_at(s, 0x16);
    p->populated = (byte_at(s, 0x18) & PROC_STATUS_POPULATED) != 0;
    p->cores = proc_count(s, 0x23, 0x2a);
    p->threads = proc_count(s, 0x25, 0x2e);
}

/* Type 17's size in bytes; *unknown set when the table says it does not know. */
static uint64_t memdev_size(const struct smbios_struct *s, bool *unknown)
{
    unsigned v = word_at(s, 0x0c);
    *unknown = v == MEMDEV_SIZE_UNKNOWN;
    if (v == MEMDEV_SIZE_UNKNOWN)
        return 0;
    if (v == MEMDEV_SIZE_EXTENDED) {
        if (!has(s, 0x1c, 4)) {
            *unknown = true; /* says "see Extended Size" but has none */
            return 0;
        }
        return (uint64_t)(rd32(s->p + 0x1c) & MEMDEV_EXT_SIZE_MASK) << 20;
    }
    if (v & MEMDEV_SIZE_KIB)
        return (uint64_t)(v & ~MEMDEV_SIZE_KIB) << 10;
    return (uint64_t)v << 20;
}

/* A speed word, or the 32-bit extended field at ext_off where the word says 0xFFFF (3.3). */
static uint32_t memdev_speed(const struct smbios_struct *s, unsigned off, unsigned ext_off)
{
    unsigned v = word_at(s, off);
    if (v == MEMDEV_SPEED_EXTENDED)
        return has(s, ext_off, 4) ? rd32(s->p + ext_off) & MEMDEV_EXT_SIZE_MASK : 0;
    return v;
}

static uint16_t memdev_width(const struct smbios_struct *s, unsigned off)
{
    unsigned v = word_at(s, off);
    return (uint16_t)(v == MEMDEV_WIDTH_UNKNOWN ? 0 : v);
}

static void memdev_read(const struct smbios_struct *s, struct smbios_info *o)
{
    if (o->devices_total++ >= SMBIOS_DEVICES_MAX)
        return;
    struct smbios_memdev *d = &o->device[o->ndevices++];
    string_at(s, 0x10, d->locator, sizeof(d->locator));
    string_at(s, 0x11, d->bank, sizeof(d->bank));
    string_at(s, 0x17, d->manufacturer, sizeof(d->manufacturer));
    string_at(s, 0x1a, d->part, sizeof(d->part));
    d->size_bytes = memdev_size(s, &d->size_unknown);
    d->total_width_bits = memdev_width(s, 0x08);
    d->data_width_bits = memdev_width(s, 0x0a);
    d->form_factor = (uint8_t)byte_at(s, 0x0e);
    d->type = (uint8_t)byte_at(s, 0x12);
    d->speed_mts = memdev_speed(s, 0x15, 0x54);
    d->configured_mts = memdev_speed(s, 0x20, 0x58);
    d->rank = (uint8_t)(byte_at(s, 0x1b) & MEMDEV_RANK_MASK);
}

static void struct_decode(const struct smbios_struct *s, struct smbios_info *o)
{
    switch (s->p[0]) {
    case SMBIOS_TYPE_BIOS:
        bios_read(s, o);
        break;
    case SMBIOS_TYPE_SYSTEM:
        system_read(s, o);
        break;
    case SMBIOS_TYPE_BOARD:
        board_read(s, o);
        break;
    case SMBIOS_TYPE_PROCESSOR:
        processor_read(s, o);
        break;
    case SMBIOS_TYPE_MEMDEV:
        memdev_read(s, o);
        break;
    default:
        break;
    }
}

void smbios_table_parse(const uint8_t *t, size_t len, const struct smbios_entry *e,
                        struct smbios_info *out)
{
    kmemset(out, 0, sizeof(*out));
    out->entry = *e;
    if (len > e->table_bytes)
        len = e->table_bytes; /* the entry point's length (2.x) or maximum (3.x) bounds it */
    size_t off = 0;
    struct smbios_struct s;
    while (off < len && (!e->structures || out->structures < e->structures)) {
        if (!struct_at(t, len, off, &s, out))
            break;
        out->structures++;
        if (s.p[0] == SMBIOS_TYPE_END)
            break;
        struct_decode(&s, out);
        off += s.len + s.strings_len;
    }
    out->found = out->structures > 0;
    if (out->processors_total > out->nprocessors || out->devices_total > out->ndevices)
        note_add(out, "more processors or memory devices than kept: the rest only counted");
    smbios_count_channels(out);
}

bool smbios_read(const uint8_t *ep, size_t ep_len, const uint8_t *table, size_t table_len,
                 struct smbios_info *out, char *why, size_t why_cap)
{
    struct smbios_entry e;
    kmemset(out, 0, sizeof(*out));
    if (!smbios_entry_parse(ep, ep_len, &e, why, why_cap))
        return false;
    smbios_table_parse(table, table ? table_len : 0, &e, out);
    return true;
}
