#!/usr/bin/env python3
"""cloudchecks benchmark: the cost of one plugin run, on each tested Node.js.

Starts the simulator (dist/cloudchecks-sim, on the host's Node, the same server for every
version) on 127.0.0.1. Then, for each Node.js of scripts/node-versions (fetched into
.cache/node by scripts/fetch-node when missing), puts that Node first in PATH (the
executables start with #!/usr/bin/env node) and runs every command interleaved
(A B C ... A B C ...) so that drift of a shared machine hits them all alike, measuring each
run as a whole process with wait4(): wall time, CPU time (user+sys), peak RSS. Writes one
table per version, with the targets and whether each is met, to bench/RESULTS.md (between
the markers). Where a target is missed, it profiles that run (node --cpu-prof, or the peak
of process.memoryUsage() for memory) and writes the summary under the table.

    python3 bench/bench.py [--runs 20] [--node 18,20,22,24] [--no-write] [--baseline DIR] [--skip-fleet]

With --baseline DIR (the dist/ of another build, e.g. `git worktree add /tmp/b main && cd
/tmp/b && node build.mjs /tmp/b/dist`), each plugin row is run a second time from DIR,
interleaved with the others, and the table shows the ratio of the two: before and after in
the same run, on the same machine load.

Public tools only: Python 3 standard library, node, curl and jq. Every command runs without
NODE_EXTRA_CA_CERTS, as on a monitoring host.
"""
import argparse
import base64
import collections
import datetime
import glob
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

# A bare Node HTTPS client: trusts the same CA, sends the same headers, reads the whole body
# and parses it (JSON.parse; an XML body is decoded to a string, as a reader would start).
HTTPS_GET = ("const h=require('https'),[u,ca,auth,accept]=process.argv.slice(1);"
             "h.get(u,{ca:require('fs').readFileSync(ca),headers:{authorization:auth,accept}},r=>{const c=[];"
             "r.on('data',d=>c.push(d));r.on('end',()=>{const t=Buffer.concat(c).toString();"
             "if(/json/.test(r.headers['content-type']))JSON.parse(t);process.exit(r.statusCode===200?0:3)})})")

PAGES_GET = ("const h=require('https'),[u,ca,auth]=process.argv.slice(1),agent=new h.Agent({keepAlive:true}),"
             "opts={agent,ca:require('fs').readFileSync(ca),headers:{authorization:auth,accept:'application/json'}};"
             "const page=q=>h.get(u+'/api/v1/nodes?limit=500'+(q?'&continue='+encodeURIComponent(q):''),opts,r=>{let head='';"
             "r.on('data',d=>{if(head.length<4096)head+=d.toString('latin1',0,4096)});r.on('end',()=>{"
             "const m=/\"continue\":\"([^\"]+)\"/.exec(head);if(m)page(m[1]);else process.exit(0)})});page()")


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


def http(method, url, cafile, headers=None):
    ctx = ssl.create_default_context(cafile=cafile)
    req = urllib.request.Request(url, method=method, headers=headers or {})
    with urllib.request.urlopen(req, context=ctx, timeout=10) as r:
        body = r.read()
        return r.headers, (json.loads(body) if body and "json" in r.headers.get("content-type", "") else body)


def node_versions(wanted):
    """(version, bin dir) of each tested Node.js, fetched when missing."""
    out = []
    for major in wanted:
        d = subprocess.run([os.path.join(ROOT, "scripts", "fetch-node"), major], capture_output=True, text=True)
        if d.returncode != 0:
            sys.exit(f"cannot get Node.js {major}: {d.stderr.strip()}")
        path = d.stdout.strip()
        out.append((os.path.basename(path), os.path.join(path, "bin")))
    return out


def bucket_of(fn, where):
    if where.startswith("check_"):
        return "the bundle's own code"
    if fn == "(garbage collector)":
        return "garbage collector"
    if where == "native":
        return "V8 and native code (OpenSSL, compiler)"
    return "Node's JavaScript (module loading, https, tls, streams)"


