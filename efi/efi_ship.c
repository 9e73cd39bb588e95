// SPDX-License-Identifier: MIT
// After the run: its folder to where the results key says (HTTP PUT of every file, then
// manifest.json; or CHASE-FILE lines on the serial port), retried with a bounded back-off, and
// when that fails a writable local volume; the console and the serial port say where it went.
#include "efi_net.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/url.h"

#define HTTP_CLIENT_ERROR_MIN 400 /* 4xx but 408 (timeout): trying again will not help */
#define HTTP_CLIENT_ERROR_MAX 499
#define HTTP_REQUEST_TIMEOUT 408

/* One CHASE-LOG line beside the console's: where the run went (docs/serial-log.md). */
static void log_outcome(const struct run_fleet *f, const char *status, const char *where)
{
    char line[600];
    ksnprintf(line, sizeof(line), "CHASE-LOG v=1 run=%s kind=results status=%s where=\"%s\"\r\n",
              f->run_id, status, where);
    for (char *p = line + kstrlen("CHASE-LOG"); *p; p++)
        if (*p == '"' && p[-1] != '=' && p[1] != '\r')
            *p = '\''; /* a quote inside the value would end it */
    plat_serial_write(line);
}

/* manifest.json of the run folder as it is now, written into it (memory, and disk if any). */
static void write_manifest(const struct run_fleet *f, struct strbuf *m)
{
    const struct ship_file *files;
    unsigned n = efi_runfiles(&files);
    ship_manifest(m, f, files, n);
    plat_file_write("manifest.json", strbuf_str(m), m->len);
}

/* http(s)://host:port/path/<machine>/<run id>/<name> */
static void file_url(char *out, size_t cap, const struct url *u, const struct run_fleet *f,
                     const char *name)
{
    ksnprintf(out, cap, "%s://%s:%u/%s%s%s/%s/%s", u->https ? "https" : "http", u->host,
              (unsigned)u->port, u->path, u->path[0] ? "/" : "", f->machine, f->run_id, name);
}

/* PUT one file, tried again f->retries times with the back-off; TRUE on a 2xx answer. */
static BOOLEAN put_file(EFI_HANDLE image, const struct run_fleet *f, const struct url *u,
                        const struct ship_file *x, unsigned index, unsigned total)
{
    char url[EFI_NET_URL_MAX], why[200];
    file_url(url, sizeof(url), u, f, x->name);
    for (unsigned attempt = 0;; attempt++) {
        why[0] = 0;
        unsigned code = efi_http_request(image, ChaseHttpPut, url, f->token, x->data, x->len, NULL,
                                         0, NULL, why, sizeof(why));
        if (code >= 200 && code < 300) {
            con_printf("chase: results: [%u/%u] %s, %llu bytes: HTTP %u\n", index, total, x->name,
                       (unsigned long long)x->len, code);
            return TRUE;
        }
        if (code)
            ksnprintf(why, sizeof(why), "HTTP %u", code);
        else if (u->https) /* EDK II refuses before connecting when no CA is enrolled */
            kstrlcpy(why + kstrlen(why), "; for https the firmware must trust the server's CA",
                     sizeof(why) - kstrlen(why));
        BOOLEAN hopeless = code >= HTTP_CLIENT_ERROR_MIN && code <= HTTP_CLIENT_ERROR_MAX &&
                           code != HTTP_REQUEST_TIMEOUT;
        if (attempt >= f->retries || hopeless) {
            con_printf("chase: results: [%u/%u] %s to %s failed: %s%s\n", index, total, x->name,
                       url, why, hopeless ? " (the server refuses it: not tried again)" : "");
            return FALSE;
        }
        unsigned wait_s = ship_backoff_s(attempt + 1);
        con_printf("chase: results: [%u/%u] %s failed: %s; try %u of %u in %u s\n", index, total,
                   x->name, why, attempt + 2, f->retries + 1, wait_s);
        uefi_call_wrapper(BS->Stall, 1, (UINTN)wait_s * 1000000u);
    }
}

