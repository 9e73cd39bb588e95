# SPDX-License-Identifier: MIT
# What the tree's own checks share (check-layers.sh, check-sizes.sh): check WHAT FOUND prints
# "ok - WHAT" when FOUND is empty, else "not ok - WHAT" and FOUND's lines, and sets failed=1
# (the script's exit status at its end).
failed=0

check() {
    local what=$1 found=$2
    if [ -z "$found" ]; then
        echo "ok - $what"
    else
        echo "not ok - $what"
        echo "$found" | sed 's/^/#   /'
        failed=1
    fi
}
