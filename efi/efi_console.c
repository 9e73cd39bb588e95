// SPDX-License-Identifier: MIT
// The console on the firmware: ASCII text out through ConOut, keys in through ConIn.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "platform.h"

#define CHUNK 256

void plat_console_write(const char *s)
{
    CHAR16 buf[CHUNK + 2];
    UINTN n = 0;
    for (; *s; s++) {
        if (*s == '\n')
            buf[n++] = L'\r';
        buf[n++] = (CHAR16)(unsigned char)*s;
        if (n >= CHUNK) {
            buf[n] = 0;
            uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, buf);
            n = 0;
        }
    }
    if (n) {
        buf[n] = 0;
        uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, buf);
    }
}

void efi_to_ascii(char *dst, size_t cap, const CHAR16 *src, size_t max_chars)
{
    size_t i = 0;
    if (!cap)
        return;
    for (; src && i + 1 < cap && i < max_chars && src[i]; i++)
        dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
    dst[i] = 0;
}

BOOLEAN efi_wait_key(UINTN timeout_s)
{
    EFI_EVENT events[2];
    EFI_EVENT timer = NULL;
    UINTN count = 1, index = 0;
    EFI_INPUT_KEY key;
    uefi_call_wrapper(ST->ConIn->Reset, 2, ST->ConIn, FALSE);
    events[0] = ST->ConIn->WaitForKey;
    if (timeout_s &&
        uefi_call_wrapper(BS->CreateEvent, 5, EVT_TIMER, 0, NULL, NULL, &timer) == EFI_SUCCESS) {
        /* The timer counts in 100 ns units. */
        uefi_call_wrapper(BS->SetTimer, 3, timer, TimerRelative, (UINT64)timeout_s * 10000000ULL);
        events[1] = timer;
        count = 2;
    }
    uefi_call_wrapper(BS->WaitForEvent, 3, count, events, &index);
    if (timer)
        uefi_call_wrapper(BS->CloseEvent, 1, timer);
    if (index == 0) {
        uefi_call_wrapper(ST->ConIn->ReadKeyStroke, 2, ST->ConIn, &key);
        return TRUE;
    }
    return FALSE;
}

void efi_time_iso(char *buf, size_t cap)
{
    EFI_TIME t;
    buf[0] = 0;
    if (uefi_call_wrapper(RT->GetTime, 2, &t, NULL) != EFI_SUCCESS)
        return;
    ksnprintf(buf, cap, "%04u-%02u-%02uT%02u:%02u:%02u", t.Year, t.Month, t.Day, t.Hour, t.Minute,
              t.Second);
}
