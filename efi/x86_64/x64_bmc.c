// SPDX-License-Identifier: MIT
// The BMC's watchdog on x86-64: Get Watchdog Timer over KCS port I/O at the address SMBIOS type
// 38 gives, between windows, polled with the firmware's Stall and a bound (machine/ipmi_kcs.c).
#include "efi_internal.h"

#include "arch/cpu.h"
#include "lib/kstring.h"
#include "lib/fmt.h"
#include "machine/ipmi_kcs.h"
#include "machine/smbios.h"

#define IO_PORT_LAST 0xffffu

struct kcs_ports {
    uint16_t base;
    uint16_t spacing; /* bytes between the data and the status/command register */
};

static uint8_t port_in(void *ctx, enum kcs_reg reg)
{
    const struct kcs_ports *p = ctx;
    return arch_inb((uint16_t)(p->base + (unsigned)reg * p->spacing));
}

static void port_out(void *ctx, enum kcs_reg reg, uint8_t value)
{
    const struct kcs_ports *p = ctx;
    arch_outb((uint16_t)(p->base + (unsigned)reg * p->spacing), value);
}

static void pause_us(void *ctx)
{
    (void)ctx;
    uefi_call_wrapper(BS->Stall, 1, KCS_POLL_US);
}

void efi_bmc_watchdog(struct machine_identity *id)
{
    struct ipmi_watchdog *w = &id->bmc_watchdog;
    kmemset(w, 0, sizeof(*w));
    const struct smbios_ipmi *b = id->smbios ? &id->smbios->ipmi : NULL;
    if (!b || !b->present)
        return; /* no BMC listed: nothing to ask */
    if (b->interface != IPMI_IF_KCS || !b->io_space || !b->spacing_bytes ||
        b->address + b->spacing_bytes > IO_PORT_LAST) {
        ksnprintf(w->why, sizeof(w->why),
                  "the BMC's interface is %s%s: chase asks over KCS in I/O space only",
                  smbios_ipmi_interface_name(b->interface), b->io_space ? "" : ", memory-mapped");
        return;
    }
    struct kcs_ports ports = {(uint16_t)b->address, b->spacing_bytes};
    struct kcs_io io = {port_in, port_out, pause_us, &ports};
    ipmi_get_watchdog(&io, w);
}
