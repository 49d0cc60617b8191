# %% for_range
for i in range(3):
    print(i)
# %% range_variants
print(list(range(2, 8)), list(range(0, 10, 3)), list(range(5, 0, -1)), list(range(0)), list(range(3, 1)))
print(range(5), range(1, 10, 2), len(range(0, 10, 3)))
print(range(10)[2], 3 in range(5), range(4)[-1])
# %% for_over_list_str_dict_tuple
for x in [1, 'a']:
    print(x)
for ch in "hi":
    print(ch)
for k in {'a': 1, 'b': 2}:
    print(k)
for x in (True, None):
    print(x)
# %% break_continue
for i in range(10):
    if i == 2:
        continue
    if i == 5:
        break
    print(i)
# %% nested_loops_break_inner
for i in range(3):
    for j in range(3):
        if j > i:
            break
        print(i, j)
# %% enumerate_loop
for i, v in enumerate(['a', 'b', 'c']):
    print(i, v)
for i, v in enumerate('xy', start=1):
    print(i, v)
# %% enumerate_nested_unpack
pairs = [(1, 2), (3, 4)]
for i, (a, b) in enumerate(pairs):
    print(i, a, b, a + b)
# %% zip_loop
for a, b in zip([1, 2, 3], "xyz"):
    print(a, b)
for a, b, c in zip(range(5), [10, 20], (7, 8, 9)):
    print(a, b, c)
# %% loop_variable_persists
for i in range(4):
    pass
print(i)
# %% accumulate
total = 0
for x in range(1, 101):
    total += x
print(total)
# %% modify_copy_while_iterating
xs = [1, 2, 3, 4]
for x in xs.copy():
    if x % 2 == 0:
        xs.remove(x)
print(xs)
# %% range_negative_step
for i in range(10, 0, -3):
    print(i, end=" ")
print()
# %% training_loop_shape
losses = []
loss = 1.0
for epoch in range(1, 4):
    loss = loss * 0.5
    losses.append(loss)
    print(f"epoch {epoch}: loss={loss:.4f}")
print(losses)
# %% while_with_list_pop
stack = [1, 2, 3]
while stack:
    print(stack.pop())
# %% reversed_loop
for x in reversed([1, 2, 3]):
    print(x)
for ch in reversed("abc"):
    print(ch, end="")
print()
# %% dict_items_loop_sorted
scores = {'bob': 3, 'amy': 5}
for name, s in sorted(scores.items()):
    print(name, s)
