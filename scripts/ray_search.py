#!/usr/bin/env python3
"""`leontief search` (or `explore`) as N shards on a Ray cluster, merged and re-verified.

    python scripts/ray_search.py --shards 32 --threads 2 --out found.jsonl -- \
        --mechanism ceei --property pm --time 10m --seed 7
    python scripts/ray_search.py --explore --shards 8 --out explore.jsonl -- \
        --mechanism ceei --metric sp-gain --budget 50000 --seed 1

A thin command line over `leontief.ray` (python/leontief/ray.py). search: shard i of N runs
`leontief.search(..., shard=(i, N))` in one Ray task and the shards' unit logs are replayed
into exactly one process's records (the same for the same --seed, --budget and --max-found).
explore: one process's optimizer runs here and each round's evaluations are spread over N
Ray tasks, so the records are exactly one process's (any strategy, local search, family,
budget). Each record is re-verified unless --no-verify, and the records are written as JSONL,
the command line's format. The flags after `--` are `leontief search`'s (with --explore,
`leontief explore`'s), except --shard, --threads and --out, which are this script's.

Ray: --address (or $RAY_ADDRESS) connects to a running cluster, e.g. `--address auto` on a
node of a cluster started with `ray start --head`; without either, a local Ray instance is
started. --local runs the shards in this process instead (no Ray needed, the same records).
Needs the `leontief` package (`pip install ./python`, or scripts/python-env.sh).
"""
import argparse
import json
import re
import sys
from fractions import Fraction

import leontief
import leontief.ray

RANGE = re.compile(r"^(\d+)\.\.(\d+)$")
INTEGER = re.compile(r"^\d+$")
# flags whose value is a comma-separated list
LISTS = {"property", "values"}


def keywords(args, parser):
    """`--flag value` and `--switch` to keyword arguments: integers as int, `a..b` as a pair,
    lists split at commas, everything else the exact string the command line takes."""
    out = {}
    k = 0
    while k < len(args):
        flag = args[k]
        if not flag.startswith("--") or len(flag) == 2:
            parser.error(f"expected a --flag of leontief search/explore, found {flag!r}")
        name, _, inline = flag[2:].partition("=")
        key = name.replace("-", "_")
        if inline:
            value, k = inline, k + 1
        elif k + 1 < len(args) and not args[k + 1].startswith("--"):
            value, k = args[k + 1], k + 2
        else:
            out[key] = True
            k += 1
            continue
        if key in out:
            parser.error(f"--{name} given twice")
        if key in LISTS:
            out[key] = [v.strip() for v in value.split(",")]
        elif RANGE.match(value):
            lo, hi = RANGE.match(value).groups()
            out[key] = (int(lo), int(hi))
        elif INTEGER.match(value):
            out[key] = int(value)
        else:
            out[key] = value
    return out


def exact(value):
    """Records hold Fractions; the command line's JSON writes them as exact strings."""
    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shards", type=int, required=True)
    p.add_argument("--threads", type=int, default=1, help="threads (Ray CPUs) per shard")
    p.add_argument("--out", default="found.jsonl")
    p.add_argument("--explore", action="store_true",
                   help="run `explore` (flags after -- are its): one process's records")
    p.add_argument("--address", default=None,
                   help="a running Ray cluster (e.g. auto, ray://head:10001); default "
                        "$RAY_ADDRESS, else a new local instance")
    p.add_argument("--local", action="store_true",
                   help="run the shards in this process, one thread each, without Ray")
    p.add_argument("--no-verify", action="store_true", help="merge without re-verifying")
    p.add_argument("flags", nargs=argparse.REMAINDER,
                   help="after --: flags of leontief search (or explore)")
    a = p.parse_args()
    flags = a.flags[1:] if a.flags[:1] == ["--"] else a.flags
    kw = keywords(flags, p)
    for own in ("shard", "threads", "out"):
        if own in kw:
            p.error(f"give --{own} to this script, not after --")
    if a.shards < 1 or a.threads < 1:
        p.error("--shards and --threads: expected at least 1")
    if a.local and a.address:
        p.error("--address does not apply with --local")
    mechanism = kw.pop("mechanism", "drf")
    common = dict(shards=a.shards, threads=a.threads, verify=not a.no_verify,
                  address=a.address, in_process=a.local)
    try:
        if a.explore:
            if "metric" not in kw:
                p.error("--explore needs --metric after --")
            records = leontief.ray.explore(mechanism, kw.pop("metric"), **common, **kw)
        else:
            if "property" not in kw:
                p.error("needs --property after --")
            records = leontief.ray.search(mechanism, kw.pop("property"), **common, **kw)
    except leontief.InvalidInput as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    except TypeError as err:  # a flag the command does not take
        if "unexpected keyword argument" not in str(err):
            raise
        name = str(err).rsplit("'", 2)[-2].replace("_", "-")
        p.error(f"--{name}: not a flag of leontief {'explore' if a.explore else 'search'}")
    with open(a.out, "w") as f:
        for record in records:
            f.write(json.dumps(record, default=exact, separators=(",", ":")) + "\n")
    print(f"ray_search: {len(records)} record(s) from {a.shards} shard(s) a round in {a.out}"
          if a.explore else
          f"ray_search: {len(records)} record(s) from {a.shards} shard(s) in {a.out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
