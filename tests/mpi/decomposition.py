#!/usr/bin/env python3
"""Runs `novamd run` under mpirun on several grids and compares every run with the single-rank
run of the same config (no mpirun). A grid PxQ is the force-matrix decomposition's
(parallel.grid: [P, Q]); AxBxC is the spatial decomposition's bricks (parallel.grid: [A, B, C],
which implies parallel.decomposition: spatial):

    decomposition.py compare --case yukawa|lj|yukawa-cut|pasta --grids 1x2,2x1,2x1x1
                             --novamd BIN --mpirun MPIRUN --work DIR [--backend cpu|cuda]
                             [--precision double]
    decomposition.py restart --novamd BIN --mpirun MPIRUN --work DIR --grid 2x2 [--case yukawa]
    decomposition.py regrid --novamd BIN --mpirun MPIRUN --work DIR --grid 2x1x1 --regrid 2x2x1
    decomposition.py sigterm --novamd BIN --mpirun MPIRUN --work DIR --grid 2x2 [--case yukawa]
    decomposition.py errors --novamd BIN --mpirun MPIRUN --work DIR
    decomposition.py long --novamd BIN --mpirun MPIRUN --work DIR --grid 2x2x1 [--case lj]

compare: forces, velocities and positions (H5MD, doubles) at step 0 and after 100 steps, and
the energies of every thermo row, within the round-off bounds derived below. Particle data
come from the runs' checkpoints (every double bit for bit), energies from thermo.csv; the
script needs nothing beyond Python's standard library (the GPU machine has no numpy).
restart: a decomposed run stopped at step 50 and continued with --restart from its checkpoint
ends bitwise where the uninterrupted decomposed run ends (step 100).
regrid: a spatial run stopped at step 50 on one grid and continued on another (another rank
count) ends within the step-100 bounds of the single-rank run (not bitwise: the sums' order
changes with the grid).
long: a spatial run of 1,000 steps against the single-rank run (LONG_STEPS' bounds).
sigterm: SIGTERM sent to one rank (not rank 0) stops every rank at the same step with a
checkpoint (exit 0), and the run continues from it.
errors: a grid whose P x Q (or A x B x C) is not the rank count, and a spatial decomposition of
a term without a cutoff, end every rank with exit code 2, and the message is printed once.

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

# Pasta: the example's model (examples/nuclear_pasta.yaml) at its quick size, 2,000 nucleons
# in a 34.2 fm box, the Coulomb cut at 15 fm: both terms over Verlet lists, whose reach (16.2 fm)
# exceeds a brick of 4 along an axis. Over 100 steps a nucleon moves ~7 fm: many cross bricks.
PASTA = """units: nuclear
backend: {backend}
precision: {precision}
seed: 2013
system:
  density: 0.05
  species:
    - {{name: p, charge: 1, mass: 939.0, isospin: 1}}
    - {{name: n, charge: 0, mass: 939.0, isospin: -1}}
  structure:
    generate: {{lattice: random, fractions: {{p: 0.4, n: 0.6}}, total: 2000, min_separation: 2.0}}
  velocities: {{temperature: 1.0}}
forces:
  - nuclear: {{a: 110.0, b: -26.0, c: 24.0, Lambda: 1.25, cutoff: 10.0}}
  - yukawa: {{screening_length: 10.0, cutoff: 15.0, shift: energy}}
neighbors: {{method: neighbor_list, skin: 1.2}}
integrator: {{type: velocity_verlet, timestep: 2.0}}
run: {{steps: {steps}}}
output:
  thermo: {{every: 10, file: thermo.csv}}
  checkpoint: {{file: run.chk}}