/* Every file but the manifest, then the manifest; FALSE at the first that fails. */
static BOOLEAN upload(EFI_HANDLE image, const struct run_fleet *f, const struct ship_file *files,
                      unsigned n, const struct ship_file *manifest)
{
    struct url u;
    char why[160];
    if (!url_parse(f->results, &u, why, sizeof(why)))
        return FALSE; /* the configuration checked it: not reached */
    if (u.https && !efi_http_has_tls()) {
        con_printf("chase: results: https needs TLS, and this firmware has none (no "
                   "EFI_TLS_SERVICE_BINDING_PROTOCOL): nothing was sent\n");
        return FALSE;
    }
    con_printf("chase: results: uploading %u files to %s as %s/%s (%u retries a file)\n", n,
               f->results, f->machine, f->run_id, f->retries);
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (kstrcmp(files[i].name, "manifest.json") != 0 &&
            !put_file(image, f, &u, &files[i], ++k, n))
            return FALSE;
    return put_file(image, f, &u, manifest, n, n);
}

/* Nothing was sent (why says so): the run stays on the boot volume, goes to another writable
   volume, or is lost, and the console and the serial port say which. */
static void keep_locally(const struct run_fleet *f, const char *why)
{
    const struct ship_file *files;
    char where[320];
    if (efi_files_have_folder()) {
        con_printf("chase: results: %s; the run is on the boot volume at %s\n", why,
                   plat_result_path());
        log_outcome(f, "local", plat_result_path());
        return;
    }
    struct strbuf m = {0};
    const struct strbuf *log = con_log(); /* the copy says what happened to the upload */
    efi_runfiles_put("console.txt", strbuf_str(log), log->len);
    if (f->run_id[0])
        write_manifest(f, &m);
    strbuf_release(&m);
    unsigned n = efi_runfiles(&files);
    if (efi_files_fallback(files, n, where, sizeof(where))) {
        con_printf("chase: results: %s; the run (%u files) was written to %s\n", why, n, where);
        log_outcome(f, "local", where);
        return;
    }
    uint64_t bytes = 0;
    for (unsigned i = 0; i < n; i++)
        bytes += files[i].len;
    con_printf("chase: results: %s, and there is no writable volume: the run's %u files (%llu "
               "bytes) are LOST when chase ends; only this console holds its tables\n",
               why, n, (unsigned long long)bytes);
    log_outcome(f, "lost", "nowhere");
}

void efi_ship_run(EFI_HANDLE image, struct run_fleet *f)
{
    const struct ship_file *files;
    unsigned n = efi_runfiles(&files);
    if (!n)
        return; /* help: no run folder */
    if (!f->run_id[0] || !f->results[0])
        return; /* nothing asked for: never a folder on a volume chase was not booted from */
    BOOLEAN serial = kstrcmp(f->results, "serial") == 0, ok;
    struct strbuf m = {0};
    write_manifest(f, &m);
    n = efi_runfiles(&files);
    struct ship_file manifest = {"manifest.json", strbuf_str(&m), m.len};
    if (serial) {
        con_printf("chase: results: streaming %u files over the serial port (CHASE-FILE lines, "
                   "run %s)\n",
                   n, f->run_id);
        ok = ship_serial(f, files, n, &manifest);
        if (ok)
            con_printf("chase: results: %u files streamed over the serial port\n", n);
    } else {
        ok = upload(image, f, files, n, &manifest);
        if (ok)
            con_printf("chase: results: all %u files uploaded to %s under %s/%s/\n", n, f->results,
                       f->machine, f->run_id);
    }
    strbuf_release(&m);
    if (ok)
        log_outcome(f, serial ? "streamed" : "uploaded", f->results);
    else
        keep_locally(f, serial ? "the serial port is missing or failed part way"
                               : "the upload did not complete");
}
