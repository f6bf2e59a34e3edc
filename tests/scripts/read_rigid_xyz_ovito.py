#!/usr/bin/env python3
"""Reads a NovaMD extended XYZ trajectory of rigid molecules with OVITO's Python module and
prints the properties OVITO made of its columns (not run by the test suite: OVITO's wheel is
116 MB; docs/validation.md records the run).

    pip install ovito                     # 3.17.2 was used
    QT_QPA_PLATFORM=offscreen python3 read_rigid_xyz_ovito.py traj.xyz

Exits 0 when OVITO finds its standard Orientation (components X, Y, Z, W), Angular Momentum and
Torque properties, 1 otherwise, 2 without the module.
"""

import sys

try:
    from ovito.io import import_file
except ImportError as error:
    print(f"read_rigid_xyz_ovito.py: cannot import {error.name} ({error}); pip install ovito",
          file=sys.stderr)
    sys.exit(2)

data = import_file(sys.argv[1]).compute(0)
names = list(data.particles.keys())
print("OVITO properties:", names)
for name in ("Orientation", "Angular Momentum", "Torque"):
    if name not in names:
        sys.exit(f"{sys.argv[1]}: OVITO found no {name} property")
orientation = data.particles["Orientation"]
if tuple(orientation.component_names) != ("X", "Y", "Z", "W"):
    sys.exit(f"{sys.argv[1]}: Orientation's components are {orientation.component_names}")
print("Orientation (X, Y, Z, W) of the first particle:", orientation[0])
