"""Sparse tensors in PyTorch and TensorFlow, and SciPy sparse matrices.

A SciPy sparse matrix (csc_matrix, lil_matrix, csr_matrix...) converted to PyTorch through
its COO triples or its CSR arrays; coalescing and duplicate indices; sparse @ dense and its
gradients; what sparse tensors refuse; tf.sparse.SparseTensor and its index order;
converting between the two libraries; and NumPy, which has no sparse type. SciPy itself
is not needed: the arrays below are the fields SciPy's matrices carry.

Run with `python examples/numpy_torch/sparse.py`. The `#>` lines under each print are the
output the libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:scipy_coo]
import numpy as np
import torch

# The matrix [[0, 0, 3], [4, 0, 0], [0, 5, 6]] as SciPy's COO fields: for any SciPy
# sparse matrix m (csc_matrix, lil_matrix...), coo = m.tocoo() holds these four.
row = np.array([0, 1, 2, 2], dtype=np.int32)  # coo.row
col = np.array([2, 0, 1, 2], dtype=np.int32)  # coo.col
data = np.array([3.0, 4.0, 5.0, 6.0], dtype=np.float32)  # coo.data
shape = (3, 3)  # coo.shape

indices = torch.from_numpy(np.vstack((row, col)).astype(np.int64))  # shape (2, nnz)
sparse = torch.sparse_coo_tensor(indices, torch.from_numpy(data), shape, check_invariants=True)
print(sparse)
"""
tensor(indices=tensor([[0, 1, 2, 2],
                       [2, 0, 1, 2]]),
       values=tensor([3., 4., 5., 6.]),
       size=(3, 3), nnz=4, layout=torch.sparse_coo)
"""
print(sparse.to_dense())
"""
tensor([[0., 0., 3.],
        [4., 0., 0.],
        [0., 5., 6.]])
"""
# --8<-- [end:scipy_coo]

# --8<-- [start:invariants]
# Without check_invariants, an index past the shape (3 in a dimension of size 3) passes:
unchecked = torch.sparse_coo_tensor(torch.tensor([[0, 1], [2, 3]]), torch.tensor([1.0, 2.0]), (3, 3))
print(unchecked.shape, unchecked._nnz())
#> torch.Size([3, 3]) 2
try:
    torch.sparse_coo_tensor(torch.tensor([[0, 1], [2, 3]]), torch.tensor([1.0, 2.0]), (3, 3), check_invariants=True)
except RuntimeError as err:
    print(type(err).__name__, err)
    #> RuntimeError size is inconsistent with indices: for dim 1, size is 3 but found index 3
# --8<-- [end:invariants]

# --8<-- [start:coalesce]
# Two values at (0, 1): a sparse tensor keeps both until it is coalesced.
dup = torch.sparse_coo_tensor(torch.tensor([[0, 0, 1], [1, 1, 0]]), torch.tensor([1.0, 2.0, 5.0]), (2, 2))
print(dup.is_coalesced(), dup._nnz())
#> False 3
try:
    dup.values()
except RuntimeError as err:
    print(type(err).__name__, err)
    #> RuntimeError Cannot get values on an uncoalesced tensor, please call .coalesce() first
merged = dup.coalesce()
print(merged.indices().tolist(), merged.values().tolist())
#> [[0, 1], [1, 0]] [3.0, 5.0]
print(dup.to_dense())
"""
tensor([[0., 3.],
        [5., 0.]])
"""
# --8<-- [end:coalesce]

# --8<-- [start:csr]
# csr_matrix fields: m.indptr (where each row starts in data), m.indices (columns), m.data.
csr = torch.sparse_csr_tensor(
    torch.tensor([0, 1, 2, 4]),  # indptr -> crow_indices
    torch.tensor([2, 0, 1, 2]),  # indices -> col_indices
    torch.tensor([3.0, 4.0, 5.0, 6.0]),  # data -> values
    (3, 3),
)
print(torch.equal(csr.to_dense(), sparse.to_dense()))
#> True
# csc_matrix has the same field names, by column: indptr -> ccol_indices, indices -> row_indices.
csc = torch.sparse_csc_tensor(torch.tensor([0, 1, 2, 4]), torch.tensor([1, 2, 0, 2]), torch.tensor([4.0, 5.0, 3.0, 6.0]), (3, 3))
print(torch.equal(csc.to_dense(), sparse.to_dense()))
#> True
# From COO to CSR inside PyTorch:
print(sparse.to_sparse_csr().crow_indices())
#> tensor([0, 1, 2, 4])
# --8<-- [end:csr]

# --8<-- [start:matmul]
weights = torch.ones(3, 2, requires_grad=True)
adjacency = sparse.detach().requires_grad_(True)
out = torch.sparse.mm(adjacency, weights)  # sparse (3, 3) times dense (3, 2)
print(out)
"""
tensor([[ 3.,  3.],
        [ 4.,  4.],
        [11., 11.]], grad_fn=<SparseAddmmBackward0>)
