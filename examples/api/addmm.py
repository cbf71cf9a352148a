"""torch.addmm and addmm_: beta * input + alpha * (mat1 @ mat2).

Run with `python examples/api/addmm.py`. The `#>` lines under each print are the
output the libraries printed when the site was built; the test suite runs this
script again and compares.
"""

# --8<-- [start:basic]
import torch

base = torch.ones(2, 2)
mat1 = torch.arange(6.0).view(2, 3)
mat2 = torch.arange(6.0).view(3, 2)
print(torch.addmm(base, mat1, mat2))  # base + mat1 @ mat2
"""
tensor([[11., 14.],
        [29., 41.]])
"""
# --8<-- [end:basic]

# --8<-- [start:beta_alpha]
scaled = torch.addmm(base, mat1, mat2, beta=0.5, alpha=2)
print(scaled)
"""
tensor([[20.5000, 26.5000],
        [56.5000, 80.5000]])
"""
print(torch.equal(scaled, 0.5 * base + 2 * (mat1 @ mat2)))
#> True
# --8<-- [end:beta_alpha]

# --8<-- [start:keyword_only]
try:
    torch.addmm(base, mat1, mat2, 0.5, 2)  # beta and alpha are keyword-only
except TypeError as err:
    print(type(err).__name__, str(err).splitlines()[0])
    """
    TypeError addmm() received an invalid combination of arguments - got (Tensor, Tensor, Tensor, float, int), but expected one of:
    """
# --8<-- [end:keyword_only]

# --8<-- [start:beta_zero]
broken = torch.tensor([[float("nan"), float("inf")], [1.0, 2.0]])
print(torch.addmm(broken, mat1, mat2, beta=0))  # beta=0: input is ignored
"""
tensor([[10., 13.],
        [28., 40.]])
"""
print(0 * broken + mat1 @ mat2)  # the formula written out: 0 * nan and 0 * inf are nan
"""
tensor([[nan, nan],
        [28., 40.]])
"""
batched = torch.baddbmm(broken.unsqueeze(0), mat1.unsqueeze(0), mat2.unsqueeze(0), beta=0)
print(torch.equal(batched[0], mat1 @ mat2))  # baddbmm follows the same rule
#> True
# --8<-- [end:beta_zero]

# --8<-- [start:in_place]
target = torch.ones(2, 2)
result = target.addmm_(mat1, mat2)  # writes into target and returns it
print(result is target)
#> True
print(target)
"""
tensor([[11., 14.],
        [29., 41.]])
"""
# --8<-- [end:in_place]

# --8<-- [start:broadcast_input]
print(torch.addmm(torch.tensor([100.0, 200.0]), mat1, mat2))  # input broadcasts
"""
tensor([[110., 213.],
        [128., 240.]])
"""
try:
    torch.addmm(torch.ones(3), mat1, mat2)  # length 3 does not broadcast to (2, 2)
except RuntimeError as err:
    print(type(err).__name__, str(err).split(".")[0])
    """
    RuntimeError The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 1
    """

