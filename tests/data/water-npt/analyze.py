#!/usr/bin/env python3
"""Analysis of the rigid SPC/E water NPT run of run_npt.py (numpy only).

Usage:  python3 analyze.py [samples.dat] [--upto-ps PS]     (default: samples.dat beside this script)
        (--upto-ps: use only the samples of the first PS picoseconds of sampling)
Files read:  samples.dat         columns: step time_ps volume_nm3 density_g_cm3 (one per 25 steps,
                                 i.e. one per barostat attempt, equilibration not included)
             samples.dat.energy  columns: step epot_kJmol ekin_kJmol T_kin volume_nm3 (monitor)
             samples.dat.json    run metadata (version, platform, wall times)
"""
import json
import os
import sys

import numpy as np

KB = 1.380649e-23     # J/K
T = 300.0             # K
KT = KB * T           # J
NBLOCK = 20           # blocks for the quoted errors
STEPS_PER_SAMPLE = 25
DT_PS = 0.002


def block_means(x, nb):
    n = len(x) // nb
    return x[: n * nb].reshape(nb, n).mean(axis=1)


def block_se(x, nb):
    """Standard error of the mean from nb contiguous blocks."""
    b = block_means(x, nb)
    return b.std(ddof=1) / np.sqrt(nb)


def block_scan(x, label, fmt="%.6f"):
    print(f"  block-size scan for {label}:")
    print("    nblocks  samples/block  ps/block    SE")
    for nb in (2000, 1000, 500, 400, 200, 100, 50, 40, 20, 10, 5):
        n = len(x) // nb
        if n < 1:
            continue
        print(f"    {nb:7d}  {n:13d}  {n * STEPS_PER_SAMPLE * DT_PS:8.2f}   " + fmt % block_se(x, nb))


def tau_int(x, window):
    """Integrated autocorrelation time (samples), Sokal's self-consistent window (c = 6)."""
    x = x - x.mean()
    n = len(x)
    f = np.fft.rfft(x, 2 * n)
    acf = np.fft.irfft(f * np.conj(f))[:n] / (n - np.arange(n))
    acf /= acf[0]
    run = 2 * np.cumsum(acf) - 1          # 1 + 2 sum_{t>=1} rho(t), in samples
    for M in range(1, min(window, n)):
        if M >= 6 * run[M] / 2:
            return run[M] / 2, M, acf
    return run[window] / 2, window, acf


def jackknife(x, nb, fn):
    """Delete-one-block jackknife for a (nonlinear) estimator fn(series)."""
    n = len(x) // nb
    x = x[: n * nb]
    full = fn(x)
    idx = np.arange(n * nb).reshape(nb, n)
    th = np.array([fn(np.delete(x, idx[i])) for i in range(nb)])
    se = np.sqrt((nb - 1) / nb * np.sum((th - th.mean()) ** 2))
    return full, se, nb * full - (nb - 1) * th.mean()


def beta_T(v_nm3):
    """var(V) / (kT <V>) in 1/bar."""
    v = v_nm3 * 1e-27                    # m^3
    return v.var() / (KT * v.mean()) * 1e5


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("samples", nargs="?",
                    default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "samples.dat"))
    ap.add_argument("--upto-ps", type=float, default=None)
    args = ap.parse_args()
    fname = args.samples
    d = np.loadtxt(fname, comments="#")
    if args.upto_ps is not None:
        d = d[d[:, 1] <= args.upto_ps + 1e-9]
    step, vol, rho = d[:, 0], d[:, 2], d[:, 3]
    n = len(rho)
    print(f"{fname}: {n} samples, {step[-1] * DT_PS:.1f} ps sampled, one per {STEPS_PER_SAMPLE} steps")
    nb = NBLOCK
    if os.path.exists(fname + ".json"):
        meta = json.load(open(fname + ".json"))
        print(f"  OpenMM {meta['openmm_version']}, platform {meta['platform']}, "
              f"properties {meta['platform_properties']}")
        print(f"  wall: equilibration {meta['wall_equil_s']:.0f} s, sampling {meta['wall_sample_s']:.0f} s, "
              f"total {meta['wall_total_s']:.0f} s ({meta['ns_per_day']:.2f} ns/day)")

    print(f"\nmean density = {rho.mean():.5f} g/cm^3, sd of samples = {rho.std(ddof=1):.5f}")
    block_scan(rho, "density (g/cm^3)")
    tau, M, acf = tau_int(rho, n // 4)
    print(f"  ACF cross-check: tau_int = {tau:.1f} samples = {tau * STEPS_PER_SAMPLE * DT_PS:.2f} ps "
          f"(window {M}), SE = {rho.std() * np.sqrt(2 * tau / n):.6f}")
    lags = [1, 2, 4, 8, 16, 32, 64, 128, 256]
    print("  density ACF at lags (samples): " +
          ", ".join(f"{l}:{acf[l]:.3f}" for l in lags if l < n))
    print(f"  quoted: {nb} blocks of {n // nb} samples ({n // nb * STEPS_PER_SAMPLE * DT_PS:.1f} ps): "
          f"{rho.mean():.5f} +- {block_se(rho, nb):.5f}")
    bm = block_means(rho, nb)
    print("  block means: " + " ".join(f"{b:.4f}" for b in bm))

    print(f"\nmean volume = {vol.mean():.4f} nm^3 +- {block_se(vol, nb):.4f} ({nb} blocks)")
    sd, sd_se, _ = jackknife(vol, nb, lambda x: x.std())
    print(f"sd(V) = {sd:.4f} nm^3 +- {sd_se:.4f} (jackknife, {nb} blocks)")
    bt, bt_se, bt_bc = jackknife(vol, nb, beta_T)
    print(f"beta_T = var(V)/(kT<V>) = {bt * 1e6:.2f}e-6 1/bar +- {bt_se * 1e6:.2f}e-6 "
          f"(jackknife, {nb} blocks; bias-corrected {bt_bc * 1e6:.2f}e-6)")
    for nbj in (10, 40, 50):
        b2, s2, _ = jackknife(vol, nbj, beta_T)
        print(f"    jackknife with {nbj} blocks: {b2 * 1e6:.2f}e-6 +- {s2 * 1e6:.2f}e-6")
    half = n // 2
    print(f"  halves: density {rho[:half].mean():.5f} / {rho[half:].mean():.5f}, "
          f"beta_T {beta_T(vol[:half]) * 1e6:.2f}e-6 / {beta_T(vol[half:]) * 1e6:.2f}e-6")

    # one barostat attempt between consecutive samples: an accepted move changes V
    changed = np.diff(vol) != 0.0
    print(f"\nbarostat acceptance (samples whose V differs from the previous one): "
          f"{changed.mean():.4f} of {len(changed)} attempts")
    rel = np.abs(np.diff(vol)[changed]) / vol[1:][changed]
    print(f"  accepted |dV|/V: mean {rel.mean():.5f}, max {rel.max():.5f}")

    if os.path.exists(fname + ".energy"):
        e = np.loadtxt(fname + ".energy", comments="#")
        print(f"\nmonitor ({len(e)} points): <Epot> = {e[:, 1].mean() / 1000:.3f} kJ/mol per water "
              f"(total {e[:, 1].mean():.1f} +- {block_se(e[:, 1], nb):.1f}), "
              f"<T_kin> = {e[:, 3].mean():.2f} +- {block_se(e[:, 3], nb):.2f} K")


if __name__ == "__main__":
    main()