"""

CONFIGS = {
    "yukawa": YUKAWA.format(c=500, o=501, separation=100.0),
    # The same mixture cut at 900 fm (about 1/3 of the box) over Verlet lists: a term the
    # spatial decomposition runs.
    "yukawa-cut": YUKAWA.format(c=500, o=501, separation=100.0).replace(
        "cutoff: none}}", "cutoff: 900.0, shift: energy}}\nneighbors: {{method: neighbor_list, "
        "skin: 50.0}}"),
    "pasta": PASTA,
    # Eight times as many nucleons: a box of more than three cells of the Yukawa term's reach,
    # which the CUDA backend's bricks need for their lists.
    "pasta-large": PASTA.replace("total: 2000", "total: 16000"),
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

# The solvated peptide of examples/peptide (2,004 atoms, CHARMM: bonds, angles, dihedrals,
# impropers, exclusions and scaled 1-4 pairs), with force-shifted Coulomb and with PME: bonded
# terms across bricks, and the PME mesh summed over the ranks. Its step-0 bound cannot come
# from an independent pair loop here (CHARMM switching, bonded terms, the mesh): ORDER_SCALED.
REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
PEPTIDE = """units: real
backend: {{backend}}
precision: {{precision}}
seed: 2026
system:
  topology:
    read: {data}
    styles: {{{{pair: lj_charmm, bond: harmonic, angle: charmm, dihedral: charmm, improper: harmonic}}}}
forces:
  - lennard_jones: {{{{cutoff: 10.0, switch: 8.0}}}}
  - coulomb: {coulomb}
neighbors: {{{{skin: 2.0}}}}
integrator: {{{{type: velocity_verlet, timestep: 0.25}}}}
run: {{{{steps: {{steps}}}}}}
output:
  thermo:
    every: 10
    file: thermo.csv
    columns: [bond_energy, angle_energy, dihedral_energy, improper_energy, vdw_energy,
              coulomb_energy]
  checkpoint: {{{{file: run.chk}}}}
"""
_DATA = REPOSITORY / "examples" / "peptide" / "data.peptide"
CONFIGS["peptide"] = PEPTIDE.format(data=_DATA, coulomb="{{method: shift, cutoff: 10.0}}")
CONFIGS["peptide-pme"] = PEPTIDE.format(
    data=_DATA, coulomb="{{method: pme, cutoff: 10.0, tolerance: 1.0e-5}}")
# The same with the Ewald sum: each rank's structure factors summed over the ranks.
CONFIGS["peptide-ewald"] = PEPTIDE.format(
    data=_DATA, coulomb="{{method: ewald, cutoff: 10.0, tolerance: 1.0e-4}}")
# The peptide with held distances: its hydrogens' bonds (SHAKE/RATTLE clusters) and rigid
# TIP3P waters (SETTLE) at 1 fs with PME, and every bond of each molecule coupled (CCMA) at
# 0.5 fs: each group kept whole on the rank of its first atom's brick, the halo grown by the
# groups' reach, the constraint virial (in `pressure`) summed over the ranks.
CONFIGS["peptide-shake"] = CONFIGS["peptide-pme"].replace(
    "neighbors:", "constraints: {{}}\nneighbors:").replace("timestep: 0.25", "timestep: 1.0")
CONFIGS["peptide-ccma"] = CONFIGS["peptide"].replace(
    "neighbors:", "constraints: {{bonds: all_bonds}}\nneighbors:").replace(
    "timestep: 0.25", "timestep: 0.5")
# The held peptide under each barostat that moves molecules by their centres (a molecule's
# atoms on several ranks: the peptide spans the bricks): stochastic cell rescaling every step
# and Monte Carlo moves every 5 steps, under Langevin at 300 K (noise by particle id).
_LANGEVIN = "integrator: {{type: langevin, timestep: 1.0, temperature: 300.0, friction: 0.01}}"
_PEPTIDE_VV = "integrator: {{type: velocity_verlet, timestep: 1.0}}"
for _name, _barostat in {
        "peptide-c-rescale": "barostat: {{type: c_rescale, pressure: 1.0 bar, period: 100.0, "
                             "every: 1}}",
        "peptide-monte-carlo": "barostat: {{type: monte_carlo, pressure: 1.0 bar, every: 5}}",
}.items():
    CONFIGS[_name] = CONFIGS["peptide-shake"].replace(
        _PEPTIDE_VV, _LANGEVIN + "\n" + _barostat).replace(
        "coulomb_energy]", "coulomb_energy, volume]")
    assert "barostat:" in CONFIGS[_name] and "langevin" in CONFIGS[_name], _name
# The peptide replicated 2 x 2 x 2 (benchmarks/spatial/replicate_data.py: 16,032 atoms in a
# 54.7 A box), for the CUDA backend's bricks, whose lists need three cells of their reach (12 A)
# along each edge: the peptide's 27.4 A box holds two. Its data file is made in the work
# directory (replicated_data).
REPLICATED = {}
for _case in ("peptide-pme", "peptide-shake", "peptide-ccma", "peptide-c-rescale",
              "peptide-monte-carlo"):
    _big = _case.replace("peptide", "peptide8", 1)
    CONFIGS[_big] = CONFIGS[_case].replace(f"read: {_DATA}", "read: {data}")
    assert "{data}" in CONFIGS[_big], _big
    REPLICATED[_big] = (2, 2, 2)
# Balanced bricks (parallel.balance: particles): the planes placed by the particles at every
# partition, over the LJ lattice start (whole planes of particles tie) and over pasta's random
# start, whose nucleons gather into clusters.
BALANCED = {"lj-balanced", "pasta-balanced"}
for _case in ("lj", "pasta"):
    CONFIGS[_case + "-balanced"] = CONFIGS[_case].replace(
        "run: {{steps: {steps}}}", "parallel: {{balance: particles}}\nrun: {{steps: {steps}}}")
    assert CONFIGS[_case + "-balanced"] != CONFIGS[_case]

# Rigid molecules (seed 001): 500 rigid SPC/E waters with PME under Bussi's thermostat
# (examples/rigid/spce_water.yaml), and 864 CO2 molecules of three LJ sites and a point
# quadrupole under Langevin (examples/rigid/co2.yaml): lists of the centres across bricks, the
# ghosts' orientations exchanged with their positions, the charges' mesh summed over the ranks.
RIGID = """units: real
backend: {{backend}}
precision: {{precision}}
seed: 298
system:
  components:
{components}
  structure:
    generate: {{{{lattice: fcc, cells: {cells}, counts: {{{{{name}: {count}}}}}}}}}
  density: "{density}"
  velocities: {{{{temperature: {temperature}}}}}