def cpu_profile(argv, env, workdir, runs=5):
    """Self time (microseconds, summed over `runs` runs of node --cpu-prof) per (function, file), idle left out."""
    profdir = tempfile.mkdtemp(dir=workdir, prefix="prof-")
    for _ in range(runs):
        subprocess.run(["node", "--cpu-prof", f"--cpu-prof-dir={profdir}", "--cpu-prof-interval=250"] + argv, env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    self_us = collections.Counter()
    files = glob.glob(os.path.join(profdir, "*.cpuprofile"))
    for file in files:
        with open(file) as f:
            prof = json.load(f)
        frames = {n["id"]: n["callFrame"] for n in prof["nodes"]}
        for node_id, dt in zip(prof["samples"], prof["timeDeltas"]):
            cf = frames[node_id]
            if cf.get("functionName") == "(idle)":
                continue  # waiting for the server or the scheduler
            self_us[(cf.get("functionName") or "(anonymous)", os.path.basename(cf.get("url") or "") or "native")] += dt
    return self_us, max(1, len(files))


def compare_profiles(argv, ref_argv, env, workdir):
    """Where the check's CPU time goes, beside the bare https.get it is measured against."""
    a, na = cpu_profile(argv, env, workdir)
    b, nb = cpu_profile(ref_argv, env, workdir)
    buckets = collections.OrderedDict((k, [0.0, 0.0]) for k in (
        "the bundle's own code", "Node's JavaScript (module loading, https, tls, streams)",
        "V8 and native code (OpenSSL, compiler)", "garbage collector"))
    for (fn, where), us in a.items():
        buckets[bucket_of(fn, where)][0] += us / na / 1000
    for (fn, where), us in b.items():
        buckets[bucket_of(fn, where)][1] += us / nb / 1000
    lines = ["CPU time per run by kind, the check beside its bare https.get (`node --cpu-prof`, 5 runs each):", "",
             "| kind | check ms | bare https.get ms |", "|---|---|---|"]
    for k, (x, y) in buckets.items():
        lines.append(f"| {k} | {x:.1f} | {y:.1f} |")
    lines.append(f"| all | {sum(v[0] for v in buckets.values()):.1f} | {sum(v[1] for v in buckets.values()):.1f} |")
    return lines + [""]


def cpu_profile_summary(argv, env, workdir, runs=5, top=8):
    """The functions with the most self time per run in the check (summed over `runs` runs)."""
    self_us, n = cpu_profile(argv, env, workdir, runs)
    total = sum(self_us.values()) or 1
    lines = [f"Most self time in the check (`(program)`: V8 and native code; the bundle is `check_*`):", "",
             "| function | file | self ms per run | share |", "|---|---|---|---|"]
    for (fn, where), us in self_us.most_common(top):
        lines.append(f"| {fn} | {where} | {us / n / 1000:.1f} | {100 * us / total:.0f} % |")
    return lines


def memory_profile_summary(argv, env, workdir):
    """Runs a plugin once with bench/memory-probe.cjs preloaded: the peaks of process.memoryUsage()."""
    out = os.path.join(workdir, "memory.json")
    penv = dict(env, CLOUDCHECKS_MEMORY_PROBE=out)
    subprocess.run(["node", "-r", os.path.join(ROOT, "bench", "memory-probe.cjs")] + argv, env=penv,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = os.path.join(workdir, "memory-base.json")
    bare = ("require('https');require('tls').createSecureContext({ca:require('fs').readFileSync(process.argv[1])})")
    subprocess.run(["node", "-r", os.path.join(ROOT, "bench", "memory-probe.cjs"), "-e", bare, argv[-1]],
                   env=dict(env, CLOUDCHECKS_MEMORY_PROBE=base), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with open(out) as f:
            m = json.load(f)
        with open(base) as f:
            b = json.load(f)
    except (OSError, ValueError):
        return ["(memory probe wrote nothing)"]
    return [f"Peaks of `process.memoryUsage()` (MiB): the run: RSS {m['rss']}, JS heap used {m['heapUsed']} "
            f"(total {m['heapTotal']}), ArrayBuffers (page buffers, socket chunks) {m['arrayBuffers']}, "
            f"external {m['external']}; Node with `https` loaded and one TLS context, nothing else: RSS {b['rss']}."]


# The rows that are run again from --baseline (the targets' rows).
BASELINE_ROWS = ("check_nodes, 6 nodes", "check_vm_cpu current, warm cache", "check_nodes, 5000 nodes")
BASELINE = " (baseline)"


PVDC_SIM_ARGS = ["--vcd-scenario", "healthy", "--vcd-pvdcs", "99998", "--vcd-query-page-size", "100000"]


def pvdc_command(dist, sim):
    """check_pvdc over the simulator's 100,000 provider VDCs (one page of 99,999 and one of 100,000 policies)."""
    pv = sim["apis"]["vcd"]
    return [os.path.join(dist, "check_pvdc"), "--url", pv["httpsUrl"], "--user", pv["providerUser"], "--org", "System",
            "--password-file", pv["passwordFile"], "--ca-file", sim["caFile"], "--no-cache", "-t", "120",
            "--max-bytes", str(256 * 1024 * 1024)]


def bench_version(version, bindir, sims, runs, workdir, baseline=None):
    """The table of one Node.js version: rows, targets, profiles of the missed ones."""
    env = {k: v for k, v in os.environ.items() if k != "NODE_EXTRA_CA_CERTS"}
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    small, large = sims["small"], sims["large"]
    ca = small["caFile"]
    cluster_s, cluster_l, vcd = small["apis"]["cluster"], large["apis"]["cluster"], small["apis"]["vcd"]
    token_file, token_file_l = cluster_s["tokenFile"], cluster_l["tokenFile"]
    with open(token_file) as f:
        token = f.read().strip()
    with open(token_file_l) as f:
        token_l = f.read().strip()
    header_file = os.path.join(workdir, "curl-headers")
    with open(header_file, "w") as f:
        f.write(f"Authorization: Bearer {token}\nAccept: application/json\n")
    os.chmod(header_file, 0o600)
    # A vCD session for the bare https.get of the VM documents (the plugins use their cache).
    with open(vcd["passwordFile"]) as f:
        password = f.read().strip()
    basic = base64.b64encode(f"{vcd['user']}@{vcd['org']}:{password}".encode()).decode()
    headers, _ = http("POST", vcd["httpsUrl"] + "/cloudapi/1.0.0/sessions", ca,
                      {"Authorization": f"Basic {basic}", "Accept": "application/json;version=34.0"})
    session = "Bearer " + headers["x-vmware-vcloud-access-token"]
    vm = vcd["healthyVm"]
    xml = "application/*+xml;version=34.0"

    cache = os.path.join(workdir, f"vm-cache-{version}")
    vm_base = [os.path.join(DIST, "check_vm_cpu"), "--url", vcd["httpsUrl"], "--vm", vm,
               "--user", vcd["user"], "--org", vcd["org"], "--password-file", vcd["passwordFile"], "--ca-file", ca]
    pvdc_cmd = pvdc_command(DIST, sims["pvdc"])
    nodes = lambda c, tf: [os.path.join(DIST, "check_nodes"), "--url", c["httpsUrl"], "--token-file", tf, "--ca-file", ca]
    peer = lambda c, tf: [sys.executable, os.path.join(ROOT, "bench", "peers", "check_nodes_python.py"),
                          "--url", c["httpsUrl"], "--token-file", tf, "--ca-file", ca]
    # The bare clients run from files, as the checks do (a `node -e` script is not profiled
    # the same way, and loads differently).
    get_js, pages_js = os.path.join(workdir, "bare-https-get.js"), os.path.join(workdir, "bare-pages.js")
    for file, code in ((get_js, HTTPS_GET), (pages_js, PAGES_GET)):
        with open(file, "w") as f:
            f.write("'use strict';process.argv.splice(1,1);" + code + "\n")
    get = lambda url, auth, accept: ["node", get_js, url, ca, auth, accept]
    commands = [
        ("node -e 0 (floor)", ["node", "-e", "0"]),
        ("bare https.get, node list (6 nodes)", get(cluster_s["httpsUrl"] + "/api/v1/nodes?limit=500", f"Bearer {token}", "application/json")),
        ("bare https.get, VM current metrics", get(f"{vcd['httpsUrl']}/api/vApp/{vm}/metrics/current", session, xml)),
        ("bare https.get, VM history (24 h)", get(f"{vcd['httpsUrl']}/api/vApp/{vm}/metrics/historic", session, xml)),
        # The floor of any Node client that reads the 5000-node list: the 10 pages over one
        # keep-alive connection, keeping no byte (peak RSS: Node, TLS and socket chunks only).
        ("bare https.get, 5000 nodes (10 pages, kept nothing)", ["node", pages_js, cluster_l["httpsUrl"], ca, f"Bearer {token_l}"]),
        ("check_nodes, 6 nodes", nodes(cluster_s, token_file)),
        # The healthy scenario's 33 ClusterOperators and its ClusterVersion (two requests).
        ("check_cluster_operators, 33 operators", [os.path.join(DIST, "check_cluster_operators"), "--url", cluster_s["httpsUrl"],
                                                   "--token-file", token_file, "--ca-file", ca]),
        ("check_nodes, 5000 nodes", nodes(cluster_l, token_file_l)),
        # The same list and the 150,000 pods of every namespace as one paged Table (their
        # Node column counted per node), read beside it: the cost of --pods is this row's
        # difference to the one above, measured in the same run.
        ("check_nodes --pods, 5000 nodes, 150,000 pods", nodes(cluster_l, token_file_l) + ["--pods", "-t", "60"]),
        ("check_apiserver (readyz, livez, version)", [os.path.join(DIST, "check_apiserver"), "--url", cluster_s["httpsUrl"],
                                                      "--token-file", token_file, "--ca-file", ca]),
        ("check_cluster_certs (chain, CSRs)", [os.path.join(DIST, "check_cluster_certs"), "--url", cluster_s["httpsUrl"],
                                               "--token-file", token_file, "--ca-file", ca]),
        # One page of 99,999 provider VDC records and one of 100,000 storage-policy records
        # (about 50 MB each), judged, with perfdata for every one.
        ("check_pvdc, 100,000 provider VDCs (one page a query)", pvdc_cmd),
        ("check_vm_cpu current, warm cache", vm_base + ["--cache-dir", cache]),
        ("check_vm_cpu --window 1h, warm cache", vm_base + ["--cache-dir", cache, "--window", "1h"]),
        ("check_vm_cpu --no-cache", vm_base + ["--no-cache"]),
        ("curl piped to jq, 6 nodes (one page)", ["sh", "-c", f"curl -sS --cacert {ca} -H @{header_file} "
                                                 f"'{cluster_s['httpsUrl']}/api/v1/nodes?limit=500' | jq -e '[.items[] | "
                                                 f"select(any(.status.conditions[]; .type==\"Ready\" and .status!=\"True\"))] | length == 0' >/dev/null"]),
        ("Python stdlib plugin, 6 nodes", peer(cluster_s, token_file)),
        ("Python stdlib plugin, 5000 nodes", peer(cluster_l, token_file_l)),
    ]
    if baseline:
        for name, argv in list(commands):
            if name in BASELINE_ROWS:
                twin = [os.path.join(baseline, os.path.basename(argv[0]))] + argv[1:]
                if name.startswith("check_vm_cpu"):
                    twin = [a.replace(cache, cache + "-baseline") for a in twin]
                commands.append((name + BASELINE, twin))
    argv_of = dict(commands)
    # Warm-up: one run each (fills the session cache, the page cache, the simulators' caches).
    for name, argv in commands:
        code, *_ = measure(argv, env)
        if code not in (0, 1, 2):
            sys.exit(f"Node {version}: warm-up of '{name}' exited {code}: {' '.join(argv)}")
    samples = {name: [] for name, _ in commands}
    for _ in range(runs):
        for name, argv in commands:
            samples[name].append(measure(argv, env)[1:])

    # 100 sequential warm-cache checks: how many logins did the cloud-director API see?
    http("DELETE", vcd["httpsUrl"] + "/_sim/stats", ca)
    seq_cache = os.path.join(workdir, f"seq-cache-{version}")
    for _ in range(100):
        measure(vm_base + ["--cache-dir", seq_cache], env)
    _, stats = http("GET", vcd["httpsUrl"] + "/_sim/stats", ca)
    logins = (stats or {}).get("login", 0)

    med = lambda name, i=0: statistics.median(s[i] for s in samples[name])
    floor = med("node -e 0 (floor)")
    lines = [f"### Node.js {version}", "",
             "| command | wall ms (min-max) | CPU ms | peak RSS MiB | wall / floor |" + (" CPU / baseline | RSS / baseline |" if baseline else ""),
             "|---|---|---|---|---|" + ("---|---|" if baseline else "")]
    for name in samples:
        walls = [s[0] for s in samples[name]]
        row = (f"| {name} | {med(name)*1000:.0f} ({min(walls)*1000:.0f}-{max(walls)*1000:.0f}) | "
               f"{med(name, 1)*1000:.0f} | {med(name, 2):.1f} | {med(name)/floor:.2f} |")
        if baseline:
            twin = name + BASELINE
            row += (f" {med(name, 1)/med(twin, 1):.2f} | {med(name, 2)/med(twin, 2):.2f} |" if twin in samples else "  |  |")
        lines.append(row)
    ratio = lambda a, b: med(a) / med(b)
    cpu_ratio = lambda a, b: med(a, 1) / med(b, 1)
    targets = [
        ("check_nodes, 6 nodes <= 1.10 x bare https.get of the node list", "check_nodes, 6 nodes",
         ratio("check_nodes, 6 nodes", "bare https.get, node list (6 nodes)"), 1.10, "x", "cpu"),
        ("check_vm_cpu current, warm cache <= 1.10 x bare https.get of the current metrics", "check_vm_cpu current, warm cache",
         ratio("check_vm_cpu current, warm cache", "bare https.get, VM current metrics"), 1.10, "x", "cpu"),
        ("check_vm_cpu --window 1h, warm cache <= 1.25 x bare https.get of the history", "check_vm_cpu --window 1h, warm cache",
         ratio("check_vm_cpu --window 1h, warm cache", "bare https.get, VM history (24 h)"), 1.25, "x", "cpu"),
    ]
    peer_rss = med("Python stdlib plugin, 5000 nodes", 2)
    targets += [
        ("check_nodes, 6 nodes < 1.00 x the Python plugin", "check_nodes, 6 nodes",
         ratio("check_nodes, 6 nodes", "Python stdlib plugin, 6 nodes"), 0.999, "x", "cpu"),
        ("check_nodes, 5000 nodes < 1.00 x the Python plugin", "check_nodes, 5000 nodes",
         ratio("check_nodes, 5000 nodes", "Python stdlib plugin, 5000 nodes"), 0.999, "x", "cpu"),
        (f"check_nodes, 5000 nodes <= the Python plugin's peak RSS ({peer_rss:.1f} MiB)", "check_nodes, 5000 nodes",
         med("check_nodes, 5000 nodes", 2), peer_rss, "MiB", "memory"),
        ("check_nodes --pods, 5000 nodes and 150,000 pods <= 3 s", "check_nodes --pods, 5000 nodes, 150,000 pods",
         med("check_nodes --pods, 5000 nodes, 150,000 pods"), 3, "s", "cpu"),
        ("check_nodes --pods, 5000 nodes and 150,000 pods <= 200 MiB peak RSS", "check_nodes --pods, 5000 nodes, 150,000 pods",
         med("check_nodes --pods, 5000 nodes, 150,000 pods", 2), 200, "MiB", "memory"),
        ("check_nodes --pods <= 2 x check_nodes, 5000 nodes (same run)", "check_nodes --pods, 5000 nodes, 150,000 pods",
         ratio("check_nodes --pods, 5000 nodes, 150,000 pods", "check_nodes, 5000 nodes"), 2, "x", "cpu"),
        ("check_pvdc, 100,000 provider VDCs <= 20 s", "check_pvdc, 100,000 provider VDCs (one page a query)",
         med("check_pvdc, 100,000 provider VDCs (one page a query)"), 20, "s", "cpu"),
        ("100 sequential warm-cache VM checks make 1 login", None, logins, 1, "login(s)", None),
    ]
    # The same ratios in CPU time (user+sys): what a busy machine disturbs least.
    cpu_of = {
        "check_nodes, 6 nodes <= 1.10 x bare https.get of the node list": cpu_ratio("check_nodes, 6 nodes", "bare https.get, node list (6 nodes)"),
        "check_vm_cpu current, warm cache <= 1.10 x bare https.get of the current metrics": cpu_ratio("check_vm_cpu current, warm cache", "bare https.get, VM current metrics"),
        "check_vm_cpu --window 1h, warm cache <= 1.25 x bare https.get of the history": cpu_ratio("check_vm_cpu --window 1h, warm cache", "bare https.get, VM history (24 h)"),
        "check_nodes, 6 nodes < 1.00 x the Python plugin": cpu_ratio("check_nodes, 6 nodes", "Python stdlib plugin, 6 nodes"),
        "check_nodes, 5000 nodes < 1.00 x the Python plugin": cpu_ratio("check_nodes, 5000 nodes", "Python stdlib plugin, 5000 nodes"),
        "check_nodes --pods <= 2 x check_nodes, 5000 nodes (same run)": cpu_ratio("check_nodes --pods, 5000 nodes, 150,000 pods", "check_nodes, 5000 nodes"),
    }
    reference_of = {
        "check_nodes, 6 nodes <= 1.10 x bare https.get of the node list": "bare https.get, node list (6 nodes)",
        "check_vm_cpu current, warm cache <= 1.10 x bare https.get of the current metrics": "bare https.get, VM current metrics",
        "check_vm_cpu --window 1h, warm cache <= 1.25 x bare https.get of the history": "bare https.get, VM history (24 h)",
        "check_nodes, 5000 nodes < 1.00 x the Python plugin": "bare https.get, 5000 nodes (10 pages, kept nothing)",
    }
    lines += ["", "| target | measured (wall) | same ratio in CPU time | met |", "|---|---|---|---|"]
    missed = []
    for label, command, value, limit, unit, kind in targets:
        ok = value <= limit
        figure = f"{value:.2f} x" if unit == "x" else f"{value:.1f} {unit}" if unit == "MiB" else f"{value:.2f} s" if unit == "s" else f"{value} {unit}"
        cpu = f"{cpu_of[label]:.2f} x" if label in cpu_of else ""
        lines.append(f"| {label} | {figure} | {cpu} | {'yes' if ok else 'NO'} |")
        if not ok and command:
            missed.append((label, command, kind, reference_of.get(label)))
    for label, command, kind, reference in missed:
        lines += ["", f"Why not \"{label}\" on Node.js {version}:", ""]
        if kind == "memory":
            lines += memory_profile_summary(argv_of[command][:], env, workdir)
        else:
            if reference:
                lines += compare_profiles(argv_of[command][:], argv_of[reference][:], env, workdir)
            lines += cpu_profile_summary(argv_of[command][:], env, workdir)
    return lines, {name: med(name) for name in samples}


FLEET_VMS = 2000
ALL_SERVICES = "cpu,mem,disk,snapshot,tools,lease"
ALL_SERVICES_ROW = "check_vm_fleet --services " + ALL_SERVICES + ", 2,000 VMs"


def bench_fleet(env, workdir, runs):
    """check_vm_fleet over the 2,000-VM scenario: as the simulator answers, and at real latencies."""
    lines = ["### check_vm_fleet: 2,000 VMs in one process", ""]
    sims, procs = {}, []
    try:
        for latency in (0, 100, 300):
            proc, info = start_sim(["--vcd-scenario", "fleet", "--vcd-latency", str(latency)], workdir, f"fleet-{latency}")
            procs.append(proc)
            sims[latency] = info
        # The same fleet from a server that refuses the metrics spec: the whole day of every metric by GET, the baseline of --window.
        proc, info = start_sim(["--vcd-scenario", "fleet", "--vcd-refuse-spec", "405"], workdir, "fleet-get")
        procs.append(proc)
        sims["get"] = info
        ca = sims[0]["caFile"]

        def fleet(latency, *extra, cache=None):
            vcd = sims[latency]["apis"]["vcd"]
            return [os.path.join(DIST, "check_vm_fleet"), "--url", vcd["httpsUrl"], "--user", vcd["user"], "--org", vcd["org"],
                    "--password-file", vcd["passwordFile"], "--ca-file", sims[latency]["caFile"],
                    "--cache-dir", cache or os.path.join(workdir, f"fleet-cache-{latency}"), "-t", "120"] + list(extra)

        single_vcd = sims[0]["apis"]["vcd"]
        single = [os.path.join(DIST, "check_vm_cpu"), "--url", single_vcd["httpsUrl"], "--vm", single_vcd["healthyVm"],
                  "--user", single_vcd["user"], "--org", single_vcd["org"], "--password-file", single_vcd["passwordFile"],
                  "--ca-file", ca, "--cache-dir", os.path.join(workdir, "fleet-cache-0")]
        commands = [
            ("check_vm_cpu current, one VM, warm cache", single, runs * 3),
            ("check_vm_fleet current, 2,000 VMs", fleet(0), runs),
            # The window and the metrics judged (HistoricUsageSpec), against the whole day by GET where the server refuses the spec.
            ("check_vm_fleet --window 15m, 2,000 VMs", fleet(0, "--window", "15m"), runs),
            ("check_vm_fleet --window 1h, 2,000 VMs", fleet(0, "--window", "1h"), runs),
            # The simulator builds each 24-hour history as it is asked: this run is long, one.
            ("check_vm_fleet --window 1h, 2,000 VMs, spec refused (GET of 24 h)", fleet("get", "--window", "1h"), 1),
            ("check_vm_fleet current, 100 ms latency", fleet(100), runs),
            ("check_vm_fleet --window 1h, 100 ms latency", fleet(100, "--window", "1h"), 1),
            ("check_vm_fleet current, 300 ms latency", fleet(300), runs),
            ("check_vm_fleet --window 1h, 300 ms latency", fleet(300, "--window", "1h"), 1),
            ("check_vm_fleet current, 100 ms latency, --concurrency 8", fleet(100, "--concurrency", "8"), 1),
            ("check_vm_fleet current, 100 ms latency, --concurrency 32", fleet(100, "--concurrency", "32"), 1),
            # The hygiene services: records kept, a section per VM with a snapshot (200), one per vApp for leases.
            (ALL_SERVICES_ROW, fleet(0, "--services", ALL_SERVICES), runs),
            ("check_vm_fleet --services snapshot,tools,lease, 2,000 VMs", fleet(0, "--services", "snapshot,tools,lease"), runs),
            ("check_vm_fleet --services " + ALL_SERVICES + ", 100 ms latency", fleet(100, "--services", ALL_SERVICES), 1),
        ]
        # Warm-up: the session cache of each simulator (one login each), the page cache.
        for name, argv, _ in commands[:2] + [commands[5], commands[7]] + [(None, fleet("get"), 1)]:
            code, *_ = measure(argv, env)
            if code not in (0, 1, 2):
                sys.exit(f"fleet warm-up of '{name}' exited {code}: {' '.join(argv)}")
        samples = {name: [measure(argv, env)[1:] for _ in range(n)] for name, argv, n in commands}
        # Logins of one cold run (a cache of its own): the whole fleet in one session.
        http("DELETE", sims[0]["apis"]["vcd"]["httpsUrl"] + "/_sim/stats", ca)
        measure(fleet(0, cache=os.path.join(workdir, "fleet-cold")), env)
        _, stats = http("GET", sims[0]["apis"]["vcd"]["httpsUrl"] + "/_sim/stats", ca)
        logins = (stats or {}).get("login", 0)
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=5)
    med = lambda name, i=0: statistics.median(s[i] for s in samples[name])
    lines += ["| command | runs | wall s | CPU s | CPU ms per VM | peak RSS MiB |", "|---|---|---|---|---|---|"]
    for name, _, n in commands:
        per_vm = med(name, 1) * 1000 / (1 if name.startswith("check_vm_cpu") else FLEET_VMS)
        lines.append(f"| {name} | {n} | {med(name):.2f} | {med(name, 1):.2f} | {per_vm:.2f} | {med(name, 2):.1f} |")
    lines += ["", "A run that ends WARNING (some VMs not read within -t 120) says so in its wall time: -t bounds it."]
    single_ms = med("check_vm_cpu current, one VM, warm cache", 1) * 1000
    fleet_ms = med("check_vm_fleet current, 2,000 VMs", 1) * 1000 / FLEET_VMS
    targets = [
        ("CPU per VM, check_vm_fleet current <= 3 ms", f"{fleet_ms:.2f} ms ({single_ms / fleet_ms:.0f} x less than one check_vm_cpu run, {single_ms:.0f} ms)", fleet_ms <= 3),
        ("one login for the whole fleet (cold cache)", f"{logins} login(s)", logins == 1),
        ("peak RSS <= 120 MiB", f"{med('check_vm_fleet current, 2,000 VMs', 2):.1f} MiB", med("check_vm_fleet current, 2,000 VMs", 2) <= 120),
        ("peak RSS with --window 1h <= 120 MiB", f"{med('check_vm_fleet --window 1h, 2,000 VMs', 2):.1f} MiB", med("check_vm_fleet --window 1h, 2,000 VMs", 2) <= 120),
    ]
    for window in ("15m", "1h"):
        name = f"check_vm_fleet --window {window}, 2,000 VMs"
        got = med("check_vm_fleet --window 1h, 2,000 VMs, spec refused (GET of 24 h)", 1) * 1000 / FLEET_VMS
        targets += [
            (f"--window {window}: peak RSS < 150 MiB", f"{med(name, 2):.1f} MiB", med(name, 2) < 150),
            (f"--window {window}: CPU per VM <= 3 ms", f"{med(name, 1) * 1000 / FLEET_VMS:.2f} ms (GET of 24 h: {got:.2f} ms)", med(name, 1) * 1000 / FLEET_VMS <= 3),
        ]
    targets += [
        ("wall <= 10 s against the simulator as it is", f"{med('check_vm_fleet current, 2,000 VMs'):.1f} s", med("check_vm_fleet current, 2,000 VMs") <= 10),
        ("CPU per VM with --services " + ALL_SERVICES + " <= 3 ms", f"{med(ALL_SERVICES_ROW, 1) * 1000 / FLEET_VMS:.2f} ms", med(ALL_SERVICES_ROW, 1) * 1000 / FLEET_VMS <= 3),
        ("peak RSS with --services " + ALL_SERVICES + " <= 120 MiB", f"{med(ALL_SERVICES_ROW, 2):.1f} MiB", med(ALL_SERVICES_ROW, 2) <= 120),
    ]
    lines += ["", "| target | measured | met |", "|---|---|---|"]
    lines += [f"| {label} | {figure} | {'yes' if ok else 'NO'} |" for label, figure, ok in targets]
    return lines


FLEET_MEMORY_SIZES = (2000, 20000, 100000)
FLEET_MEMORY_TARGET_MIB = 250


class FifoReader:
    """A Nagios command pipe: a FIFO (mode 0600) read to the end by a thread, counting its lines."""

    def __init__(self, path):
        import threading
        os.mkfifo(path, 0o600)
        self.path, self.lines = path, 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while True:
            with open(self.path, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 16), b""):
                    self.lines += chunk.count(b"\n")


class Trapper:
    """A Zabbix trapper: takes one framed sender request per connection, answers success, counts the bytes."""

    def __init__(self):
        import socketserver
        import threading
        outer = self
        self.bytes = 0

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                head = b""
                while len(head) < 13:
                    more = self.request.recv(13 - len(head))
                    if not more:
                        return
                    head += more
                left = int.from_bytes(head[5:9], "little")
                outer.bytes += left
                while left > 0:
                    more = self.request.recv(min(left, 1 << 16))
                    if not more:
                        return
                    left -= len(more)
                body = b'{"response":"success","info":"processed: 1; failed: 0; total: 1; seconds spent: 0.001"}'
                self.request.sendall(b"ZBXD\x01" + len(body).to_bytes(4, "little") + b"\0\0\0\0" + body)

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def bench_fleet_memory(env, workdir, baseline=None, sizes=FLEET_MEMORY_SIZES):
    """check_vm_fleet's peak RSS at 2,000 to 100,000 VMs, per output mode (and the baseline's, when given)."""
    lines = ["### check_vm_fleet: memory at fleet sizes", ""]
    nagios = FifoReader(os.path.join(workdir, "nagios.cmd"))
    trapper = Trapper()
    modes = [
        ("plain", []),
        ("--output json", ["--output", "json"]),
        ("--submit nagios", ["--submit", "nagios", "--nagios-command-file", nagios.path]),
        ("--submit zabbix --compact", ["--submit", "zabbix", "--zabbix-server", "127.0.0.1", "--zabbix-port", str(trapper.port),
                                       "--zabbix-host", "vcd-fleet", "--compact"]),
    ]
    builds = [("after", DIST)] + ([("before", baseline)] if baseline else [])
    rows = []
    for size in sizes:
        proc, info = start_sim(["--vcd-scenario", "fleet", "--vcd-fleet-vms", str(size)], workdir, f"fleet-memory-{size}")
        try:
            vcd = info["apis"]["vcd"]
            base = ["--url", vcd["httpsUrl"], "--user", vcd["user"], "--org", vcd["org"], "--password-file", vcd["passwordFile"],
                    "--ca-file", info["caFile"], "--cache-dir", os.path.join(workdir, f"fleet-memory-cache-{size}"), "-t", "300"]
            for label, extra in modes:
                figures = {}
                for build, directory in builds:
                    code, wall, cpu, rss = measure([os.path.join(directory, "check_vm_fleet")] + base + extra, env)
                    figures[build] = (code, wall, rss)
                rows.append((size, label, figures))
                print(f"fleet memory {size} {label}: {figures}", flush=True)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=10)
    head = "| VMs | output | exit | wall s | peak RSS MiB |" + (" before: exit | wall s | peak RSS MiB |" if baseline else "")
    lines += [head, "|---|---|---|---|---|" + ("---|---|---|" if baseline else "")]
    for size, label, figures in rows:
        cells = [f"{figures[b][0]} | {figures[b][1]:.1f} | {figures[b][2]:.0f}" for b, _ in builds]
        lines.append(f"| {size:,} | {label} | " + " | ".join(cells) + " |")
    worst = max(f["after"][2] for _, _, f in rows)
    lines += ["", "| target | measured | met |", "|---|---|---|",
              f"| peak RSS < {FLEET_MEMORY_TARGET_MIB} MiB at every size and output | {worst:.0f} MiB | {'yes' if worst < FLEET_MEMORY_TARGET_MIB else 'NO'} |"]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20, help="runs of each command (default 20)")
    ap.add_argument("--node", default="", help="comma-separated majors (default: every tested version)")
    ap.add_argument("--no-write", action="store_true", help="print only, do not update bench/RESULTS.md")
    ap.add_argument("--only-fleet", action="store_true", help="only the check_vm_fleet table, on the host's node (updates its section)")
    ap.add_argument("--skip-fleet", action="store_true", help="leave out the check_vm_fleet table (its section is kept as it is)")
    ap.add_argument("--only-fleet-memory", action="store_true", help="only check_vm_fleet's memory at 2,000 to 100,000 VMs (printed; with --baseline, before and after)")
    ap.add_argument("--only-pvdc", action="store_true", help="only check_pvdc over 100,000 provider VDCs, on the host's node (--runs, at most 10; with --baseline, before and after; updates its section)")
    ap.add_argument("--baseline", default="", help="dist/ of another build: its plugins run interleaved, the table shows the ratios")
    opts = ap.parse_args()
    if opts.only_fleet:
        return fleet_only(opts)
    if opts.only_pvdc:
        return pvdc_only(opts)
    if opts.only_fleet_memory:
        workdir = tempfile.mkdtemp(prefix="cloudchecks-bench-fleet-memory-")
        try:
            env = {k: v for k, v in os.environ.items() if k != "NODE_EXTRA_CA_CERTS"}
            print("\n".join(bench_fleet_memory(env, workdir, opts.baseline or None)))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        return 0
    runs = max(1, min(opts.runs, 200))
    for tool in ("node", "curl", "jq"):
        if not shutil.which(tool):
            sys.exit(f"bench needs {tool} on PATH")
    if opts.node:
        wanted = opts.node.split(",")
    else:
        with open(os.path.join(ROOT, "scripts", "node-versions")) as f:
            wanted = [l.split(".")[0] for l in f if l[:1].isdigit()]
    versions = node_versions(wanted)

    workdir = tempfile.mkdtemp(prefix="cloudchecks-bench-")
    procs = []
    started = time.time()
    try:
        small_proc, small = start_sim(["--cluster-scenario", "healthy"], workdir, "small")
        procs.append(small_proc)
        large_proc, large = start_sim(["--cluster-scenario", "large", "--cluster-nodes", "5000"], workdir, "large")
        procs.append(large_proc)
        # 100,000 provider VDCs (99,999 and 100,000 storage policies) in one page per query.
        pvdc_proc, pvdc = start_sim(PVDC_SIM_ARGS, workdir, "pvdc")
        procs.append(pvdc_proc)
        sims = {"small": small, "large": large, "pvdc": pvdc}
        sections, figures = [], {}
        for version, bindir in versions:
            lines, figures[version] = bench_version(version, bindir, sims, runs, workdir, opts.baseline or None)
            sections.append("\n".join(lines))
            print(sections[-1] + "\n", flush=True)
        fleet_lines = [] if opts.skip_fleet else bench_fleet({k: v for k, v in os.environ.items() if k != "NODE_EXTRA_CA_CERTS"}, workdir, min(runs, 5))
        print("\n".join(fleet_lines) + "\n", flush=True)
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(workdir, ignore_errors=True)

    load = os.getloadavg()
    head = (f"Measured {datetime.date.today().isoformat()} on {platform.machine()} {os.cpu_count()} cores "
            f"({cpu_model()}), Linux {platform.release()}, Python {platform.python_version()}, without "
            f"NODE_EXTRA_CA_CERTS; {runs} interleaved runs of each command, medians; the simulator ran on the host's "
            f"Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()} for every table. "
            f"{(time.time() - started) / 60:.0f} min in all; load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
            f"(1 / 5 / 15 min) on a machine shared with other jobs: absolute figures move with it, ratios less.")
    summary = ["", "### Across versions: median wall ms", "",
               "| command | " + " | ".join(f"Node {v}" for v, _ in versions) + " |",
               "|---|" + "---|" * len(versions)]
    for name in figures[versions[0][0]]:
        summary.append(f"| {name} | " + " | ".join(f"{figures[v][name]*1000:.0f}" for v, _ in versions) + " |")
    table = head + "\n\n" + "\n\n".join(sections) + "\n" + "\n".join(summary)
    print("\n".join(summary))
    if not opts.no_write:
        write_results(table)
        if fleet_lines:
            write_fleet_results(head + "\n\n" + "\n".join(fleet_lines))
    return 0


