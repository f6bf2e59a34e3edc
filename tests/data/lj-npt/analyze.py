#!/usr/bin/env python3
"""Analysis of the LJ NPT/NVT reference runs (numpy only).

Usage:  python3 analyze.py            # NPT analysis (+ NVT if the sample files exist)
Files read:  npt_samples.dat           columns: step rho vol temp press (1,000,000-step production)
             npt_samples_200k.dat      same, 200,000-step production (identical to the first
                                       200,000 steps of npt_samples.dat: same seed, serial)
             nvt_<rho>.dat             columns: step press temp pe
"""
import glob
import os
import numpy as np

KT = 1.5          # target temperature (k_B = 1)
NBLOCK = 20


def load(fname):
    d = np.loadtxt(fname, comments="#")
    return d[d[:, 0] > 0]          # drop the step-0 sample -> exactly 20000 (100000) samples


def block_se(x, nb):
    """Standard error of the mean from nb contiguous blocks."""
    n = len(x) // nb
    b = x[: n * nb].reshape(nb, n).mean(axis=1)
    return b.std(ddof=1) / np.sqrt(nb)


def block_scan(x, label, fmt="%.6f"):
    print(f"  block-size scan for {label}:")
    print("    nblocks  samples/block  steps/block   SE")
    for nb in (1000, 500, 200, 100, 50, 40, 20, 10, 5):
        n = len(x) // nb
        print(f"    {nb:7d}  {n:13d}  {10*n:11d}   " + fmt % block_se(x, nb))


