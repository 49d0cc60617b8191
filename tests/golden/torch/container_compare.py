# %% same_object_short_circuits
import torch
a = torch.tensor([1., 2.])
print([a] == [a], (a, 1) == (a, 1), {'k': a} == {'k': a})
print([a] != [a], a in [a], [a, 1].index(a), [a].count(a))

# %% err_index_compares_others
import torch
a = torch.tensor([1., 2.])
print([1, a].index(a))

# %% one_element_tensors_by_truth
import torch
print([torch.tensor(1.)] == [torch.tensor(1.)], [torch.tensor(1.)] == [torch.tensor(2.)])
print((torch.tensor(0.),) == (torch.tensor(0.),), [torch.tensor([3])] == [torch.tensor([3])])
print({'a': torch.tensor(5)} == {'a': torch.tensor(5.)}, [torch.tensor(2)] == [2], [2] == [torch.tensor(2)])
print([torch.tensor(1.)] != [torch.tensor(2.)], torch.tensor(3) in [1, 3], [None] == [torch.tensor(1.)])

# %% lengths_differ_first
import torch
print([torch.tensor([1., 2.])] == [], {'a': torch.ones(2)} == {'b': torch.ones(2)})

# %% err_dict_of_tensors
import torch
print({'a': torch.tensor([1., 2.])} == {'a': torch.tensor([1., 2.])})

# %% err_list_of_tensors
import torch
t1 = torch.tensor([1., 2.])
t2 = torch.tensor([1., 2.])
print([t1] == [t2])

# %% err_tuple_of_tensors
import torch
print((1, torch.zeros(3)) == (1, torch.zeros(3)))

# %% err_list_ne
import torch
print([torch.zeros(2)] != [torch.ones(2)])

# %% err_in_list
import torch
print(torch.zeros(2) in [torch.zeros(2)])

# %% err_nested
import torch
print([[torch.ones(2, 2)]] == [[torch.ones(2, 2)]])
