# %% chain_lists
from itertools import chain
print(list(chain([1, 2], (3,), 'ab')))
# %% chain_from_iterable
from itertools import chain
print(list(chain.from_iterable([[1], [2, 3], []])))
# %% chain_lazy_next
from itertools import chain
it = chain([1], [2])
print(next(it), next(it))
print(next(it, 'done'))
# %% product_two
from itertools import product
print(list(product('ab', [0, 1])))
# %% product_repeat
from itertools import product
print(list(product([1, 2], repeat=2)))
# %% product_grid_search
from itertools import product
for lr, bs in product([0.1, 0.01], [16, 32]):
    print(f"lr={lr} batch={bs}")
# %% product_empty
from itertools import product
print(list(product([1, 2], [])), list(product()))
# %% islice_stop
from itertools import islice
print(list(islice('abcdefg', 3)))
# %% islice_start_stop_step
from itertools import islice
print(list(islice('abcdefg', 2, None, 2)), list(islice(range(10), 1, 8, 3)))
# %% islice_negative
from itertools import islice
islice('abc', -1)
# %% count_islice
from itertools import count, islice
print(list(islice(count(10, 2), 5)))
# %% count_float_step
from itertools import count
c = count(0.5, 0.25)
print(next(c), next(c), next(c))
# %% count_zip
from itertools import count
print(list(zip(count(1), 'abc')))
# %% count_repr
from itertools import count
c = count(5)
next(c)
print(c, count(1, 3))
# %% cycle_islice
from itertools import cycle, islice
print(list(islice(cycle('xy'), 5)))
# %% cycle_empty
from itertools import cycle
print(list(cycle([])))
# %% cycle_with_zip
from itertools import cycle
print(list(zip(range(5), cycle(['r', 'g']))))
# %% zip_longest_fill
from itertools import zip_longest
print(list(zip_longest('abc', [1], fillvalue='-')))
# %% zip_longest_default_none
from itertools import zip_longest
print(list(zip_longest([1, 2, 3], 'ab')))
# %% zip_longest_empty
from itertools import zip_longest
print(list(zip_longest()), list(zip_longest([], [])))
# %% accumulate
from itertools import accumulate
print(list(accumulate([1, 2, 3, 4])), list(accumulate([3, 1, 4], max)))
# %% accumulate_initial
from itertools import accumulate
print(list(accumulate([1, 2], initial=100)))
# %% combinations_permutations
from itertools import combinations, permutations
print(list(combinations('abc', 2)))
print(list(permutations([1, 2, 3], 2)))
print(len(list(permutations(range(4)))))
# %% repeat_times
from itertools import repeat
print(list(repeat('z', 3)), list(map(pow, range(4), repeat(2))))
# %% pairwise_starmap
from itertools import pairwise, starmap
print(list(pairwise([1, 2, 4, 7])), list(starmap(pow, [(2, 3), (3, 2)])))
# %% takewhile_dropwhile
from itertools import takewhile, dropwhile
print(list(takewhile(lambda x: x < 3, [1, 2, 5, 1])), list(dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
# %% iter_is_self
import itertools
it = itertools.count()
print(iter(it) is it)
# %% lazy_side_effects
from itertools import islice
def noisy():
    i = 0
    class It:
        def __iter__(self):
            return self
        def __next__(self):
            nonlocal i
            i += 1
            print('made', i)
            return i
    return It()
print(list(islice(noisy(), 2)))
# %% batches_with_islice
from itertools import islice
data = list(range(7))
it = iter(data)
while True:
    batch = list(islice(it, 3))
    if not batch:
        break
    print(batch)
# %% type_names
import itertools
print(type(itertools.count()), type(itertools.chain()), type(itertools.islice([], 1)))
print(type(itertools.product()).__name__, type(itertools.zip_longest()).__module__)
# %% groupby_sorted
from itertools import groupby
words = sorted(['apple', 'avocado', 'banana', 'blueberry', 'cherry'])
for k, g in groupby(words, key=lambda w: w[0]):
    print(k, list(g))
# %% groupby_runs
from itertools import groupby
print([(k, len(list(g))) for k, g in groupby('aaabccdddd')])
# %% groupby_keys_only
from itertools import groupby
print([k for k, _ in groupby([1, 1, 2, 3, 3, 3, 1])])
# %% groupby_unread_groups
from itertools import groupby
it = groupby('aabbbc')
k1, g1 = next(it)
k2, g2 = next(it)
print(k1, k2, list(g2), list(g1))
# %% compress_filterfalse
from itertools import compress, filterfalse
print(list(compress('abcdef', [1, 0, 1, 0, 1, 1])), list(filterfalse(lambda x: x % 2, range(8))), list(filterfalse(None, [0, 1, '', 'a'])))
# %% combinations_with_replacement
from itertools import combinations_with_replacement
print(list(combinations_with_replacement('ab', 2)), list(combinations_with_replacement([1, 2, 3], 1)))
# %% tee
from itertools import tee
a, b = tee([1, 2, 3])
print(list(a), list(b))
# %% tee_is_lazy
import itertools as it
a, b = it.tee(it.count())
print(next(a), next(a), next(b))
x, y, z = it.tee("abc", 3)
print(list(x), list(y), next(z), list(z))
print(it.tee([1], 0))
p, q = it.tee(range(500))
print(sum(p), sum(q))
u, v = it.tee(iter([1, 2, 3]))
print(next(u), list(v), list(u))
print(type(u).__name__)
# %% lazy_iterators_over_infinite_sources
import itertools as it
c = it.count
print(list(it.islice(c(), 3)), list(it.islice(it.cycle("ab"), 5)), list(it.islice(it.repeat(7), 2)))
print(list(it.takewhile(lambda x: x < 3, c())), next(it.dropwhile(lambda x: x < 3, c())))
print(list(it.islice(it.chain(c(), "x"), 3)), list(it.islice(it.accumulate(c()), 4)))
print(list(it.islice(it.starmap(pow, zip(c(2), it.repeat(2))), 3)), list(it.islice(it.filterfalse(lambda v: v % 2, c()), 3)))
print(list(it.islice(it.zip_longest(c(), "ab"), 3)), list(it.islice(it.compress(c(), it.cycle([1, 0])), 3)))
g = it.groupby(c(), key=lambda v: v // 3)
k, grp = next(g)
print(k, list(grp))
a, b = it.tee(c())
print(next(a), next(a), next(b))
print(list(it.islice(map(lambda v: v * v, filter(lambda v: v % 3 == 0, c())), 3)))
print(list(it.islice(enumerate(zip(c(), c(5))), 2)))
r = reversed([1, 2, 3])
print(type(r).__name__, next(r))
def gen():
    n = 0
    while True:
        yield n
        n += 1
print(list(it.islice((x * 2 for x in gen()), 3)), sum(x for x in it.islice(gen(), 5)))
