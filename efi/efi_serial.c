// SPDX-License-Identifier: MIT
// The serial port through EFI_SERIAL_IO_PROTOCOL, for the machine-readable log: the first
// serial port the firmware lists, written between measurement windows only.
#include "efi_internal.h"
#include "lib/kstring.h"
#include "platform.h"

#define SERIAL_CHUNK_BYTES 256 /* written per call: firmware buffers are small */

static EFI_SERIAL_IO_PROTOCOL *serial_port(void)
{
    static EFI_SERIAL_IO_PROTOCOL *port;
    static BOOLEAN looked;
    if (looked)
        return port;
    looked = TRUE;
    EFI_SERIAL_IO_PROTOCOL *p = NULL;
    if (uefi_call_wrapper(BS->LocateProtocol, 3, &SerialIoProtocol, NULL, (void **)&p) ==
        EFI_SUCCESS)
        port = p;
    return port;
}

bool plat_serial_write(const char *s)
{
    EFI_SERIAL_IO_PROTOCOL *port = serial_port();
    if (!port)
        return false;
    size_t left = kstrlen(s);
    while (left) {
        UINTN n = left < SERIAL_CHUNK_BYTES ? left : SERIAL_CHUNK_BYTES;
        UINTN asked = n;
        if (uefi_call_wrapper(port->Write, 3, port, &n, (void *)s) != EFI_SUCCESS || n == 0)
            return false;
        if (n > asked)
            return false;
        s += n;
        left -= n;
    }
    return true;
}
