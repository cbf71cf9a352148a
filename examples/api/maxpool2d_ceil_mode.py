"""nn.MaxPool2d's ceil_mode: output sizes by the formula, and shown by running.

Run with `python examples/api/maxpool2d_ceil_mode.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

# --8<-- [start:floor_and_ceil]
import torch

image = torch.arange(25.0).view(1, 1, 5, 5)  # batch, channel, 5 x 5
floor_pool = torch.nn.MaxPool2d(kernel_size=2, stride=2)  # ceil_mode=False
print(floor_pool(image)[0, 0])
"""
tensor([[ 6.,  8.],
        [16., 18.]])
"""
ceil_pool = torch.nn.MaxPool2d(kernel_size=2, stride=2, ceil_mode=True)
print(ceil_pool(image)[0, 0])
"""
tensor([[ 6.,  8.,  9.],
        [16., 18., 19.],
        [21., 23., 24.]])
"""
# --8<-- [end:floor_and_ceil]

# --8<-- [start:formula]
import math


def pooled_size(size, kernel, stride, padding=0, ceil_mode=False):
    """Output length along one axis, as the MaxPool2d documentation gives it."""
    rounding = math.ceil if ceil_mode else math.floor
    out = rounding((size + 2 * padding - kernel) / stride) + 1
    # ceil_mode only: the last window must start inside the input or the left padding.
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


cases = [(5, 2, 2, 0), (6, 2, 3, 0), (5, 3, 2, 1), (7, 3, 2, 0), (5, 2, 2, 1)]
for size, kernel, stride, padding in cases:
    for ceil_mode in (False, True):
        pool = torch.nn.MaxPool2d((1, kernel), (1, stride), (0, padding), ceil_mode=ceil_mode)
        ran = pool(torch.zeros(1, 1, 1, size)).shape[-1]
        expected = pooled_size(size, kernel, stride, padding, ceil_mode)
        print(size, kernel, stride, padding, ceil_mode, ran, ran == expected)
        #> 5 2 2 0 False 2 True
        #> 5 2 2 0 True 3 True
        #> 6 2 3 0 False 2 True
        #> 6 2 3 0 True 2 True
        #> 5 3 2 1 False 3 True
        #> 5 3 2 1 True 3 True
        #> 7 3 2 0 False 3 True
        #> 7 3 2 0 True 3 True
        #> 5 2 2 1 False 3 True
        #> 5 2 2 1 True 3 True
# --8<-- [end:formula]

# --8<-- [start:last_window]
row = torch.arange(5.0).view(1, 1, 1, 5)
padded = torch.nn.functional.pad(row, (1, 1), value=float("-inf"))  # one padding element each side
print(padded[0, 0, 0])  # indices 0 to 6: the padding is at 0 and at 6
#> tensor([-inf, 0., 1., 2., 3., 4., -inf])
windows = math.ceil((5 + 2 * 1 - 2) / 2) + 1  # the rounding alone would give 4 windows
starts = [i * 2 for i in range(windows)]  # window i starts at index i * stride
print(windows, starts)
#> 4 [0, 2, 4, 6]
pool = torch.nn.MaxPool2d((1, 2), stride=(1, 2), padding=(0, 1), ceil_mode=True)
print(pool(row))  # the window starting at index 6 (right padding) is dropped: 3 windows
#> tensor([[[[0., 2., 4.]]]])
# --8<-- [end:last_window]

# --8<-- [start:kernel_too_large]
short = torch.randn(20, 16, 1)  # (batch, channels, length): one step per sequence
try:
    torch.nn.MaxPool1d(kernel_size=4, stride=1, ceil_mode=True)(short)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: max_pool1d() Invalid computed output size: -2
print(pooled_size(1, 4, 1, ceil_mode=True))  # ceil((1 - 4) / 1) + 1
#> -2
print(torch.nn.MaxPool1d(kernel_size=4, stride=4, ceil_mode=True)(short).shape)  # ceil(-3/4) + 1 = 1
#> torch.Size([20, 16, 1])
try:
    torch.nn.MaxPool1d(kernel_size=4, stride=4)(short)  # the same without ceil_mode
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: max_pool1d() Invalid computed output size: 0
largest = torch.nn.AdaptiveMaxPool1d(1)(short)  # one window over whatever length comes in
print(largest.shape, torch.equal(largest, short.amax(dim=-1, keepdim=True)))
#> torch.Size([20, 16, 1]) True
# --8<-- [end:kernel_too_large]
