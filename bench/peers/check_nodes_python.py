#!/usr/bin/env python3
"""check_nodes the way node checks are commonly written in Python: standard library only
(urllib + json), bearer token, the node list paged with limit=500 and continue.

A peer for the benchmark: it does the same HTTP work and the same health rule as
dist/check_nodes (Ready must be True, every other condition False), nothing more.
"""
import argparse
import json
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request

OK, WARNING, CRITICAL, UNKNOWN = 0, 1, 2, 3


def main():
    p = argparse.ArgumentParser(description="Check node health of a Kubernetes/OpenShift cluster")
    p.add_argument("--url", required=True, help="API server URL, e.g. https://api.example.com:6443")
    p.add_argument("--token-file", required=True)
    p.add_argument("--ca-file")
    p.add_argument("-k", "--insecure", action="store_true")
    p.add_argument("-t", "--timeout", type=float, default=10)
    args = p.parse_args()

    try:
        with open(args.token_file) as f:
            token = f.read().strip()
    except OSError as e:
        print("NODES UNKNOWN - cannot read token file: %s" % e)
        return UNKNOWN

    if args.insecure:
        ctx = ssl._create_unverified_context()
    else:
        ctx = ssl.create_default_context(cafile=args.ca_file)
    headers = {"Authorization": "Bearer " + token, "Accept": "application/json"}

    total, failing = 0, []
    cont = None
    while True:
        query = {"limit": "500"}
        if cont:
            query["continue"] = cont
        url = args.url.rstrip("/") + "/api/v1/nodes?" + urllib.parse.urlencode(query)
        try:
            req = urllib.request.Request(url, headers=headers)
            with urllib.request.urlopen(req, context=ctx, timeout=args.timeout) as resp:
                page = json.load(resp)
        except urllib.error.HTTPError as e:
            print("NODES UNKNOWN - HTTP %d from %s" % (e.code, args.url))
            return UNKNOWN
        except (urllib.error.URLError, OSError, ValueError) as e:
            print("NODES UNKNOWN - %s" % e)
            return UNKNOWN

        for node in page.get("items", []):
            total += 1
            name = node["metadata"]["name"]
            for a in node.get("status", {}).get("addresses", []):
                if a.get("type") == "Hostname":
                    name = a.get("address")
            ok, ready = True, False
            for c in node.get("status", {}).get("conditions", []):
                if c["type"] == "Ready":
                    ready = True
                    ok = ok and c["status"] == "True"
                else:
                    ok = ok and c["status"] == "False"
            if not (ok and ready):
                failing.append(name)
        cont = page.get("metadata", {}).get("continue")
        if not cont:
            break

    perf = "nodes=%d;;;0 healthy=%d;;;0 failing=%d;;0;0;%d" % (total, total - len(failing), len(failing), total)
    if failing:
        print("NODES CRITICAL - %d of %d nodes failing: %s | %s" % (len(failing), total, ", ".join(failing[:5]), perf))
        return CRITICAL
    print("NODES OK - %d of %d nodes healthy | %s" % (total, total, perf))
    return OK


if __name__ == "__main__":
    sys.exit(main())
