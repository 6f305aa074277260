#!/usr/bin/env python3
"""Writes the harder scale instance of BENCHMARKS.md as JSON on standard output.

    python3 scripts/gen-hard-instance.py 1000000 > hard-1m.json

N users x 8 resources (the first argument is N; an optional second is the seed, 7 by
default). Each demand is an integer 1..100, or 0 with probability 0.3, with at least one
nonzero entry per user; every capacity is 10^6; every fifth user has a weight 1..4 and a cap
("tasks") 1..50. The same arguments give the same file.
"""

import random
import sys

RESOURCES = 8
CAPACITY = 10**6


def main():
    n = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    rng = random.Random(seed)
    out = sys.stdout
    names = ", ".join(f'"r{j}"' for j in range(RESOURCES))
    out.write(f'{{"resources": [{names}],\n "capacity": [{", ".join([str(CAPACITY)] * RESOURCES)}],\n "users": [')
    for i in range(n):
        while True:
            demand = [0 if rng.random() < 0.3 else rng.randint(1, 100) for _ in range(RESOURCES)]
            if any(demand):
                break
        user = f'{{"name": "u{i}", "demand": [{", ".join(map(str, demand))}]'
        if i % 5 == 0:
            user += f', "weight": {rng.randint(1, 4)}, "tasks": {rng.randint(1, 50)}'
        out.write(("" if i == 0 else ",\n  ") + user + "}")
    out.write("]}\n")


if __name__ == "__main__":
    main()
