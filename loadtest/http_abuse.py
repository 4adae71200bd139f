#!/usr/bin/env python3
"""HTTP abuse of waymesh-server's metrics port: the long run of issue 26 (docs/PERFORMANCE.md).

Starts waymesh-server on an empty maps directory and, one after the other:
  1. POSTs --post-mb MB to /metrics (declared with Content-Length, then sent anyway) and
     reports the answer and the server's RSS before and after;
  2. holds --slow slowloris connections (each sends one more header byte between probes, about
     every 200 ms) for --seconds and probes /healthz every 200 ms meanwhile;
  3. opens --idle idle connections (giving up after --open-seconds) and probes /healthz 20 times,
     reporting the server's descriptors and RSS.
Each probe is a fresh connection with a 2 s budget; a probe that gets no 200 counts as failed.
The CI tests (tests/server/http_abuse_test.cc) assert the same shorter; this gives figures.

  python3 loadtest/http_abuse.py [--build build/rel] [--server BIN] [--seconds 30]

--server runs another binary (e.g. an older build) for a before/after comparison.
Traffic goes to 127.0.0.1 only; every phase is bounded.
"""

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# How long sending one MB of the big POST may stall before the server counts as not reading.
POST_STALL_S = 10


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid, field="VmRSS"):
    """The server's resident memory now (VmRSS) or at its peak so far (VmHWM), in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def probe(port, timeout=2.0):
    """Seconds /healthz took to answer 200, or None."""
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = b""
            while b"\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    return None
                data += chunk
            return time.monotonic() - start if data.split()[1] == b"200" else None
    except OSError:
        return None


def summarize(samples):
    ok = [s for s in samples if s is not None]
    if not ok:
        return f"0 of {len(samples)} answered"
    return (f"{len(ok)} of {len(samples)} answered, median {statistics.median(ok) * 1000:.1f} ms, "
            f"max {max(ok) * 1000:.1f} ms")


def big_post(port, megabytes):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: {megabytes << 20}\r\n\r\n"
              .encode())
    chunk = b"p" * (1 << 20)
    sent = 0
    # A server that reads slowly (a loaded machine) still gets the whole body; one that has
    # stopped reading blocks this send for the timeout, one that closed fails it at once.
    s.settimeout(POST_STALL_S)
    try:
        for _ in range(megabytes):
            s.sendall(chunk)
            sent += 1
    except OSError:
        pass
    answer = b""
    try:
        s.settimeout(5)
        answer = s.recv(4096)
    except OSError:
        pass
    s.close()
    status = answer.split()[1].decode() if len(answer.split()) > 1 else "none"
    return sent, status


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build/rel"))
    p.add_argument("--server")
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--post-mb", type=int, default=300)
    p.add_argument("--slow", type=int, default=50)
    p.add_argument("--idle", type=int, default=3000)
    p.add_argument("--open-seconds", type=float, default=120,
                   help="most time spent opening the idle connections")
    args = p.parse_args()
    server_bin = args.server or os.path.join(args.build, "server/waymesh-server")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    work = tempfile.mkdtemp(prefix="waymesh-http-abuse-")
    os.makedirs(f"{work}/maps")
    os.makedirs(f"{work}/spool")
    port = free_port()
    argv = [server_bin, f"--maps-dir={work}/maps", "--listen-address=127.0.0.1", "--port=0",
            "--metrics-address=127.0.0.1", f"--metrics-port={port}", "--log-level=error"]
    help_text = subprocess.run([server_bin, "--help"], capture_output=True, text=True).stdout
    if "--spool-dir" in help_text:
        argv.append(f"--spool-dir={work}/spool")
    server = subprocess.Popen(argv)
    try:
        for _ in range(100):
            if probe(port):
                break
            time.sleep(0.1)
        print(f"server {server_bin}")
        print("| phase | result |")
        print("|---|---|")
        before = rss_mb(server.pid)
        begin = time.monotonic()
        sent, status = big_post(port, args.post_mb)
        took = time.monotonic() - begin
        time.sleep(0.5)
        print(f"| POST {args.post_mb} MB to /metrics | answer {status} after {took:.1f} s; {sent} "
              f"MB sent before the server stopped reading or closed; RSS {before:.1f} -> "
              f"{rss_mb(server.pid):.1f} MB, peak {rss_mb(server.pid, 'VmHWM'):.1f} MB |",
              flush=True)

        slow = []
        for _ in range(args.slow):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /healthz HTTP/1.1\r\nX-Slow: ")
            slow.append(s)
        samples = []
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            for s in slow:
                try:
                    s.send(b"a")
                except OSError:
                    pass
            samples.append(probe(port))
            time.sleep(0.2)
        open_slow = 0
        for s in slow:
            try:
                s.send(b"a")
                open_slow += 1
            except OSError:
                pass
            s.close()
        print(f"| {args.slow} slowloris connections, {args.seconds:g} s | /healthz: "
              f"{summarize(samples)}; {open_slow} of them still open at the end; RSS "
              f"{rss_mb(server.pid):.1f} MB |", flush=True)

        fds_before = descriptors(server.pid)
        idle = []
        refused = 0
        give_up = time.monotonic() + args.open_seconds
        for _ in range(args.idle):
            if time.monotonic() > give_up:
                break
            try:
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=2))
            except OSError:
                refused += 1
        time.sleep(0.5)
        samples = [probe(port) for _ in range(20)]
        print(f"| {len(idle) + refused} idle connections | /healthz: {summarize(samples)}; server "
              f"descriptors {fds_before} -> {descriptors(server.pid)}; RSS "
              f"{rss_mb(server.pid):.1f} MB; {refused} connects failed |", flush=True)
        for s in idle:
            s.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    sys.exit(main())
