"""Converts an AMBER NetCDF restart (the JAC benchmark's JAC.inpcrd) to the ASCII rst7 form
NovaMD reads.

    python3 benchmarks/dhfr/netcdf_to_rst7.py JAC.inpcrd JAC.rst7

AMBER's NetCDF restarts are NetCDF-3 files (classic or 64-bit offset; the format:
https://docs.unidata.ucar.edu/netcdf-c/current/file_format_specifications.html) with the
variables `coordinates` (atoms x 3, A), `cell_lengths` and `cell_angles` (the conventions: https://ambermd.org/netcdf/nctraj.xhtml); the positions and the
box are written (a run draws its own velocities).
"""

import struct
import sys

# NetCDF-3 external types: code -> (struct format, size)
TYPES = {1: ("b", 1), 2: ("c", 1), 3: ("h", 2), 4: ("i", 4), 5: ("f", 4), 6: ("d", 8)}


class Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, fmt):
        values = struct.unpack_from(">" + fmt, self.data, self.at)
        self.at += struct.calcsize(">" + fmt)
        return values

    def int(self):
        return self.take("i")[0]

    def name(self):
        n = self.int()
        text = self.data[self.at:self.at + n].decode()
        self.at += (n + 3) // 4 * 4
        return text

    def attributes(self):
        tag, count = self.take("ii")
        for _ in range(count if tag == 12 else 0):
            self.name()
            kind, n = self.take("ii")
            self.at += (n * TYPES[kind][1] + 3) // 4 * 4


def read_variables(path):
    data = open(path, "rb").read()
    if data[:3] != b"CDF" or data[3] not in (1, 2):
        sys.exit(f"{path}: not a NetCDF-3 file (expected the bytes CDF\\x01 or CDF\\x02)")
    offset_size = 8 if data[3] == 2 else 4
    r = Reader(data)
    r.at = 4
    r.int()  # records
    tag, count = r.take("ii")
    dims = [(r.name(), r.int()) for _ in range(count if tag == 10 else 0)]
    r.attributes()
    tag, count = r.take("ii")
    variables = {}
    for _ in range(count if tag == 11 else 0):
        name = r.name()
        shape = [dims[d][1] for d in r.take("i" * r.int())]
        r.attributes()
        kind, _size = r.take("ii")
        begin = r.take("q" if offset_size == 8 else "i")[0]
        n = 1
        for s in shape:
            n *= s
        fmt, size = TYPES[kind]
        variables[name] = (struct.unpack_from(f">{n}{fmt}", data, begin), shape)
    return variables


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    v = read_variables(sys.argv[1])
    xyz, shape = v["coordinates"]
    atoms = shape[0]
    lines = ["converted from " + sys.argv[1], f"{atoms:6d}"]
    values = list(xyz)  # positions only: a run draws its velocities
    for k in range(0, len(values), 6):
        lines.append("".join(f"{x:12.7f}" for x in values[k:k + 6]))
    if "cell_lengths" in v:
        cell = list(v["cell_lengths"][0]) + list(v.get("cell_angles", ((90.0,) * 3, 0))[0])
        lines.append("".join(f"{x:12.7f}" for x in cell))
    open(sys.argv[2], "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
