#!/usr/bin/env python3
"""Runs `novamd run` under mpirun on several P x Q grids of the force-matrix decomposition and
compares every run with the single-rank run of the same config (no mpirun):

    decomposition.py compare --case yukawa|lj --grids 1x2,2x1,2x2 --novamd BIN --mpirun MPIRUN
                             --work DIR [--backend cpu|cuda] [--precision double]
    decomposition.py restart --novamd BIN --mpirun MPIRUN --work DIR --grid 2x2 [--backend cpu]
    decomposition.py sigterm --novamd BIN --mpirun MPIRUN --work DIR --grid 2x2 [--backend cpu]
    decomposition.py errors --novamd BIN --mpirun MPIRUN --work DIR

compare: forces, velocities and positions (H5MD, doubles) at step 0 and after 100 steps, and
the energies of every thermo row, within the round-off bounds derived below. Particle data
come from the runs' checkpoints (every double bit for bit), energies from thermo.csv; the
script needs nothing beyond Python's standard library (the GPU machine has no numpy).
restart: a decomposed run stopped at step 50 and continued with --restart from its checkpoint
ends bitwise where the uninterrupted decomposed run ends (step 100).
sigterm: SIGTERM sent to one rank (not rank 0) stops every rank at the same step with a
checkpoint (exit 0), and the run continues from it.
errors: a grid whose P x Q is not the rank count ends every rank with exit code 2, and the
message is printed once.

Exits 0 when every check passes, 1 naming the first failure.
"""

import argparse
import csv
import math
import os
import pathlib
import signal
import struct
import subprocess
import sys
import time

# Two systems. Yukawa: a C/O mixture as in examples/white_dwarf_co.yaml, N = 1001 (divisible by
# no P or Q above 1), every pair under the minimum image. LJ: 729 atoms (odd) cut at 2.5 sigma,
# energy-shifted; the single-rank run uses Verlet lists, the decomposed runs test every pair of
# their block against the cutoff: the same pairs, summed in another order.
YUKAWA = """units: nuclear
backend: {{backend}}
precision: {{precision}}
seed: 7
system:
  density: 5.0e-8
  species:
    - {{{{name: C, charge: 6, mass: 11177.929}}}}
    - {{{{name: O, charge: 8, mass: 14899.169}}}}
  structure:
    generate: {{{{lattice: random, counts: {{{{C: {c}, O: {o}}}}}, min_separation: {separation}}}}}
  velocities: {{{{temperature: 0.001}}}}
forces:
  - yukawa: {{{{screening_length: 475.0, cutoff: none}}}}
integrator: {{{{type: velocity_verlet, timestep: 200.0}}}}
run: {{{{steps: {{steps}}}}}}
output:
  thermo: {{{{every: 10, file: thermo.csv}}}}
  checkpoint: {{{{file: run.chk}}}}
"""

