"""CEC09t (HappyCat, CEC 2019 F9) near its optimum: plain double, as the CEC reference code
evaluates it, against exact rational arithmetic (what metaopt's compensated evaluation approaches).
Run from the repository root: python3 benchmarks/records/2026-11-25-h100-ade_evox_table/jde/happycat_rounding.py
(needs mpmath). Points: x = o + e u at random (first line), and points whose z lies on the sphere
sum z_i^2 = D tangent at the optimum, 1e-9..1e-7 away (second line). f - 1 ~ |r2 - D|^(1/4): where
plain double rounds r2 - D to exactly 0, the error vanishes; exactly, it is at least ~1e-5 there.
"""
import random, math
from fractions import Fraction as Fr
D=10
o=[float(t) for t in open('data/cec2019/shift_data_9.txt').read().split()][:D]
m=[float(t) for t in open('data/cec2019/M_9_D10.txt').read().split()][:D*D]
s=5.0/100.0
def plain(x):
    y=[s*(x[i]-o[i]) for i in range(D)]
    z=[sum(m[i*D+j]*y[j] for j in range(D)) for i in range(D)]
    r2=0.0; sz=0.0
    for i in range(D):
        zi=z[i]-1.0; r2+=zi*zi; sz+=zi
    return abs(r2-D)**0.25+(0.5*r2+sz)/D+0.5+1.0, r2-D
def exact(x):
    y=[Fr(s)*(Fr(x[i])-Fr(o[i])) for i in range(D)]
    z=[sum(Fr(m[i*D+j])*y[j] for j in range(D)) for i in range(D)]
    r2=sum((zi-1)**2 for zi in z); sz=sum(zi-1 for zi in z)
    d=abs(r2-D)
    return float(d)**0.25+float((r2/2+sz)/D+Fr(1,2))+1.0, float(r2-D)
random.seed(1)
zeros=0; best_plain=9; best_exact=9
for t in range(3000):
    eps=10**random.uniform(-9,-5)
    x=[o[i]+eps*random.gauss(0,1) for i in range(D)]
    fp,dp=plain(x); fe,de=exact(x)
    if dp==0.0: zeros+=1
    best_plain=min(best_plain,fp-1); best_exact=min(best_exact,fe-1)
print("plain r2-D==0:",zeros,"/3000; best plain error",best_plain,"best exact error",best_exact)
import mpmath
mpmath.mp.dps=50
M=mpmath.matrix(D,D)
for i in range(D):
    for j in range(D): M[i,j]=m[i*D+j]
Minv=M**-1
cnt=0; bp=9; be=9
for t in range(2000):
    mag=10**random.uniform(-9,-7)
    d=[random.gauss(0,1) for _ in range(D)]; mean=sum(d)/D; d=[v-mean for v in d]
    nrm=math.sqrt(sum(v*v for v in d)); d=[mag*v/nrm for v in d]
    # z = M y, y = s (x - o): want z = d (then w = z - 1 = -1 + d)
    y=Minv*mpmath.matrix(d)
    x=[float(mpmath.mpf(o[i])+y[i]/s) for i in range(D)]
    fp,dp=plain(x); fe,de=exact(x)
    if dp==0.0: cnt+=1
    bp=min(bp,fp-1); be=min(be,fe-1)
print("tangent points: plain r2-D==0:",cnt,"/2000; best plain error",bp,"best exact error",be)
