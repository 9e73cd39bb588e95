// SPDX-License-Identifier: MIT
// SMBIOS type 38 (IPMI Device Information) decoded by the offsets of DSP0134 7.39.
#include "machine/smbios_ipmi.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

#define T38_INTERFACE 0x04
#define T38_SPEC_REV 0x05 /* BCD: bits 7:4 major, 3:0 minor */
#define T38_I2C_TARGET 0x06
#define T38_NV_STORAGE 0x07
#define T38_BASE_ADDRESS 0x08 /* QWORD: bit 0 set: I/O space */
#define T38_MODIFIER 0x10     /* bits 7:6 spacing, 4 address bit 0, 3 interrupt info given */
#define T38_IRQ 0x11
#define T38_BASE_IO_SPACE 1u
#define T38_MOD_SPACING_SHIFT 6
#define T38_MOD_ADDRESS_LSB (1u << 4)
#define T38_MOD_IRQ_SPECIFIED (1u << 3)

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

void smbios_ipmi_read(const uint8_t *p, size_t len, struct smbios_ipmi *out)
{
    static const uint8_t spacing[4] = {1, 4, 16, 0};
    unsigned count = out->count + 1;
    if (out->present) {
        out->count = count; /* the first one is kept; the rest are counted */
        return;
    }
    kmemset(out, 0, sizeof(*out));
    out->present = true;
    out->count = count;
    out->interface = len > T38_INTERFACE ? p[T38_INTERFACE] : 0;
    out->spec_major = len > T38_SPEC_REV ? p[T38_SPEC_REV] >> 4 : 0;
    out->spec_minor = len > T38_SPEC_REV ? p[T38_SPEC_REV] & 0xf : 0;
    out->i2c_target = len > T38_I2C_TARGET ? p[T38_I2C_TARGET] : 0;
    out->nv_storage = len > T38_NV_STORAGE ? p[T38_NV_STORAGE] : 0xff;
    uint64_t base = len >= T38_BASE_ADDRESS + 8 ? rd64(p + T38_BASE_ADDRESS) : 0;
    unsigned mod = len > T38_MODIFIER ? p[T38_MODIFIER] : 0;
    out->short_record = len <= T38_MODIFIER;
    out->spacing_bytes = out->short_record ? 1 : spacing[mod >> T38_MOD_SPACING_SHIFT];
    if (out->interface == IPMI_IF_SSIF) {
        out->address = (base & 0xff) >> 1; /* the SMBus address, 7 bits */
    } else {
        out->io_space = (base & T38_BASE_IO_SPACE) != 0;
        out->address =
            (base & ~(uint64_t)T38_BASE_IO_SPACE) | ((mod & T38_MOD_ADDRESS_LSB) ? 1 : 0);
    }
    out->irq_specified = (mod & T38_MOD_IRQ_SPECIFIED) != 0;
    out->irq = len > T38_IRQ ? p[T38_IRQ] : 0;
}

const char *smbios_ipmi_interface_name(uint8_t interface)
{
    static const char *const names[] = {"unknown", "KCS", "SMIC", "BT", "SSIF"};
    return interface < sizeof(names) / sizeof(names[0]) ? names[interface] : "unknown";
}

char *smbios_ipmi_describe(const struct smbios_ipmi *b, char *out, size_t cap)
{
    const char *name = smbios_ipmi_interface_name(b->interface);
    if (b->interface == IPMI_IF_SSIF)
        ksnprintf(out, cap, "IPMI %u.%u BMC, SSIF at SMBus address 0x%llx", b->spec_major,
                  b->spec_minor, (unsigned long long)b->address);
    else
        ksnprintf(out, cap, "IPMI %u.%u BMC, %s at %s 0x%llx (registers %u byte%s apart)",
                  b->spec_major, b->spec_minor, name, b->io_space ? "I/O port" : "physical address",
                  (unsigned long long)b->address, b->spacing_bytes,
                  b->spacing_bytes == 1 ? "" : "s");
    return out;
}

const char smbios_ipmi_watchdog_advice[] =
    "a BMC watchdog armed by the firmware for the OS to disarm may reset a long run half way: "
    "turn it off in the BIOS setup, with 'ipmitool mc watchdog off' from another OS, or in the "
    "BMC's web interface";
