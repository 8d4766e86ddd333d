"""The NCCL stand-in seen from Python through ctypes (no torch), shared by
nccl_ctypes.py and nccl_native_thread.py. Needs DLRT_STANDIN_DIR."""
import ctypes
import os
import time


class UniqueId(ctypes.Structure):
    _fields_ = [("internal", ctypes.c_char * 128)]


def load_global():
    """The stand-in libraries loaded globally and the global scope to call
    them through, as a program linked with them would: a preloaded
    definition comes first."""
    lib = os.environ["DLRT_STANDIN_DIR"]
    for name in ("libcudart.so.13", "libnccl.so.2"):
        ctypes.CDLL(os.path.join(lib, name), mode=ctypes.RTLD_GLOBAL)
    return ctypes.CDLL(None)


def exchange_id(nccl, rank, path):
    """Rank 0's unique id, handed to the others through a file."""
    uid = UniqueId()
    if rank == 0:
        nccl.ncclGetUniqueId(ctypes.byref(uid))
        with open(path + ".tmp", "wb") as out:
            out.write(bytes(uid))
        os.rename(path + ".tmp", path)
    else:
        while not os.path.exists(path):
            time.sleep(0.01)
        with open(path, "rb") as src:
            ctypes.memmove(ctypes.byref(uid), src.read(), ctypes.sizeof(uid))
    return uid