forces:
  - rigid_sites: {rigid_sites}
integrator: {integrator}
run: {{{{steps: {{steps}}}}}}
output:
  thermo:
    every: 10
    file: thermo.csv
    columns: [translational_temperature, rotational_temperature, rotational_kinetic_energy]
  checkpoint: {{{{file: run.chk}}}}
"""
CONFIGS["rigid-water"] = RIGID.format(
    components="""    - name: SPCE
      sites:
        - {{type: lj, position: [0, 0, 0], epsilon: 0.15535, sigma: 3.16556, mass: 15.9994}}
        - {{type: charge, position: [0, 0, 0], charge: -0.8476}}
        - {{type: charge, position: [0.81649, 0.57736, 0], charge: 0.4238, mass: 1.008}}
        - {{type: charge, position: [-0.81649, 0.57736, 0], charge: 0.4238, mass: 1.008}}""",
    name="SPCE", cells=5, count=500, density="0.997 g/cm^3", temperature=298.0,
    rigid_sites="{{cutoff: 10.0, shift: energy, coulomb: {{method: pme, tolerance: 1.0e-5}}}}",
    integrator="{{type: bussi, timestep: 2.0, temperature: 298.0, tau: 100.0}}")
CONFIGS["rigid-co2"] = RIGID.format(
    components="""    - name: CO2
      sites:
        - {{type: lj, position: [0, 0, -1.2869], epsilon: 0.1997, sigma: 2.9755, mass: 15.999}}
        - {{type: lj, position: [0, 0, 0], epsilon: 0.0245865, sigma: 2.8137, mass: 12.012}}
        - {{type: lj, position: [0, 0, 1.2869], epsilon: 0.1997, sigma: 2.9755, mass: 15.999}}
        - {{type: quadrupole, position: [0, 0, 0], direction: [0, 0, 1], moment: 0.848163}}""",
    name="CO2", cells=6, count=864, density="1.07 g/cm^3", temperature=242.15,
    rigid_sites="{{cutoff: 12.0, shift: energy}}",
    integrator="{{type: langevin, timestep: 2.0, temperature: 242.15, friction: 0.01}}")
# Cases whose bounds scale what the storage order alone changes on one rank: a second
# single-rank run that sorts its particles at every evaluation (neighbors.reorder_every: 1)
# sums every force and energy in another order; a decomposed run must agree with the first
# within ORDER_FACTOR times the largest difference between the two (per field and step), plus
# the recursive-summation floor of the quantity itself (2 (N + 1) u |x| for a force component,
# 2 (2 N + K) u |E| for an energy). A missing bonded term or mesh share moves forces by
# 1e-6 of their size and more, far beyond.
ORDER_SCALED = {"peptide", "peptide-pme", "peptide-ewald", "peptide-shake", "peptide-ccma",
                "peptide-c-rescale", "peptide-monte-carlo", "rigid-water", "rigid-co2",
                *REPLICATED}
ORDER_FACTOR = 10.0

# The LJ case under each thermostat and barostat: global sums (Bussi, Nose-Hoover, the
# barostats' pressure), noise by particle id (Langevin), moves of the box that the lists and
# ghosts follow, and Monte Carlo moves undone (the kept configuration re-ordered when a
# trial's evaluation partitions the particles anew).
_VV = "integrator: {{type: velocity_verlet, timestep: 0.005}}"
for _name, _integrator in {
        "lj-langevin": "integrator: {{type: langevin, timestep: 0.005, temperature: 1.44, "
                       "friction: 1.0}}",
        "lj-bussi": "integrator: {{type: bussi, timestep: 0.005, temperature: 1.44, tau: 0.1}}",
        "lj-nose-hoover": "integrator: {{type: nose_hoover, timestep: 0.005, temperature: 1.44, "
                          "tau: 0.1}}",
        "lj-c-rescale": "integrator: {{type: langevin, timestep: 0.005, temperature: 1.44, "
                        "friction: 1.0}}\nbarostat: {{type: c_rescale, pressure: 1.0, period: "
                        "0.05, compressibility: 0.09, every: 1}}",
        "lj-mttk": "integrator: {{type: nose_hoover, timestep: 0.005, temperature: 1.44, "
                   "tau: 0.1}}\nbarostat: {{type: mttk, pressure: 1.0, period: 0.5}}",
        "lj-monte-carlo": "integrator: {{type: bussi, timestep: 0.005, temperature: 1.44, "
                          "tau: 0.1}}\nbarostat: {{type: monte_carlo, pressure: 1.0, every: 2}}",
}.items():
    CONFIGS[_name] = CONFIGS["lj"].replace(_VV, _integrator)

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
# Pasta's random start is far more chaotic: nucleons drop into the pn wells, and round-off
# differences grow about 1e6-fold in 100 steps (measured: the force-matrix run on 2 x 1 differs
# from the single rank by 8e-9 of the box at step 100, as the spatial one does). Its
# trajectories are compared after 30 steps instead (growth ~e^4 there; lists rebuilt every
# other step, so some 15 partitions over the bricks happen meanwhile).
LATER_STEP = {"pasta": 30, "pasta-large": 30, "pasta-balanced": 30}


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
    """The rank count and the parallel.grid value of "PxQ" (force matrix) or "AxBxC" (bricks)."""
    counts = [int(x) for x in grid.split("x")]
    return math.prod(counts), "[" + ",".join(str(c) for c in counts) + "]"


def is_spatial(grid):
    return grid.count("x") == 2


def mpirun_command(args, ranks, grid):
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    return [args.mpirun, *root, "-np", str(ranks), "--oversubscribe", args.novamd, "run",
            "config.yaml", "--set", f"parallel.grid={grid}"]


def prepare(work, args, case, steps):
    """`work` with the config of `case` to `steps` steps, and no output of an earlier run."""
    work.mkdir(parents=True, exist_ok=True)
    for stale in ("thermo.csv", "run.chk", "console.log"):
        (work / stale).unlink(missing_ok=True)
    data = replicated_data(args, case) if case in REPLICATED else None
    (work / "config.yaml").write_text(CONFIGS[case].format(
        backend=args.backend, precision=args.precision, steps=steps, data=data))
    return work


def replicated_data(args, case):
    """The data file of a REPLICATED case, made once in the work directory."""
    copies = REPLICATED[case]
    path = pathlib.Path(args.work).resolve() / ("peptide-" + "x".join(map(str, copies)) + ".data")
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(REPOSITORY / "benchmarks" / "spatial" /
                                            "replicate_data.py"), str(_DATA), str(path),
                        "--copies", *map(str, copies)], check=True, stdout=subprocess.DEVNULL)
    return path


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


RIGID_FIELDS = ("orientation", "angular_momentum", "torque")


def read_checkpoint(path):
    """Step, positions, velocities and forces ([N][3] each, id order) of a checkpoint, and the
    rigid molecules' RIGID_FIELDS where it has them."""
    step, _, fields = read_particles(path)
    ids = fields["id"][0]
    order = sorted(range(len(ids)), key=lambda k: ids[k])
    per_particle = {name: [[a[k] for a in fields[name]] for k in order]
                    for name in ("position", "velocity", "force") + RIGID_FIELDS
                    if name in fields}
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


