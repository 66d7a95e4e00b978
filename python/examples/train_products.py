"""Training an equivariant model in Cl(3,0) with uta.nn and torch.optim.

The task: from two vectors a and b (grade-1 multivectors, one feature
channel each), predict their geometric product ab = a.b + a^b (a scalar and
a bivector). Rotating a and b rotates ab, so an equivariant model can learn
it exactly; a plain MLP could not. The model is two Flash Clifford layers
(uta.nn.Layer: grade-wise linear, GELU-gated weighted geometric product,
here without the grade RMS norm) and a grade-wise linear read-out, trained with Adam on
random vectors; it stops once the mean squared error is below --target
(relative to the targets' mean square), and exits 1 if --steps run out first.

    python3 train_products.py                     # cuda if there, else CPU
    python3 train_products.py --device=cpu --batch=64 --features=8 --steps=300
    python3 train_products.py --compile           # under torch.compile

On CPU the layers run on Vulkan (lavapipe) where it opens, else on the float64
reference interpreter.
"""
import argparse
import sys
import time

import torch

import uta

BLADES = 8  # 1, e1, e2, e3, e12, e13, e23, e123


def vectors(batch, generator, device):
    """Random vectors as [8, batch] multivectors (grade 1 only), and their
    3 components."""
    v = torch.randn(3, batch, generator=generator).to(device)
    mv = torch.zeros(BLADES, batch, device=device)
    mv[1:4] = v
    return mv, v


def geometric_product_of_vectors(a, b):
    """ab for vectors a, b ([3, batch]): the scalar a.b and the bivector
    a^b on e12, e13, e23."""
    out = torch.zeros(BLADES, a.shape[1], device=a.device)
    out[0] = (a * b).sum(0)
    out[4] = a[0] * b[1] - a[1] * b[0]
    out[5] = a[0] * b[2] - a[2] * b[0]
    out[6] = a[1] * b[2] - a[2] * b[1]
    return out


class ProductModel(torch.nn.Module):
    def __init__(self, features):
        super().__init__()
        algebra = uta.Algebra(3, 0)
        self.embed = uta.nn.MultivectorLinear(2, features, algebra, bias=False)
        # Unnormalised: the grade RMS norm would divide away |a| |b|, which
        # the target carries.
        self.layers = torch.nn.Sequential(
            uta.nn.Layer(features, dims=3, normalize=False),
            uta.nn.Layer(features, dims=3, normalize=False))
        self.read = uta.nn.MultivectorLinear(features, 1, algebra, bias=False)

    def forward(self, x):
        h = self.embed(x)
        return self.read(h + self.layers(h))[..., 0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda" if
                        torch.cuda.is_available() else "cpu")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--features", type=int, default=32)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--target", type=float, default=0.05,
                        help="relative mean squared error to reach")
    parser.add_argument("--compile", action="store_true")
    args = parser.parse_args()
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(1)
    model = ProductModel(args.features).to(args.device)
    step_fn = torch.compile(model, fullgraph=True) if args.compile else model
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    start = time.perf_counter()
    for step in range(1, args.steps + 1):
        a_mv, a = vectors(args.batch, generator, args.device)
        b_mv, b = vectors(args.batch, generator, args.device)
        target = geometric_product_of_vectors(a, b)
        x = torch.stack([a_mv, b_mv], -1)  # [8, batch, 2 channels]
        optimizer.zero_grad()
        loss = ((step_fn(x) - target) ** 2).mean() / (target ** 2).mean()
        loss.backward()
        optimizer.step()
        if step % 50 == 0 or loss.item() < args.target:
            print(f"step {step}: relative mse {loss.item():.4f} "
                  f"({time.perf_counter() - start:.1f} s)", flush=True)
        if loss.item() < args.target:
            print(f"reached {args.target} at step {step}: ok")
            return 0
    print(f"relative mse {loss.item():.4f} after {args.steps} steps, above "
          f"{args.target}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
