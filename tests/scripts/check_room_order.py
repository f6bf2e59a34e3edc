#!/usr/bin/env python3
"""Checks that every room of src/novamd includes only rooms below it (docs/architecture.md):
core, physics, neighbors, forces, constraints, integrate, parallel, backend, analysis, io, app.
Prints each include that points up and exits 1 if there is any."""
import pathlib
import re
import sys

ORDER = ["core", "physics", "neighbors", "forces", "constraints", "integrate", "parallel",
         "backend", "analysis", "io", "app"]
RANK = {room: k for k, room in enumerate(ORDER)}
INCLUDE = re.compile(r'\s*#\s*include\s+"novamd/(\w+)/([^"]+)"')


def main():
    source = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path("src/novamd")
    rooms = sorted(p.name for p in source.iterdir() if p.is_dir())
    unknown = [r for r in rooms if r not in RANK]
    if unknown:
        sys.exit(f"rooms not in the order: {unknown}; add them to ORDER and to docs/architecture.md")
    upward = []
    for room in rooms:
        for path in sorted((source / room).iterdir()):
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                match = INCLUDE.match(line)
                if match and match.group(1) in RANK and RANK[match.group(1)] > RANK[room]:
                    upward.append(f"{path}:{number}: {room} includes {match.group(1)}/{match.group(2)}")
    for line in upward:
        print(line)
    if upward:
        sys.exit(f"{len(upward)} includes point up the room order {ORDER}")
    print(f"{len(rooms)} rooms, every include points down the order")


if __name__ == "__main__":
    main()
