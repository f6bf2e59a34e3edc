#!/usr/bin/env python3
"""Runs `novamd run` under mpirun on several P x Q grids of the force-matrix decomposition and
compares every run with the single-rank run of the same config (no mpirun):

    decomposition.py compare --case yukawa|lj --grids 1x2,2x1,2x2 --novamd BIN --mpirun MPIRUN
                             --work DIR [--backend cpu|cuda] [--precision double]
    decomposition.py restart --novamd BIN --mpirun MPIRUN --work DIR --grid 2x2 [--backend cpu]
    decomposition.py sigterm --novamd BIN --mpirun MPIRUN --work DIR --grid 2x2 [--backend cpu]
    decomposition.py errors --novamd BIN --mpirun MPIRUN --work DIR

compare: forces, velocities and positions (H5MD, doubles) at step 0 and after 100 steps, and
the energies of every thermo row, within the round-off bounds derived below.
restart: a decomposed run stopped at step 50 and continued with --restart from its checkpoint
ends bitwise where the uninterrupted decomposed run ends (step 100).
sigterm: SIGTERM sent to one rank (not rank 0) stops every rank at the same step with a
checkpoint (exit 0), and the run continues from it.
errors: a grid whose P x Q is not the rank count ends every rank with exit code 2, and the
message is printed once.

Exits 0 when every check passes, 1 naming the first failure; prints SKIPPED (exit 0) when
numpy or h5py is missing.
"""

import argparse
import os
import pathlib
import signal
import subprocess
import sys
import time

try:
    import numpy as np
    import h5py
except ImportError as error:
    print(f"SKIPPED: decomposition.py needs {error.name} (python3-numpy python3-h5py)")
    sys.exit(0)

EPS = 2.0 ** -52  # double precision unit round-off (times 2)

# Two systems. Yukawa: a C/O mixture as in examples/white_dwarf_co.yaml, N = 1001 (divisible by
# no P or Q above 1), every pair under the minimum image. LJ: 729 atoms (odd) cut at 2.5 sigma,
# energy-shifted; the single-rank run uses Verlet lists, the decomposed runs test every pair of
# their block against the cutoff: the same pairs, summed in another order.
CONFIGS = {
    "yukawa": """units: nuclear
backend: {backend}
precision: {precision}
seed: 7
system:
  density: 5.0e-8
  species:
    - {{name: C, charge: 6, mass: 11177.929}}
    - {{name: O, charge: 8, mass: 14899.169}}
  structure:
    generate: {{lattice: random, counts: {{C: 500, O: 501}}, min_separation: 100.0}}
  velocities: {{temperature: 0.001}}
forces:
  - yukawa: {{screening_length: 475.0, cutoff: none}}
integrator: {{type: velocity_verlet, timestep: 200.0}}
run: {{steps: {steps}}}
output:
  thermo: {{every: 10, file: thermo.csv}}
  trajectory: {{every: 100, file: traj.h5, fields: [position, velocity, force]}}
  checkpoint: {{file: run.chk}}
""",
    "lj": """units: lj
backend: {backend}
precision: {precision}
seed: 87287
system:
  density: 0.8442
  species:
    - {{name: Ar, mass: 1.0}}
  structure:
    generate: {{lattice: sc, cells: 9, fractions: {{Ar: 1.0}}}}
  velocities: {{temperature: 1.44}}
forces:
  - lennard_jones:
      pairs: [{{types: [Ar, Ar], epsilon: 1.0, sigma: 1.0}}]
      cutoff: 2.5
      truncation: shift
neighbors: {{method: auto, skin: 0.3}}
integrator: {{type: velocity_verlet, timestep: 0.005}}
run: {{steps: {steps}}}
output:
  thermo: {{every: 10, file: thermo.csv}}
  trajectory: {{every: 100, file: traj.h5, fields: [position, velocity, force]}}
  checkpoint: {{file: run.chk}}
""",
}

