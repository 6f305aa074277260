#!/usr/bin/env python3
"""Run `leontief search` as N shards on a Ray cluster, then merge and re-verify.

    python3 scripts/ray_search.py --shards 32 -- --mechanism ceei --property pm --time 10m --seed 7

Every shard is one `leontief search ... --shard i/N` process (units k with k mod N = i), so
the shards cover the search space without overlap; `leontief merge --verify` drops
duplicates across shards and re-verifies every record exactly.

Without Ray installed (or with --local) the shards run as local processes instead: the same
commands, which is how the test suite checks this script.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys


def shard_command(leontief, i, n, search_args, threads):
    return [leontief, "search", *search_args, "--shard", f"{i}/{n}", "--threads", str(threads)]


def run_shard(leontief, i, n, search_args, threads):
    """One shard's JSONL (the records go to standard output; the summary to stderr)."""
    done = subprocess.run(
        shard_command(leontief, i, n, search_args, threads),
        capture_output=True, text=True, check=True,
    )
    sys.stderr.write(done.stderr)
    return done.stdout


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shards", type=int, required=True)
    p.add_argument("--threads", type=int, default=1, help="threads per shard")
    p.add_argument("--leontief", default=os.environ.get("LEONTIEF", "leontief"))
    p.add_argument("--out", default="found.jsonl")
    p.add_argument("--local", action="store_true", help="local processes instead of Ray")
    p.add_argument("search_args", nargs=argparse.REMAINDER, help="after --: flags of leontief search")
    a = p.parse_args()
    search_args = a.search_args[1:] if a.search_args[:1] == ["--"] else a.search_args
    if any(x in ("--shard", "--out") for x in search_args):
        p.error("give --shard and --out to this script, not to the search")

    ray = None
    if not a.local:
        try:
            import ray  # noqa: F401
        except ImportError:
            print("ray is not installed: running the shards as local processes", file=sys.stderr)
    if ray is not None:
        ray.init()
        remote = ray.remote(num_cpus=a.threads)(run_shard)
        parts = ray.get([remote.remote(a.leontief, i, a.shards, search_args, a.threads) for i in range(a.shards)])
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.shards) as pool:
            parts = list(pool.map(lambda i: run_shard(a.leontief, i, a.shards, search_args, a.threads), range(a.shards)))

    joined = a.out + ".parts"
    with open(joined, "w") as f:
        f.write("".join(parts))
    subprocess.run([a.leontief, "merge", "--verify", joined, "--out", a.out], check=True)
    os.remove(joined)


if __name__ == "__main__":
    main()
