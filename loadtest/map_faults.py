#!/usr/bin/env python3
"""Map file faults under load: the long run of issue 26's table (docs/PERFORMANCE.md).

For each way an operator (or a disk) can change `town.wmesh` under a running waymesh-server,
start a fresh server on a maps directory holding the demo town, drive FindPath on map `town` with
waymesh-load for --seconds, apply the fault one second in (and the restore, where the case has
one, halfway), and count the calls that failed. Then SIGTERM the server and time its exit.
Prints one Markdown row per case: calls, failed calls, the p99 latency of the OK calls, the
server's map reloads and rejected files by the end (what the fault made it do), the time from
SIGTERM to exit and the errors. The CI suite (tests/server/map_file_faults_test.cc) runs the
same cases shorter and asserts zero failed calls; this script gives the figures.

  python3 loadtest/map_faults.py [--build build/rel] [--server BIN] [--seconds 20] [--cases a,b]

--server runs another waymesh-server binary (e.g. an older build, for a before/after table);
flags it does not know (--spool-dir) are left out; --reload-settle and --map-removal-grace
keep their defaults (1 s, 30 s), so the deleted file is back well within the grace.
Traffic goes to 127.0.0.1 only; every run is bounded by --seconds.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# How long each corrupt file stays in place: longer than the server's default --reload-settle
# (1 s) plus a poll, so each one is examined (and rejected) rather than skipped as unsettled.
CORRUPT_HOLD_S = 1.6


def write_in_place(path, data, chunk=None, pause=0.0):
    """cp-style: truncate the existing file and write into it (same inode)."""
    with open(path, "r+b" if os.path.isfile(path) else "wb") as f:
        f.truncate(0)
        f.flush()
        step = chunk or len(data)
        for i in range(0, len(data), step):
            f.write(data[i:i + step])
            f.flush()
            if pause:
                time.sleep(pause)


def rename_into(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.rename(tmp, path)


def corrupt_variants(good):
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x10
    wrong_version = bytearray(good)
    wrong_version[8] = 0x7F
    return [bytes(flipped), good[: len(good) // 2], b"", bytes(wrong_version),
            os.urandom(len(good))]


class Case:
    def __init__(self, name, fault, restore=None):
        self.name, self.fault, self.restore = name, fault, restore


def make_cases(path, a, b, later):
    """The cases; `later` is how many seconds after the fault the restore comes."""
    def flap():
        end = time.time() + 3
        i = 0
        while time.time() < end:
            rename_into(path, b if i % 2 == 0 else a)
            i += 1
            time.sleep(0.05)
        rename_into(path, a)

    def bit_flip():
        fd = os.open(path, os.O_WRONLY)
        at = len(a) * 2 // 3  # inside a tile
        os.pwrite(fd, bytes([a[at] ^ 0x01]), at)
        os.close(fd)

    def to_directory():
        os.unlink(path)
        os.mkdir(path)

    def from_directory():
        os.rmdir(path)
        write_in_place(path, a)

    def to_fifo():
        tmp = path + ".fifo"
        os.mkfifo(tmp)
        os.rename(tmp, path)

    return [
        Case("atomic rename of corrupt files (bit flip, truncated, empty, version, garbage)",
             lambda: [(rename_into(path, c), time.sleep(CORRUPT_HOLD_S))
                      for c in corrupt_variants(a)],
             lambda: rename_into(path, a)),
        Case("atomic renames of a different valid map every 50 ms", flap),
        Case("in-place overwrite, same content", lambda: write_in_place(path, a)),
        Case("in-place overwrite, different valid map", lambda: write_in_place(path, b)),
        Case("slow in-place write (64 KiB every 50 ms)",
             lambda: write_in_place(path, b, chunk=64 << 10, pause=0.05)),
        Case("in-place truncate to 1000 bytes, later replaced",
             lambda: os.truncate(path, 1000), lambda: rename_into(path, a)),
        Case("one bit flipped in place in tile data", bit_flip),
        Case(f"deleted, restored {later:g} s later", lambda: os.unlink(path),
             lambda: write_in_place(path, a)),
        Case(f"replaced by a directory, restored {later:g} s later", to_directory,
             from_directory),
        Case(f"FIFO renamed over the map, restored {later:g} s later", to_fifo,
             lambda: rename_into(path, a)),
    ]


def restore_after(args):
    """The fault comes 1 s into the load, the restore halfway through it."""
    return args.seconds / 2 - 1


def map_metrics(port):
    """'reloads / rejected' from the server's counters (what the fault made the server do)."""
    try:
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
    except OSError:
        return "?"
    values = {}
    for line in text.decode().splitlines():
        name, _, value = line.partition(" ")
        values[name] = value
    return " / ".join(values.get(n, "-").split(".")[0] for n in
                      ("waymesh_map_reloads_total", "waymesh_map_reload_failures_total"))


def server_flags(server):
    out = subprocess.run([server, "--help"], capture_output=True, text=True).stdout
    return out


