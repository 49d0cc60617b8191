# pyperformance-style spectral norm.
def eval_a(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def eval_a_times_u(u):
    n = len(u)
    return [sum([eval_a(i, j) * u[j] for j in range(n)]) for i in range(n)]


def eval_at_times_u(u):
    n = len(u)
    return [sum([eval_a(j, i) * u[j] for j in range(n)]) for i in range(n)]


def main():
    n = 120
    u = [1.0] * n
    for _ in range(10):
        v = eval_at_times_u(eval_a_times_u(u))
        u = eval_at_times_u(eval_a_times_u(v))
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    return round((vbv / vv) ** 0.5, 9)