FLEET_BEGIN, FLEET_END = "<!-- bench-fleet:begin -->", "<!-- bench-fleet:end -->"


def fleet_only(opts):
    """The check_vm_fleet table alone, on the host's node, written between its own markers."""
    workdir = tempfile.mkdtemp(prefix="cloudchecks-bench-fleet-")
    started = time.time()
    try:
        env = {k: v for k, v in os.environ.items() if k != "NODE_EXTRA_CA_CERTS"}
        lines = bench_fleet(env, workdir, max(1, min(opts.runs, 20)))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    load = os.getloadavg()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    head = (f"Measured {datetime.date.today().isoformat()} on {platform.machine()} {os.cpu_count()} cores ({cpu_model()}), "
            f"Node {node}, the simulator on the same host and Node; medians; {(time.time() - started) / 60:.0f} min in all; "
            f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on a machine shared with other jobs.")
    table = head + "\n\n" + "\n".join(lines)
    print(table)
    if not opts.no_write:
        write_fleet_results(table)
    return 0


PVDC_BEGIN, PVDC_END = "<!-- bench-pvdc:begin -->", "<!-- bench-pvdc:end -->"


def pvdc_only(opts):
    """check_pvdc over 100,000 provider VDCs alone (and the baseline's, interleaved): CPU s, wall s, peak MiB, load."""
    workdir = tempfile.mkdtemp(prefix="cloudchecks-bench-pvdc-")
    env = {k: v for k, v in os.environ.items() if k != "NODE_EXTRA_CA_CERTS"}
    builds = [("this build", DIST)] + ([("baseline", opts.baseline)] if opts.baseline else [])
    rows = {name: [] for name, _ in builds}
    started, load_before = time.time(), os.getloadavg()
    proc, sim = start_sim(PVDC_SIM_ARGS, workdir, "pvdc")
    try:
        for _ in range(max(1, min(opts.runs, 10))):
            for name, dist in builds:
                rows[name].append(measure(pvdc_command(dist, sim), env) + (os.getloadavg()[0],))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()
    lines = [f"Measured {datetime.date.today().isoformat()} on {platform.machine()} {os.cpu_count()} cores ({cpu_model()}), Node {node}, "
             f"`python3 bench/bench.py --only-pvdc --runs {opts.runs}{' --baseline <dist>' if opts.baseline else ''}`; the simulator "
             f"(one page of 99,999 provider VDCs, one of 100,000 storage policies, about 50 MB each) on the same host; "
             f"{(time.time() - started) / 60:.0f} min; load average {load_before[0]:.1f} at the start, {load[0]:.1f} / {load[1]:.1f} / "
             f"{load[2]:.1f} at the end, on a machine shared with other jobs (wall time is mostly the simulator writing the pages).",
             "", "### check_pvdc, 100,000 provider VDCs (one page a query)", "",
             "| build | run | exit | CPU s | wall s | peak RSS MiB | load (1 min) |", "|---|---|---|---|---|---|---|"]
    for name, _ in builds:
        for n, (code, wall, cpu, rss, load1) in enumerate(rows[name], 1):
            lines.append(f"| {name} | {n} | {code} | {cpu:.1f} | {wall:.1f} | {rss:.0f} | {load1:.1f} |")
        cpus, rsss = sorted(r[2] for r in rows[name]), sorted(r[3] for r in rows[name])
        lines.append(f"| {name} | median | | {cpus[len(cpus) // 2]:.1f} | | {rsss[len(rsss) // 2]:.0f} (highest {rsss[-1]:.0f}) | |")
    table = "\n".join(lines)
    print(table)
    if not opts.no_write:
        text = open(RESULTS).read()
        if PVDC_BEGIN not in text:
            text += f"\n{PVDC_BEGIN}\n{PVDC_END}\n"
        before, rest = text.split(PVDC_BEGIN, 1)
        with open(RESULTS, "w") as f:
            f.write(f"{before}{PVDC_BEGIN}\n{table}\n{PVDC_END}{rest.split(PVDC_END, 1)[1]}")
    return 0


def write_fleet_results(table):
    """The check_vm_fleet table, between its own markers after the per-version tables."""
    text = open(RESULTS).read()
    if FLEET_BEGIN not in text:
        text += f"\n{FLEET_BEGIN}\n{FLEET_END}\n"
    before, rest = text.split(FLEET_BEGIN, 1)
    after = rest.split(FLEET_END, 1)[1]
    with open(RESULTS, "w") as f:
        f.write(f"{before}{FLEET_BEGIN}\n{table}\n{FLEET_END}{after}")


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
