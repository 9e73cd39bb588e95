# SPDX-License-Identifier: MIT
# Helpers for the QEMU tests: boot the real image under OVMF, read and change its FAT volume.
# Builds on tests/lib.sh (check, JSON and CSV peeks) and tests/lib_run.sh (run folders).

. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
. "$ROOT/tests/lib_run.sh"
IMAGE=${IMAGE:-$ROOT/build/chase.img}
export MTOOLS_SKIP_CHECK=1

# boot NAME [qemu-run.sh options...]: boot a fresh copy; sets BOOT_RC, RUN_DIR, WORK, SERIAL.
boot() {
    local name=$1
    shift
    WORK=$(fresh_dir "$name")
    BOOT_RC=0
    "$ROOT/tools/qemu-run.sh" --image "$IMAGE" --work "$WORK/vm" --out "$WORK/out" \
        --timeout "${BOOT_TIMEOUT:-300}" "$@" >"$WORK/qemu-run.log" 2>&1 || BOOT_RC=$?
    SERIAL="$WORK/vm/serial.log"
    RUN_DIR=$(cat "$WORK/vm/run-folder" 2>/dev/null || true)
    echo "# $name: qemu-run exit $BOOT_RC, run folder ${RUN_DIR:-none}"
}

# volume_manifest IMG [EXCLUDE-PREFIX]: "md5 path" for every file on the image's FAT volume.
volume_manifest() {
    local img=$1 exclude=${2:-} f
    mdir -i "$img@@1M" -/ -b :: 2>/dev/null | sed 's#^::##' | while read -r f; do
        case "$f" in */) continue ;; esac
        [ -n "$exclude" ] && case "$f" in "$exclude"*) continue ;; esac
        printf '%s %s\n' "$(mtype -i "$img@@1M" "::$f" 2>/dev/null | md5sum | cut -c1-32)" "$f"
    done | sort -k2
}

# image_with_config NAME SETTING...: a copy of the image whose chase.cfg holds the settings.
image_with_config() {
    local name=$1 img="$TEST_TMP/$1.img"
    shift
    cp "$IMAGE" "$img"
    printf '%s\n' "$@" >"$TEST_TMP/$name.cfg"
    mcopy -o -i "$img@@1M" "$TEST_TMP/$name.cfg" ::/chase/chase.cfg
    echo "$img"
}
