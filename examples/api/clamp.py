"""torch.clamp and clamp_: limit every element to [min, max].

Run with `python examples/api/clamp.py`. The `#>` lines under each print are the
output the libraries printed when the site was built; the test suite runs this
script again and compares.
"""

# --8<-- [start:basic]
import torch

values = torch.tensor([-2.0, 0.5, 3.0, 12.0])
print(torch.clamp(values, 0, 9))  # below 0 -> 0, above 9 -> 9, the rest unchanged
#> tensor([0.0000, 0.5000, 3.0000, 9.0000])
print(values.clamp(min=1))  # one bound only
#> tensor([ 1.,  1.,  3., 12.])
print(values.clamp(max=1))
#> tensor([-2.0000,  0.5000,  1.0000,  1.0000])
print(torch.equal(torch.clip(values, 0, 9), torch.clamp(values, 0, 9)))  # clip: an alias
#> True
# --8<-- [end:basic]

# --8<-- [start:in_place]
k = torch.tensor([-2.0, 0.5, 3.0])
h = k.clamp(min=0)  # a new tensor; k keeps its values
print(k, h)
#> tensor([-2.0000,  0.5000,  3.0000]) tensor([0.0000, 0.5000, 3.0000])
k.clamp_(min=0)  # in place: k itself changes
print(k)
#> tensor([0.0000, 0.5000, 3.0000])
# --8<-- [end:in_place]

# --8<-- [start:divide_guard]
denominator = torch.tensor([0.0, 1e-8, 2.0])
print(1 / denominator)
#> tensor([       inf, 1.0000e+08, 5.0000e-01])
print(1 / denominator.clamp(min=1e-6))  # never divide by less than 1e-6: at most 1 / 1e-6
#> tensor([1.0000e+06, 1.0000e+06, 5.0000e-01])
print(5 / denominator.clamp(min=1e-6))  # the cap is numerator / 1e-6: here 5e6, not 1e6
#> tensor([5.0000e+06, 5.0000e+06, 2.5000e+00])
# --8<-- [end:divide_guard]

# --8<-- [start:signed_guard]
signed = torch.tensor([-2.0, -1e-8, 0.0, 1e-8, 2.0])
print(signed.clamp(min=1e-6))  # wrong for signed values: -2 and -1e-8 become 1e-6
#> tensor([1.0000e-06, 1.0000e-06, 1.0000e-06, 1.0000e-06, 2.0000e+00])
kept_sign = signed.sign() * signed.abs().clamp(min=1e-6)
print(kept_sign)  # the signs survive, but sign(0) is 0, so 0 stays 0
#> tensor([-2.0000e+00, -1.0000e-06,  0.0000e+00,  1.0000e-06,  2.0000e+00])
print(1 / kept_sign)
#> tensor([-5.0000e-01, -1.0000e+06,         inf,  1.0000e+06,  5.0000e-01])
safe = torch.where(signed < 0, signed.clamp(max=-1e-6), signed.clamp(min=1e-6))  # 0 goes to +1e-6
print(safe)
#> tensor([-2.0000e+00, -1.0000e-06,  1.0000e-06,  1.0000e-06,  2.0000e+00])
print(1 / safe)
#> tensor([-5.0000e-01, -1.0000e+06,  1.0000e+06,  1.0000e+06,  5.0000e-01])
# --8<-- [end:signed_guard]

# --8<-- [start:min_above_max]
print(torch.clamp(values, min=2, max=1))  # min > max: every element becomes max
#> tensor([1., 1., 1., 1.])
# --8<-- [end:min_above_max]

# --8<-- [start:errors_and_types]
try:
    torch.clamp(values)
except RuntimeError as err:
    print(type(err).__name__, err)
    #> RuntimeError torch.clamp: At least one of 'min' or 'max' must not be None

print(torch.clamp(torch.tensor([1, 5, 9]), min=2.5).dtype)  # float bound: float result
#> torch.float32
lower, upper = torch.tensor([0, 2, 4]), torch.tensor([1, 3, 5])
print(torch.clamp(torch.tensor([5, 0, 4]), min=lower, max=upper))  # per-element bounds
#> tensor([1, 2, 4])
# --8<-- [end:errors_and_types]

