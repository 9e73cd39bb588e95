# SPDX-License-Identifier: MIT
# Helpers for the QEMU tests: boot the real image under OVMF, read and change its FAT volume.
# Builds on tests/lib.sh (check, JSON and CSV peeks) and tests/lib_run.sh (run folders).

. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
. "$ROOT/tests/lib_run.sh"
IMAGE=${IMAGE:-$ROOT/build/chase.img}
export MTOOLS_SKIP_CHECK=1

# boot NAME [qemu-run.sh options...]: boot a fresh copy; sets BOOT_RC, RUN_DIR, WORK, SERIAL.
# Under make test (run-tests.sh sets BOOT_SHARE), boots of build/chase.img that ask for the same
# machine and settings are one boot, whichever scripts ask: the first boots it into
# $BOOT_SHARE/KEY under a lock, the others wait for it; each gets a copy of what it left in its
# own WORK (the same run: the same checks pass whoever booted it).
boot() {
    local name=$1 key share
    shift
    WORK=$(fresh_dir "$name")
    BOOT_RC=0
    if key=$(boot_key "$@"); then
        share=$BOOT_SHARE/$key
        mkdir -p "$BOOT_SHARE"
        (
            flock 9
            if [ ! -e "$share/rc" ]; then
                rm -rf "$share"
                mkdir -p "$share"
                boot_qemu "$share" "$@"
                echo "$BOOT_RC" >"$share/rc"
            fi
        ) 9>"$share.lock"
        cp -a "$share/vm" "$share/qemu-run.log" "$WORK/"
        [ -d "$share/out" ] && cp -a "$share/out" "$WORK/"
        BOOT_RC=$(cat "$share/rc")
        RUN_DIR=$(cat "$WORK/vm/run-folder" 2>/dev/null || true)
        RUN_DIR=${RUN_DIR:+$WORK/out/$(basename "$RUN_DIR")}
    else
        boot_qemu "$WORK" "$@"
        RUN_DIR=$(cat "$WORK/vm/run-folder" 2>/dev/null || true)
    fi
    SERIAL="$WORK/vm/serial.log"
    echo "# $name: qemu-run exit $BOOT_RC, run folder ${RUN_DIR:-none}"
}

# boot_qemu DIR [qemu-run.sh options...]: boot a copy of $IMAGE with DIR/vm as its work folder
# and the run folder copied to DIR/out; sets BOOT_RC.
boot_qemu() {
    local dir=$1
    shift
    BOOT_RC=0
    "$ROOT/tools/qemu-run.sh" --image "$IMAGE" --work "$dir/vm" --out "$dir/out" \
        --timeout "${BOOT_TIMEOUT:-300}" "$@" >"$dir/qemu-run.log" 2>&1 || BOOT_RC=$?
}

# boot_key [qemu-run.sh options...]: print the name of the boot these options ask for when it can
# be shared (BOOT_SHARE set, the default image, options that only choose the machine and the
# settings, qemu-run.sh's defaults for the machine filled in); fail otherwise.
boot_key() {
    local mem=256M cpu=max smp=1 arch=x86_64 timeout=${BOOT_TIMEOUT:-300} rest=()
    [ -n "${BOOT_SHARE:-}" ] && [ "$IMAGE" = "$ROOT/build/chase.img" ] || return 1
    while [ $# -gt 0 ]; do
        [ $# -ge 2 ] || return 1
        case "$1" in
        --mem) mem=$2 ;;
        --cpu) cpu=$2 ;;
        --smp) smp=$2 ;;
        --arch) arch=$2 ;;
        --timeout) timeout=$2 ;;
        --set | --qemu) rest+=("$1" "$2") ;;
        *) return 1 ;; # the disk or the run's course changes: never shared
        esac
        shift 2
    done
    printf '%s\n' "$arch" "$cpu" "$mem" "$smp" "$timeout" "${rest[@]}" | md5sum | cut -c1-16
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
