"""Broadcasting in PyTorch and NumPy: the rules, explicit expansion, expand versus repeat.

Run with `python examples/fundamentals/broadcasting.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

# --8<-- [start:rules]
import numpy as np
import torch

a = torch.ones(3, 2)
b = torch.zeros(2, 3, 1)
print((a + b).shape)
#> torch.Size([2, 3, 2])
print((np.ones((3, 2)) + np.zeros((2, 3, 1))).shape)  # the same rules in NumPy
#> (2, 3, 2)

# The result shape, without computing anything, in both libraries:
print(torch.broadcast_shapes((3, 2), (2, 3, 1)))
#> torch.Size([2, 3, 2])
print(np.broadcast_shapes((3, 2), (2, 3, 1)))
#> (2, 3, 2)

# Both inputs expanded to the result shape: stretched axes have stride 0, nothing is copied.
a_read, b_read = torch.broadcast_tensors(a, b)
print(a_read.stride(), b_read.stride(), a_read.data_ptr() == a.data_ptr())
#> (0, 2, 1) (3, 1, 0) True
# The result is a new tensor of the full shape: 2 * 3 * 2 float32 values.
print(a.untyped_storage().nbytes(), (a + b).untyped_storage().nbytes())
#> 24 48
# --8<-- [end:rules]

# --8<-- [start:mismatch]
try:
    torch.ones(3, 2) + torch.ones(3)
except RuntimeError as err:
    print(type(err).__name__, err)
    """
    RuntimeError The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1
    """

try:
    np.ones((3, 2)) + np.ones(3)
except ValueError as err:
    print(type(err).__name__, err)
    #> ValueError operands could not be broadcast together with shapes (3,2) (3,)

# In PyTorch's message, tensor a is the left operand and tensor b the right one;
# dimension counts the axes of the left-padded shapes, from 0: (2, 3, 2) with (1, 1, 3).
for left, right in [(torch.ones(2, 3, 2), torch.ones(3)), (torch.ones(3), torch.ones(2, 3, 2))]:
    try:
        left + right
    except RuntimeError as err:
        print(err)
        #> The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 2
        #> The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 2

# With a square matrix, matrix - vector does not fail: it silently subtracts per column.
square = torch.arange(9.0).reshape(3, 3)
print(square - torch.tensor([0.0, 10.0, 20.0]))  # column j minus the vector's value j
"""
tensor([[  0.,  -9., -18.],
        [  3.,  -6., -15.],
        [  6.,  -3., -12.]])
"""

# Give the vector its own axis and the shapes line up: (3, 2) with (3, 1).
print((torch.ones(3, 2) + torch.ones(3)[:, None]).shape)
#> torch.Size([3, 2])

# So, without a loop, each row of a matrix minus its own value of a vector:
matrix = torch.arange(6.0).reshape(3, 2)
per_row = torch.tensor([0.0, 10.0, 20.0])  # one value per row
print(matrix - per_row[:, None])
"""
tensor([[  0.,   1.],
        [ -8.,  -7.],
        [-16., -15.]])
