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
print(1 / denominator.clamp(min=1e-6))  # never divide by less than 1e-6
#> tensor([1.0000e+06, 1.0000e+06, 5.0000e-01])
# --8<-- [end:divide_guard]

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
