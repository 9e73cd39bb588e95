# SPDX-License-Identifier: MIT
# Scores real curves by issue 51's rule: a reported level is its size_bytes (the size a user
# reads and holds against the data sheet); a true level is found when a reported level lies
# within 1.5x of it, each reported level matching one true level at most (pairs taken nearest
# first, in log size, so a level between two true ones goes to the nearer); per format the true
# levels found with any kind and found with kind `cache`, the `cache` levels left unmatched
# (invented) and the `uncertain` ones left unmatched, per 10 curves; `tlb` levels count neither
# way. Input (tab-separated): format, true sizes (comma-separated), detected
# size:kind:confidence[:lo:hi] (comma-separated), name. -v md=1 prints a Markdown table;
# -v bands=1 adds, per confidence band, how many `cache` levels matched a true level (real).
# -v misses=1 prints each curve's unmatched true and reported levels instead; -v per_level=1
# prints each reported level that counts (format, kind, confidence, 1 when it matched).
function ad(a, b) { return a > b ? log(a / b) : log(b / a) }
{
    f = $1; fs[1] = f; nfs = 1
    # The two tinymembench formats pooled: the tune set the issue scores.
    if (f ~ /^tinymembench/) fs[++nfs] = "tinymembench-all"
    nt = split($2, t, ",")
    ng = ($3 == "" || $3 == "ERROR") ? 0 : split($3, g, ",")
    np = 0
    for (k = 1; k <= ng; k++) {
        split(g[k], e, ":"); size[k] = e[1] + 0; kind[k] = e[2]; conf[k] = e[3] + 0; used[k] = 0
    }
    for (i = 1; i <= nt; i++) { t[i] += 0; tused[i] = 0 }
    # Every true/reported pair within 1.5x, then matched nearest first.
    for (i = 1; i <= nt; i++)
        for (k = 1; k <= ng; k++)
            if (kind[k] != "tlb" && ad(t[i], size[k]) <= log(1.5) + 1e-12) {
                np++; pd[np] = ad(t[i], size[k]); pi[np] = i; pk[np] = k
            }
    for (a = 2; a <= np; a++)
        for (b = a; b > 1 && pd[b - 1] > pd[b]; b--) {
            x = pd[b]; pd[b] = pd[b - 1]; pd[b - 1] = x
            x = pi[b]; pi[b] = pi[b - 1]; pi[b - 1] = x
            x = pk[b]; pk[b] = pk[b - 1]; pk[b - 1] = x
        }
    nf = nfc = nic = niu = 0
    for (a = 1; a <= np; a++) {
        if (tused[pi[a]] || used[pk[a]]) continue
        tused[pi[a]] = 1; used[pk[a]] = 1
        nf++
        if (kind[pk[a]] == "cache") nfc++
    }
    miss = ""
    for (i = 1; i <= nt; i++) if (!tused[i]) miss = miss " " t[i]
    extra = ""
    for (k = 1; k <= ng; k++) {
        if (kind[k] == "cache") {
            b = int(conf[k] * 10); b = b > 9 ? 9 : b < 0 ? 0 : b
            for (q = 1; q <= nfs; q++) { band_n[fs[q], b]++; band_real[fs[q], b] += used[k] }
        }
        if (per_level && kind[k] != "tlb")
            printf "%s\t%s\t%s\t%d\n", $1, kind[k], conf[k], used[k]
        if (used[k] || kind[k] == "tlb") continue
        if (kind[k] == "cache") nic++
        else niu++
        extra = extra " " int(size[k]) ":" kind[k]
    }
    for (q = 1; q <= nfs; q++) {
        f = fs[q]; curves[f]++; truths[f] += nt; found[f] += nf; found_cache[f] += nfc
        inv_cache[f] += nic; inv_unc[f] += niu; errors[f] += $3 == "ERROR"
    }
    f = $1
    if (misses && (miss != "" || extra != ""))
        printf "%s\t%s\tmissed:%s\tunmatched:%s\n", f, $4, miss, extra
}
function pct(a, b) { return b ? sprintf("%.1f%%", 100 * a / b) : "-" }
END {
    if (misses || per_level) exit
    n = 0
    for (f in curves) order[++n] = f
    for (a = 2; a <= n; a++)
        for (b = a; b > 1 && order[b - 1] > order[b]; b--) {
            x = order[b]; order[b] = order[b - 1]; order[b - 1] = x
        }
    if (md) {
        print "| format | curves | true levels | found, any kind | found as `cache` | invented `cache` / 10 curves | unmatched `uncertain` / 10 curves |"
        print "|---|---|---|---|---|---|---|"
    } else
        printf "rule: %-20s %6s %6s %10s %10s %14s %14s\n", "format", "curves", "levels",
            "found-any", "found-cache", "cache inv/10", "uncert un/10"
    for (j = 1; j <= n; j++) {
        f = order[j]
        if (md)
            printf "| %s | %d | %d | %s | %s | %.2f | %.2f |\n", f, curves[f], truths[f],
                pct(found[f], truths[f]), pct(found_cache[f], truths[f]),
                10 * inv_cache[f] / curves[f], 10 * inv_unc[f] / curves[f]
        else
            printf "rule: %-20s %6d %6d %10s %10s %14.2f %14.2f%s\n", f, curves[f], truths[f],
                pct(found[f], truths[f]), pct(found_cache[f], truths[f]),
                10 * inv_cache[f] / curves[f], 10 * inv_unc[f] / curves[f],
                errors[f] ? sprintf("  (%d unreadable)", errors[f]) : ""
    }
    if (!bands) exit
    if (md) {
        print ""
        print "| format | confidence | `cache` levels | real (matched a true level) |"
        print "|---|---|---|---|"
    }
    for (j = 1; j <= n; j++)
        for (b = 0; b < 10; b++) {
            f = order[j]
            if (!band_n[f, b]) continue
            if (md)
                printf "| %s | %.1f-%.1f | %d | %d (%s) |\n", f, b / 10, (b + 1) / 10,
                    band_n[f, b], band_real[f, b], pct(band_real[f, b], band_n[f, b])
            else
                printf "rule: ~confidence %-20s %.1f-%.1f: %3d cache levels, %3d real (%s)\n", f,
                    b / 10, (b + 1) / 10, band_n[f, b], band_real[f, b],
                    pct(band_real[f, b], band_n[f, b])
        }
}
