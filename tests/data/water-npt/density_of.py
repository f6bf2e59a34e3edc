#!/usr/bin/env python3
"""Mean density and isothermal compressibility of a NovaMD constant-pressure run.

Reads a thermo CSV with the `volume` (A^3) and `mass_density` (g/cm^3) columns (real units),
drops the first --skip-ps picoseconds, and prints the mean density with its standard error from
20 block means, and beta_T = var(V) / (kT <V>) in 1/bar with a jackknife error over the blocks;
where the file has the `pressure` column (atm), its mean with a block error as well.

    python3 density_of.py npt.csv --skip-ps 50 [--temperature 300] [--against samples.dat]

With --against, an OpenMM run's samples (run_npt.py's output: step, time, volume, density) are
taken the same way (20 block means, all samples: run_npt.py starts sampling after its
equilibration), and the exit status is 1 where the two mean densities differ by more than 3
combined standard errors.
"""
import argparse
import csv
import math

KCAL_PER_MOL_PER_A3_IN_BAR = 4184.0 / (6.02214076e23 * 1e-30) / 1e5  # 69,476.95 bar
BOLTZMANN_KCAL_PER_MOL_K = 0.0019872043


def mean(values):
    return sum(values) / len(values)


def variance(values):
    m = mean(values)
    return sum((v - m) ** 2 for v in values) / (len(values) - 1)


def block_mean_and_error(values, blocks):
    """The mean of `values` and its standard error from `blocks` consecutive block means."""
    size = len(values) // blocks
    means = [mean(values[b * size:(b + 1) * size]) for b in range(blocks)]
    return mean(values), math.sqrt(variance(means) / blocks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("thermo")
    parser.add_argument("--skip-ps", type=float, default=50.0)
    parser.add_argument("--temperature", type=float, default=300.0)
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--against", help="an OpenMM run's samples (run_npt.py) to compare with")
    args = parser.parse_args()
    rows = [r for r in csv.DictReader(l for l in open(args.thermo) if not l.startswith("#")) if float(r["time"]) >= 1000 * args.skip_ps]
    density = [float(r["mass_density"]) for r in rows]
    volume = [float(r["volume"]) for r in rows]
    kT = BOLTZMANN_KCAL_PER_MOL_K * args.temperature
    size = len(rows) // args.blocks
    blocks = [slice(b * size, (b + 1) * size) for b in range(args.blocks)]
    block_means = [mean(density[b]) for b in blocks]
    error = math.sqrt(variance(block_means) / args.blocks)

    def beta(v):
        return variance(v) / (kT * mean(v)) / KCAL_PER_MOL_PER_A3_IN_BAR

    everything = beta(volume)
    leave_one_out = []
    for b in range(args.blocks):
        kept = [v for k, block in enumerate(blocks) if k != b for v in volume[block]]
        leave_one_out.append(beta(kept))
    n = args.blocks
    jack = math.sqrt((n - 1) / n * sum((x - mean(leave_one_out)) ** 2 for x in leave_one_out))
    print(f"samples {len(rows)} over {float(rows[-1]['time']) / 1000 - args.skip_ps:.1f} ps")
    print(f"density {mean(density):.5f} +- {error:.5f} g/cm^3 ({args.blocks} blocks)")
    print(f"volume mean {mean(volume):.2f} A^3, sd {math.sqrt(variance(volume)):.2f}")
    print(f"beta_T {everything * 1e6:.1f} +- {jack * 1e6:.1f} 1e-6/bar (jackknife)")
    if "pressure" in rows[0]:  # atm in real units
        pressure = [float(r["pressure"]) for r in rows]
        p_mean, p_error = block_mean_and_error(pressure, args.blocks)
        print(f"pressure {p_mean:.1f} +- {p_error:.1f} atm ({args.blocks} blocks)")
    if args.against:
        other = [float(line.split()[3]) for line in open(args.against) if not line.startswith("#")]
        other_mean, other_error = block_mean_and_error(other, args.blocks)
        z = (mean(density) - other_mean) / math.hypot(error, other_error)
        print(f"against {args.against}: {len(other)} samples, density {other_mean:.5f} +- "
              f"{other_error:.5f} g/cm^3; difference {mean(density) - other_mean:+.5f} "
              f"({z:+.2f} combined standard errors; within 3: {abs(z) <= 3})")
        if abs(z) > 3:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