CONFIGS = {
    "yukawa": YUKAWA.format(c=500, o=501, separation=100.0),
    # Large enough for the each-pair-once kernel on every GPU of a decomposed CUDA run.
    "yukawa-large": YUKAWA.format(c=13824, o=13824, separation=50.0),
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
  checkpoint: {{file: run.chk}}
""",
}

# Tolerances. Step 0: both runs sum the same pair terms for each particle, in another order
# (the decomposed kernel splits each target's sources at the block edges, which moves terms to
# other partial-sum lanes, and the row allreduce adds Q partial forces). Recursive summation of
# terms x_k errs by at most (depth) u sum |x_k| (u = 2^-53; Higham, Accuracy and Stability of
# Numerical Algorithms, 2nd ed., eq. 4.4). Whatever the order (CPU lanes, GPU tiles and
# chunks), no force term passes through more than N + Q additions (a target's N - 1 pairs, then
# the row's Q partial forces), nor an energy term through more than 2 N + K (a particle's
# share, the sum over particles, the ranks). The bound for the difference of two runs is twice
# that, with sum |x_k| computed here independently from the step-0 positions (pair_sums). The lattice start of the LJ case
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
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    return [args.mpirun, *root, "-np", str(ranks), "--oversubscribe", args.novamd, "run",
            "config.yaml", "--set", f"parallel.grid={grid}"]


def prepare(work, args, case, steps):
    """`work` with the config of `case` to `steps` steps, and no output of an earlier run."""
    work.mkdir(parents=True, exist_ok=True)
    for stale in ("thermo.csv", "run.chk", "console.log"):
        (work / stale).unlink(missing_ok=True)
    (work / "config.yaml").write_text(
        CONFIGS[case].format(backend=args.backend, precision=args.precision, steps=steps))
    return work


def read_particles(path):
    """Step, box edges and the particle fields of a NovaMD checkpoint (docs/file-formats.md,
    versions 1 to 5; 3 to 5 add what lies after the fields read here): a dict of name -> one list
    per component, in storage order."""
    data = pathlib.Path(path).read_bytes()
    version = struct.unpack_from("<I", data, 8)[0] if len(data) >= 12 else 0
    if data[:8] != b"NOVAMDCK" or version not in (1, 2, 3, 4, 5):
        fail(f"{path}: not a NovaMD checkpoint of version 1 to 5")
    at = 24

    def take(fmt):
        nonlocal at
        values = struct.unpack_from("<" + fmt, data, at)
        at += struct.calcsize("<" + fmt)
        return values

    def string():
        (length,) = take("Q")
        return take(f"{length}s")[0].decode()

    def array(kind):
        (count,) = take("Q")
        return list(take(f"{count}{kind}"))

    for _ in range(5):  # version, config, backend, precision, device
        string()
    (step,) = take("q")
    box = take("3d")
    take("Q")  # the particle count
    fields = {}
    if version == 1:
        for name in ("position", "velocity", "force"):
            fields[name] = [array("d") for _ in range(3)]
        fields["type"] = [array("i")]
        fields["id"] = [array("i")]
    else:
        (count,) = take("I")
        for _ in range(count):
            name = string()
            components, size = take("2I")
            fields[name] = [array("d" if size == 8 else "i") for _ in range(components)]
    return step, box, fields


def read_checkpoint(path):
    """Step, positions, velocities and forces ([N][3] each, id order) of a checkpoint."""
    step, _, fields = read_particles(path)
    ids = fields["id"][0]
    order = sorted(range(len(ids)), key=lambda k: ids[k])
    per_particle = {name: [[a[k] for a in fields[name]] for k in order]
                    for name in ("position", "velocity", "force")}
    return step, per_particle


def read_types_and_box(path):
    """Types (id order) and box edges of a checkpoint."""
    _, box, fields = read_particles(path)
    types, ids = fields["type"][0], fields["id"][0]
    by_id = [0] * len(ids)
    for k in range(len(ids)):
        by_id[ids[k]] = types[k]
    return by_id, box


def thermo(path):
    """The thermo rows: a list of dicts of floats."""
    with open(path) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))  # the units line
        return [{k: float(v) for k, v in row.items()} for row in rows]


def fail(message):
    sys.exit(f"FAILED: {message}")


def compare_field(label, got, want, bound):
    """|got - want| <= bound for every particle and component (`bound`: a number, or one per
    particle and component)."""
    worst, worst_share, where = 0.0, 0.0, None
    for i, (g3, w3) in enumerate(zip(got, want)):
        for c in range(3):
            b = bound if isinstance(bound, float) else bound[i][c]
            error = abs(g3[c] - w3[c])
            share = error / b if b > 0 else (math.inf if error > 0 else 0.0)
            worst = max(worst, error)
            if share > worst_share:
                worst_share, where = share, (i, c, g3[c], w3[c], b)
    print(f"  {label}: largest difference {worst:.3g}, largest share of its bound "
          f"{worst_share:.3g}")
    if worst_share > 1.0:
        i, c, g, w, b = where
        fail(f"{label}: {g!r} against {w!r} at particle {i}, component {c} (bound {b:.3g})")


def rms(values):
    return math.sqrt(sum(v * v for row in values for v in row) / (3 * len(values)))


def compare_runs(label, got_dir, want_dir, box_edge, step0):
    force_bound, energy_bound = step0
    for step in (0, 100):
        _, got = read_checkpoint(got_dir / f"step{step}.chk")
        _, want = read_checkpoint(want_dir / f"step{step}.chk")
        for field in ("position", "velocity", "force"):
            if step == 0:  # the initial state itself is the same on every rank
                bound = force_bound if field == "force" else 0.0
            else:
                bound = STEP100_SCALE * (box_edge if field == "position" else rms(want[field]))
            compare_field(f"{label} step {step} {field}", got[field], want[field], bound)
    t_got, t_want = thermo(got_dir / "thermo.csv"), thermo(want_dir / "thermo.csv")
    if [r["step"] for r in t_got] != [r["step"] for r in t_want]:
        fail(f"{label}: thermo rows at other steps than the single-rank run's")
    n_terms = (len(want["position"]) + 16) * UNIT_ROUNDOFF
    for column in ("kinetic_energy", "potential_energy", "total_energy", "pressure"):
        for g_row, w_row in zip(t_got, t_want):
            g, w, step = g_row[column], w_row[column], int(w_row["step"])
            bound = STEP100_SCALE * abs(w)
            if step == 0:  # the kinetic energy: N terms in another order (column sums)
                bound = energy_bound if column != "kinetic_energy" else 2 * n_terms * abs(w)
                if column == "pressure":  # checked through the forces and energies
                    bound = math.inf
            if not abs(g - w) <= bound:
                fail(f"{label}: {column} at step {step}: {g!r} against {w!r} "
                     f"(bound {bound:.3g})")
    print(f"  {label}: energies of {len(t_want)} thermo rows within bounds")


def sampled(n):
    """The particles whose step-0 bounds are computed: all of them up to 2,000; else 64 spread
    evenly (the pure-Python pair loop would take hours), the others then go unchecked at
    step 0 (they are checked after 100 steps)."""
    return list(range(n)) if n <= 2000 else list(range(0, n, n // 64))


def pair_sums(case, positions, types, box):
    """Per particle: sum over its pairs of |f_ij| per component, and half the sum of |e_ij|,
    at the step-0 positions under the minimum image (an independent loop over all pairs). For
    particles left out by sampled(): infinite force sums (no check) and zero energy sums (the
    energy bound then comes from the sampled particles, scaled by N / samples)."""
    n = len(positions)
    force_sum = [[math.inf] * 3 for _ in range(n)]
    energy_sum = [0.0] * n
    charge = [6.0, 8.0]
    cut_shift = 4.0 * (2.5 ** -12 - 2.5 ** -6)
    samples = sampled(n)
    for i in samples:
        force_sum[i] = [0.0, 0.0, 0.0]
        xi, fi = positions[i], force_sum[i]
        for j in range(n):
            if i == j:
                continue
            d = [xi[c] - positions[j][c] for c in range(3)]
            d = [d[c] - box[c] * round(d[c] / box[c]) for c in range(3)]
            r = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
            if case.startswith("yukawa"):
                e = K_E * charge[types[i]] * charge[types[j]] * math.exp(-r / 475.0) / r
                f_over_r = e * (1.0 / r + 1.0 / 475.0) / r
            elif r < 2.5:
                s6 = r ** -6
                e = 4.0 * (s6 * s6 - s6) - cut_shift
                f_over_r = 24.0 * (2.0 * s6 * s6 - s6) / (r * r)
            else:
                continue
            for c in range(3):
                fi[c] += abs(f_over_r * d[c])
            energy_sum[i] += 0.5 * abs(e)
    if len(samples) < n:  # the energy's scale from the sample (Yukawa: all terms positive)
        energy_sum = [sum(energy_sum) * n / len(samples)] + [0.0] * (n - 1)
    return force_sum, energy_sum


def step0_bounds(sums, columns, ranks):
    """Per particle and component, the bound on the step-0 force difference; and the bound on
    the potential energy's. `sums`: pair_sums of the step-0 state."""
    force_sum, energy_sum = sums
    n = len(energy_sum)
    force_scale = 2 * (n + columns) * UNIT_ROUNDOFF
    energy_scale = 2 * (2 * n + ranks) * UNIT_ROUNDOFF
    return ([[force_scale * f for f in row] for row in force_sum],
            energy_scale * sum(energy_sum))


def run_twice(command, directory, env, args, case):
    """The run to step 0 and to step 100, keeping each one's checkpoint (step0.chk,
    step100.chk); thermo.csv is the 100-step run's."""
    for steps in (0, 100):
        prepare(directory, args, case, steps)
        run(command, directory, env)
        os.replace(directory / "run.chk", directory / f"step{steps}.chk")


def compare(args):
    env = environment()
    root = pathlib.Path(args.work) / f"{args.case}-{args.backend}"
    reference = root / "single"
    start = time.time()
    run_twice([args.novamd, "run", "config.yaml"], reference, env, args, args.case)
    print(f"{args.case}: single rank, 0 and 100 steps ({time.time() - start:.1f} s)")
    types, box = read_types_and_box(reference / "step0.chk")
    sums = pair_sums(args.case, read_checkpoint(reference / "step0.chk")[1]["position"], types,
                     box)
    for grid in args.grids.split(","):
        ranks, grid_value = grid_ranks(grid)
        columns = int(grid.split("x")[1])
        start = time.time()
        step0 = step0_bounds(sums, columns, ranks)
        directory = root / grid
        run_twice(mpirun_command(args, ranks, grid_value), directory, env, args, args.case)
        print(f"{args.case}: {ranks} ranks, grid {grid} ({time.time() - start:.1f} s)")
        compare_runs(f"{args.case} {grid}", directory, reference, max(box), step0)
        check_header(args.case, ranks, (directory / "console.log").read_text())


def check_header(case, ranks, console):
    """A header under several ranks names no neighbour lists the force matrix does not build,
    and a cutoff run says what its blocks cost."""
    neighbors = [line for line in console.splitlines() if line.strip().startswith("neighbors")]
    if ranks > 1 and case == "lj":
        if not neighbors or "none: each rank tests every pair" not in neighbors[0]:
            fail(f"{case}, {ranks} ranks: the header's neighbors line is {neighbors}")
        if "Note: under mpirun the force matrix" not in console:
            fail(f"{case}, {ranks} ranks: no note on the cost of a cutoff under the force matrix")
    elif "Note: under mpirun" in console:
        fail(f"{case}, {ranks} ranks: a note on cutoffs where it does not apply")


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
    step_got, got = read_checkpoint(resumed / "run.chk")
    step_want, want = read_checkpoint(straight / "run.chk")
    if step_got != 100 or step_want != 100:
        fail(f"restart {args.grid}: checkpoints at steps {step_got} and {step_want}, not 100")
    for field in ("position", "velocity", "force"):
        if got[field] != want[field]:  # Python floats compare exactly
            fail(f"restart {args.grid}: {field} at step 100 differs from the uninterrupted run")
    t_got, t_want = thermo(resumed / "thermo.csv"), thermo(straight / "thermo.csv")
    if t_got != t_want:
        fail(f"restart {args.grid}: thermo rows differ from the uninterrupted run")
    print(f"restart {args.grid}: step 100 after a restart at step 50 is bitwise the "
          "uninterrupted run's (positions, velocities, forces in the checkpoints, thermo rows)")


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


def csv_rows(path):
    with open(path) as f:
        header = f.readline().strip()
        return header, [[float(x) for x in line.split(",")] for line in f if line.strip()]


def analysis(args):
    """g(r), S(q) and the MSD under MPI (2 x 1) against the single rank. g(r) and S(q) are
    sampled at step 0 only, where every rank's gathered positions are the single rank's
    exactly, so the files must be equal; the MSD rows after 5 to 20 steps may differ by the
    round-off of the decomposed forces (about 1e-13 of a displacement): 1e-8 relative."""
    env = environment()
    root = pathlib.Path(args.work) / "analysis"
    block = ("analysis={rdf: {every: 1000, bins: 50}, structure_factor: {every: 1000, bins: 20}, "
             "msd: {every: 5}}")
    outputs = {}
    for label, command in (("single", [args.novamd, "run", "config.yaml"]),
                           ("2x1", mpirun_command(args, 2, "[2,1]"))):
        directory = prepare(root / label, args, "yukawa", 20)
        for stale in ("rdf.csv", "sq.csv", "msd.csv"):
            (directory / stale).unlink(missing_ok=True)
        run(command + ["--set", block], directory, env)
        outputs[label] = {name: csv_rows(directory / name)
                          for name in ("rdf.csv", "sq.csv", "msd.csv")}
    for name in ("rdf.csv", "sq.csv"):
        if outputs["2x1"][name] != outputs["single"][name]:
            fail(f"analysis: {name} under MPI differs from the single rank's")
    header_got, got = outputs["2x1"]["msd.csv"]
    header_want, want = outputs["single"]["msd.csv"]
    if header_got != header_want or len(got) != len(want) or len(want) != 5:
        fail(f"analysis: msd.csv has {len(got)} rows under MPI, {len(want)} on one rank "
             "(expected 5: steps 0, 5, ..., 20)")
    for row_got, row_want in zip(got, want):
        for x, y in zip(row_got, row_want):
            if abs(x - y) > 1e-8 * max(abs(y), 1e-300):
                fail(f"analysis: msd.csv rows differ: {row_got} against {row_want}")
    print("analysis: g(r) and S(q) at step 0 equal, 5 MSD rows within 1e-8, 2 ranks against 1")


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
    parser.add_argument("mode", choices=["compare", "restart", "sigterm", "errors", "analysis"])
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
    {"compare": compare, "restart": restart, "sigterm": sigterm, "errors": errors,
     "analysis": analysis}[args.mode](args)
    print("PASSED")


if __name__ == "__main__":
    main()
