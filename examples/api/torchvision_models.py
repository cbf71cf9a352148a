"""torchvision.models: constructors, weights= instead of pretrained=, and counting parameters.

Run with `python examples/api/torchvision_models.py`. Nothing is downloaded: every
model is built with weights=None (random initial weights). The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

# --8<-- [start:constructors]
import inspect

import torch
from torchvision import models

print(inspect.signature(models.resnet18).parameters["weights"].default)
#> None
resnet18 = models.resnet18()  # weights=None: random weights, no download
alexnet = models.alexnet()
squeezenet = models.squeezenet1_0()
densenet161 = models.densenet161()
print(hasattr(models, "densenet_161"))  # the name has no underscore before 161
#> False
print(len(models.list_models()), [name for name in models.list_models() if "densenet" in name])
#> 121 ['densenet121', 'densenet161', 'densenet169', 'densenet201']
print({task: len(models.list_models(module=getattr(models, task))) for task in ("detection", "segmentation", "video")})
#> {'detection': 12, 'segmentation': 6, 'video': 9}
# --8<-- [end:constructors]


# --8<-- [start:parameters]
def count_parameters(model: torch.nn.Module) -> int:
    """Number of scalar values in the model's parameters (its buffers not included)."""
    return sum(parameter.numel() for parameter in model.parameters())


for name, model in [
    ("resnet18", resnet18),
    ("alexnet", alexnet),
    ("squeezenet1_0", squeezenet),
    ("densenet161", densenet161),
]:
    print(f"{name:<14} {count_parameters(model):>11,}")
    #> resnet18        11,689,512
    #> alexnet         61,100,840
    #> squeezenet1_0    1,248,424
    #> densenet161     28,681,000
# --8<-- [end:parameters]

# --8<-- [start:weights]
weights = models.ResNet18_Weights.DEFAULT  # an enum member; describing it downloads nothing
print(weights, weights.meta["num_params"] == count_parameters(resnet18))
#> ResNet18_Weights.IMAGENET1K_V1 True
print(len(weights.meta["categories"]), weights.meta["categories"][:3])
#> 1000 ['tench', 'goldfish', 'great white shark']
print(weights.meta["_metrics"], weights.meta["recipe"])  # accuracy, and how they were trained
"""
{'ImageNet-1K': {'acc@1': 69.758, 'acc@5': 89.078}} https://github.com/pytorch/vision/tree/main/references/classification#resnet
"""
preprocess = weights.transforms()  # the preprocessing these weights were trained with
print(preprocess)
"""
ImageClassification(
    crop_size=[224]
    resize_size=[256]
    mean=[0.485, 0.456, 0.406]
    std=[0.229, 0.224, 0.225]
    interpolation=InterpolationMode.BILINEAR
)
"""
photo = torch.randint(0, 256, (3, 300, 400), dtype=torch.uint8)  # stands in for a decoded file
print(preprocess(photo).shape, preprocess(photo).dtype)  # resize 256, crop 224, normalise
#> torch.Size([3, 224, 224]) torch.float32
print(models.get_model_weights("resnet18") is models.ResNet18_Weights)
#> True
print(models.ResNet50_Weights.DEFAULT)  # DEFAULT is not always the first weights (V1)
#> ResNet50_Weights.IMAGENET1K_V2
print(weights.url)  # the file models.resnet18(weights=weights) would download, then cache
#> https://download.pytorch.org/models/resnet18-f37072fd.pth
# --8<-- [end:weights]

# --8<-- [start:pretrained]
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    models.resnet18(pretrained=False)  # the pre-0.13 spelling still runs, with warnings
print("\n".join(f"{w.category.__name__}: {w.message}" for w in caught))
"""
UserWarning: The parameter 'pretrained' is deprecated since 0.13 and may be removed in the future, please use 'weights' instead.
UserWarning: Arguments other than a weight enum or `None` for 'weights' are deprecated since 0.13 and may be removed in the future. The current behavior is equivalent to passing `weights=None`.
"""