"""
# --8<-- [end:mismatch]

# --8<-- [start:loss_target_size]
import warnings

import torch.nn.functional as F

prediction = torch.tensor([[1.0], [2.0], [3.0]])  # (N, 1): a regression head's output
target = torch.tensor([1.0, 2.0, 3.0])  # (N,): one value per sample, equal to the prediction
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = F.mse_loss(prediction, target)
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
    """
    UserWarning: Using a target size (torch.Size([3])) that is different to the input size (torch.Size([3, 1])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.
    """
print(loss)  # a perfect prediction, yet the loss is not 0
#> tensor(1.3333)
print((prediction - target).shape)  # every prediction compared with every target
#> torch.Size([3, 3])
# The fix: the same shape on both sides, either way round.
print(F.mse_loss(prediction.squeeze(1), target), F.mse_loss(prediction, target.unsqueeze(1)))
#> tensor(0.) tensor(0.)

# A segmentation target without its channel axis: (N, H, W) against (N, 1, H, W).
mask = torch.arange(8.0).reshape(2, 2, 2)
output = mask.unsqueeze(1)  # (2, 1, 2, 2), equal to the mask
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = F.smooth_l1_loss(output, mask)
print(loss, [warning.category.__name__ for warning in caught])
#> tensor(1.7500) ['UserWarning']
print((output - mask).shape)  # the batch axis meets the channel axis
#> torch.Size([2, 2, 2, 2])
print(F.smooth_l1_loss(output, mask.unsqueeze(1)))
#> tensor(0.)
# --8<-- [end:loss_target_size]

# --8<-- [start:loss_target_sequence]
import warnings

import torch

criterion = torch.nn.MSELoss()
y_pred = torch.arange(10.0).reshape(10, 1)  # one prediction per time step: (10, 1)
y_true = torch.tensor([[9.0]])  # one target, for the last step: (1, 1)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = criterion(y_pred, y_true)
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
    """
    UserWarning: Using a target size (torch.Size([1, 1])) that is different to the input size (torch.Size([10, 1])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.
    """
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    squeezed = criterion(y_pred.squeeze(1), y_true.squeeze(1))  # (10,) against (1,)
print(loss, squeezed, [warning.category.__name__ for warning in caught])
#> tensor(28.5000) tensor(28.5000) ['UserWarning']

# The fix: compare the prediction that belongs to the target, here the last step's.
print(y_pred[-1:].shape, criterion(y_pred[-1:], y_true))
#> torch.Size([1, 1]) tensor(0.)
# --8<-- [end:loss_target_sequence]

# --8<-- [start:loss_target_actions]
import warnings

import torch
import torch.nn.functional as F

# A SAC critic update with a 4-dimensional action and a batch of 64.
torch.manual_seed(0)
batch, action_dim, gamma, alpha = 64, 4, 0.99, 0.2
policy = torch.distributions.Normal(torch.zeros(batch, action_dim), torch.ones(batch, action_dim))
next_actions = policy.sample()
log_prob = policy.log_prob(next_actions)  # one log-probability per action dimension
rewards, next_q = torch.randn(batch, 1), torch.randn(batch, 1)
td_target = rewards + gamma * (next_q - alpha * log_prob)  # (64, 1) with (64, 4) gives (64, 4)
q_pred = torch.randn(batch, 1, requires_grad=True)  # the critic's Q(s, a)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = F.mse_loss(q_pred, td_target)
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
    """
    UserWarning: Using a target size (torch.Size([64, 4])) that is different to the input size (torch.Size([64, 1])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.
    """
print(log_prob.shape, td_target.shape, round(loss.item(), 4))
#> torch.Size([64, 4]) torch.Size([64, 4]) 2.9756
# Each Q value is pulled towards the mean of its row's 4 targets, not towards one target.
(grad_broadcast,) = torch.autograd.grad(loss, q_pred)
(grad_row_mean,) = torch.autograd.grad(F.mse_loss(q_pred, td_target.mean(1, keepdim=True)), q_pred)
print(torch.allclose(grad_broadcast, grad_row_mean))
#> True

# The fix: the action's log-probability is the sum over its dimensions, one per sample.
log_prob = log_prob.sum(dim=1, keepdim=True)
td_target = rewards + gamma * (next_q - alpha * log_prob)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = F.mse_loss(q_pred, td_target)
print(td_target.shape, len(caught), round(loss.item(), 4))
#> torch.Size([64, 1]) 0 4.0204

# In DQN, the Q values of every action, (64, 4), go down to one per sample:
# the action taken with gather, the best next action with max(dim=1, keepdim=True).
q_all, next_q_all = torch.randn(batch, action_dim), torch.randn(batch, action_dim)
actions = torch.randint(action_dim, (batch, 1))
print(q_all.gather(1, actions).shape, next_q_all.max(dim=1, keepdim=True).values.shape)
#> torch.Size([64, 1]) torch.Size([64, 1])
# --8<-- [end:loss_target_actions]

# --8<-- [start:loss_target_intended]
import warnings

import torch
import torch.nn.functional as F

# An intended broadcast: K=3 candidate predictions per sample, one target each.
candidates = torch.tensor([[[1.0, 2.0], [0.0, 2.0], [1.0, 0.0]]])  # (N=1, K=3, 2)
target = torch.tensor([[[1.0, 2.0]]])  # (N=1, 1, 2): the size-1 axis meets K
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = F.l1_loss(candidates, target)
print(loss, [warning.category.__name__ for warning in caught])
#> tensor(0.5000) ['UserWarning']
# The same loss, said explicitly: no warning, and the mean is still over all K candidates.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = F.l1_loss(candidates, target.expand_as(candidates))
print(loss, len(caught))
#> tensor(0.5000) 0
print(F.l1_loss(candidates, target.expand_as(candidates), reduction="none").mean(dim=(0, 2)))
#> tensor([0.0000, 0.5000, 1.0000])
# --8<-- [end:loss_target_intended]

# --8<-- [start:new_axis]
a = torch.ones(3, 2)
print(a.unsqueeze(0).shape, a.view(1, 3, 2).shape, a[None].shape)
#> torch.Size([1, 3, 2]) torch.Size([1, 3, 2]) torch.Size([1, 3, 2])
print(a.unsqueeze(1).shape, a[:, None].shape)
#> torch.Size([3, 1, 2]) torch.Size([3, 1, 2])
# All three are views: they start at the same memory as `a`.
start = a.data_ptr()
print(a.unsqueeze(0).data_ptr() == start, a[None].data_ptr() == start, a.view(1, 3, 2).data_ptr() == start)
#> True True True
# --8<-- [end:new_axis]

# --8<-- [start:explicit]
a = torch.ones(3, 2)
b = torch.zeros(2, 3, 1)
automatic = a + b
explicit = a[None].expand(2, 3, 2) + b.expand(2, 3, 2)
print(torch.equal(automatic, explicit))
#> True
print(b.expand_as(automatic).shape)
#> torch.Size([2, 3, 2])
# --8<-- [end:explicit]

# --8<-- [start:outer]
x = torch.arange(3)
print(x[:, None] * x[None, :])  # (3, 1) times (1, 3): a (3, 3) table
"""
tensor([[0, 0, 0],
        [0, 1, 2],
        [0, 2, 4]])
"""
print(torch.equal(x[:, None] * x[None, :], torch.outer(x, x)))
#> True
# --8<-- [end:outer]

# --8<-- [start:all_pairs_cosine]
import torch.nn.functional as F

x = torch.tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [-1.0, 0.0]])  # 4 vectors of length 2
# cosine_similarity compares aligned pairs: row i of one tensor with row i of the other.
print(F.cosine_similarity(x, x.flip(0), dim=1))
#> tensor([-1.0000,  0.7071,  0.7071, -1.0000])
# Every row against every row: (4, 1, 2) against (1, 4, 2) broadcasts to (4, 4, 2).
print(torch.broadcast_shapes(x[:, None, :].shape, x[None, :, :].shape))
#> torch.Size([4, 4, 2])
pairs = F.cosine_similarity(x[:, None, :], x[None, :, :], dim=-1)
print(pairs)
"""
tensor([[ 1.0000,  0.0000,  0.7071, -1.0000],
        [ 0.0000,  1.0000,  0.7071,  0.0000],
        [ 0.7071,  0.7071,  1.0000, -0.7071],
        [-1.0000,  0.0000, -0.7071,  1.0000]])
"""
# The same table from one matrix product of the unit vectors, and from a loop over the pairs.
unit = F.normalize(x, dim=1)
loop = torch.stack([torch.stack([F.cosine_similarity(a, b, dim=0) for b in x]) for a in x])
print(torch.allclose(unit @ unit.T, pairs), torch.allclose(loop, pairs))
#> True True
# NumPy: divide each row by its norm, then one matrix product.
rows = x.numpy()
unit_np = rows / np.linalg.norm(rows, axis=1, keepdims=True)
print(np.allclose(unit_np @ unit_np.T, pairs.numpy()))
#> True
# --8<-- [end:all_pairs_cosine]

# --8<-- [start:expand_vs_repeat]
a = torch.ones(3, 2)  # 6 float32 values: 24 bytes
expanded = a.unsqueeze(0).expand(2, 3, 2)
repeated = a.unsqueeze(0).repeat(2, 1, 1)
print(expanded.stride(), repeated.stride())
#> (0, 2, 1) (6, 2, 1)
print(expanded.untyped_storage().nbytes(), repeated.untyped_storage().nbytes())
#> 24 48
print(expanded.data_ptr() == a.data_ptr(), repeated.data_ptr() == a.data_ptr())
#> True False
# --8<-- [end:expand_vs_repeat]

# --8<-- [start:huge_expand]
import re

a = torch.ones(3, 2)
huge = a.unsqueeze(0).expand(10**13, 3, 2)
print(huge.shape, huge.stride())
#> torch.Size([10000000000000, 3, 2]) (0, 2, 1)
print(huge.numel(), huge.untyped_storage().nbytes())
#> 60000000000000 24
print(huge.numel() * huge.element_size())  # bytes the full tensor would need
#> 240000000000000

# Operations that write every element ask for the full size at once, and are refused:
attempts = {"contiguous()": huge.contiguous, "clone()": huge.clone, "huge + 1": lambda: huge + 1}
for label, attempt in attempts.items():
    try:
        attempt()
    except RuntimeError as err:
        print(label, type(err).__name__, re.search(r"tried to allocate \d+ bytes", str(err))[0])
        #> contiguous() RuntimeError tried to allocate 240000000000000 bytes
        #> clone() RuntimeError tried to allocate 240000000000000 bytes
        #> huge + 1 RuntimeError tried to allocate 240000000000000 bytes
# --8<-- [end:huge_expand]

# --8<-- [start:write_into_expanded]
row = torch.zeros(3)
grid = row.expand(2, 3)  # two rows, one memory
try:
    grid.add_(1)
except RuntimeError as err:
    print(type(err).__name__, err)
    """
    RuntimeError unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.
    """

grid.fill_(2)  # one value everywhere: allowed, and `row` is filled too
print(row)
#> tensor([2., 2., 2.])
grid[0, 0] = 5  # one element: allowed, and it changes every row and `row`
print(grid)
"""
tensor([[5., 2., 2.],
        [5., 2., 2.]])
"""
print(row)
#> tensor([5., 2., 2.])

owned = row.expand(2, 3).clone()  # real memory for each row
owned.add_(1)  # allowed now
owned[1, 2] = 7  # changes one row only, and not `row`
print(owned)
"""
tensor([[6., 3., 3.],
        [6., 3., 7.]])
"""
print(row)
#> tensor([5., 2., 2.])
# --8<-- [end:write_into_expanded]

# --8<-- [start:clone_after_expand]
weight = torch.zeros(3, 2, 2)  # any float32 weight
ones = torch.ones(3)  # float32, weight's dtype already
new_w = ones[:, None, None].expand_as(weight).type_as(weight)
print(new_w.stride(), new_w.data_ptr() == ones.data_ptr())  # still the expanded view
#> (1, 0, 0) True
try:
    new_w[0] = torch.zeros(2, 2)
except RuntimeError as err:
    print(type(err).__name__, err)
    """
    RuntimeError unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.
    """

mask = torch.tensor([True, False, True])
new_m = mask[:, None, None].expand_as(weight).type_as(weight)  # bool to float: a new tensor
print(new_m.stride(), new_m.data_ptr() == mask.data_ptr())
#> (4, 2, 1) False
new_m[0] = torch.zeros(2, 2)
print(new_m[:, 0, 0])
#> tensor([0., 0., 1.])

owned = ones[:, None, None].expand_as(weight).clone()  # memory of its own, whatever the dtype
owned[0] = torch.zeros(2, 2)
print(owned[:, 0, 0], ones)
#> tensor([0., 1., 1.]) tensor([1., 1., 1.])
# --8<-- [end:clone_after_expand]