def run_case(args, case_index, work, town_a, town_b, data_file, help_text):
    maps = os.path.join(work, f"maps{case_index}")
    os.makedirs(maps)
    path = os.path.join(maps, "town.wmesh")
    with open(path, "wb") as f:
        f.write(town_a)
    case = make_cases(path, town_a, town_b, restore_after(args))[case_index]
    port, metrics_port = free_port(), free_port()
    argv = [args.server, f"--maps-dir={maps}", "--listen-address=127.0.0.1", f"--port={port}",
            "--metrics-address=127.0.0.1", f"--metrics-port={metrics_port}",
            f"--reload-interval={args.reload_interval}", "--workers=2",
            f"--tile-cache-bytes={args.tile_cache_bytes}"]
    if "--spool-dir" in help_text:
        spool = os.path.join(work, f"spool{case_index}")
        os.makedirs(spool)
        argv.append(f"--spool-dir={spool}")
    log = open(os.path.join(work, f"server{case_index}.log"), "w")
    server = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        report = os.path.join(work, f"report{case_index}.json")
        load = subprocess.Popen(
            [args.load, "--proto", os.path.join(ROOT, "proto/waymesh/v1/navigation.proto"),
             "-i", os.path.join(ROOT, "proto"), "--call", "waymesh.v1.NavigationService.FindPath",
             "--insecure", "-c", "4", "--connections", "1", "-D", data_file, "-z",
             f"{args.seconds}s", "-t", "5s", "-O", "json", "-o", report,
             f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL)
        time.sleep(1)
        fault = threading.Thread(target=case.fault)
        fault.start()
        if case.restore:
            time.sleep(restore_after(args))
            fault.join()
            case.restore()
        fault.join()
        load.wait(timeout=args.seconds + 60)
        with open(report) as f:
            r = json.load(f)
        codes = r["statusCodeDistribution"]
        failed = sum(n for code, n in codes.items() if code != "OK")
        errors = ", ".join(f"{n}x {e[:60]}" for e, n in r.get("errorDistribution", {}).items())
        p99 = next((d["latency"] / 1e6 for d in r.get("latencyDistribution") or []
                    if d["percentage"] == 99), 0.0)
        reloads = map_metrics(metrics_port)
        begin = time.time()
        server.send_signal(signal.SIGTERM)
        try:
            rc = server.wait(timeout=30)
            stop = f"{time.time() - begin:.1f} s (exit {rc})"
        except subprocess.TimeoutExpired:
            stop = "did not exit in 30 s"
        return case.name, r["count"], failed, f"{p99:.1f}", reloads, stop, errors
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        log.close()
        # A FIFO or directory may be in place of the map; rmtree copes with both.
        shutil.rmtree(maps, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build/rel"))
    p.add_argument("--server", help="waymesh-server binary (default: BUILD/server/...)")
    p.add_argument("--seconds", type=float, default=20.0, help="load per case")
    p.add_argument("--reload-interval", default="200ms")
    # Smaller than the town's map (0.67 MB), so tiles are read from the map while the run goes
    # on, as on a server whose maps exceed its budget.
    p.add_argument("--tile-cache-bytes", type=int, default=256 << 10)
    p.add_argument("--cases", help="comma-separated case numbers (0-based); default all")
    args = p.parse_args()
    args.server = args.server or os.path.join(args.build, "server/waymesh-server")
    args.load = os.path.join(args.build, "loadtest/waymesh-load")
    waymesh = os.path.join(args.build, "waymesh")
    work = tempfile.mkdtemp(prefix="waymesh-faults-")
    try:
        towns = []
        for seed in (7, 8):
            src = os.path.join(work, f"town{seed}.json")
            out = os.path.join(work, f"town{seed}.wmesh")
            subprocess.run([waymesh, "demo-world", "--size", "200", "--seed", str(seed), "-o", src],
                           check=True, stdout=subprocess.DEVNULL)
            subprocess.run([waymesh, "build", "-q", src, "-o", out], check=True,
                           stdout=subprocess.DEVNULL)
            with open(out, "rb") as f:
                towns.append(f.read())
        data_file = os.path.join(work, "findpath.json")
        subprocess.run([waymesh, "loaddata", os.path.join(work, "town7.wmesh"), "--map-id", "town",
                        "--rpc", "FindPath", "--count", "500", "-o", data_file], check=True,
                       stdout=subprocess.DEVNULL)
        help_text = server_flags(args.server)
        count = len(make_cases("/nonexistent", b"x" * 64, b"y" * 64, 0))
        chosen = [int(c) for c in args.cases.split(",")] if args.cases else range(count)
        print(f"server {args.server}, {args.seconds:g} s of FindPath per case (4 in flight)")
        print("| what happened to town.wmesh | calls | failed | p99 ms | reloads / rejected "
              "| SIGTERM to exit | errors |")
        print("|---|---|---|---|---|---|---|")
        for i in chosen:
            row = run_case(args, i, work, towns[0], towns[1], data_file, help_text)
            print("| " + " | ".join(str(v) for v in row) + " |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
