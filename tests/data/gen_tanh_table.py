# The tables of src/backend/cpu/tanh_table.rs. Bin k (k = 0..31) is |a - k/4| <= 1/8; its
# polynomial in r = a - k/4 fits F(a) = tanh(a)/a below bin K (5) and tanh(a)/S above, S = 9/8
# being bin K's lower edge. The constant term is two floats (hi + lo); every other coefficient
# is rounded to f32 in turn and the later ones refitted by weighted least squares (relative
# error) over Chebyshev nodes, in 60-digit arithmetic. Prints each bin's fitted error to stderr
# and the tables (f32 bit patterns, one line per coefficient) to stdout.
# Run: python3 tests/data/gen_tanh_table.py 6 5   (degree, K; needs mpmath)
import mpmath as mp, struct, sys
mp.mp.dps = 60
D = int(sys.argv[1]) if len(sys.argv) > 1 else 6
K = int(sys.argv[2]) if len(sys.argv) > 2 else 5
S = (mp.mpf(K) - mp.mpf(1)/2)/4
H = mp.mpf(1)/8
def f32(x):
    return struct.unpack('f', struct.pack('f', float(x)))[0]
def bits(x):
    return struct.unpack('I', struct.pack('f', x))[0]
def F(a):
    # tanh(a)/a below bin K, tanh(a)/S from it (S: bin K's lower edge, where the two meet)
    if a >= S:
        return mp.tanh(a)/S
    return mp.mpf(1) if a == 0 else mp.tanh(a)/a
NP = 120
nodes = [H*mp.cos(mp.pi*(i+mp.mpf(1)/2)/NP) for i in range(NP)]
def lsq(ys, ws, powers):
    # weighted least squares: minimise sum w^2 (y - sum c_j r^p_j)^2
    n = len(powers)
    A = mp.matrix(n, n); b = mp.matrix(n, 1)
    for r, y, w in zip(nodes, ys, ws):
        ph = [r**p for p in powers]
        for i in range(n):
            b[i] += w*w*ph[i]*y
            for j in range(n):
                A[i, j] += w*w*ph[i]*ph[j]
    return list(mp.lu_solve(A, b))
rows = []
worst_all = 0
for k in range(32):
    c = mp.mpf(k)/4
    g = [F(c + r) for r in nodes]
    ws = [1/abs(v) for v in g]
    powers = list(range(0, D+1, 2)) if k == 0 else list(range(D+1))
    coef = {}
    fixed = {}
    rem = list(powers)
    # c0: hi + lo
    sol = lsq(g, ws, rem)
    c0 = sol[0]
    hi = f32(c0); lo = f32(c0 - mp.mpf(hi))
    fixed[0] = mp.mpf(hi) + mp.mpf(lo)
    rem = rem[1:]
    while rem:
        ys = [gv - sum(cf * r**p for p, cf in fixed.items()) for gv, r in zip(g, nodes)]
        sol = lsq(ys, ws, rem)
        fixed[rem[0]] = mp.mpf(f32(sol[0]))
        rem = rem[1:]
    # error check on a dense grid
    worst = 0
    for i in range(801):
        r = -H + 2*H*i/800
        a = c + r
        if a < 0: continue
        approx = sum(cf * r**p for p, cf in fixed.items())
        e = abs(approx/F(a) - 1)
        worst = max(worst, e)
    worst_all = max(worst_all, worst)
    cs = [fixed.get(p, mp.mpf(0)) for p in range(1, D+1)]
    rows.append((hi, lo, [f32(x) for x in cs]))
    print(f"# bin {k}: rel err {float(worst):.3g} = 2^{float(mp.log(worst,2)) if worst>0 else -99:.1f}", file=sys.stderr)
print(f"# worst 2^{float(mp.log(worst_all,2)):.1f}", file=sys.stderr)
print("HI", " ".join(f"0x{bits(r[0]):08x}" for r in rows))
print("LO", " ".join(f"0x{bits(r[1]):08x}" for r in rows))
for j in range(D):
    print(f"C{j+1}", " ".join(f"0x{bits(r[2][j]):08x}" for r in rows))
