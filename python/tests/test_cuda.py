"""The package on the CUDA backend: backend selection, state copied from the device, and the
CPU as the oracle. Runs on the GPU machine (scripts/device/test.sh python, which sets
NOVAMD_TEST_CUDA=1); skipped with a message elsewhere."""

import os

import numpy as np
import pytest

import novamd
from conftest import lj_liquid, whole_and_in_pieces

pytestmark = pytest.mark.skipif(os.environ.get("NOVAMD_TEST_CUDA") != "1",
                                reason="SKIPPED: no GPU here (NOVAMD_TEST_CUDA=1 on the GPU machine)")

QUIET = {"output": {"thermo": {"file": "none"}}}


def test_auto_and_cuda_select_the_gpu(in_tmp):
    for backend in ("auto", "cuda"):
        sim = novamd.Simulation(lj_liquid(**QUIET), set={"backend": backend})
        assert sim.backend == "cuda"
        assert "H100" in sim.device or "H200" in sim.device or "GPU" in sim.device or sim.device
    assert novamd.Simulation(lj_liquid(**QUIET), set={"backend": "cpu"}).backend == "cpu"


def test_the_gpus_state_matches_the_cpus_in_double(in_tmp):
    runs = {}
    for backend in ("cpu", "cuda"):
        sim = novamd.Simulation(lj_liquid(cells=6, **QUIET), set={"backend": backend})
        start = sim.energies()
        sim.run(100)
        runs[backend] = (start, sim.energies(), sim.state())
    (e0_cpu, e_cpu, s_cpu), (e0_gpu, e_gpu, s_gpu) = runs["cpu"], runs["cuda"]
    # Step 0: the same pairs summed in another order: double's rounding over ~10^4 terms.
    assert e0_gpu["potential"] == pytest.approx(e0_cpu["potential"], rel=1e-12)
    # After 100 steps (0.5 tau) a liquid's trajectories part as exp(lambda t), lambda ~ 5 / tau:
    # round-off of 1e-16 grows to ~1e-15; 1e-10 leaves room and still catches any real error.
    np.testing.assert_allclose(s_gpu.positions, s_cpu.positions, rtol=0, atol=1e-10)
    np.testing.assert_allclose(s_gpu.velocities, s_cpu.velocities, rtol=0, atol=1e-10)
    np.testing.assert_allclose(s_gpu.forces, s_cpu.forces, rtol=0, atol=1e-8)
    np.testing.assert_array_equal(s_gpu.ids, np.arange(len(s_gpu.ids)))
    assert e_gpu["total"] == pytest.approx(e_cpu["total"], rel=1e-10)


def test_positions_set_on_the_device_are_read_back_and_runs_repeat_bitwise(in_tmp):
    sims = [novamd.Simulation(lj_liquid(cells=6, **QUIET), set={"backend": "cuda",
                                                                 "precision": "mixed"})
            for _ in range(2)]
    for sim in sims:
        sim.run(50)
    a, b = (s.state() for s in sims)
    np.testing.assert_array_equal(a.positions, b.positions)  # deterministic: no FP atomics
    new = (a.positions + 0.01) % a.box
    sims[0].set_positions(new)
    np.testing.assert_array_equal(sims[0].state().positions, new)
    cpu = novamd.Simulation(lj_liquid(cells=6, **QUIET), set={"backend": "cpu"})
    cpu.set_positions(new)
    # Mixed precision: pair forces in float (2^-24 relative), sums in double.
    assert sims[0].energies()["potential"] == pytest.approx(cpu.energies()["potential"],
                                                            rel=1e-5)


def test_runs_in_pieces_on_the_gpu_agree_with_one_run_to_rounding(in_tmp):
    # The GPU checks its particles every few steps and otherwise joins a step's closing half
    # kick to the next step's opening one (Integrator::step, StepEnd). The end of a piece is
    # read, so there the two half kicks stay apart: one rounding of v (~1e-16 relative) per
    # piece, which the liquid's chaos grows by ~exp(5 t / tau) over the 0.6 tau run: far below
    # 1e-12. A wrong continuation (a kick lost or doubled) moves atoms by ~1e-3.
    whole, pieces = whole_and_in_pieces("cuda")
    a, b = whole.state(), pieces.state()
    np.testing.assert_allclose(b.positions, a.positions, rtol=0, atol=1e-12)
    np.testing.assert_allclose(b.velocities, a.velocities, rtol=0, atol=1e-12)
