"""A collective from a native thread without Python frames, attributed to the
Python line that set it to work (python_e2e.py --case native-thread).

The startup hook publishes the line of a running backward() through
libdistlint-rt.so's dlrt_python_backward; this program does the same by hand
(no torch needed) around a call that all-reduces on a new native thread
through the NCCL stand-in: 4 floats on rank 0, 8 on rank 1.
Needs DLRT_STANDIN_DIR, DLRT_NATIVE_THREAD_LIB and NCCL_ID_FILE.
"""
import ctypes
import os
import sys

from nccl_standin import exchange_id, load_global


def main():
    glob = load_global()
    helper = ctypes.CDLL(os.environ["DLRT_NATIVE_THREAD_LIB"])
    glob.dlrt_python_site.restype = ctypes.c_uint64
    glob.dlrt_python_site.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    glob.dlrt_python_backward.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
    rank, size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    uid = exchange_id(glob, rank, os.environ["NCCL_ID_FILE"])
    comm, stream, buf = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    assert glob.ncclCommInitRank(ctypes.byref(comm), size, uid, rank) == 0
    glob.cudaStreamCreate(ctypes.byref(stream))
    glob.cudaMalloc(ctypes.byref(buf), ctypes.c_size_t(32))
    here = os.path.abspath(__file__).encode()
    line = sys._getframe().f_lineno + 3  # the call below, as the hook would publish it
    glob.dlrt_python_backward(glob.dlrt_python_site(here, b"main", line, 0),
                              glob.dlrt_python_site(here, b"main", line, 1))
    helper.allreduce_on_native_thread(buf, ctypes.c_size_t(4 if rank == 0 else 8), comm, stream)  # <- both
    glob.dlrt_python_backward(0, 0)
    glob.cudaStreamSynchronize(stream)


if __name__ == "__main__":
    main()
