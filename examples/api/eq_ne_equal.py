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

# --8<-- [start:isclose_formula]
import inspect

import numpy as np

# The same defaults as NumPy's, whatever the dtype:
print(torch.allclose.__doc__.splitlines()[1])
"""
allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool
"""
print(inspect.signature(np.allclose))
#> (a, b, rtol=1e-05, atol=1e-08, equal_nan=False)

# The test: abs(input - other) <= atol + rtol * abs(other), rtol relative to other only.
first, second = torch.tensor([1.0, 100.0]), torch.tensor([1.0001, 100.0001])  # 0.0001 apart
print(torch.isclose(first, second))
#> tensor([False,  True])
print((first - second).abs() <= 1e-08 + 1e-05 * second.abs())  # the same test written out
#> tensor([False,  True])
# --8<-- [end:isclose_formula]

# --8<-- [start:isclose_asymmetric]
import math

import numpy as np

# rtol scales the second operand: 1 is within half of 2, 2 is not within half of 1.
print(np.isclose(1.0, 2.0, rtol=0.5), np.isclose(2.0, 1.0, rtol=0.5))
#> True False
one, two = torch.tensor(1.0), torch.tensor(2.0)
print(torch.isclose(one, two, rtol=0.5), torch.isclose(two, one, rtol=0.5))
#> tensor(True) tensor(False)
print(math.isclose(1.0, 2.0, rel_tol=0.5), math.isclose(2.0, 1.0, rel_tol=0.5))  # symmetric
#> True True

# The default atol=1e-08 makes values less than 1e-08 apart close; math.isclose has abs_tol=0.
print(np.isclose(1e-9, 2e-9), math.isclose(1e-9, 2e-9))
#> True False

# The fix, as math.isclose tests: atol=0 near 0, and rtol relative to the larger value.
print(np.isclose(1e-9, 2e-9, atol=0))
#> False
a, b = np.array([1.0, 2.0]), np.array([2.0, 1.0])  # both orders
print(np.abs(a - b) <= 0.5 * np.maximum(np.abs(a), np.abs(b)))  # rtol 0.5, symmetric
#> [ True  True]
# --8<-- [end:isclose_asymmetric]

# --8<-- [start:assert_allclose_atol]
import numpy as np

actual = np.array([1e-10, 2e-9])  # tiny values where 0 was expected
expected = np.zeros(2)
print(np.allclose(actual, expected, rtol=1e-7))  # default atol=1e-08
#> True
try:
    np.testing.assert_allclose(actual, expected, rtol=1e-7)  # default atol=0
except AssertionError as err:
    print(type(err).__name__, str(err).splitlines()[1])
    #> AssertionError Not equal to tolerance rtol=1e-07, atol=0

# torch.testing.assert_close sets atol by dtype (1e-07 for float64) and passes.
torch.testing.assert_close(torch.from_numpy(actual), torch.from_numpy(expected))

# The fix: pass the same atol to both, and they agree.
np.testing.assert_allclose(actual, expected, rtol=1e-7, atol=1e-8)  # raises nothing
print(np.allclose(actual, expected, rtol=1e-7, atol=0))
#> False
# --8<-- [end:assert_allclose_atol]

# --8<-- [start:allclose_float32]
import math
import re

import numpy as np

# sin(pi) is 0; in float32 it comes out -8.7e-08, beyond the default atol of 1e-08.
result = torch.sin(torch.tensor(torch.pi))
print(result, torch.allclose(result, torch.tensor(0.0)))
#> tensor(-8.7423e-08) False
print(torch.tensor(torch.pi).item() - math.pi)  # pi rounded to float32: the error sin passes on
#> 8.742278012618954e-08
# In float64, NumPy's default, sin(pi) is 1.2e-16, and so is torch's in float64.
pi64 = torch.tensor(torch.pi, dtype=torch.float64)
print(f"{np.sin(np.pi):.1e}", f"{torch.sin(pi64).item():.1e}")
#> 1.2e-16 1.2e-16

# torch.testing.assert_close picks its tolerances by dtype, and passes here.
torch.testing.assert_close(result, torch.tensor(0.0))  # raises nothing
for dtype in (torch.float16, torch.float32, torch.float64):
    try:  # 1.0 against 1.5: the message gives the (absolute, relative) tolerances
        torch.testing.assert_close(torch.tensor(1.0, dtype=dtype), torch.tensor(1.5, dtype=dtype))
    except AssertionError as err:
        print(dtype, re.findall(r"up to (\S+) allowed", str(err)))
        #> torch.float16 ['1e-05', '0.001']
        #> torch.float32 ['1e-05', '1.3e-06']
        #> torch.float64 ['1e-07', '1e-07']

# The fix for allclose and isclose: tolerances suited to float32.
print(torch.allclose(result, torch.tensor(0.0), rtol=1.3e-6, atol=1e-5))
#> True
# --8<-- [end:allclose_float32]

# --8<-- [start:isclose_rtol_inf]
tiny = torch.tensor([0.0001], dtype=torch.float16)
zero = torch.tensor([0.0], dtype=torch.float16)
print(torch.isclose(tiny, zero, rtol=float("inf"), atol=1.0))  # False, whatever atol is
#> tensor([False])
print(float("inf") * zero.abs())  # rtol * abs(other): inf * 0 is nan, and nothing is <= nan
#> tensor([nan], dtype=torch.float16)
print(torch.isclose(tiny.float(), zero.float(), rtol=float("inf"), atol=1.0))  # float32 too
#> tensor([False])

# The fix: a finite rtol; rtol=0 leaves only atol.
print(torch.isclose(tiny, zero, rtol=0, atol=1.0))
#> tensor([True])
# --8<-- [end:isclose_rtol_inf]
