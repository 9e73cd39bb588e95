// SPDX-License-Identifier: MIT
// Files on the boot volume: the configuration in, a new \chase\runs\NNNN folder out (every file
// also kept in memory, efi_runfiles.c), and a folder on another volume when an upload failed.
#include "efi_net.h"
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
    char msg[480];
    ksnprintf(run_path, sizeof(run_path), "(in memory only: %s)", status_reason(st));
    ksnprintf(msg, sizeof(msg),
              "chase: cannot create %s on the boot volume: %s (status 0x%llx).\n"
              "chase: the run's files are kept in memory for the results key to send at the end "
              "(without one they are lost then); every table and the summary are on this "
              "console.\n",
              what, status_reason(st), (unsigned long long)st);
    plat_console_write(msg);
}

/*
 * Create \chase\runs\NNNN (the next free number) on volume vol: the folder's handle, its path in
 * path, or NULL with *st and *what (the part that failed).
 */
static EFI_FILE_HANDLE new_run_dir(EFI_FILE_HANDLE vol, char *path, size_t cap, EFI_STATUS *st,
                                   const char **what)
{
    EFI_FILE_HANDLE dir = NULL, chase = open_dir(vol, L"\\chase", st), runs = NULL;
    *what = "\\chase";
    if (chase) {
        runs = open_dir(chase, L"runs", st);
        *what = "\\chase\\runs";
    }
    unsigned next = runs ? highest_run(runs) + 1 : RUNS_MAX + 1;
    for (; next <= RUNS_MAX && !dir; next++) {
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
        *what = "a run folder under \\chase\\runs";
        dir = open_dir(runs, wname, st);
        if (!dir)
            break;
        ksnprintf(path, cap, "\\chase\\runs\\%s", name);
    }
    if (runs)
        uefi_call_wrapper(runs->Close, 1, runs);
    if (chase)
        uefi_call_wrapper(chase->Close, 1, chase);
    return dir;
}

BOOLEAN efi_make_run_dir(void)
{
    EFI_STATUS st = EFI_NOT_FOUND;
    const char *what = "a run folder";
    if (!root) {
        ksnprintf(run_path, sizeof(run_path),
                  "(in memory only: no file system on the boot device)");
        plat_console_write("chase: the boot device has no file system (a network boot?): the "
                           "run's files are kept in memory for the results key to send at the "
                           "end\n");
        return FALSE;
    }
    run_dir = new_run_dir(root, run_path, sizeof(run_path), &st, &what);
    if (!run_dir)
        no_run_folder(what, st);
    return run_dir != NULL;
}

BOOLEAN efi_files_have_folder(void)
{
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

/* Write a whole file into dir, replacing an earlier version; a failed write leaves none. */
static BOOLEAN write_whole(EFI_FILE_HANDLE dir, const char *name, const void *data, size_t len)
{
    CHAR16 wname[64];
    EFI_FILE_HANDLE f;
    ascii_to_char16(wname, 64, name);
    if (uefi_call_wrapper(dir->Open, 5, dir, &f, wname, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE,
                          0) == EFI_SUCCESS)
        uefi_call_wrapper(f->Delete, 1, f);
    if (uefi_call_wrapper(dir->Open, 5, dir, &f, wname,
                          EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
                          0) != EFI_SUCCESS)
        return FALSE;
    UINTN n = len;
    EFI_STATUS st = uefi_call_wrapper(f->Write, 3, f, &n, (void *)data);
    EFI_STATUS fl = uefi_call_wrapper(f->Flush, 1, f);
    if (st != EFI_SUCCESS || n != len || fl != EFI_SUCCESS) {
        uefi_call_wrapper(f->Delete, 1, f); /* no truncated file that looks complete */
        return FALSE;
    }
    return uefi_call_wrapper(f->Close, 1, f) == EFI_SUCCESS;
}

int plat_file_write(const char *name, const void *data, size_t len)
{
    static BOOLEAN tried;
    BOOLEAN kept = efi_runfiles_put(name, data, len);
    if (!run_dir && !tried) {
        tried = TRUE; /* the folder is made at the first write, so "help" leaves none */
        efi_make_run_dir();
    }
    if (!run_dir)
        return kept ? 0 : PLAT_WRITE_NO_FOLDER;
    return write_whole(run_dir, name, data, len) ? 0 : PLAT_WRITE_FAILED;
}

/* The device path of handle h as ASCII into out ("" when it has none). */
static void handle_path(EFI_HANDLE h, char *out, size_t cap)
{
    EFI_DEVICE_PATH *dp = DevicePathFromHandle(h);
    CHAR16 *text = dp ? DevicePathToStr(dp) : NULL;
    out[0] = 0;
    if (text) {
        efi_to_ascii(out, cap, text, cap - 1);
        uefi_call_wrapper(BS->FreePool, 1, text);
    }
}

/* Write the files into a new run folder on the volume of handle h: TRUE with where filled. */
static BOOLEAN fallback_on(EFI_HANDLE h, const struct ship_file *files, unsigned n, char *where,
                           size_t cap)
{
    EFI_FILE_IO_INTERFACE *fs = NULL;
    EFI_FILE_HANDLE vol = NULL, dir;
    EFI_STATUS st;
    const char *what;
    char path[64], dev[200];
    if (uefi_call_wrapper(BS->HandleProtocol, 3, h, &FileSystemProtocol, (void **)&fs) !=
            EFI_SUCCESS ||
        uefi_call_wrapper(fs->OpenVolume, 2, fs, &vol) != EFI_SUCCESS)
        return FALSE;
    dir = new_run_dir(vol, path, sizeof(path), &st, &what);
    BOOLEAN ok = dir != NULL;
    for (unsigned i = 0; ok && i < n; i++)
        ok = write_whole(dir, files[i].name, files[i].data, files[i].len);
    if (dir)
        uefi_call_wrapper(dir->Close, 1, dir);
    uefi_call_wrapper(vol->Close, 1, vol);
    handle_path(h, dev, sizeof(dev));
    ksnprintf(where, cap, "%s on the volume %s", path, dev[0] ? dev : "(no device path)");
    return ok;
}

BOOLEAN efi_files_fallback(const struct ship_file *files, unsigned n, char *where, size_t cap)
{
    UINTN count = 0;
    EFI_HANDLE *handles = NULL;
    BOOLEAN ok = FALSE;
    if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &FileSystemProtocol, NULL, &count,
                          &handles) != EFI_SUCCESS)
        return FALSE;
    for (UINTN i = 0; i < count && !ok; i++)
        ok = fallback_on(handles[i], files, n, where, cap);
    uefi_call_wrapper(BS->FreePool, 1, handles);
    return ok;
}
