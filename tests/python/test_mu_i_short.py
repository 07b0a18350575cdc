"""Short form of the mu(I) study (tools/mu_i_study.py, docs/periodic.md
"mu(I) study"): polydisperse frictional disks sheared at constant
volume in a periodic cell, at a low and a high inertial number I.

Setup as in the study, smaller: 12 x 12 = 144 disks (2D world, radii uniform
in [0.4, 0.6] mm, density 2500 kg/m^3, Linear law k_n = 1e6 N/m,
k_t = k_n / 2, normal dashpot 0.5 of critical, contact friction 0.4), placed
on hexagonal rows, compacted by the cell alone (L = -200 I 1/s) to the solid
fraction phi, then sheared at gamma_dot (L_xy, Lees-Edwards images, affine
start velocities). P = -(sigma_xx + sigma_yy) / 2 and tau = sigma_xy are the
Love-Weber contact stress over the whole cell, averaged after a transient;
I = gamma_dot d / sqrt(P / rho_2D), mu = tau / P (2D form of GDR MiDi 2004,
da Cruz et al. 2005).

Reference: da Cruz et al. 2005 (2D disks, contact friction 0.4) report a
quasi-static friction mu_s of about 0.25-0.3 and mu rising about linearly
with I, slope near 1, below I ~ 0.2; the full study here gives mu_s = 0.257,
mu = 0.279 at I = 0.011, 0.318 at I = 0.047 and 0.468 at I = 0.2.

Here (shear strain 4, averages over strains 1.5 to 4, 100 samples):
- low I: phi = 0.805, gamma_dot = 500 1/s (k_n / P = 1800, above the 1e3 of
  the rigid-grain regime of da Cruz et al. 2005): measured I = 0.028,
  mu = 0.303. Published: mu_s 0.25-0.3 plus a slope near 1 times I gives
  0.28-0.34; the test asks mu in [0.22, 0.35] (the band widened for the
  fluctuations of 144 disks) and I in [0.01, 0.06].
- high I: phi = 0.76, gamma_dot = 1000 1/s: measured I = 0.210, mu = 0.465
  (the study: 0.468 at I = 0.197). The test asks I in [0.1, 0.3] and
  mu_high - mu_low >= 0.10 (measured 0.16; a slope near 1 over the
  difference of I, 0.18, gives about 0.18).
The test fails if the packing does not take the stress of frictional
grains (with contact friction 0 the low point measured I = 0.128,
mu = 0.287: unjammed, out of the I window), if the cell's shear does not
reach the bodies (no tau) or if mu does not rise with I. Runs in about 8 s
(RelWithDebInfo, loaded 2-core machine).
"""
import math

import numpy as np

import floe

N_SIDE = 12
R0 = 0.5e-3
RHO = 2500.0
KN = 1e6
RATE = 200.0


def shear(phi, gdot, strain, transient, friction=0.4, samples=100):
    rnd = np.random.default_rng(7)
    n = N_SIDE * N_SIDE
    radii = R0 * (0.8 + 0.4 * rnd.random(n))
    s = 2.5 * R0
    lx, ly = N_SIDE * s, N_SIDE * s * math.sqrt(3) / 2
    pos = np.array([((i + 0.25 + 0.5 * (j % 2)) * s, (j + 0.5) * s * math.sqrt(3) / 2, 0.0)
                    for j in range(N_SIDE) for i in range(N_SIDE)])
    area = float(np.sum(math.pi * radii**2))
    mass = float(np.sum(RHO * 4 / 3 * math.pi * radii**3))
    rho2d, d = mass / area, 2 * float(np.mean(radii))
    dt = 0.2 * math.sqrt(RHO * 4 / 3 * math.pi * float(np.min(radii))**3 / KN)
    w = floe.World(gravity=(0, 0, 0), dt=dt, dimension=2)
    w.add_material("g", "linear", density=RHO, tan_phi=friction)
    w.set_model("linear", kn=KN, kt=0.5 * KN, dp_nratio=0.5)
    w.set_periodic("x", 0.0, lx)
    w.set_periodic("y", 0.0, ly)
    w.add_spheres(pos, radii, material="g")
    # compaction: H_kk shrinks by (1 - RATE dt) a step; area ratio phi0 / phi
    phi0 = area / (lx * ly)
    steps = int(round(math.log(phi0 / phi) / (2 * math.log(1 - RATE * dt))))
    w.set_velocity_gradient(np.diag([-RATE, -RATE, 0.0]))
    w.run(steps=steps)
    L = np.zeros((3, 3))
    L[0, 1] = gdot
    w.set_velocity_gradient(L)
    w.affine_velocities()
    w.run(time=transient / gdot)
    p, tau = [], []
    chunk = (strain - transient) / gdot / samples
    for _ in range(samples):
        w.run(time=chunk)
        sg = w.stress(box=((0, 0, -0.5), (1, 1, 0.5)), whole=True)
        p.append(-(sg[0, 0] + sg[1, 1]) / 2)
        tau.append(sg[0, 1])
    pm, tm = float(np.mean(p)), float(np.mean(tau))
    return gdot * d / math.sqrt(pm / rho2d), tm / pm, pm


def test_mu_of_i_low_and_high():
    i_lo, mu_lo, p_lo = shear(0.805, 500.0, 4.0, 1.5)
    i_hi, mu_hi, p_hi = shear(0.76, 1000.0, 4.0, 1.5)
    print("low I %.4f mu %.4f P %.4g; high I %.4f mu %.4f P %.4g" % (i_lo, mu_lo, p_lo, i_hi, mu_hi, p_hi))
    assert 0.01 <= i_lo <= 0.06
    assert 0.1 <= i_hi <= 0.3
    assert KN / p_lo >= 1e3
    assert 0.22 <= mu_lo <= 0.35
    assert mu_hi - mu_lo >= 0.10
