foo(1, 2
bar = 3
