"""distlint-rt's startup hook for Python jobs (issue 27).

`distlint-rt run` puts this directory first on PYTHONPATH (with torchrun, do
it yourself: see runtime-check/README.md). It does nothing unless
libdistlint-rt.so is preloaded, never edits the user's files and then runs
the sitecustomize it hides, if any. Once torch is imported it reports,
through the library and into the rank's trace:

- a DistributedSampler (shuffle=True) iterated again with an epoch it
  already had: set_epoch() missing or not changing, at the line of the `for`
  over the loader;
- init_process_group / new_group without an explicit timeout, with the
  default that applies in this torch for that backend;
- Tensor.item(), Tensor.cpu() and torch.cuda.synchronize() counted per line,
  and backward() calls (the training steps) per line; the line of the
  running backward() is what collectives of LibTorch threads without Python
  frames are attributed to.

The call-site of each is the innermost frame outside torch, the standard
library and this file.
"""
import os
import sys


def _library():
    try:
        import ctypes
        lib = ctypes.CDLL(None)
        site = lib.dlrt_python_site
    except (OSError, AttributeError, ImportError):
        return None
    site.restype = ctypes.c_uint64
    site.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    lib.dlrt_python_library_dir.restype = None
    lib.dlrt_python_library_dir.argtypes = [ctypes.c_char_p]
    lib.dlrt_python_count.restype = None
    lib.dlrt_python_count.argtypes = [ctypes.c_int, ctypes.c_uint64]
    lib.dlrt_python_backward.restype = None
    lib.dlrt_python_backward.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
    lib.dlrt_python_check.restype = None
    lib.dlrt_python_check.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_uint64,
                                      ctypes.c_longlong, ctypes.c_int, ctypes.c_int]
    return lib


# Event and check codes of libdistlint-rt.so (lib/PythonEvents.cpp).
ITEM, CPU, CUDA_SYNC, BACKWARD, SAMPLER_ITER, INIT_PROCESS_GROUP, NEW_GROUP = range(1, 8)
SAMPLER_EPOCH_REPEATED, NO_TIMEOUT = 1, 2
BACKENDS = ("gloo", "nccl", "mpi", "ucc")

_HERE = os.path.dirname(os.path.abspath(__file__))
_STDLIB = os.path.dirname(os.__file__)


_TORCH_DIRS = []  # torch's package directory, once imported


def _is_library(filename):
    if filename.startswith("<") or filename.startswith(_HERE):
        return True
    if "-packages" + os.sep + "torch" + os.sep in filename or any(
            filename.startswith(d) for d in _TORCH_DIRS):
        return True
    return filename.startswith(_STDLIB) and "-packages" not in filename


class _Sites:
    """Python lines as the library's frames, cached per (code, line)."""

    def __init__(self, lib):
        self.lib = lib
        self.library_code = {}
        self.frames = {}
        self.torch_version = 0  # major * 100 + minor, once torch is imported

    def user_site(self, depth=2, for_threads=False):
        """The innermost user line; for_threads: its form for LibTorch threads."""
        frame = sys._getframe(depth)
        while frame is not None:
            code = frame.f_code
            lib = self.library_code.get(code)
            if lib is None:
                lib = self.library_code[code] = _is_library(code.co_filename)
            if not lib:
                key = (code, frame.f_lineno, for_threads)
                site = self.frames.get(key)
                if site is None:
                    site = self.lib.dlrt_python_site(code.co_filename.encode(),
                                                     code.co_name.encode(), frame.f_lineno,
                                                     int(for_threads))
                    self.frames[key] = site
                return site
            frame = frame.f_back
        return 0


def _wrap(owner, name, make):
    real = getattr(owner, name, None)
    if real is None or getattr(real, "__distlint_rt__", False):
        return
    wrapper = make(real)
    wrapper.__distlint_rt__ = True
    for attr in ("__name__", "__qualname__", "__doc__", "__module__"):
        try:
            setattr(wrapper, attr, getattr(real, attr))
        except (AttributeError, TypeError):
            pass
    setattr(owner, name, wrapper)


def _counting(sites, event):
    def make(real):
        def counted(*args, **kwargs):
            sites.lib.dlrt_python_count(event, sites.user_site())
            return real(*args, **kwargs)
        return counted
    return make


def _patch_torch(sites, torch):
    lib = sites.lib
    torch_dir = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    _TORCH_DIRS.append(torch_dir)
    sites.library_code.clear()
    lib.dlrt_python_library_dir(torch_dir.encode())
    try:
        major, minor = torch.__version__.split(".")[:2]
        sites.torch_version = int(major) * 100 + int(minor)
    except (AttributeError, ValueError):
        pass
    _wrap(torch.Tensor, "item", _counting(sites, ITEM))
    _wrap(torch.Tensor, "cpu", _counting(sites, CPU))
    if hasattr(torch, "cuda"):
        _wrap(torch.cuda, "synchronize", _counting(sites, CUDA_SYNC))

    def make_backward(real):
        def backward(*args, **kwargs):
            lib.dlrt_python_backward(sites.user_site(), sites.user_site(for_threads=True))
            try:
                return real(*args, **kwargs)
            finally:
                lib.dlrt_python_backward(0, 0)
        return backward
    _wrap(torch.autograd, "backward", make_backward)


