# SPDX-License-Identifier: MIT
# The test's encoder of results = serial (docs/serial-log.md): a run folder as CHASE-FILE lines,
# CR LF, with console text between them and before some of them, manifest.json last.
#   python3 serial_encode.py DIR MACHINE RUN_ID > LOG
import base64
import hashlib
import os
import sys
import zlib

CHUNK = 192  # bytes of a file per data line, at most


def main():
    folder, machine, run_id = sys.argv[1:4]
    names = sorted(n for n in os.listdir(folder) if n != "manifest.json")
    names.append("manifest.json")
    tag = "CHASE-FILE v=1 run=%s " % run_id
    out = sys.stdout.buffer
    def line(text):
        out.write(text.encode() + b"\r\n")
    line("chase 0.1.0: results = serial, %d files follow" % len(names))
    line(tag + "kind=run machine=%s files=%d" % (machine, len(names)))
    for i, name in enumerate(names):
        data = open(os.path.join(folder, name), "rb").read()
        line(tag + "kind=begin name=%s size=%d sha256=%s" %
             (name, len(data), hashlib.sha256(data).hexdigest()))
        chunks = [data[k:k + CHUNK] for k in range(0, len(data), CHUNK)]
        for seq, chunk in enumerate(chunks):
            # console text before the tag on some lines, as a firmware's output may put there
            prefix = "\x1b[0m" if seq % 7 == 3 else ""
            line(prefix + tag + "kind=data name=%s seq=%d crc32=%08x b64=%s" %
                 (name, seq, zlib.crc32(chunk), base64.b64encode(chunk).decode()))
            if seq % 50 == 49:
                line("progress: %s %d/%d" % (name, seq + 1, len(chunks)))
        line(tag + "kind=end name=%s chunks=%d" % (name, len(chunks)))
    line(tag + "kind=done files=%d" % len(names))
    line("results: streamed on the serial port")


main()
