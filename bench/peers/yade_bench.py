# floe benchmark (bench/run.sh): the settle / dense scene in Yade (Debian 2023.02a).
# usage: yade -n -x -jT yade_bench.py DATA LX LY DT KN KT CN_PW MU SKIN NWARM NRUN
# Law: ViscElMat + Law2_ScGeom_ViscElPhys_Basic (linear spring-dashpot, Coulomb),
# the same law as the LAMMPS/LIGGGHTS runs. Yade combines the two materials' kn,
# ks, cn in series (1/(1/a+1/b)), and a zero cn on one side keeps the other's:
#   spheres: kn_mat = 2 kn, ks_mat = 2 kt, cn_mat = m gamma_n  -> pair kn, kt, (m/2) gamma_n
#   walls:   same kn/ks, cn_mat = 0                              -> wall kn, kt, m gamma_n
# Skin: InsertionSortCollider.verletDist enlarges every AABB, so verletDist = skin/2.
import math
import sys
import time

a = sys.argv[1:]
path = a[0]
lx, ly, dt, kn, kt, cn_pw, mu, skin = (float(v) for v in a[1:9])
nwarm, nrun = int(a[9]), int(a[10])

spheres = []
with open(path) as f:
    in_atoms = False
    for ln in f:
        t = ln.split()
        if not t:
            continue
        if t[0] == "Atoms":
            in_atoms = True
            continue
        if in_atoms and len(t) >= 7:
            spheres.append((int(t[0]), float(t[2]) / 2, float(t[3]), float(t[4]), float(t[5]), float(t[6])))
spheres.sort()

phi = math.atan(mu)
bead = O.materials.append(ViscElMat(kn=2 * kn, ks=2 * kt, cn=cn_pw, cs=0.0, frictionAngle=phi, density=spheres[0][2]))
wallmat = O.materials.append(ViscElMat(kn=2 * kn, ks=2 * kt, cn=0.0, cs=0.0, frictionAngle=phi, density=spheres[0][2]))
wall_ids = O.bodies.append([
    utils.wall((0, 0, 0), axis=2, sense=1, material=wallmat),
    utils.wall((0, 0, 0), axis=0, sense=1, material=wallmat),
    utils.wall((lx, 0, 0), axis=0, sense=-1, material=wallmat),
    utils.wall((0, 0, 0), axis=1, sense=1, material=wallmat),
    utils.wall((0, ly, 0), axis=1, sense=-1, material=wallmat),
])
nwall = len(wall_ids)
O.bodies.append([utils.sphere((s[3], s[4], s[5]), s[1], material=bead) for s in spheres])

O.engines = [
    ForceResetter(),
    InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Wall_Aabb()], verletDist=skin / 2),
    InteractionLoop([Ig2_Sphere_Sphere_ScGeom(), Ig2_Wall_Sphere_ScGeom()],
                    [Ip2_ViscElMat_ViscElMat_ViscElPhys()], [Law2_ScGeom_ViscElPhys_Basic()]),
    NewtonIntegrator(damping=0.0, gravity=(0, 0, -9.81)),
]
O.dt = dt

t0 = time.time()
O.run(nwarm, True)
t1 = time.time()
O.run(nrun, True)
t2 = time.time()

ke = zsum = 0.0
for b in O.bodies:
    if b.id >= nwall:
        ke += 0.5 * b.state.mass * b.state.vel.squaredNorm()
        zsum += b.state.pos[2]
pp = wc = 0
phys = {}
for i in O.interactions:
    if not i.isReal:
        continue
    w = i.id1 < nwall or i.id2 < nwall
    phys.setdefault(w, (i.phys.kn, i.phys.ks, i.phys.cn))
    if i.geom.penetrationDepth > 0:
        if w:
            wc += 1
        else:
            pp += 1
print("PHYS pair(kn,ks,cn)=%s wall(kn,ks,cn)=%s" % (phys.get(False), phys.get(True)))
print("RESULT steps=%d atoms=%d ke=%.6e zcm=%.6f pp_contacts=%d wall_contacts=%d loop_s=%.4f warm_s=%.4f threads=%d"
      % (nwarm + nrun, len(spheres), ke, zsum / len(spheres), pp, wc, t2 - t1, t1 - t0, O.numThreads))
sys.stdout.flush()