# Tolerances. Step 0: both runs sum the same pair terms for each particle, in another order
# (the decomposed kernel splits each target's sources at the block edges, which moves terms to
# other partial-sum lanes, and the row allreduce adds Q partial forces). Recursive summation of
# terms x_k errs by at most (depth) u sum |x_k| (u = 2^-53; Higham, Accuracy and Stability of
# Numerical Algorithms, 2nd ed., eq. 4.4); here the depth is N/8 + 8 + Q + 1 per force
# component (8 lanes, then the lanes, then the row's partial forces) and N/8 + 8 + N + K per
# total energy. The bound for the difference of two runs is twice that, with sum |x_k| computed
# here independently from the step-0 positions (pair_sums). The lattice start of the LJ case
# has near-zero forces by symmetry (the terms cancel): only such a bound is meaningful there.
UNIT_ROUNDOFF = 2.0 ** -53
K_E = 1.43996448  # MeV fm, e^2 / (4 pi eps0) (docs/units.md)
# After 100 steps: the trajectories are chaotic, and each step adds differences of ~eps of
# the forces, which grow as exp(lambda t). Both systems are liquids (the sc and random starts
# melt); over 100 steps (0.5 tau for LJ at T = 1.44, where the largest Lyapunov exponent is
# about 3-5 per tau; ~0.4 inverse plasma frequencies for the Yukawa mixture) the growth is at
# most e^3 ~ 20 on top of the ~100 steps of accumulation: differences of ~1e-16 x 100 x 20 =
# 2e-13 of each quantity's scale (measured: positions ~2e-15 of the box, forces ~6e-14 of the
# largest force). Bounds: 1e-10 of the scale (box edge for positions, RMS for velocities and
# forces; relative for energies), still far below any real error: a missing or doubled pair
# changes a force by ~1e-3 of its size at step 0 already, and positions by ~1e-7 of the box
# within one step.
STEP100_SCALE = 1e-10


def run(cmd, cwd, env, check=True):
    result = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    (pathlib.Path(cwd) / "console.log").write_text(" ".join(cmd) + "\n" + result.stdout)
    if check and result.returncode != 0:
        sys.exit(f"FAILED: {' '.join(cmd)} (in {cwd}) exited {result.returncode}:\n"
                 f"{result.stdout[-3000:]}")
    return result


