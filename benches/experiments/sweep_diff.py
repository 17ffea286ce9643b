# Rows of two builds' GPU sweeps (xp-bench --sweep outputs, several runs of each, interleaved on
# one machine) whose best time got more than 3% slower: the "no row 3% slower" check,
# per row the minimum over each build's runs.
#   python3 sweep_diff.py "prev1.txt prev2.txt" "new1.txt new2.txt"
import sys


def load(files):
    rows = {}
    for f in files.split():
        for line in open(f):
            c = [x.strip() for x in line.split("|")]
            if len(c) > 5 and c[3].startswith("cuda"):
                try:
                    t = float(c[4])
                except ValueError:
                    continue
                rows[(c[1], c[2])] = min(t, rows.get((c[1], c[2]), t))
    return rows


a, b = load(sys.argv[1]), load(sys.argv[2])
common = [k for k in a if k in b]
slower = sorted(((b[k] / a[k], k) for k in common if b[k] > a[k] * 1.03), reverse=True)
faster = sum(1 for k in common if b[k] < a[k] / 1.03)
print(f"{len(common)} rows; {len(slower)} more than 3% slower, {faster} more than 3% faster")
for r, k in slower:
    print(f"  {r:5.2f}x  {a[k]:9.4f} -> {b[k]:9.4f} ms  {k[0]} [{k[1]}]")
