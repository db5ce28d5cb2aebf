#!/usr/bin/env python3
"""cloudchecks benchmark: the cost of one plugin run against Node's own start-up.

Starts the simulator (dist/cloudchecks-sim) on 127.0.0.1, then runs every command
interleaved (A B C ... A B C ...) so that drift of a shared machine hits them all alike,
and measures each run as a whole process with wait4(): wall time, CPU time (user+sys),
peak RSS. Prints a table and writes it to bench/RESULTS.md (between the markers).

    python3 bench/bench.py [--runs 20] [--no-write]

Public tools only: Python 3 standard library, node, curl and jq.

Every command runs without NODE_EXTRA_CA_CERTS, as on a monitoring host. If the caller's
environment sets it (some build machines point it at the system bundle), the small checks
and their baselines are measured a second time with it: Node then parses that bundle at
start-up, which moves the cost of TLS trust from the checks into the floor and changes
every ratio to the floor. Both are reported.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import ssl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIST = os.path.join(ROOT, "dist")
RESULTS = os.path.join(ROOT, "bench", "RESULTS.md")
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def measure(argv, env=None):
    """Runs argv once; returns (exit code, wall s, cpu s, peak RSS MiB) of the whole process tree."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def start_sim(args, workdir, name):
    ready = os.path.join(workdir, f"{name}.json")
    proc = subprocess.Popen([os.path.join(DIST, "cloudchecks-sim"), "--ready-file", ready,
                             "--state-dir", os.path.join(workdir, name)] + args,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while not os.path.exists(ready):
        if proc.poll() is not None:
            sys.exit(f"simulator {name} exited: {proc.stderr.read().decode()}")
        if time.time() > deadline:
            proc.kill()
            sys.exit(f"simulator {name} not ready after 120 s")
        time.sleep(0.05)
    time.sleep(0.05)
    with open(ready) as f:
        return proc, json.load(f)


def http_json(method, url, cafile):
    ctx = ssl.create_default_context(cafile=cafile)
    req = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(req, context=ctx, timeout=10) as r:
        body = r.read()
        return json.loads(body) if body else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20, help="runs of each command (default 20)")
    ap.add_argument("--no-write", action="store_true", help="print only, do not update bench/RESULTS.md")
    opts = ap.parse_args()
    runs = max(1, min(opts.runs, 200))
    for tool in ("node", "curl", "jq"):
        if not shutil.which(tool):
            sys.exit(f"bench needs {tool} on PATH")

    workdir = tempfile.mkdtemp(prefix="cloudchecks-bench-")
    sims = []
    try:
        small_proc, small = start_sim(["--cluster-scenario", "healthy"], workdir, "small")
        sims.append(small_proc)
        large_proc, large = start_sim(["--cluster-scenario", "large", "--cluster-nodes", "5000"], workdir, "large")
        sims.append(large_proc)
        ca = small["caFile"]
        cluster_s, cluster_l, vcd = small["apis"]["cluster"], large["apis"]["cluster"], small["apis"]["vcd"]
        token_file = cluster_s["tokenFile"]
        token_file_l = cluster_l["tokenFile"]
        header_file = os.path.join(workdir, "curl-headers")
        with open(token_file) as f:
            token = f.read().strip()
        with open(header_file, "w") as f:
            f.write(f"Authorization: Bearer {token}\nAccept: application/json\n")
        os.chmod(header_file, 0o600)

        cache = os.path.join(workdir, "vm-cache")
        vm_base = [os.path.join(DIST, "check_vm_cpu"), "--url", vcd["httpsUrl"], "--vm", vcd["healthyVm"],
                   "--user", vcd["user"], "--org", vcd["org"], "--password-file", vcd["passwordFile"],
                   "--ca-file", ca]
        nodes = lambda c, tf: [os.path.join(DIST, "check_nodes"), "--url", c["httpsUrl"], "--token-file", tf, "--ca-file", ca]
        peer = lambda c, tf: [sys.executable, os.path.join(ROOT, "bench", "peers", "check_nodes_python.py"),
                              "--url", c["httpsUrl"], "--token-file", tf, "--ca-file", ca]
        https_get = ("const h=require('https');h.get(process.argv[1],{ca:require('fs').readFileSync(process.argv[2])},"
                     "r=>{r.resume();r.on('end',()=>process.exit(0))})")
        commands = [
            ("node -e 0 (floor)", ["node", "-e", "0"]),
            ("bare https.get script", ["node", "-e", https_get, cluster_s["httpsUrl"] + "/version", ca]),
            ("check_nodes, 6 nodes", nodes(cluster_s, token_file)),
            ("check_nodes, 5000 nodes", nodes(cluster_l, token_file_l)),
            ("check_vm_cpu current, warm cache", vm_base + ["--cache-dir", cache]),
            ("check_vm_cpu --window 1h, warm cache", vm_base + ["--cache-dir", cache, "--window", "1h"]),
            ("check_vm_cpu --no-cache", vm_base + ["--no-cache"]),
            ("curl piped to jq, 6 nodes (one page)", ["sh", "-c", f"curl -sS --cacert {ca} -H @{header_file} "
                                               f"'{cluster_s['httpsUrl']}/api/v1/nodes?limit=500' | jq -e '[.items[] | "
                                               f"select(any(.status.conditions[]; .type==\"Ready\" and .status!=\"True\"))] | length == 0' >/dev/null"]),
            ("Python stdlib plugin, 6 nodes", peer(cluster_s, token_file)),
            ("Python stdlib plugin, 5000 nodes", peer(cluster_l, token_file_l)),
        ]

        plain_env = {k: v for k, v in os.environ.items() if k != "NODE_EXTRA_CA_CERTS"}
        runs_list = [(name, argv, plain_env) for name, argv in commands]
        extra_ca = os.environ.get("NODE_EXTRA_CA_CERTS")
        small = ("node -e 0 (floor)", "bare https.get script", "check_nodes, 6 nodes",
                 "check_vm_cpu current, warm cache", "check_vm_cpu --window 1h, warm cache")
        if extra_ca:
            runs_list += [(f"{name} [NODE_EXTRA_CA_CERTS]", argv, dict(os.environ)) for name, argv in commands if name in small]

        # Warm-up: one run each (fills the session cache, the page cache, the simulators' caches).
        for name, argv, env in runs_list:
            code, *_ = measure(argv, env)
            if code not in (0, 1, 2):
                sys.exit(f"warm-up of '{name}' exited {code}: {' '.join(argv)}")

        samples = {name: [] for name, _, _ in runs_list}
        for _ in range(runs):
            for name, argv, env in runs_list:
                samples[name].append(measure(argv, env)[1:])

        # 100 sequential warm-cache checks: how many logins did the cloud-director API see?
        http_json("DELETE", vcd["httpsUrl"] + "/_sim/stats", ca)
        seq_cache = os.path.join(workdir, "seq-cache")
        for _ in range(100):
            measure(vm_base + ["--cache-dir", seq_cache], plain_env)
        logins = (http_json("GET", vcd["httpsUrl"] + "/_sim/stats", ca) or {}).get("login", 0)
    finally:
        for p in sims:
            p.send_signal(signal.SIGTERM)
        for p in sims:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(workdir, ignore_errors=True)

    def median_wall(name):
        return statistics.median(s[0] for s in samples[name])

    py5000 = median_wall("Python stdlib plugin, 5000 nodes")
    rows = []
    for name in samples:
        suffix = " [NODE_EXTRA_CA_CERTS]" if name.endswith(" [NODE_EXTRA_CA_CERTS]") else ""
        floor = median_wall("node -e 0 (floor)" + suffix)
        https_get = median_wall("bare https.get script" + suffix)
        walls = [s[0] for s in samples[name]]
        cpu = statistics.median(s[1] for s in samples[name])
        rss = statistics.median(s[2] for s in samples[name])
        wall = statistics.median(walls)
        rows.append((name, wall, min(walls), max(walls), cpu, rss, wall / floor, wall / https_get))

    lines = [
        f"Measured {datetime.date.today().isoformat()} on {platform.machine()} {os.cpu_count()} cores "
        f"({cpu_model()}), Linux {platform.release()}, Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}, "
        f"Python {platform.python_version()}; {runs} interleaved runs of each, medians. Rows marked "
        f"[NODE_EXTRA_CA_CERTS] ran with that variable set{' (to ' + extra_ca + ')' if extra_ca else ' (not set here: none)'}; "
        f"their ratios are to the floor and https.get measured the same way.",
        "",
        "| command | wall ms (min-max) | CPU ms | peak RSS MiB | wall / floor | wall / https.get |",
        "|---|---|---|---|---|---|",
    ]
    for name, wall, lo, hi, cpu, rss, ratio, vs_get in rows:
        lines.append(f"| {name} | {wall*1000:.0f} ({lo*1000:.0f}-{hi*1000:.0f}) | {cpu*1000:.0f} | {rss:.1f} | {ratio:.2f} | {vs_get:.2f} |")
    get = {r[0]: r for r in rows}
    checks = []
    for suffix in [""] + ([" [NODE_EXTRA_CA_CERTS]"] if extra_ca else []):
        for name in ("check_nodes, 6 nodes", "check_vm_cpu current, warm cache", "check_vm_cpu --window 1h, warm cache"):
            ratio = get[name + suffix][6]
            checks.append((f"{name}{suffix} <= 1.3 x floor", ratio <= 1.3, f"{ratio:.2f} x ({get[name + suffix][7]:.2f} x bare https.get)"))
    checks += [
        ("check_nodes, 5000 nodes <= 0.7 x Python peer", get["check_nodes, 5000 nodes"][1] <= 0.7 * py5000, f"{get['check_nodes, 5000 nodes'][1] / py5000:.2f} x"),
        ("check_nodes, 5000 nodes < 100 MiB peak RSS", get["check_nodes, 5000 nodes"][5] < 100, f"{get['check_nodes, 5000 nodes'][5]:.1f} MiB"),
        ("100 sequential warm-cache VM checks make 1 login", logins <= 1, f"{logins} login(s)"),
    ]
    lines += ["", "| target | measured | met |", "|---|---|---|"]
    for name, ok, figure in checks:
        lines.append(f"| {name} | {figure} | {'yes' if ok else 'NO'} |")
    table = "\n".join(lines)
    print(table)
    if not opts.no_write:
        write_results(table)
    return 0


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def write_results(table):
    text = open(RESULTS).read() if os.path.exists(RESULTS) else f"# Benchmark results\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text:
        text += f"\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1] if END in rest else ""
    with open(RESULTS, "w") as f:
        f.write(f"{head}{BEGIN}\n{table}\n{END}{tail}")


if __name__ == "__main__":
    sys.exit(main())