def compare_runs(label, got_dir, want_dir, box_edge, step0, later):
    force_bound, energy_bound = step0
    for step in (0, later):
        _, got = read_checkpoint(got_dir / f"step{min(step, 1) * 100}.chk")
        _, want = read_checkpoint(want_dir / f"step{min(step, 1) * 100}.chk")
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
            if case == "yukawa-cut" and r >= 900.0:
                continue
            if case.startswith("yukawa"):
                e = K_E * charge[types[i]] * charge[types[j]] * math.exp(-r / 475.0) / r
                f_over_r = e * (1.0 / r + 1.0 / 475.0) / r
                if case == "yukawa-cut":  # the energy shift's magnitude counts too
                    e = abs(e) + K_E * charge[types[i]] * charge[types[j]] * math.exp(
                        -900.0 / 475.0) / 900.0
            elif case.startswith("pasta"):
                if r >= 15.0:
                    continue
                e, f_over_r = pasta_pair_magnitudes(r, types[i], types[j])
            elif r < 2.5:  # the LJ cases
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


def pasta_pair_magnitudes(r, ti, tj):
    """Sums of the magnitudes of the pasta pair's energy terms and of its force terms over r
    (types 0 = proton, 1 = neutron): a exp(-r^2/L) + (b + c t_i t_j) exp(-r^2/2L) within 10 fm,
    e^2 exp(-r/10)/r (shifted at 15 fm) between protons."""
    a, b, c, lam = 110.0, -26.0, 24.0, 1.25
    e = f_over_r = 0.0
    if r < 10.0:
        tau = (1 if ti == 0 else -1) * (1 if tj == 0 else -1)
        core, tail = a * math.exp(-r * r / lam), (b + c * tau) * math.exp(-r * r / (2 * lam))
        e += abs(core) + abs(tail)
        f_over_r += abs(2.0 * core / lam) + abs(tail / lam)
    if ti == 0 and tj == 0:
        coulomb = K_E * math.exp(-r / 10.0) / r
        e += coulomb + K_E * math.exp(-1.5) / 15.0
        f_over_r += coulomb * (1.0 / r + 0.1) / r
    return e, f_over_r


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
    """The run to step 0 and to the later step (100, or LATER_STEP's), keeping each one's
    checkpoint (step0.chk, step100.chk); thermo.csv is the later run's."""
    for steps in (0, LATER_STEP.get(case, 100)):
        prepare(directory, args, case, steps)
        run(command, directory, env)
        os.replace(directory / "run.chk", directory / f"step{min(steps, 1) * 100}.chk")