# Only input is expanded, to the product's shape; + broadcasts both sides.
row = torch.tensor([[100.0, 200.0]])  # shape (1, 2)
left, right = torch.ones(4, 3), torch.ones(3, 1)  # their product has shape (4, 1)
print((row + left @ right).shape)
#> torch.Size([4, 2])
try:
    torch.addmm(row, left, right)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The expanded size of the tensor (1) must match the existing size (2) at non-singleton dimension 1.  Target sizes: [4, 1].  Tensor sizes: [1, 2]
    """
# --8<-- [end:broadcast_input]

# --8<-- [start:linear]
torch.manual_seed(0)
layer = torch.nn.Linear(3, 2)  # 3 input features, 2 output features
print(layer.weight.shape, layer.bias.shape)
#> torch.Size([2, 3]) torch.Size([2])
print(torch.equal(layer(mat1), torch.addmm(layer.bias, mat1, layer.weight.T)))  # bit for bit
#> True
# --8<-- [end:linear]

# --8<-- [start:linear_transpose]
import numpy as np

weight = layer.weight  # stored as (out_features, in_features) = (2, 3)
print(weight.T.data_ptr() == weight.data_ptr(), weight.stride(), weight.T.stride())  # a view
#> True (3, 1) (1, 3)
print(weight.T.is_contiguous())  # strides swapped, nothing copied
#> False
stored_t = weight.T.contiguous()  # the proposal: keep (in_features, out_features) instead
print(stored_t.data_ptr() == weight.data_ptr(), stored_t.stride())  # a real copy, new memory
#> False (2, 1)
with torch.no_grad():
    print(torch.allclose(layer(mat1), mat1 @ stored_t + layer.bias))  # same layer either way
    #> True
w_np = np.ones((2, 3))
print(np.shares_memory(w_np, w_np.T), w_np.T.strides)  # NumPy's .T is a view as well
#> True (8, 24)
import keras

dense = keras.layers.Dense(2)
dense.build((None, 3))
print(tuple(dense.kernel.shape))  # Keras stores the other way round: (in_features, out_features)
#> (3, 2)
# --8<-- [end:linear_transpose]

# --8<-- [start:old_overload]
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old = torch.addmm(0.5, base, 2, mat1, mat2)  # addmm(beta, input, alpha, mat1, mat2)
print(torch.equal(old, scaled))
#> True
print(caught[0].category.__name__, str(caught[0].message).splitlines()[0])
#> UserWarning This overload of addmm is deprecated:
# --8<-- [end:old_overload]

# --8<-- [start:products]
a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(6.0).reshape(3, 2)
print(torch.mm(a, b).shape, torch.matmul(a, b).shape, (a @ b).shape)  # (2, 3) times (3, 2)
#> torch.Size([2, 2]) torch.Size([2, 2]) torch.Size([2, 2])
print(torch.equal(torch.mm(a, b), a @ b), (a * a).shape)  # * multiplies element by element
#> True torch.Size([2, 3])

batch_a = torch.arange(24.0).reshape(4, 2, 3)  # 4 matrices of 2 x 3
batch_b = torch.arange(24.0).reshape(4, 3, 2)  # 4 matrices of 3 x 2
print(torch.bmm(batch_a, batch_b).shape, (batch_a @ batch_b).shape)  # one product per matrix
#> torch.Size([4, 2, 2]) torch.Size([4, 2, 2])
try:
    torch.mm(batch_a, batch_b)  # mm takes 2-D matrices only
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: mm: self must be a matrix, got 3-D tensor

# matmul broadcasts the batch dimensions; bmm needs two 3-D tensors of the same batch size.
print((batch_a @ b).shape)  # the one matrix b times each of the 4 matrices
#> torch.Size([4, 2, 2])
try:
    torch.bmm(batch_a, b)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: batch2 must be a 3D tensor

# A 1-D operand: a row vector on the left, a column on the right, its dimension then removed.
v = torch.tensor([1.0, 0.0, 2.0])
print((a @ v).shape, (v @ b).shape, (v @ v).shape)
#> torch.Size([2]) torch.Size([2]) torch.Size([])
print(a @ v, v @ v)
#> tensor([ 4., 13.]) tensor(5.)
# --8<-- [end:products]

# --8<-- [start:batched_matvec]
import numpy as np
import torch

rng = np.random.default_rng(0)
mats, vecs = rng.random((4, 5, 3)), rng.random((4, 3))  # 4 matrices (5, 3) and 4 vectors of 3
try:
    mats @ vecs  # vecs is taken as one (4, 3) matrix, not as 4 vectors
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)
    """

# The fix: make each vector a column (4, 3, 1), multiply, then drop that axis again.
by_column = (mats @ vecs[..., None])[..., 0]
print(by_column.shape, np.allclose(by_column, np.einsum("bij,bj->bi", mats, vecs)))
#> (4, 5) True
try:
    torch.from_numpy(mats) @ torch.from_numpy(vecs)  # PyTorch refuses it as well
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (20x3 and 4x3)
mats_t, vecs_t = torch.from_numpy(mats), torch.from_numpy(vecs)
print(torch.allclose((mats_t @ vecs_t.unsqueeze(-1)).squeeze(-1), torch.einsum("bij,bj->bi", mats_t, vecs_t)))
#> True
# --8<-- [end:batched_matvec]

# --8<-- [start:einsum]
# One letter per dimension of each operand; a letter in two operands is multiplied along,
# and a letter left out after "->" is summed over.
print(torch.equal(torch.einsum("ij,jk->ik", a, b), a @ b))  # matrix product
#> True
print(torch.einsum("i,i->", v, v))  # dot product: i appears twice and not in the output
#> tensor(5.)
print(torch.equal(torch.einsum("bij,bjk->bik", batch_a, batch_b), batch_a @ batch_b))  # batched
#> True
print(torch.einsum("i,j->ij", v, v).shape)  # outer product: nothing is summed
#> torch.Size([3, 3])
print(torch.equal(torch.einsum("ij,ij->ij", a, a), a * a), torch.einsum("ij->ji", a).shape)
#> True torch.Size([3, 2])
# --8<-- [end:einsum]

# --8<-- [start:dot_vs_matmul]
import keras
import numpy as np
import tensorflow as tf

a = np.ones((4, 5, 1, 3))  # a 4 x 5 stack of 1 x 3 matrices
b = np.ones((4, 5, 3, 1))  # a 4 x 5 stack of 3 x 1 matrices
t_a, t_b = torch.from_numpy(a), torch.from_numpy(b)
print(np.matmul(a, b).shape, tuple(tf.matmul(a, b).shape), tuple(torch.matmul(t_a, t_b).shape))
#> (4, 5, 1, 1) (4, 5, 1, 1) (4, 5, 1, 1)
print(np.dot(a, b).shape, tuple(keras.ops.dot(a, b).shape))  # each matrix of a with each of b
#> (4, 5, 1, 4, 5, 1) (4, 5, 1, 4, 5, 1)
print(hasattr(keras.backend, "dot"))  # Keras 3 has no K.dot; keras.ops.dot follows np.dot
#> False

# np.dot sums over the last axis of a and the second-to-last of b: tensordot over those axes.
print(np.array_equal(np.dot(a, b), np.tensordot(a, b, axes=([-1], [-2]))))
#> True
print(tuple(torch.tensordot(t_a, t_b, dims=([-1], [-2])).shape))  # the same in PyTorch
#> (4, 5, 1, 4, 5, 1)
# --8<-- [end:dot_vs_matmul]
