# SPDX-License-Identifier: MIT
# Scores per-curve lines of eval.sh (tab-separated: format, true sizes, detected
# size:kind:confidence[:lo:hi], TLB reaches, sizes beyond the curve's end; lists comma-separated):
# per format the true levels found (a detected level within 1.5x) and the levels invented (none
# within 1.5x; a level near a
# TLB reach that chase-report does not call a cache, or near a true level beyond the curve's
# end, is neither), and how the confidences bear this out: their mean over the detected levels
# that are right and over the invented ones, and the Brier score (the mean squared difference
# between a level's confidence and 1 when it is right, 0 when invented; levels excused above
# are left out). awk -F'\t' -v part=NAME [-v failures=OUT] -f score.awk FILE; exit 1 when a
# format (but the sim-half ones) misses the bar: 95% found, at most one invented per ten curves.
# With failures=OUT, each curve that misses a level or invents one and names its file (a sixth
# column) is written to OUT: format, file, levels missed, levels invented, true sizes. With
# intervals=1 two columns follow: 95% intervals, Wilson's for the share found (true levels as
# trials), and for invented per ten curves the Poisson interval of the count (chi-square
# quantiles: exact at 2 degrees of freedom, beyond by Wilson and Hilferty's approximation).
# A level is the interval lo..hi it is reported in where the line gives one (a sparse curve's
# level is only placed between two grid points), as real-score.awk scores it; points=1 scores
# its size alone (the scoring before intervals, and of detectors that give none).
function near(a, b) { return a / b <= 1.5 && b / a <= 1.5 }
function near_level(a, k) { return a >= lo[k] / 1.5 && a <= hi[k] * 1.5 }
function wilson(x, n, sign,   p, z, c, h) { if (!n) return 100; p = x / n; z = 1.96
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100 * (c + sign * h) }
function chi2q(z, df) { return df * (1 - 2 / (9 * df) + z * sqrt(2 / (9 * df))) ^ 3 }
function poisson_lo(k) { return k > 1 ? chi2q(-1.96, 2 * k) / 2 : k ? -log(0.975) : 0 }
function poisson_hi(k) { return k ? chi2q(1.96, 2 * k + 2) / 2 : -log(0.025) }
{ f = $1; curves[f]++; nt = split($2, t, ","); ng = $3 == "" ? 0 : split($3, g, ",")
  if ($3 == "ERROR") { errors[f]++; ng = 0 }
  for (k = 1; k <= ng; k++) { nf = split(g[k], e, ":"); kind[k] = nf >= 2 ? e[2] : ""
      conf[k] = nf >= 3 ? e[3] + 0 : -1; g[k] = e[1] + 0
      iv = !points && nf >= 5 && e[4] + 0 > 0 && e[5] + 0 > 0
      lo[k] = iv ? e[4] + 0 : g[k]; hi[k] = iv ? e[5] + 0 : g[k] }
  missed = nt; made_up = 0
  for (i = 1; i <= nt; i++) { truths[f]++; for (k = 1; k <= ng; k++) if (near_level(t[i], k)) { found[f]++; missed--; break } }
  nr = split($4, r, ",")
  ns = split($5, s, ",")
  for (k = 1; k <= ng; k++) { m = 0; for (i = 1; i <= nt; i++) if (near_level(t[i], k)) m = 1
      right = m
      for (i = 1; i <= nr; i++) if (near_level(r[i], k) && kind[k] != "cache") m = 1
      for (i = 1; i <= ns; i++) if (near_level(s[i], k)) m = 1
      if (!m) { invented[f]++; made_up++ }
      if (conf[k] >= 0 && (right || !m)) { brier[f] += (conf[k] - right) ^ 2; rated[f]++
          if (right) { conf_right[f] += conf[k]; n_right[f]++ } else { conf_invented[f] += conf[k]; n_invented[f]++ } } }
  if (failures != "" && (missed || made_up) && $6 != "")
      printf "%s\t%s\t%d\t%d\t%s\n", f, $6, missed, made_up, $2 >failures }
function mean(sum, n) { return n ? sprintf("%.2f", sum / n) : "-" }
END { bad = 0
  printf "corpus %s: %-18s %6s %6s %8s %9s %12s %11s %14s %6s%s\n", part, "format", "curves", "levels",
      "found", "invented", "per 10 curves", "conf right", "conf invented", "brier",
      intervals ? sprintf(" %15s %13s", "found 95%", "per 10 95%") : ""
  for (f in curves) {
      pf = truths[f] ? 100 * found[f] / truths[f] : 100; pi = 10 * invented[f] / curves[f]
      printf "corpus %s: %-18s %6d %6d %7.1f%% %9d %12.2f %11s %14s %6s%s%s\n", part, f, curves[f],
          truths[f], pf, invented[f], pi, mean(conf_right[f], n_right[f]),
          mean(conf_invented[f], n_invented[f]), rated[f] ? sprintf("%.4f", brier[f] / rated[f]) : "-",
          intervals ? sprintf(" %15s %13s", sprintf("%.1f..%.1f%%", wilson(found[f], truths[f], -1),
              wilson(found[f], truths[f], 1)), sprintf("%.2f..%.2f",
              10 * poisson_lo(invented[f]) / curves[f], 10 * poisson_hi(invented[f]) / curves[f])) : "",
          errors[f] ? sprintf("  (%d unreadable)", errors[f]) : ""
      if ((pf < 95 || pi > 1) && f !~ /^sim-half/) bad = 1 }
  exit bad }