def compare_order_scaled(label, got_dir, want_dir, other_dir, ranks):
    """ORDER_SCALED's comparison: positions, velocities and forces by id at step 0 and at the
    later step, and every energy of the thermo rows."""
    for step in (0, 100):
        _, got = read_checkpoint(got_dir / f"step{step}.chk")
        _, want = read_checkpoint(want_dir / f"step{step}.chk")
        _, other = read_checkpoint(other_dir / f"step{step}.chk")
        n = len(want["position"])
        for field in ("position", "velocity", "force") + RIGID_FIELDS:
            if field not in want:
                continue
            scale = max(abs(a - b) for x, y in zip(other[field], want[field])
                        for a, b in zip(x, y))
            floor = 2 * (n + 1) * UNIT_ROUNDOFF
            bound = [[ORDER_FACTOR * scale + floor * abs(c) for c in row] for row in want[field]]
            compare_field(f"{label} step {step} {field} (storage order alone: {scale:.3g})",
                          got[field], want[field], bound)
    t_got, t_want = thermo(got_dir / "thermo.csv"), thermo(want_dir / "thermo.csv")
    t_other = thermo(other_dir / "thermo.csv")
    n = len(read_checkpoint(want_dir / "step0.chk")[1]["position"])
    for column in t_want[0]:
        if column in ("step", "time"):
            continue
        # A term's energy is the difference of the sums before and after it (backends sum the
        # energy term after term), so it carries the rounding of the whole potential energy: the
        # scales are the column's largest order difference over the rows, and a floor from the
        # potential energy's magnitude.
        scale = max(abs(o_row[column] - w_row[column]) for o_row, w_row in zip(t_other, t_want))
        for g_row, w_row in zip(t_got, t_want):
            w = w_row[column]
            magnitude = max(abs(w), abs(w_row.get("potential_energy", 0.0)))
            bound = ORDER_FACTOR * scale + 2 * (2 * n + ranks) * UNIT_ROUNDOFF * magnitude
            if not abs(g_row[column] - w) <= bound:
                fail(f"{label}: {column} at step {int(w_row['step'])}: {g_row[column]!r} "
                     f"against {w!r} (bound {bound:.3g})")
    print(f"  {label}: every column of {len(t_want)} thermo rows within bounds")