def environment():
    env = dict(os.environ)
    env.update(OMP_NUM_THREADS="1", OMP_WAIT_POLICY="PASSIVE", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    return env


def grid_ranks(grid):
    p, q = (int(x) for x in grid.split("x"))
    return p * q, f"[{p},{q}]"


def mpirun_command(args, ranks, grid):
    return [args.mpirun, "-np", str(ranks), "--oversubscribe", args.novamd, "run", "config.yaml",
            "--set", f"parallel.grid={grid}"]


def prepare(work, args, case, steps):
    work.mkdir(parents=True, exist_ok=True)
    (work / "config.yaml").write_text(
        CONFIGS[case].format(backend=args.backend, precision=args.precision, steps=steps))
    return work


def frames(path):
    with h5py.File(path, "r") as f:
        out = {}
        for field in ("position", "velocity", "force"):
            group = f[f"particles/all/{field}"]
            out[field] = (group["step"][:], group["value"][:])
        return out


def thermo(path):
    rows = np.genfromtxt(path, delimiter=",", names=True)
    return rows


def fail(message):
    sys.exit(f"FAILED: {message}")


def compare_field(label, got, want, bound):
    """|got - want| <= bound element-wise (`bound`: a number, or one per element)."""
    error = np.abs(got - want)
    bound = np.broadcast_to(np.asarray(bound, dtype=float), error.shape)
    over = error > bound
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(bound > 0, error / bound, np.where(error > 0, np.inf, 0.0))
    print(f"  {label}: largest difference {error.max():.3g}, largest share of its bound "
          f"{share.max():.3g}")
    if over.any():
        k = np.unravel_index(np.argmax(share), error.shape)
        fail(f"{label}: {got[k]!r} against {want[k]!r} at particle {k[0]}, component {k[1]} "
             f"(bound {bound[k]:.3g})")


def compare_runs(label, got_dir, want_dir, box_edge, step0):
    force_bound, energy_bound = step0
    got, want = frames(got_dir / "traj.h5"), frames(want_dir / "traj.h5")
    for field in ("position", "velocity", "force"):
        steps_got, values_got = got[field]
        steps_want, values_want = want[field]
        if not np.array_equal(steps_got, steps_want):
            fail(f"{label}: {field} frames at steps {steps_got}, expected {steps_want}")
        for k, step in enumerate(steps_want):
            rms = np.sqrt(np.mean(values_want[k] ** 2))
            scale = box_edge if field == "position" else rms
            bound = STEP100_SCALE * scale
            if step == 0:  # the initial state itself is the same on every rank
                bound = force_bound if field == "force" else 0.0
            compare_field(f"{label} step {step} {field}", values_got[k], values_want[k], bound)
    t_got, t_want = thermo(got_dir / "thermo.csv"), thermo(want_dir / "thermo.csv")
    n_terms = (want["position"][1].shape[1] + 16) * UNIT_ROUNDOFF
    if not np.array_equal(t_got["step"], t_want["step"]):
        fail(f"{label}: thermo rows at steps {t_got['step']}, expected {t_want['step']}")
    for column in ("kinetic_energy", "potential_energy", "total_energy", "pressure"):
        for g, w, step in zip(t_got[column], t_want[column], t_want["step"]):
            bound = STEP100_SCALE * abs(w)
            if step == 0:  # the kinetic energy: N terms in another order (column sums)
                bound = energy_bound if column != "kinetic_energy" else 2 * n_terms * abs(w)
                if column == "pressure":  # the virial's terms are no larger than r |f|
                    bound = np.inf
            if not abs(g - w) <= bound:
                fail(f"{label}: {column} at step {int(step)}: {g!r} against {w!r} "
                     f"(bound {bound:.3g})")
    print(f"  {label}: energies of {len(t_want)} thermo rows within bounds")


def pair_sums(case, positions, types, edge):
    """Per particle: sum over its pairs of |f_ij| (each component) and sum of |e_ij|, at the
    step-0 positions, under the minimum image (an independent numpy loop over all pairs)."""
    n = len(positions)
    force_sum, energy_sum = np.zeros((n, 3)), np.zeros(n)
    charge = np.array([6.0, 8.0])[types] if case == "yukawa" else None
    for i in range(n):
        d = positions[i] - positions
        d -= edge * np.round(d / edge)
        r = np.sqrt(np.sum(d * d, axis=1))
        r[i] = np.inf
        if case == "yukawa":
            lam = 475.0
            e = K_E * charge[i] * charge * np.exp(-r / lam) / r
            f_over_r = e * (1.0 / r + 1.0 / lam) / r
        else:
            inside = r < 2.5
            s6 = np.where(inside, r ** -6.0, 0.0)
            e = np.where(inside, 4.0 * (s6 * s6 - s6) - 4.0 * (2.5 ** -12 - 2.5 ** -6), 0.0)
            f_over_r = np.where(inside, 24.0 * (2.0 * s6 * s6 - s6) / r ** 2, 0.0)
        force_sum[i] = np.sum(np.abs(f_over_r[:, None] * d), axis=0)
        energy_sum[i] = 0.5 * np.sum(np.abs(e))
    return force_sum, energy_sum


def step0_bounds(case, directory, edge, ranks, columns):
    """Per particle and component, the bound on the step-0 force difference; and the bound on
    the potential energy's."""
    with h5py.File(directory / "traj.h5", "r") as f:
        positions = f["particles/all/position/value"][0]
        types = f["particles/all/species"][:]
    force_sum, energy_sum = pair_sums(case, positions, types, edge)
    n = len(positions)
    force_depth = n / 8 + 8 + columns + 1
    energy_depth = n / 8 + 8 + n + ranks
    return (2 * force_depth * UNIT_ROUNDOFF * force_sum,
            2 * energy_depth * UNIT_ROUNDOFF * np.sum(energy_sum))


def box_edge_of(directory):
    with h5py.File(directory / "traj.h5", "r") as f:
        return float(np.max(f["particles/all/box/edges/value"][0]))


def compare(args):
    env = environment()
    root = pathlib.Path(args.work) / args.case
    reference = prepare(root / "single", args, args.case, 100)
    start = time.time()
    run([args.novamd, "run", "config.yaml"], reference, env)
    print(f"{args.case}: single rank, 100 steps ({time.time() - start:.1f} s)")
    edge = box_edge_of(reference)
    for grid in args.grids.split(","):
        ranks, grid_value = grid_ranks(grid)
        step0 = step0_bounds(args.case, reference, edge, ranks, int(grid.split("x")[1]))
        directory = prepare(root / grid, args, args.case, 100)
        start = time.time()
        run(mpirun_command(args, ranks, grid_value), directory, env)
        print(f"{args.case}: {ranks} ranks, grid {grid} ({time.time() - start:.1f} s)")
        compare_runs(f"{args.case} {grid}", directory, reference, edge, step0)


def restart(args):
    """Bitwise: 100 steps straight against 50 + --restart to 100, on the same grid."""
    env = environment()
    ranks, grid_value = grid_ranks(args.grid)
    root = pathlib.Path(args.work) / f"restart-{args.grid}"
    straight = prepare(root / "straight", args, "yukawa", 100)
    run(mpirun_command(args, ranks, grid_value), straight, env)
    resumed = prepare(root / "resumed", args, "yukawa", 50)
    run(mpirun_command(args, ranks, grid_value), resumed, env)
    run(mpirun_command(args, ranks, grid_value) + ["--restart", "run.chk", "--steps", "100"],
        resumed, env)
    got, want = frames(resumed / "traj.h5"), frames(straight / "traj.h5")
    for field in ("position", "velocity", "force"):
        if got[field][0][-1] != 100 or want[field][0][-1] != 100:
            fail(f"restart {args.grid}: {field} frames at steps {got[field][0]}")
        if not np.array_equal(got[field][1][-1], want[field][1][-1]):
            fail(f"restart {args.grid}: {field} at step 100 differs from the uninterrupted run")
    t_got, t_want = thermo(resumed / "thermo.csv"), thermo(straight / "thermo.csv")
    if not (np.array_equal(t_got["step"], t_want["step"]) and
            np.array_equal(t_got["total_energy"], t_want["total_energy"])):
        fail(f"restart {args.grid}: thermo rows differ from the uninterrupted run")
    print(f"restart {args.grid}: step 100 after a restart at step 50 is bitwise the "
          "uninterrupted run's (positions, velocities, forces, thermo rows)")


def rank_processes(launcher_pid):
    """(rank, pid) of the novamd processes the launcher started."""
    ranks = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"novamd" not in cmdline.split(b"\0")[0]:
            continue
        for item in environ:
            if item.startswith(b"OMPI_COMM_WORLD_RANK="):
                ranks.append((int(item.split(b"=")[1]), int(entry.name)))
    return sorted(ranks)


def sigterm(args):
    env = environment()
    ranks, grid_value = grid_ranks(args.grid)
    directory = prepare(pathlib.Path(args.work) / f"sigterm-{args.grid}", args, "yukawa", 1000000)
    log = open(directory / "console.log", "w")
    launcher = subprocess.Popen(mpirun_command(args, ranks, grid_value), cwd=directory, env=env,
                                stdout=log, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:  # a few thermo rows: every rank is in the loop
        rows = (directory / "thermo.csv").read_text().count("\n") if (
            directory / "thermo.csv").exists() else 0
        if rows >= 3:
            break
        time.sleep(0.2)
    processes = [p for p in rank_processes(launcher.pid)]
    if len(processes) != ranks:
        launcher.kill()
        fail(f"sigterm: found {len(processes)} rank processes, expected {ranks}")
    target_rank, target_pid = processes[-1]
    os.kill(target_pid, signal.SIGTERM)
    try:
        code = launcher.wait(timeout=60)
    except subprocess.TimeoutExpired:
        launcher.kill()
        fail("sigterm: the ranks did not stop within 60 s of the signal")
    log.close()
    console = (directory / "console.log").read_text()
    if code != 0 or "Received SIGTERM at step" not in console:
        fail(f"sigterm: exit code {code}, console:\n{console[-2000:]}")
    step = int(console.split("Received SIGTERM at step ")[1].split(":")[0])
    print(f"sigterm {args.grid}: SIGTERM to rank {target_rank} stopped all {ranks} ranks at "
          f"step {step} with a checkpoint (exit 0)")
    run(mpirun_command(args, ranks, grid_value) + ["--restart", "run.chk", "--steps",
                                                   str(step + 10)], directory, env)
    print(f"sigterm {args.grid}: continued from the checkpoint to step {step + 10}")


def errors(args):
    """A grid that does not fit the ranks: exit 2 on every rank, the message printed once."""
    env = environment()
    directory = prepare(pathlib.Path(args.work) / "errors", args, "yukawa", 10)
    result = run(mpirun_command(args, 2, "[2,2]"), directory, env, check=False)
    expected = "parallel.grid: [2, 2] has 4 ranks, but the run has 2"
    if result.returncode != 2 or result.stdout.count(expected) != 1:
        fail(f"errors: exit code {result.returncode} (expected 2), message printed "
             f"{result.stdout.count(expected)} times (expected once):\n{result.stdout[-2000:]}")
    print(f"errors: a 2 x 2 grid on 2 ranks: exit 2, said once: ...{expected}...")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["compare", "restart", "sigterm", "errors"])
    parser.add_argument("--case", choices=sorted(CONFIGS), default="yukawa")
    parser.add_argument("--grids", default="1x1,1x2,2x1,2x2,4x1,1x4")
    parser.add_argument("--grid", default="2x2")
    parser.add_argument("--novamd", required=True)
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--work", required=True)
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--precision", default="double")
    args = parser.parse_args()
    args.novamd = str(pathlib.Path(args.novamd).resolve())
    {"compare": compare, "restart": restart, "sigterm": sigterm, "errors": errors}[args.mode](args)
    print("PASSED")


if __name__ == "__main__":
    main()
