#!/usr/bin/env python3
"""boot-linux.py IMAGE INITRAMFS: boots an arm64 Linux Image under qemu-system-aarch64
(-machine virt -cpu cortex-a57, no network card) with INITRAMFS as its initrd and the console
on the board's PL011 (console=ttyAMA0), waits for the line the initramfs's /init prints
(linux-init/init.c: "smartcc-board: init ran on Linux VERSION") and for the machine to power
off; prints the kernel's banner and that line. Exits non-zero if either does not come in
time."""
import re, subprocess, sys

LINE = re.compile(rb"smartcc-board: init ran on Linux (\S+)")
BANNER = re.compile(rb"Linux version [^\r\n]*")


def main():
    image, initrd = sys.argv[1], sys.argv[2]
    cmd = ["qemu-system-aarch64", "-machine", "virt", "-cpu", "cortex-a57", "-m", "256",
           "-nographic", "-nic", "none", "-no-reboot", "-kernel", image, "-initrd", initrd,
           "-append", "console=ttyAMA0 panic=-1"]
    try:
        out = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                             timeout=int(sys.argv[3]) if len(sys.argv) > 3 else 120).stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or b""
        print("timeout; last output: " + out.decode(errors="replace")[-600:])
        return 1
    banner, line = BANNER.search(out), LINE.search(out)
    if banner:
        print("banner: " + banner.group(0).decode(errors="replace"))
    if not line:
        print("no line from /init; last output: " + out.decode(errors="replace")[-600:])
        return 1
    print("init: " + line.group(0).decode(errors="replace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