def compare(args):
    env = environment()
    root = pathlib.Path(args.work) / f"{args.case}-{args.backend}"
    reference = root / "single"
    start = time.time()
    run_twice([args.novamd, "run", "config.yaml"], reference, env, args, args.case)
    print(f"{args.case}: single rank, 0 and {LATER_STEP.get(args.case, 100)} steps "
          f"({time.time() - start:.1f} s)")
    if args.case in ORDER_SCALED:
        reordered = root / "reordered"
        run_twice([args.novamd, "run", "config.yaml", "--set", "neighbors.reorder_every=1"],
                  reordered, env, args, args.case)
        for grid in args.grids.split(","):
            ranks, grid_value = grid_ranks(grid)
            directory = root / grid
            start = time.time()
            run_twice(mpirun_command(args, ranks, grid_value), directory, env, args, args.case)
            print(f"{args.case}: {ranks} ranks, grid {grid} ({time.time() - start:.1f} s)")
            compare_order_scaled(f"{args.case} {grid}", directory, reference, reordered, ranks)
            check_header(args.case, grid, ranks, (directory / "console.log").read_text())
        return
    types, box = read_types_and_box(reference / "step0.chk")
    sums = pair_sums(args.case, read_checkpoint(reference / "step0.chk")[1]["position"], types,
                     box)
    for grid in args.grids.split(","):
        ranks, grid_value = grid_ranks(grid)
        # Spatial: each owned particle's force is summed whole on its rank (full lists), no
        # partial forces added across ranks: one "column".
        columns = 1 if is_spatial(grid) else int(grid.split("x")[1])
        start = time.time()
        step0 = step0_bounds(sums, columns, ranks)
        directory = root / grid
        run_twice(mpirun_command(args, ranks, grid_value), directory, env, args, args.case)
        print(f"{args.case}: {ranks} ranks, grid {grid} ({time.time() - start:.1f} s)")
        compare_runs(f"{args.case} {grid}", directory, reference, max(box), step0,
                     LATER_STEP.get(args.case, 100))
        check_header(args.case, grid, ranks, (directory / "console.log").read_text())