def tau_int(x):
    """Integrated autocorrelation time (in samples).

    The barostat makes the rho/V autocorrelation function oscillate (period ~1300 steps
    with Pdamp = 5), so a short self-consistent window (Sokal) stops inside the first
    positive lobe and overestimates tau.  Instead the running integral is averaged over
    lags between W/4 and W, W = one 20th of the run (= the block length used above).
    """
    x = x - x.mean()
    n = len(x)
    f = np.fft.rfft(x, 2 * n)
    acf = np.fft.irfft(f * np.conj(f))[:n] / (n - np.arange(n))
    acf /= acf[0]
    run = np.cumsum(acf) - 0.5
    W = n // NBLOCK
    return run[W // 4: W + 1].mean(), W


def acf_se(x, label, fmt="%.6f"):
    tau, W = tau_int(x)
    se = x.std() * np.sqrt(2 * tau / len(x))
    print(("  ACF cross-check for %s: tau_int = %.1f samples (%.0f steps; window avg %d..%d), SE = " + fmt)
          % (label, tau, 10 * tau, W // 4, W, se))


def jackknife(x, nb, fn):
    """Delete-one-block jackknife for a (nonlinear) estimator fn(series)."""
    n = len(x) // nb
    x = x[: n * nb]
    full = fn(x)
    idx = np.arange(n * nb).reshape(nb, n)
    th = np.array([fn(np.delete(x, idx[i])) for i in range(nb)])
    se = np.sqrt((nb - 1) / nb * np.sum((th - th.mean()) ** 2))
    bias_corr = nb * full - (nb - 1) * th.mean()
    return full, se, bias_corr


def beta_fluct(v):
    return v.var() / (KT * v.mean())


def npt(fname):
    d = load(fname)
    rho, vol, temp, press = d[:, 1], d[:, 2], d[:, 3], d[:, 4]
    N = 500
    print("\n=== NPT [%s]  T*=1.5  P*=2.0  (%d samples, every 10 steps = %d steps) ===" % (fname, len(rho), 10 * len(rho)))
    print("  <rho>  = %.5f +- %.5f  (%d blocks)" % (rho.mean(), block_se(rho, NBLOCK), NBLOCK))
    print("  N/<V>  = %.5f" % (N / vol.mean()))
    block_scan(rho, "rho")
    acf_se(rho, "rho")
    acf_se(vol, "V", "%.4f")
    print("  <V>    = %.3f +- %.3f" % (vol.mean(), block_se(vol, NBLOCK)))
    # sd(V) and its error via jackknife over blocks
    sdv, sdv_se, _ = jackknife(vol, NBLOCK, lambda v: v.std())
    print("  sd(V)  = %.3f +- %.3f   (jackknife, %d blocks)" % (sdv, sdv_se, NBLOCK))
    print("  sd(rho)= %.5f" % rho.std())
    b, b_se, b_bc = jackknife(vol, NBLOCK, beta_fluct)
    print("  beta_T = var(V)/(kT<V>) = %.5f +- %.5f  (jackknife %d blocks; bias-corrected %.5f)"
          % (b, b_se, NBLOCK, b_bc))
    print("  beta_T jackknife error vs number of blocks:")
    for nb in (200, 100, 50, 40, 20, 10, 5):
        bb, bse, _ = jackknife(vol, nb, beta_fluct)
        print(f"    {nb:4d} blocks: {bb:.5f} +- {bse:.5f}")
    # per-block estimate (within-block variance) as a cross check
    bl = vol[: (len(vol) // NBLOCK) * NBLOCK].reshape(NBLOCK, -1)
    bb = bl.var(axis=1) / (KT * bl.mean(axis=1))
    print("  beta_T (mean of %d per-block estimates) = %.5f +- %.5f"
          % (NBLOCK, bb.mean(), bb.std(ddof=1) / np.sqrt(NBLOCK)))
    print("  beta_T using measured <T>=%.4f instead of 1.5: %.5f" % (temp.mean(), vol.var() / (temp.mean() * vol.mean())))
    print("  <T>    = %.4f +- %.4f" % (temp.mean(), block_se(temp, NBLOCK)))
    print("  <P>    = %.4f +- %.4f  (instantaneous virial pressure incl. tail)" % (press.mean(), block_se(press, NBLOCK)))
    return rho.mean(), block_se(rho, NBLOCK), b, b_se


def nvt(rho_npt, beta_npt, beta_npt_se):
    files = sorted(glob.glob("nvt_*.dat"))
    if not files:
        return
    res = {}
    for f in files:
        r = float(os.path.basename(f)[4:-4])
        d = load(f)
        p, t = d[:, 1], d[:, 2]
        res[r] = (p.mean(), block_se(p, NBLOCK))
        print("\n=== NVT  rho=%.4f  (%d samples) ===" % (r, len(p)))
        print("  <P> = %.4f +- %.4f  (%d blocks);  <T> = %.4f +- %.4f"
              % (p.mean(), block_se(p, NBLOCK), NBLOCK, t.mean(), block_se(t, NBLOCK)))
        block_scan(p, "P", "%.5f")
        acf_se(p, "P", "%.5f")
    rs = sorted(res)
    if len(rs) == 3:
        rm, r0, rp = rs
        P0, s0 = res[r0]
        print("\n=== consistency ===")
        print("  NVT at rho=%.4f: P = %.4f +- %.4f ; (P-2)/se = %.2f" % (r0, P0, s0, (P0 - 2.0) / s0))
        (Pm, sm), (Pp, sp) = res[rm], res[rp]
        h = rp - rm
        dPdr = (Pp - Pm) / h
        dPdr_se = np.hypot(sp, sm) / h
        beta = 1.0 / (r0 * dPdr)
        beta_se = beta * dPdr_se / dPdr
        print("  dP/drho (central, rho %.4f..%.4f) = %.3f +- %.3f" % (rm, rp, dPdr, dPdr_se))
        print("  beta_T = 1/(rho dP/drho) = %.5f +- %.5f" % (beta, beta_se))
        # quadratic fit through the three points (curvature check)
        c = np.polyfit(rs, [res[r][0] for r in rs], 2)
        print("  quadratic through 3 points: d2P/drho2 = %.1f, dP/drho at rho_NPT %.4f = %.3f"
              % (2 * c[0], rho_npt, 2 * c[0] * rho_npt + c[1]))
        diff = beta - beta_npt
        print("  beta_T(NVT fd) - beta_T(NPT fluct) = %.5f +- %.5f  (%.2f sigma)"
              % (diff, np.hypot(beta_se, beta_npt_se), diff / np.hypot(beta_se, beta_npt_se)))
        # density predicted from the NVT equation of state at P=2
        rho_star = r0 + (2.0 - P0) / dPdr
        print("  rho at P=2 from NVT P(rho) (linear about rho0) = %.5f +- %.5f"
              % (rho_star, s0 / dPdr))


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    if os.path.exists("npt_samples_200k.dat"):
        npt("npt_samples_200k.dat")
    rho, rho_se, b, b_se = npt("npt_samples.dat")
    print("\n  -> NVT reference density (4 digits): %.4f" % rho)
    nvt(rho, b, b_se)
