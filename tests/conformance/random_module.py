# %% seed_random
import random
random.seed(0)
print(random.random())
print(random.random())
# %% seed_randint
import random
random.seed(0)
print([random.randint(1, 10) for _ in range(10)])
# %% seed_choice
import random
random.seed(42)
print(random.choice(["a", "b", "c", "d"]), random.choice(range(100)), random.choice("xyz"))
# %% seed_shuffle
import random
random.seed(0)
xs = list(range(10))
random.shuffle(xs)
print(xs)
# %% reseed_reproduces
import random
random.seed(123)
a = [random.random() for _ in range(3)]
random.seed(123)
b = [random.random() for _ in range(3)]
print(a == b, a)
# %% uniform
import random
random.seed(1)
print(random.uniform(0, 10), random.uniform(-1, 1))
# %% mixed_sequence
import random
random.seed(7)
print(random.random(), random.randint(0, 100), random.choice([10, 20, 30]))
xs = ["a", "b", "c", "d", "e"]
random.shuffle(xs)
print(xs, random.random())
# %% randint_range_properties
import random
random.seed(5)
vals = [random.randint(0, 3) for _ in range(200)]
print(min(vals), max(vals), sorted(set(vals)))
# %% gauss_like_free_sample
import random
random.seed(0)
print(random.sample(range(100), 5))
# %% gauss_is_cpythons
import random
random.seed(0)
print([random.gauss(0, 1) for _ in range(3)], random.gauss(5, 2), random.gauss())
random.seed(1)
print(random.gauss(0, 1), random.random())
