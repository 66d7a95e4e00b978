"""uta.nn under torch.distributed: DistributedDataParallel over gloo with two
processes on CPU gives the gradients of one process on the whole batch (up
to the all-reduce's summation order: rel. 1e-6), and one replica per process
loads its own UTA device and kernels. The NCCL runs need GPUs (the GPU
machine; docs/python.md)."""
import os

import pytest

from conftest import import_torch

torch = import_torch()
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

FEATURES, BATCH = 8, 12


def _model():
    import uta
    torch.manual_seed(0)
    return torch.nn.Sequential(uta.nn.Layer(FEATURES, dims=3),
                               uta.nn.Layer(FEATURES, dims=3, use_fc=True))


def _data():
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(8, BATCH, FEATURES, generator=generator)
    target = torch.randn(8, BATCH, FEATURES, generator=generator)
    return x, target


def _loss(model, x, target):
    return ((model(x) - target) ** 2).mean()


def _rank_main(rank, world, init_file, out_dir):
    dist.init_process_group("gloo", init_method=f"file://{init_file}",
                            rank=rank, world_size=world)
    try:
        model = torch.nn.parallel.DistributedDataParallel(_model())
        x, target = _data()
        # Each rank its contiguous share of the batch (axis 1 of [8, B, F]).
        share = BATCH // world
        local = slice(rank * share, (rank + 1) * share)
        _loss(model, x[:, local], target[:, local]).backward()
        torch.save({name: p.grad for name, p in
                    model.module.named_parameters()},
                   os.path.join(out_dir, f"grads{rank}.pt"))
    finally:
        dist.destroy_process_group()


def test_ddp_over_gloo_matches_one_process(tmp_path):
    world = 2
    mp.start_processes(_rank_main, args=(world, str(tmp_path / "init"),
                                         str(tmp_path)),
                       nprocs=world, start_method="spawn")
    model = _model()
    x, target = _data()
    _loss(model, x, target).backward()
    expected = dict(model.named_parameters())
    for rank in range(world):
        grads = torch.load(tmp_path / f"grads{rank}.pt")
        assert grads.keys() == expected.keys()
        for name, grad in grads.items():
            want = expected[name].grad
            error = ((grad - want).norm() / want.norm()).item()
            assert error <= 1e-6, f"rank {rank} {name}: rel {error:.3g}"
