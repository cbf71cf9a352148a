"""torch.eq, torch.ne (element by element) and torch.equal (whole tensors).

Run with `python examples/api/eq_ne_equal.py`. The `#>` lines under each print are
the output the libraries printed when the site was built; the test suite runs this
script again and compares.
"""

# --8<-- [start:elementwise]
import torch

a = torch.tensor([[1, 2], [3, 4]])
print(torch.eq(a, torch.tensor([[1, 1], [4, 4]])))  # tensor against tensor
"""
tensor([[ True, False],
        [False,  True]])
"""
print(torch.eq(a, 1))  # tensor against a number
"""
tensor([[ True, False],
        [False, False]])
"""
print(torch.eq(a, 1).dtype)  # a boolean tensor
#> torch.bool
print(torch.ne(a, 1))  # the opposite of eq
"""
tensor([[False,  True],
        [ True,  True]])
"""
print(torch.eq(a, torch.tensor([1, 4])))  # the other operand broadcasts
"""
tensor([[ True, False],
        [False,  True]])
"""
# --8<-- [end:elementwise]

# --8<-- [start:operators]
print(torch.equal(a == 1, torch.eq(a, 1)), torch.equal(a != 1, torch.ne(a, 1)))
#> True True
print((a != 1).sum())  # how many elements differ from 1
#> tensor(3)
# --8<-- [end:operators]

# --8<-- [start:equal]
same = torch.equal(a, a.clone())  # same shape, same values
print(same, type(same).__name__)  # one Python bool, not a tensor
#> True bool
print(torch.equal(a, torch.tensor([1, 2, 3, 4])))  # same values, other shape
#> False
print(torch.equal(a, a.float()))  # other dtype, equal values
#> True
print(torch.eq(a, a.float()).all())  # the element-wise way to the same answer
#> tensor(True)
# --8<-- [end:equal]

# --8<-- [start:equal_complex]
real = torch.tensor([1.0, 2.0], dtype=torch.float64)
print(torch.equal(real, real.to(torch.complex64)))  # float64 against complex64: values compared
#> True
print(torch.equal(real, torch.tensor([1 + 1j, 2], dtype=torch.complex64)))  # imaginary part 1
#> False
other = real.to(torch.complex64)
print(real.dtype == other.dtype and torch.equal(real, other))  # to require the same dtype too
#> False
copy = real.clone()
print(real.dtype == copy.dtype and torch.equal(real, copy))  # same dtype and same values
#> True
# --8<-- [end:equal_complex]

# --8<-- [start:nan]
nan = torch.tensor([float("nan")])
print(torch.eq(nan, nan), torch.equal(nan, nan))  # NaN equals nothing, not even itself
#> tensor([False]) False
print(torch.allclose(nan, nan, equal_nan=True))  # compare with NaN counted as equal
#> True
# allclose compares within tolerances: by default 1.000001 counts as equal to 1.0.
values = torch.tensor([float("nan"), 1.0])
near = torch.tensor([float("nan"), 1.000001])
print(torch.allclose(values, near, equal_nan=True), torch.allclose(values, near, rtol=0, atol=0, equal_nan=True))
#> True False
print(torch.allclose(values, values.clone(), rtol=0, atol=0, equal_nan=True))  # exact, NaN included
#> True
# --8<-- [end:nan]