def pretrained_true_warning(constructor, **kwargs) -> str:
    """The second warning of `constructor(pretrained=True, **kwargs)`: what it stands for.

    kwargs must make the constructor fail before any download: num_classes does.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            constructor(pretrained=True, **kwargs)
        except ValueError:  # pretrained weights fix num_classes: checked before downloading
            pass
    return str(caught[-1].message)


print(pretrained_true_warning(models.resnet50, num_classes=10))
"""
Arguments other than a weight enum or `None` for 'weights' are deprecated since 0.13 and may be removed in the future. The current behavior is equivalent to passing `weights=ResNet50_Weights.IMAGENET1K_V1`. You can also use `weights=ResNet50_Weights.DEFAULT` to get the most up-to-date weights.
"""
for constructor in (models.detection.fasterrcnn_resnet50_fpn, models.video.r3d_18):
    print(pretrained_true_warning(constructor, num_classes=3) .split("passing `weights=")[1] .split("`")[0])
    #> FasterRCNN_ResNet50_FPN_Weights.COCO_V1
    #> R3D_18_Weights.KINETICS400_V1
# --8<-- [end:pretrained]

# --8<-- [start:get_model]
ten_classes = models.get_model("resnet18", weights=None, num_classes=10)  # by name
print(ten_classes.fc)
#> Linear(in_features=512, out_features=10, bias=True)
try:  # checked before any download: pretrained weights fix the number of classes
    models.resnet18(weights=models.ResNet18_Weights.DEFAULT, num_classes=10)
except ValueError as err:
    print(err)
    #> The parameter 'num_classes' expected value 1000 but got 10 instead.
resnet18.eval()
with torch.no_grad():
    print(resnet18(torch.rand(2, 3, 224, 224)).shape)  # a batch of 2 images -> 1000 logits
    #> torch.Size([2, 1000])
resnet18.fc = torch.nn.Linear(resnet18.fc.in_features, 10)  # a new last layer: 10 classes
with torch.no_grad():
    print(resnet18(torch.rand(2, 3, 224, 224)).shape)
    #> torch.Size([2, 10])
# --8<-- [end:get_model]

# --8<-- [start:input_size]
print(resnet18.avgpool)  # averages each feature map to 1 x 1, whatever the image size
#> AdaptiveAvgPool2d(output_size=(1, 1))
features = torch.nn.Sequential(*list(resnet18.children())[:-2])  # every layer before avgpool
with torch.no_grad():
    for height, width in [(224, 224), (320, 1088)]:  # the training size, and another
        image = torch.rand(1, 3, height, width)
        print(features(image).shape, resnet18(image).shape)
        #> torch.Size([1, 512, 7, 7]) torch.Size([1, 10])
        #> torch.Size([1, 512, 10, 34]) torch.Size([1, 10])
vit = models.vit_b_16(weights=None).eval()  # a vision transformer: a fixed size
try:
    vit(torch.rand(1, 3, 320, 1088))
except AssertionError as err:
    print(f"{type(err).__name__}: {err}")
    #> AssertionError: Wrong image height! Expected 224 but got 320!
# --8<-- [end:input_size]

# --8<-- [start:intermediate_features]
from torchvision.models.feature_extraction import create_feature_extractor

resnet18.eval()
image = torch.rand(1, 3, 64, 64)
print(resnet18(image).shape)  # forward returns the last layer's output only
#> torch.Size([1, 10])

# A forward hook keeps a middle layer's output as a side effect of the usual call.
activations = {}
handle = resnet18.layer3.register_forward_hook(lambda module, inputs, output: activations.update(layer3=output))
with torch.no_grad():
    logits = resnet18(image)
handle.remove()  # stop recording
print(activations["layer3"].shape, logits.shape)
#> torch.Size([1, 256, 4, 4]) torch.Size([1, 10])

# Or ask torchvision for a model that returns the named layers (names as in named_modules()).
extractor = create_feature_extractor(resnet18, return_nodes={"layer2": "mid", "layer3": "deep"})
with torch.no_grad():
    features = extractor(image)
print({name: tuple(value.shape) for name, value in features.items()})
#> {'mid': (1, 128, 8, 8), 'deep': (1, 256, 4, 4)}
print(torch.equal(features["deep"], activations["layer3"]))
#> True
# --8<-- [end:intermediate_features]
