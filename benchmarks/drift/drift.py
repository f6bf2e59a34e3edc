"""The linear drift of NovaMD's conserved energy in a thermo file (least squares over its rows),
in kcal/mol/ns and per molecule, beside OpenMM's from benchmarks/openmm/water_drift.py
(scripts/device/test.sh drift).

    python3 benchmarks/drift/drift.py thermo.csv --molecules 1000 --label "spce mixed"
"""

import argparse
import csv


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("thermo")
    parser.add_argument("--molecules", type=int, required=True)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    with open(args.thermo) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    t = [float(r["time"]) * 1e-6 for r in rows]  # fs to ns
    e = [float(r["conserved_energy"]) for r in rows]
    n = len(t)
    mean_t, mean_e = sum(t) / n, sum(e) / n
    slope = sum((a - mean_t) * (b - mean_e) for a, b in zip(t, e)) / sum(
        (a - mean_t) ** 2 for a in t)
    print(f"NovaMD {args.label}: {args.molecules} waters, {rows[-1]['step']} steps of "
          f"{float(rows[1]['time']) / float(rows[1]['step']):g} fs: drift {slope:.4g} kcal/mol/ns "
          f"({slope / args.molecules:.3g} per molecule), first to last {e[-1] - e[0]:.4g} "
          f"kcal/mol of {e[0]:.6g}")


if __name__ == "__main__":
    main()
