"""Small inputs from the sources, as the CLI reads them: the examples in the package's
docstrings use them.

Examples
--------
>>> import leontief
>>> from leontief import examples
>>> leontief.solve(examples.DRF_PAPER)["A"].tasks
Fraction(3, 1)
"""

# The DRF paper's running example (Ghodsi et al., NSDI 2011, section 4): 9 CPUs, 18 GB;
# A's tasks need <1 CPU, 4 GB>, B's <3 CPUs, 1 GB> (examples/drf-paper.json).
DRF_PAPER = {
    "capacity": [9, 18],
    "users": [{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}],
}

# The lecture's tree (examples/lecture-tree.json): A <1,0> beside the pool B of
# B1 <1,0> and B2 <0,1>, capacities <1,1>.
LECTURE_TREE = {
    "resources": ["cpu", "mem"],
    "capacity": [1, 1],
    "tree": {"name": "root", "children": [
        {"name": "A", "demand": [1, 0]},
        {"name": "B", "children": [{"name": "B1", "demand": [1, 0]},
                                   {"name": "B2", "demand": [0, 1]}]}]},
}


# The lecture's starvation under task churn (examples/lecture-churn.json): the lecture's
# tree with tasks of 1/20, A's and B1's restarting, B2's outliving the horizon.
LECTURE_CHURN = {
    "resources": ["cpu", "mem"],
    "capacity": [1, 1],
    "tree": {"name": "root", "children": [
        {"name": "A", "demand": ["1/20", 0]},
        {"name": "B", "children": [{"name": "B1", "demand": ["1/20", 0]},
                                   {"name": "B2", "demand": [0, "1/20"]}]}]},
    "workload": {
        "A": {"duration": {"uniform": [1, 2], "steps": 4}, "count": None},
        "B1": {"duration": {"uniform": ["1/2", "3/2"], "steps": 4}, "count": None},
        "B2": {"duration": 1000, "count": None}},
    "horizon": 100,
    "warmup": 50,
    "starvation_tolerance": 10,
    "seed": 1,
}

# The guide's `leontief order` example (examples/order-tree.json): a holds 6 of 100 of both
# resources; c 4 and d 3 under the pool b.
ORDER_TREE = {
    "capacity": [100, 100],
    "tree": {"children": [
        {"name": "a", "demand": [1, 1], "usage": [6, 6]},
        {"name": "b", "children": [{"name": "c", "demand": [1, 1], "usage": [4, 4]},
                                   {"name": "d", "demand": [1, 1], "usage": [3, 3]}]}]},
}

# Kueue's borrowing example (examples/kueue-limits.yaml, its CPUs only): two ClusterQueues
# in one cohort, team-a-cq with nominal quota 9 and borrowing limit 1, team-b-cq with 12.
KUEUE_BORROWING = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: team-a-cq
spec:
  namespaceSelector: {}
  cohortName: team-ab
  resourceGroups:
  - coveredResources: ["cpu"]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: 9
        borrowingLimit: 1
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: team-b-cq
spec:
  namespaceSelector: {}
  cohortName: team-ab
  resourceGroups:
  - coveredResources: ["cpu"]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: 12
"""

# A YARN Fair Scheduler allocation file: root.a of weight 3 beside root.b of weight 1.
YARN_WEIGHTS = """\
<allocations>
  <queue name="root">
    <queue name="a"><weight>3</weight></queue>
    <queue name="b"><weight>1</weight></queue>
  </queue>
</allocations>
"""
