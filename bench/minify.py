#!/usr/bin/env python3
"""Start-up cost of the bundle's minification: the same plugins built with esbuild's full
minify (names mangled) and without minifying names, run interleaved on this machine.

    python3 bench/minify.py [--rounds 150]

Builds both variants into a temporary directory (node build.mjs's options, only `minify`
differs), then runs `check_nodes --version` and `check_vm_cpu --version` (the whole bundle
is loaded and compiled; no network) round after round (A B, then B A), so that the drift of a
shared machine hits both alike, and prints the medians and their difference. Public tools
only: Python 3 and node.
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def run(argv):
    """Wall and CPU (user+sys) seconds of one run: CPU time is what a busy machine disturbs least."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=150)
    opts = ap.parse_args()
    rounds = max(10, min(opts.rounds, 1000))
    tmp = tempfile.mkdtemp(prefix="cloudchecks-minify-")
    variants = {"names mangled (minify: true)": "mangled", "names kept (build.mjs)": "kept"}
    for label, d in variants.items():
        out = os.path.join(tmp, d)
        env = dict(os.environ, CLOUDCHECKS_MINIFY_IDENTIFIERS="1" if d == "mangled" else "0")
        subprocess.run(["node", "build.mjs", out], cwd=ROOT, env=env, check=True)
    samples = {(label, p): [] for label in variants for p in ("check_nodes", "check_vm_cpu")}
    order = list(samples.items())
    for i in range(rounds):
        # A B B A: neither variant always runs first.
        for (label, p), s in (order if i % 2 == 0 else order[::-1]):
            s.append(run([os.path.join(tmp, variants[label], p), "--version"]))
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"Node {node}, {rounds} interleaved rounds of `<plugin> --version`, medians (wall ms / CPU ms):")
    for p in ("check_nodes", "check_vm_cpu"):
        med = lambda label, i: statistics.median(s[i] for s in samples[(label, p)]) * 1000
        sizes = {label: os.path.getsize(os.path.join(tmp, variants[label], p)) for label in variants}
        k, m = "names kept (build.mjs)", "names mangled (minify: true)"
        print(f"  {p}: mangled {med(m, 0):.1f} / {med(m, 1):.1f} ms ({sizes[m]} B); kept {med(k, 0):.1f} / {med(k, 1):.1f} ms "
              f"({sizes[k]} B); kept - mangled: wall {med(k, 0) - med(m, 0):+.1f} ms, CPU {med(k, 1) - med(m, 1):+.1f} ms")
    subprocess.run(["rm", "-rf", tmp])

if __name__ == "__main__":
    sys.exit(main())
