"""Two ranks calling the NCCL stand-in through ctypes (no torch), for the
CPython version matrix of Python call-sites (python_e2e.py --case versions):
rank 0 all-reduces 4 floats at one line, rank 1 8 floats at another.

Needs DLRT_STANDIN_DIR (the stand-in libraries) and NCCL_ID_FILE; RANK and
WORLD_SIZE come from distlint-rt run.
"""
import ctypes
import os

from nccl_standin import exchange_id, load_global


def main():
    cudart = nccl = load_global()
    rank, size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    uid = exchange_id(nccl, rank, os.environ["NCCL_ID_FILE"])
    comm, stream = ctypes.c_void_p(), ctypes.c_void_p()
    assert nccl.ncclCommInitRank(ctypes.byref(comm), size, uid, rank) == 0
    cudart.cudaStreamCreate(ctypes.byref(stream))
    buf = ctypes.c_void_p()
    cudart.cudaMalloc(ctypes.byref(buf), ctypes.c_size_t(32))
    # ncclAllReduce(send, recv, count, ncclFloat32 = 7, ncclSum = 0, comm, stream)
    if rank == 0:
        nccl.ncclAllReduce(buf, buf, ctypes.c_size_t(4), 7, 0, comm, stream)  # <- rank 0
    else:
        nccl.ncclAllReduce(buf, buf, ctypes.c_size_t(8), 7, 0, comm, stream)  # <- rank 1
    cudart.cudaStreamSynchronize(stream)


if __name__ == "__main__":
    main()
