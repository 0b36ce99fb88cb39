#!/usr/bin/env python3
"""boot-u-boot.py U-BOOT.BIN: boots U-Boot under qemu-system-aarch64 (-machine virt -cpu
cortex-a57, the image as the board's flash, no network card: its boot ROM is another
package's), waits for its prompt, types `version` and
`crc32 0x40000000 0x1000` (a checksum of the first page of RAM as U-Boot left it: compared
between two builds, not with a constant) and prints what U-Boot answered, one line each:
`banner`, `version`, `crc32`. Exits non-zero if the prompt or an answer does not come in time
or an answer is missing."""
import os, re, select, subprocess, sys, time

PROMPT = b"=> "


def read_until(proc, pattern, limit):
    data = b""
    end = time.time() + limit
    while time.time() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            data += chunk
            if re.search(pattern, data):
                return data
    raise TimeoutError(data.decode(errors="replace")[-400:])


def main():
    image = sys.argv[1]
    proc = subprocess.Popen(["qemu-system-aarch64", "-machine", "virt", "-cpu", "cortex-a57",
                             "-m", "256", "-nographic", "-nic", "none", "-bios", image],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        boot = read_until(proc, rb"\n=> $|Hit any key", 60)
        if b"Hit any key" in boot:  # stop autoboot
            proc.stdin.write(b"\n"); proc.stdin.flush()
            boot += read_until(proc, rb"\n=> $", 30)
        banner = re.search(rb"U-Boot \d{4}\.\d{2}[^\r\n]*", boot)
        print("banner", banner.group(0).decode() if banner else "?")
        answers = {}
        for name, cmd in (("version", b"version\n"), ("crc32", b"crc32 0x40000000 0x1000\n")):
            proc.stdin.write(cmd); proc.stdin.flush()
            out = read_until(proc, rb"\n=> $", 30).decode(errors="replace")
            lines = [l.strip() for l in out.splitlines()
                     if l.strip() and not l.startswith("=>") and l.strip() != cmd.decode().strip()]
            answers[name] = " | ".join(lines)
            print(name, answers[name])
        ok = banner and "U-Boot" in answers["version"] and "==>" in answers["crc32"]
        return 0 if ok else 1
    except TimeoutError as e:
        print("timeout; last output:", str(e).replace("\n", " | "))
        return 2
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    sys.exit(main())
