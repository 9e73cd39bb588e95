# SPDX-License-Identifier: MIT
# The shape of loaded.csv's family of read:write mixes, checked the same way for chase.efi and
# chase-host (sourced by the tests that run loaded; no timing is judged).

# loaded_family FILE GENS "MIX..." DELAYS: the idle row first (mix idle, no generators), then
# for each mix in that order DELAYS rows together, each with GENS generators, a bandwidth that
# is its read plus its write GB/s (to the CSV's rounding), reads only where the mix reads
# (100:0: no writes; 0:100 and 0:100nt: no reads; readwrite: as much written as read).
loaded_family() {
    awk -F, -v gens="$2" -v mixes="$3" -v delays="$4" '
        function fail(why) { print FILENAME ": " why > "/dev/stderr"; bad = 1; exit 1 }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  split("mix generators delay_ns bandwidth_gb_per_s read_gb_per_s write_gb_per_s",
                        need, " ")
                  for (k in need) if (!(need[k] in c)) fail("no column " need[k])
                  nm = split(mixes, mix, " "); next }
        NR == 2 { if ($(c["mix"]) != "idle" || $(c["generators"]) != 0) fail("row 1 is not idle")
                  next }
        { m = $(c["mix"]); k = int((NR - 3) / delays) + 1
          if (k > nm || m != mix[k]) fail("row " NR - 1 " is mix " m ", wanted " mix[k])
          n[m]++
          b = $(c["bandwidth_gb_per_s"]); r = $(c["read_gb_per_s"]); w = $(c["write_gb_per_s"])
          if ($(c["generators"]) != gens) fail(m ": " $(c["generators"]) " generators")
          if (!(b > 0)) fail(m ": no bandwidth at delay " $(c["delay_ns"]))
          d = b - r - w; if (d < -0.002 || d > 0.002) fail(m ": " b " is not " r " + " w)
          split(m, rw, ":"); rp = rw[1] + 0
          if (m == "readwrite") { if (r != w) fail(m ": read " r ", written " w) }
          else if (rp == 100 && w != 0) fail(m ": writes " w)
          else if (rp == 0 && r != 0) fail(m ": reads " r)
          else if (rp > 0 && rp < 100 && !(r > 0 && w > 0)) fail(m ": read " r ", written " w) }
        END { if (bad) exit 1
              for (k = 1; k <= nm; k++) if (n[mix[k]] != delays)
                  { print FILENAME ": " mix[k] ": " n[mix[k]] + 0 " rows" > "/dev/stderr"; exit 1 } }
    ' "$1"
}