def check_header(case, grid, ranks, console):
    """A header under several ranks names no neighbour lists the force matrix does not build,
    and a cutoff run says what its blocks cost; a spatial run names its bricks."""
    neighbors = [line for line in console.splitlines() if line.strip().startswith("neighbors")]
    if ranks > 1 and is_spatial(grid):
        bricks = grid.replace("x", " x ")
        balance = ", balanced by particle count" if case in BALANCED else ""
        if f"(spatial: {bricks} bricks{balance})" not in console:
            fail(f"{case}, grid {grid}: the header does not name the bricks {bricks}{balance}")
        if "Note: under mpirun" in console or "none: each rank" in console:
            fail(f"{case}, grid {grid}: the force matrix's note in a spatial run")
    elif ranks > 1 and case == "lj":
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
    root = pathlib.Path(args.work) / f"restart-{args.case}-{args.grid}"
    straight = prepare(root / "straight", args, args.case, 100)
    run(mpirun_command(args, ranks, grid_value), straight, env)
    resumed = prepare(root / "resumed", args, args.case, 50)
    run(mpirun_command(args, ranks, grid_value), resumed, env)
    run(mpirun_command(args, ranks, grid_value) + ["--restart", "run.chk", "--steps", "100"],
        resumed, env)
    step_got, got = read_checkpoint(resumed / "run.chk")
    step_want, want = read_checkpoint(straight / "run.chk")
    if step_got != 100 or step_want != 100:
        fail(f"restart {args.grid}: checkpoints at steps {step_got} and {step_want}, not 100")
    for field in ("position", "velocity", "force") + RIGID_FIELDS:
        if field not in want:
            continue
        if got.get(field) != want[field]:  # Python floats compare exactly
            fail(f"restart {args.grid}: {field} at step 100 differs from the uninterrupted run")
    t_got, t_want = thermo(resumed / "thermo.csv"), thermo(straight / "thermo.csv")
    if t_got != t_want:
        fail(f"restart {args.grid}: thermo rows differ from the uninterrupted run")
    print(f"restart {args.grid}: step 100 after a restart at step 50 is bitwise the "
          "uninterrupted run's (positions, velocities, forces, and orientations, angular momenta "
          "and torques where the molecules are rigid, in the checkpoints; thermo rows)")


# long: 1,000 steps (5 tau of the LJ liquid at T = 1.44). Round-off differences of ~1e-16 grow
# as exp(lambda t) with lambda about 3-5 per tau (STEP100_SCALE's note): up to e^25 ~ 7e10 over
# 5 tau, so the two trajectories may differ by ~1e-5 of each quantity's scale at the end
# (measured on the GPU, 2 bricks: positions 3.6e-6 of the box, velocities 6.3e-4 of their RMS).
# Bounds: positions and velocities within 1e-2 of the box edge and of their RMS (a trajectory
# on another path, after a lost pair or ghost, differs by O(1) within that time). The total
# energies of the two runs differ as their paths do, and each fluctuates about its conserved
# value by velocity Verlet's O(dt^2) error: every row within twice the single-rank run's largest
# excursion from its first row (plus 1e-12 relative), a bound any missing pair breaks at once.
LONG_STEPS = 1000
LONG_TRAJECTORY_SCALE = 1e-2


def long_run(args):
    """A spatial run of LONG_STEPS steps against the single-rank run of the same config."""
    env = environment()
    root = pathlib.Path(args.work) / f"long-{args.case}-{args.grid}"
    single = prepare(root / "single", args, args.case, LONG_STEPS)
    run([args.novamd, "run", "config.yaml"], single, env)
    ranks, grid_value = grid_ranks(args.grid)
    spatial = prepare(root / "spatial", args, args.case, LONG_STEPS)
    run(mpirun_command(args, ranks, grid_value), spatial, env)
    _, box = read_types_and_box(single / "run.chk")
    _, want = read_checkpoint(single / "run.chk")
    _, got = read_checkpoint(spatial / "run.chk")
    for field, scale in (("position", max(box)), ("velocity", rms(want["velocity"]))):
        compare_field(f"long {args.grid} step {LONG_STEPS} {field}", got[field], want[field],
                      LONG_TRAJECTORY_SCALE * scale)
    t_got, t_want = thermo(spatial / "thermo.csv"), thermo(single / "thermo.csv")
    if [r["step"] for r in t_got] != [r["step"] for r in t_want]:
        fail(f"long {args.grid}: thermo rows at other steps than the single-rank run's")
    first = t_want[0]["total_energy"]
    excursion = max(abs(w["total_energy"] - first) for w in t_want)
    bound = 2.0 * excursion + 1e-12 * abs(first)
    worst = max(abs(g["total_energy"] - w["total_energy"]) for g, w in zip(t_got, t_want))
    print(f"  long {args.grid}: total energy of {len(t_want)} rows, largest difference "
          f"{worst:.3g} (bound {bound:.3g}: twice the single rank's excursion {excursion:.3g})")
    if not worst <= bound:
        fail(f"long {args.grid}: total energy {worst:.3g} off the single-rank run's")


