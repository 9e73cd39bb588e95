// SPDX-License-Identifier: MIT
// Files on the boot volume: the configuration in, a new \chase\runs\NNNN folder out.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform.h"

#define RUNS_MAX 9999

static EFI_FILE_HANDLE root;
static EFI_FILE_HANDLE run_dir;
static char run_path[160] = "(no run folder: results are on the console only)";

BOOLEAN efi_files_init(EFI_HANDLE image)
{
    EFI_LOADED_IMAGE *li = NULL;
    EFI_FILE_IO_INTERFACE *fs = NULL;
    if (uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li) !=
        EFI_SUCCESS)
        return FALSE;
    if (uefi_call_wrapper(BS->HandleProtocol, 3, li->DeviceHandle, &FileSystemProtocol,
                          (void **)&fs) != EFI_SUCCESS)
        return FALSE;
    return uefi_call_wrapper(fs->OpenVolume, 2, fs, &root) == EFI_SUCCESS;
}

char *efi_read_file(const CHAR16 *path, UINTN *len)
{
    EFI_FILE_HANDLE f;
    *len = 0;
    if (!root || uefi_call_wrapper(root->Open, 5, root, &f, (CHAR16 *)path, EFI_FILE_MODE_READ,
                                   0) != EFI_SUCCESS)
        return NULL;
    UINTN cap = 4096, n = 0;
    char *buf = plat_alloc(cap);
    while (buf) {
        UINTN chunk = cap - n;
        if (uefi_call_wrapper(f->Read, 3, f, &chunk, buf + n) != EFI_SUCCESS || chunk == 0)
            break;
        n += chunk;
        if (n == cap) {
            char *bigger = plat_alloc(cap * 2);
            if (bigger)
                kmemcpy(bigger, buf, n);
            plat_free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    uefi_call_wrapper(f->Close, 1, f);
    *len = buf ? n : 0; /* n < cap always: the zeroed buffer ends in a NUL */
    return buf;
}

/* Returned when a name that should be a folder is a file. */
#define STATUS_NOT_A_FOLDER EFI_INVALID_PARAMETER

static BOOLEAN is_directory(EFI_FILE_HANDLE h)
{
    UINT8 buf[sizeof(EFI_FILE_INFO) + 256];
    UINTN size = sizeof(buf);
    if (uefi_call_wrapper(h->GetInfo, 4, h, &GenericFileInfo, &size, buf) != EFI_SUCCESS)
        return FALSE;
    return (((EFI_FILE_INFO *)buf)->Attribute & EFI_FILE_DIRECTORY) != 0;
}

/* Open (creating it if needed) the directory `name` under dir. */
static EFI_FILE_HANDLE open_dir(EFI_FILE_HANDLE dir, const CHAR16 *name, EFI_STATUS *st)
{
    EFI_FILE_HANDLE h = NULL;
    *st = uefi_call_wrapper(dir->Open, 5, dir, &h, (CHAR16 *)name,
                            EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0);
    if (*st != EFI_SUCCESS)
        *st = uefi_call_wrapper(dir->Open, 5, dir, &h, (CHAR16 *)name,
                                EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
                                EFI_FILE_DIRECTORY);
    if (*st != EFI_SUCCESS)
        return NULL;
    if (!is_directory(h)) {
        uefi_call_wrapper(h->Close, 1, h);
        *st = STATUS_NOT_A_FOLDER;
        return NULL;
    }
    return h;
}

/* The highest NNNN among the entries of dir, 0 when none. */
static unsigned highest_run(EFI_FILE_HANDLE dir)
{
    unsigned best = 0;
    UINT8 buf[sizeof(EFI_FILE_INFO) + 512];
    for (;;) {
        UINTN size = sizeof(buf);
        if (uefi_call_wrapper(dir->Read, 3, dir, &size, buf) != EFI_SUCCESS || size == 0)
            break;
        EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
        unsigned v = 0, digits = 0;
        for (const CHAR16 *c = info->FileName; *c >= L'0' && *c <= L'9'; c++, digits++)
            v = v * 10 + (unsigned)(*c - L'0');
        if (digits == 4 && info->FileName[4] == 0 && v > best)
            best = v;
    }
    return best;
}

static void ascii_to_char16(CHAR16 *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = (CHAR16)(unsigned char)src[i];
    dst[i] = 0;
}

static const char *status_reason(EFI_STATUS st)
{
    switch (st) {
    case EFI_WRITE_PROTECTED:
        return "the volume is write-protected";
    case EFI_VOLUME_FULL:
        return "the volume is full";
    case EFI_ACCESS_DENIED:
        return "access denied (read-only, or \\chase is not a folder)";
    case EFI_MEDIA_CHANGED:
    case EFI_NO_MEDIA:
        return "the medium went away";
    case STATUS_NOT_A_FOLDER:
        return "a file of that name is in the way, not a folder";
    default:
        return "the file system refused it";
    }
}

/* Say once why there is no run folder, and where the results are instead. */
static void no_run_folder(const char *what, EFI_STATUS st)
{
    char msg[400];
    ksnprintf(run_path, sizeof(run_path), "(nowhere: %s; results are on the console only)",
              status_reason(st));
    ksnprintf(msg, sizeof(msg),
              "chase: cannot create %s on the boot volume: %s (status 0x%llx).\n"
              "chase: nothing is written; every table and the summary are on this console.\n",
              what, status_reason(st), (unsigned long long)st);
    plat_console_write(msg);
}

BOOLEAN efi_make_run_dir(void)
{
    EFI_STATUS st = EFI_NOT_FOUND;
    if (!root) {
        no_run_folder("a run folder", EFI_NO_MEDIA);
        return FALSE;
    }
    EFI_FILE_HANDLE chase = open_dir(root, L"\\chase", &st);
    if (!chase) {
        no_run_folder("\\chase", st);
        return FALSE;
    }
    EFI_FILE_HANDLE runs = open_dir(chase, L"runs", &st);
    if (!runs) {
        uefi_call_wrapper(chase->Close, 1, chase);
        no_run_folder("\\chase\\runs", st);
        return FALSE;
    }
    unsigned next = highest_run(runs) + 1;
    for (; next <= RUNS_MAX && !run_dir; next++) {
        char name[8];
        CHAR16 wname[8];
        ksnprintf(name, sizeof(name), "%04u", next);
        ascii_to_char16(wname, 8, name);
        EFI_FILE_HANDLE probe;
        if (uefi_call_wrapper(runs->Open, 5, runs, &probe, wname, EFI_FILE_MODE_READ, 0) ==
            EFI_SUCCESS) {
            uefi_call_wrapper(probe->Close, 1, probe);
            continue; /* never reuse an earlier run's folder */
        }
        run_dir = open_dir(runs, wname, &st);
        if (run_dir)
            ksnprintf(run_path, sizeof(run_path), "\\chase\\runs\\%s", name);
        else
            break;
    }
    uefi_call_wrapper(runs->Close, 1, runs);
    uefi_call_wrapper(chase->Close, 1, chase);
    if (!run_dir)
        no_run_folder("a run folder under \\chase\\runs", st);
    return run_dir != NULL;
}

void efi_files_close(void)
{
    if (run_dir)
        uefi_call_wrapper(run_dir->Close, 1, run_dir);
    if (root)
        uefi_call_wrapper(root->Close, 1, root);
    run_dir = root = NULL;
}

const char *plat_result_path(void)
{
    return run_path;
}

int plat_file_write(const char *name, const void *data, size_t len)
{
    static BOOLEAN tried;
    CHAR16 wname[64];
    EFI_FILE_HANDLE f;
    if (!run_dir && !tried) {
        tried = TRUE; /* the folder is made at the first write, so "help" leaves none */
        efi_make_run_dir();
    }
    if (!run_dir)
        return PLAT_WRITE_NO_FOLDER;
    ascii_to_char16(wname, 64, name);
    /* Replace an earlier version whole: delete, then create. */
    if (uefi_call_wrapper(run_dir->Open, 5, run_dir, &f, wname,
                          EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0) == EFI_SUCCESS)
        uefi_call_wrapper(f->Delete, 1, f);
    if (uefi_call_wrapper(run_dir->Open, 5, run_dir, &f, wname,
                          EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
                          0) != EFI_SUCCESS)
        return PLAT_WRITE_FAILED;
    UINTN n = len;
    EFI_STATUS st = uefi_call_wrapper(f->Write, 3, f, &n, (void *)data);
    EFI_STATUS fl = uefi_call_wrapper(f->Flush, 1, f);
    if (st != EFI_SUCCESS || n != len || fl != EFI_SUCCESS) {
        uefi_call_wrapper(f->Delete, 1, f); /* no truncated file that looks complete */
        return PLAT_WRITE_FAILED;
    }
    return uefi_call_wrapper(f->Close, 1, f) == EFI_SUCCESS ? 0 : PLAT_WRITE_FAILED;
}
