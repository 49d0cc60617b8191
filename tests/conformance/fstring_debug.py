n = 21
x = 3.14159
s = "hi"
print(f"{n * 2 = }")
print(f"{x=:.3f}")
print(f"{x!r}")
print(f"{s!r} {s=} {s = !s}")
print(f"{'nested'} {'x' if n else 'y'}")
print(f"{n=!r:>10}")
d = {'a': 1}
print(f"{d['a']=}")
print(f"{n    =   }")
print(f"{x = :10.2f}|")
print(f'{"a" + "b"=}')
print(f"{[1,2]=}")
print(f"{n:{'>'}{10}}")
print(f"{n!a}")
print(f"{3.0=}")
print(f"{s=:>5}")
