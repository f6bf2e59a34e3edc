#!/bin/bash
# Runs every reference XML with the vectorized (default) and the legacy cell processor.
set -e
BIN=/work/ls1/build/src/MarDyn
cd "$(dirname "$0")"
mkdir -p runs/vcp runs/legacy
for x in *.xml; do
  t=${x%.xml}
  (cd runs/vcp    && $BIN --final-checkpoint=0 ../../$x > $t.log 2>&1)
  (cd runs/legacy && $BIN --final-checkpoint=0 --legacy-cell-processor ../../$x > $t.log 2>&1)
done