# --8<-- [start:number_and_tensor_bounds]
boxes = torch.tensor([[-5.0, 10.0, 700.0, 500.0]])  # x1, y1, x2, y2
size = torch.tensor([640.0, 480.0, 640.0, 480.0])  # w, h, w, h of the image
try:
    boxes.clamp(min=0, max=size)  # a number for min, a tensor for max
except TypeError as err:
    print(type(err).__name__, err)
    """
    TypeError clamp() received an invalid combination of arguments - got (max=Tensor, min=int, ), but expected one of:
     * (Tensor min = None, Tensor max = None)
          didn't match because some of the keywords were incorrect: max, min
     * (Number min = None, Number max = None)
          didn't match because some of the keywords were incorrect: max, min

    """
print(boxes.clamp(min=torch.tensor(0.0), max=size))  # both bounds tensors
#> tensor([[  0.,  10., 640., 480.]])
print(boxes.clamp(min=0).clamp(max=size))  # or one bound per call
#> tensor([[  0.,  10., 640., 480.]])
# --8<-- [end:number_and_tensor_bounds]

# --8<-- [start:float32_bound]
import numpy as np

ones = torch.ones(3)  # float32
print(ones.clamp(0, 1 - 1e-8))  # nothing changed
#> tensor([1., 1., 1.])
print(np.clip(np.ones(3, dtype=np.float32), 0, 1 - 1e-8) < 1)  # NumPy: the same
#> [False False False]
print(torch.tensor(1 - 1e-8) == 1)  # as a float32, 1 - 1e-8 is exactly 1
#> tensor(True)
below_one = torch.nextafter(torch.tensor(1.0), torch.tensor(0.0))  # largest float32 below 1
print(below_one.item())
#> 0.9999999403953552
print(ones.clamp(0, below_one.item()) < 1)
#> tensor([True, True, True])
print(ones.double().clamp(0, 1 - 1e-8) < 1)  # float64 can hold 1 - 1e-8
#> tensor([True, True, True])
# --8<-- [end:float32_bound]

# --8<-- [start:gradient_at_bounds]
import torch.nn.functional as F

x = torch.tensor([-1.0, 0.0, 0.5, 1.0, 2.0], requires_grad=True)  # 0 and 1 sit on the bounds
x.clamp(0, 1).sum().backward()
print(x.grad)  # clamp
#> tensor([0., 0., 1., 0., 0.])
x.grad = None
torch.relu(x).sum().backward()
print(x.grad)  # relu
#> tensor([0., 0., 1., 1., 1.])
x.grad = None
F.hardtanh(x, 0.0, 1.0).sum().backward()
print(x.grad)  # hardtanh
#> tensor([0., 0., 1., 0., 0.])
x.grad = None
torch.where(x < 0, 0.0, torch.where(x > 1, 1.0, x)).sum().backward()
print(x.grad)  # torch.where: gradient 1 on the bounds, 0 outside
#> tensor([0., 1., 1., 1., 0.])
# --8<-- [end:gradient_at_bounds]

# --8<-- [start:tensor_bound_gradients]
a = torch.tensor([0.0, 1.0, 1.5, 2.0, 3.0], requires_grad=True)  # 1.0 and 2.0 tie with a bound
lower = torch.ones(5, requires_grad=True)
upper = torch.full((5,), 2.0, requires_grad=True)
print(torch.equal(torch.clamp(a, lower, upper), torch.min(torch.max(a, lower), upper)))
#> True
torch.clamp(a, lower, upper).sum().backward()
print(torch.stack([a.grad, lower.grad, upper.grad]))  # rows: a, lower, upper
"""
tensor([[0.0000, 0.5000, 1.0000, 0.5000, 0.0000],
        [1.0000, 0.5000, 0.0000, 0.0000, 0.0000],
        [0.0000, 0.0000, 0.0000, 0.5000, 1.0000]])
"""
a.grad = lower.grad = upper.grad = None
torch.min(torch.max(a, lower), upper).sum().backward()
print(torch.stack([a.grad, lower.grad, upper.grad]))
"""
tensor([[0.0000, 0.5000, 1.0000, 0.5000, 0.0000],
        [1.0000, 0.5000, 0.0000, 0.0000, 0.0000],
        [0.0000, 0.0000, 0.0000, 0.5000, 1.0000]])
"""
# --8<-- [end:tensor_bound_gradients]