"""
out.sum().backward()
print(weights.grad)  # dense, as weights is
"""
tensor([[4., 4.],
        [5., 5.],
        [9., 9.]])
"""
print(adjacency.grad)  # sparse, only at the stored positions
"""
tensor(indices=tensor([[0, 1, 2, 2],
                       [2, 0, 1, 2]]),
       values=tensor([2., 2., 2., 2.]),
       size=(3, 3), nnz=4, layout=torch.sparse_coo)
"""
print(torch.equal(sparse @ weights.detach(), out.detach()), torch.equal(csr @ weights.detach(), out.detach()))
#> True True
# --8<-- [end:matmul]

# --8<-- [start:refused]
try:
    sparse.view(9)
except NotImplementedError as err:
    print(type(err).__name__, str(err).split(". ")[0])
    #> NotImplementedError Could not run 'aten::view' with arguments from the 'SparseCPU' backend
try:
    sparse.reshape(9)
except RuntimeError as err:
    print(type(err).__name__, err)
    #> RuntimeError reshape is not implemented for sparse tensors
print(sparse.is_contiguous(), sparse.stride())
#> False (0, 0)
try:
    sparse.data_ptr()
except RuntimeError as err:
    print(type(err).__name__, err)
    #> RuntimeError Cannot access data pointer of Tensor that doesn't have storage
print(sparse.to_dense().view(9))
#> tensor([0., 0., 3., 4., 0., 0., 0., 5., 6.])
# --8<-- [end:refused]

# --8<-- [start:tf_sparse]
import tensorflow as tf

# indices are (nnz, ndim) here, one row per value; (2, 1) comes before (0, 2): out of order.
unordered = tf.sparse.SparseTensor(indices=[[2, 1], [0, 2]], values=[5.0, 3.0], dense_shape=[3, 3])
try:
    tf.sparse.to_dense(unordered)
except tf.errors.InvalidArgumentError as err:
    first, second = err.message.split("}} ")[-1].splitlines()[:2]
    print(type(err).__name__, first)
    """
    InvalidArgumentError indices[1] = [0,2] is out of order. Many sparse ops require sorted indices.
    """
    print(second.strip())
    #> Use `tf.sparse.reorder` to create a correctly ordered copy.
ordered = tf.sparse.reorder(unordered)
print(ordered.indices.numpy().tolist())
#> [[0, 2], [2, 1]]
print(tf.sparse.to_dense(ordered).numpy())
"""
[[0. 0. 3.]
 [0. 0. 0.]
 [0. 5. 0.]]
"""
print(tf.sparse.sparse_dense_matmul(ordered, tf.ones((3, 2))).numpy())
"""
[[3. 3.]
 [0. 0.]
 [5. 5.]]
"""
# --8<-- [end:tf_sparse]

# --8<-- [start:torch_tf]
try:
    tf.convert_to_tensor(sparse)
except TypeError as err:
    print(type(err).__name__, err)
    #> TypeError can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.
try:
    torch.as_tensor(unordered)
except RuntimeError as err:
    print(type(err).__name__, err)
    #> RuntimeError Could not infer dtype of SparseTensor
# PyTorch's indices are (ndim, nnz), TensorFlow's (nnz, ndim): transpose. coalesce() sorts them.
coalesced = sparse.coalesce()
to_tf = tf.sparse.SparseTensor(
    indices=coalesced.indices().T.numpy(), values=coalesced.values().numpy(), dense_shape=coalesced.shape
)
print(tf.sparse.to_dense(to_tf).numpy())
"""
[[0. 0. 3.]
 [4. 0. 0.]
 [0. 5. 6.]]
"""
back = torch.sparse_coo_tensor(
    torch.from_numpy(to_tf.indices.numpy().T.copy()),
    torch.from_numpy(to_tf.values.numpy()),
    tuple(to_tf.dense_shape.numpy()),
    check_invariants=True,
)
print(torch.equal(back.to_dense(), sparse.to_dense()))
#> True
# --8<-- [end:torch_tf]

# --8<-- [start:numpy]
try:
    np.asarray(sparse)
except TypeError as err:
    print(type(err).__name__, err)
    #> TypeError can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.
wrapped = np.asarray(ordered)  # no error: a 0-d object array holding the SparseTensor
print(wrapped.shape, wrapped.dtype)
#> () object
dense = sparse.to_dense().numpy()
print(dense.dtype, dense.shape)
#> float32 (3, 3)
print(tf.sparse.to_dense(ordered).numpy().shape)
#> (3, 3)
# --8<-- [end:numpy]
