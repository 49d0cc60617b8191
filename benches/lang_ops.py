# Per-operation costs of everyday Python (ns per iteration, best of 5), to find the operations
# far slower than CPython 3.11: run it under both and compare line by line, e.g.
#   paste <(python3 benches/lang_ops.py) <(target/release/cudalearn run benches/lang_ops.py)
import time
class P:
    def __init__(self): self.x = 1; self.y = 2.0
    def m(self): return 1
    @property
    def pr(self): return self.x
class Q(P):
    pass
def gen():
    for i in range(100000): yield i
N = 100000
def bench(name, f):
    best = 1e9
    for k in range(5):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    print("%-16s %7.1f" % (name, best * 1e9 / N))
def b_empty():
    for i in range(N): pass
def b_attr():
    p = P()
    for i in range(N): p.x
def b_attr_inh():
    p = Q()
    for i in range(N): p.m()
def b_prop():
    p = P()
    for i in range(N): p.pr
def b_setattr():
    p = P()
    for i in range(N): p.x = i
def b_new():
    for i in range(N): P()
def b_tuple_unpack():
    t = (1, 2)
    for i in range(N): a, b = t
def b_tuple_make():
    for i in range(N): t = (i, i)
def b_list_make():
    for i in range(N): t = [i, i]
def b_dict_make():
    for i in range(N): t = {"a": i}
def b_str_idx():
    s = "hello"
    for i in range(N): s[1]
def b_str_concat():
    s = "hello"
    for i in range(N): t = s + "x"
def b_fstr():
    for i in range(N): t = f"{i}"
def b_str_call():
    for i in range(N): str(i)
def b_len():
    l = [1]
    for i in range(N): len(l)
def b_isinst():
    for i in range(N): isinstance(i, int)
def b_gen():
    for i in gen(): pass
def b_enum():
    l = [0] * N
    for i, x in enumerate(l): pass
def b_zip():
    l = [0] * N
    for a, b in zip(l, l): pass
def b_in_list():
    l = [1, 2, 3, 4]
    for i in range(N): 3 in l
def b_dict_get():
    d = {"a": 1}
    for i in range(N): d.get("a")
def b_dict_idx():
    d = {"a": 1}
    for i in range(N): d["a"]
def b_dict_items():
    d = {i: i for i in range(N)}
    for k, v in d.items(): pass
def b_float_ops():
    x = 1.5
    for i in range(N): y = x * 2.0 + x / 3.0
def b_int_ops():
    x = 15
    for i in range(N): y = (x * 2 + i) % 7
def b_lambda():
    f = lambda a: a
    for i in range(N): f(i)
def b_kwcall():
    def g(a, b=1): return a
    for i in range(N): g(i, b=2)
def b_default():
    def g(a, b=1): return a
    for i in range(N): g(i)
def b_closure():
    k = 1
    def g(a): return a + k
    for i in range(N): g(i)
def b_try():
    for i in range(N):
        try: pass
        except ValueError: pass
def b_raise():
    for i in range(N):
        try: raise ValueError
        except ValueError: pass
def b_while():
    i = 0
    while i < N: i += 1
def b_listcomp():
    [i for i in range(N)]
def b_append():
    l = []
    for i in range(N): l.append(i)
def b_global():
    for i in range(N): N
def b_minmax():
    for i in range(N): max(i, 3)
def b_abs():
    for i in range(N): abs(i)
def b_sum():
    l = list(range(N))
    sum(l)
def b_sorted():
    l = list(range(N, 0, -1))
    sorted(l)
def b_join():
    l = ["ab"] * N
    "".join(l)
def b_split():
    s = "a b c d"
    for i in range(N): s.split()
def b_fmt():
    for i in range(N): "%d" % i
for name, f in list(globals().items()):
    if name.startswith("b_"):
        bench(name[2:], f)
