"""Force terms as Python objects, mirroring the config's ``forces`` list (docs/config.md).

Each object holds the keys of its term and becomes ``{name: {key: value}}`` in the config; the
engine checks them, and a wrong key or value raises :class:`novamd.ConfigError` naming it::

    lj = novamd.forces.LennardJones(
        pairs=[{"types": ["Ar", "Ar"], "epsilon": 1.0, "sigma": 1.0}], cutoff=2.5)

Keys left out take the config's defaults.
"""


class ForceTerm:
    """A force term of the config: ``name`` and its keys."""

    name = ""

    def __init__(self, **keys):
        self.keys = {k: v for k, v in keys.items() if v is not None}

    def to_config(self):
        """The term as an element of the config's ``forces`` list."""
        return {self.name: dict(self.keys)}

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.keys.items())
        return f"{type(self).__name__}({args})"


class LennardJones(ForceTerm):
    """Lennard-Jones 12-6: V(r) = 4 eps [(sigma/r)^12 - (sigma/r)^6].

    pairs: list of ``{"types": [a, b], "epsilon": ..., "sigma": ...}`` (or mixed pairs);
    cutoff: r_c (length); truncation: "cut", "shift" or "force_shift"; switch: r_in of CHARMM
    switching; mixing: "arithmetic" or "geometric"; tail_correction: bool.
    """

    name = "lennard_jones"

    def __init__(self, *, cutoff, pairs=None, truncation=None, switch=None, mixing=None,
                 tail_correction=None):
        super().__init__(pairs=pairs, cutoff=cutoff, truncation=truncation, switch=switch,
                         mixing=mixing, tail_correction=tail_correction)


class Yukawa(ForceTerm):
    """Screened Coulomb between ions: V(r) = k q_a q_b exp(-r / lambda) / r.

    screening_length: lambda (length); cutoff: r_c, or None for every pair under the minimum
    image. Further keys of docs/config.md (``yukawa``) pass as keyword arguments.
    """

    name = "yukawa"

    def __init__(self, *, screening_length=None, cutoff=None, **keys):
        super().__init__(screening_length=screening_length, **keys)
        self.keys["cutoff"] = cutoff  # None: "none", every pair


class Coulomb(ForceTerm):
    """Coulomb between charges: plain, reaction field, or Ewald and smooth PME.

    cutoff: r_c (length); method: e.g. "ewald" or "pme", with tolerance, alpha, grid, order,
    kmax (docs/config.md, ``coulomb``).
    """

    name = "coulomb"

    def __init__(self, *, cutoff, method=None, **keys):
        super().__init__(cutoff=cutoff, method=method, **keys)


class Nuclear(ForceTerm):
    """The nucleon-nucleon potential of nuclear pasta (Horowitz et al.); keys as in
    docs/config.md (``nuclear``)."""

    name = "nuclear"

    def __init__(self, **keys):
        super().__init__(**keys)


class RigidSites(ForceTerm):
    """The sites of rigid molecules (``system.components``): cutoff on the centres, reaction
    field or Ewald/PME for their charges (docs/config.md, ``rigid_sites``)."""

    name = "rigid_sites"

    def __init__(self, *, cutoff, **keys):
        super().__init__(cutoff=cutoff, **keys)


class PairTable(ForceTerm):
    """Pair potentials tabulated in LAMMPS ``pair_style table`` files, per species pair.

    pairs: list of ``{"types": [a, b], "keyword": SECTION}`` (with ``file`` and ``cutoff`` of
    their own where needed); file: the table file of every pair that names none;
    interpolation: "linear" or "spline"; points: knots per pair (docs/config.md,
    ``pair_table``).
    """

    name = "pair_table"

    def __init__(self, *, pairs, file=None, interpolation=None, points=None, cutoff=None):
        super().__init__(pairs=pairs, file=file, interpolation=interpolation, points=points,
                         cutoff=cutoff)


class CustomPair(ForceTerm):
    """A pair potential written as a formula of r, OpenMM's CustomNonbondedForce style::

        novamd.forces.CustomPair(energy="4*eps*((sigma/r)^12 - (sigma/r)^6)",
                                 parameters={"eps": 1.0, "sigma": 1.0}, cutoff=2.5)

    energy: V(r) (+ - * / ^, functions, intermediate values after ``;``); parameters: name ->
    value for every species pair; pairs: ``{"types": [a, b], name: value, ...}`` for pairs with
    values of their own; cutoff: r_c, or None for every pair under the minimum image; shift:
    "none", "energy" or "force". The force is the formula's symbolic derivative; on the GPU the
    formula is compiled to native code when the simulation is built (docs/config.md,
    ``custom_pair``).
    """

    name = "custom_pair"

    def __init__(self, *, energy, cutoff, parameters=None, pairs=None, shift=None):
        super().__init__(energy=energy, parameters=parameters, pairs=pairs, shift=shift)
        self.keys["cutoff"] = "none" if cutoff is None else cutoff