def regrid(args):
    """A spatial run to step 50 on --grid, continued to 100 on --regrid (another rank count):
    within the step-100 bounds of the single-rank run to 100 steps."""
    env = environment()
    root = pathlib.Path(args.work) / f"regrid-{args.case}-{args.grid}-{args.regrid}"
    single = prepare(root / "single", args, args.case, 100)
    run([args.novamd, "run", "config.yaml"], single, env)
    moved = prepare(root / "moved", args, args.case, 50)
    ranks, grid_value = grid_ranks(args.grid)
    run(mpirun_command(args, ranks, grid_value), moved, env)
    ranks, grid_value = grid_ranks(args.regrid)
    run(mpirun_command(args, ranks, grid_value) + ["--restart", "run.chk", "--steps", "100"],
        moved, env)
    step_got, got = read_checkpoint(moved / "run.chk")
    step_want, want = read_checkpoint(single / "run.chk")
    if step_got != 100 or step_want != 100:
        fail(f"regrid: checkpoints at steps {step_got} and {step_want}, not 100")
    _, box = read_types_and_box(single / "run.chk")
    for field in ("position", "velocity", "force"):
        bound = STEP100_SCALE * (max(box) if field == "position" else rms(want[field]))
        compare_field(f"regrid {args.grid} -> {args.regrid} step 100 {field}", got[field],
                      want[field], bound)
    print(f"regrid: 50 steps on {args.grid}, then 50 on {args.regrid}, within the bounds of the "
          "single rank's 100")


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
    directory = prepare(pathlib.Path(args.work) / f"sigterm-{args.case}-{args.grid}", args,
                        args.case, 1000000)
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
    for grid, expected in (
            ("[2,2,2]", "parallel.grid: [2, 2, 2] has 8 bricks, but the run has 2 ranks"),
            ("[2,1,1]", "forces.yukawa: runs in a spatial decomposition")):  # no cutoff
        result = run(mpirun_command(args, 2, grid), directory, env, check=False)
        if result.returncode != 2 or result.stdout.count(expected) != 1:
            fail(f"errors: grid {grid}: exit code {result.returncode} (expected 2), message "
                 f"printed {result.stdout.count(expected)} times (expected once):\n"
                 f"{result.stdout[-2000:]}")
        if (directory / "thermo.csv").exists():
            fail(f"errors: grid {grid}: thermo.csv written by a run refused at its start")
        print(f"errors: grid {grid} on 2 ranks: exit 2, said once: ...{expected}...")
    # A balance the bricks do not know: refused when the config is read, naming the key.
    (directory / "thermo.csv").unlink(missing_ok=True)
    result = run([args.novamd, "run", "config.yaml", "--set", "parallel.balance=equal"],
                 directory, env, check=False)
    expected = "parallel.balance: unknown value 'equal'; expected none or particles"
    if result.returncode != 2 or expected not in result.stdout:
        fail(f"errors: parallel.balance=equal: exit code {result.returncode} (expected 2):\n"
             f"{result.stdout[-2000:]}")
    if (directory / "thermo.csv").exists():
        fail("errors: parallel.balance=equal: thermo.csv written by a refused run")
    print(f"errors: parallel.balance=equal: exit 2: ...{expected}...")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode",
                        choices=["compare", "restart", "regrid", "sigterm", "errors", "analysis",
                                 "long"])
    parser.add_argument("--case", choices=sorted(CONFIGS), default="yukawa")
    parser.add_argument("--grids", default="1x1,1x2,2x1,2x2,4x1,1x4")
    parser.add_argument("--grid", default="2x2")
    parser.add_argument("--regrid", default="2x2x1")
    parser.add_argument("--novamd", required=True)
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--work", required=True)
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--precision", default="double")
    args = parser.parse_args()
    args.novamd = str(pathlib.Path(args.novamd).resolve())
    {"compare": compare, "restart": restart, "regrid": regrid, "sigterm": sigterm,
     "errors": errors, "analysis": analysis, "long": long_run}[args.mode](args)
    print("PASSED")


if __name__ == "__main__":
    main()