def _default_timeout(c10d, real, backend):
    """The timeout a group gets when none is given, in seconds."""
    import inspect
    default = inspect.signature(real).parameters["timeout"].default
    constants = getattr(c10d, "constants", None) or __import__(
        "torch.distributed.constants", fromlist=["x"])
    if default is None or default is inspect.Parameter.empty:
        nccl = getattr(constants, "default_pg_nccl_timeout", None)
        default = nccl if backend == "nccl" and nccl is not None else constants.default_pg_timeout
    return int(default.total_seconds())


def _backend_code(backend):
    name = str(backend).lower() if backend is not None else ""
    return BACKENDS.index(name) if name in BACKENDS else -1


def _patch_c10d(sites, c10d):
    lib = sites.lib

    def make(event, timeout_position, backend_of):
        def wrap(real):
            def create(*args, **kwargs):
                if "timeout" not in kwargs and len(args) <= timeout_position:
                    try:
                        backend = backend_of(args, kwargs)
                        seconds = _default_timeout(c10d, real, str(backend).lower())
                        lib.dlrt_python_check(NO_TIMEOUT, event, sites.user_site(), seconds,
                                              _backend_code(backend), sites.torch_version)
                    except Exception:  # never break the job for a report
                        pass
                return real(*args, **kwargs)
            return create
        return wrap

    def init_backend(args, kwargs):
        return kwargs.get("backend", args[0] if args else None)

    def group_backend(args, kwargs):
        backend = kwargs.get("backend", args[2] if len(args) > 2 else None)
        if backend is None and c10d.is_initialized():
            backend = c10d.get_backend()
        return backend

    # init_process_group(backend, init_method, timeout, ...);
    # new_group(ranks, timeout, backend, ...).
    _wrap(c10d, "init_process_group", make(INIT_PROCESS_GROUP, 2, init_backend))
    _wrap(c10d, "new_group", make(NEW_GROUP, 1, group_backend))


def _patch_sampler(sites, module):
    lib = sites.lib
    sampler = getattr(module, "DistributedSampler", None)
    if sampler is None:
        return

    def make(real):
        def iterate(self):
            if getattr(self, "shuffle", False):
                epoch = int(getattr(self, "epoch", 0))
                seen = self.__dict__.setdefault("_distlint_rt_epochs", set())
                if epoch in seen and not self.__dict__.get("_distlint_rt_reported"):
                    self._distlint_rt_reported = True
                    lib.dlrt_python_check(SAMPLER_EPOCH_REPEATED, SAMPLER_ITER,
                                          sites.user_site(), epoch, -1, sites.torch_version)
                seen.add(epoch)
            return real(self)
        return iterate
    _wrap(sampler, "__iter__", make)


class _AfterImport:
    """Patches modules once they are imported (torch is not imported here)."""

    def __init__(self, patches):
        self.patches = patches
        self.busy = set()

    def find_spec(self, name, path=None, target=None):
        if name not in self.patches or name in self.busy:
            return None
        import importlib.util
        self.busy.add(name)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self.busy.discard(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        patch, loader = self.patches[name], spec.loader
        real_exec = loader.exec_module

        def exec_module(module):
            real_exec(module)
            try:
                patch(module)
            except Exception as e:  # a report, never a failure of the job
                sys.stderr.write(f"distlint-rt: Python startup hook: {name}: {e}\n")
        loader.exec_module = exec_module
        return spec


def _install():
    if os.environ.get("DISTLINT_RT_PYTHON_HOOK", "1") == "0":
        return
    lib = _library()
    if lib is None:
        return
    sites = _Sites(lib)
    patches = {
        "torch": lambda m: _patch_torch(sites, m),
        "torch.distributed.distributed_c10d": lambda m: _patch_c10d(sites, m),
        "torch.utils.data.distributed": lambda m: _patch_sampler(sites, m),
    }
    for name, patch in patches.items():  # imported already (a parent hook)
        if name in sys.modules:
            patch(sys.modules[name])
    sys.meta_path.insert(0, _AfterImport(patches))


def _chain():
    """Runs the sitecustomize this one hides on sys.path, if any."""
    import importlib.machinery
    import importlib.util
    for entry in sys.path:
        if os.path.abspath(entry or os.curdir) == _HERE:
            continue
        spec = importlib.machinery.PathFinder.find_spec("sitecustomize", [entry])
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = module
        spec.loader.exec_module(module)
        return


_install()
_chain()
