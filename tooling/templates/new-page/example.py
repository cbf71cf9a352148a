"""{{ title }}.

Run with `python {{ script }}`. The `#>` lines under each print are the output the
libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:example]
import torch

values = torch.arange(3)
print(values)
print(values.dtype)
# --8<-- [end:example]
